/*
 * fifoswap LIB SECONDS [dir|late]: loads the shared library LIB, puts a
 * FIFO (with "dir", a directory) where LIB was, then spins in the library
 * for SECONDS of CPU time. With "late" it first sleeps a second, so that a
 * profiler attached with -p sees the library's mapping happen. A profiler that opens the mapped files by path
 * must not block on the FIFO.
 */
#include <sys/stat.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	void (*spin)(double);
	void *h;

	if (argc < 3)
		return 2;
	if (argc > 3 && strcmp(argv[3], "late") == 0)
		usleep(1000000);
	if ((h = dlopen(argv[1], RTLD_NOW)) == NULL) {
		fprintf(stderr, "fifoswap: %s\n", dlerror());
		return 2;
	}
	*(void **)&spin = dlsym(h, "spinlib_spin");
	if (spin == NULL || unlink(argv[1]) != 0)
		return 2;
	if (argc > 3 && strcmp(argv[3], "dir") == 0 ? mkdir(argv[1], 0700) != 0 :
	    mkfifo(argv[1], 0600) != 0)
		return 2;
	spin(atof(argv[2]));
	return 0;
}
