/*
 * allocdl: fgrecord --alloc on code loaded by dlopen after the start
 * (t330): zlib's deflateInit_ allocates its window and tables, 200 times.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
int main(void) {
	void *h = dlopen("libz.so.1", RTLD_NOW);
	int (*init)(z_streamp, int, const char *, int);
	int (*end)(z_streamp);
	if (!h) { puts(dlerror()); return 1; }
	init = (int (*)(z_streamp, int, const char *, int))dlsym(h, "deflateInit_");
	end = (int (*)(z_streamp))dlsym(h, "deflateEnd");
	for (int i = 0; i < 200; i++) {
		z_stream z;
		memset(&z, 0, sizeof(z));
		if (init(&z, 6, ZLIB_VERSION, (int)sizeof(z)) != Z_OK) return 1;
		end(&z);
	}
	puts("ok");
	return 0;
}
