/*
 * libswap LIB SECONDS TARGET [late]: loads the shared library LIB, then
 * puts symbolic links to TARGET where LIB was and at "LIB (deleted)",
 * the name /proc/PID/maps shows once LIB is gone; then spins in the
 * library for SECONDS of CPU time. TARGET is what a profiler running as
 * root must never open because this program named it: a FIFO, a device
 * node, another user's file. With "late" it sleeps a second first, so
 * that a profiler attached with -p sees the swap happen.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	void (*spin)(double);
	char deleted[4096];
	void *h;

	if (argc < 4)
		return 2;
	if (argc > 4 && strcmp(argv[4], "late") == 0)
		usleep(1000000);
	if ((h = dlopen(argv[1], RTLD_NOW)) == NULL) {
		fprintf(stderr, "libswap: %s\n", dlerror());
		return 2;
	}
	*(void **)&spin = dlsym(h, "spinlib_spin");
	snprintf(deleted, sizeof(deleted), "%s (deleted)", argv[1]);
	if (spin == NULL || unlink(argv[1]) != 0 ||
	    symlink(argv[3], argv[1]) != 0 || symlink(argv[3], deleted) != 0)
		return 2;
	spin(atof(argv[2]));
	return 0;
}
