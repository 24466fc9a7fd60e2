/*
 * fds [SECONDS [PIDFILE]]: writes its pid to PIDFILE, lists on stderr every
 * open file descriptor above 2 ("fd N -> TARGET"), then spins for SECONDS
 * (default 0.3), says "fds done" and exits 0. With SECONDS below 0 it
 * spins until killed.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3, end;
	volatile unsigned long x = 0;
	struct dirent *d;
	DIR *dir;
	int self;

	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");

		if (f == NULL)
			return 2;
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	if ((dir = opendir("/proc/self/fd")) == NULL)
		return 2;
	self = dirfd(dir);
	while ((d = readdir(dir)) != NULL) {
		char path[64], target[512];
		ssize_t n;
		int fd = atoi(d->d_name);

		if (d->d_name[0] == '.' || fd <= 2 || fd == self)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if ((n = readlink(path, target, sizeof(target) - 1)) < 0)
			n = 0;
		target[n] = '\0';
		fprintf(stderr, "fd %d -> %s\n", fd, target);
	}
	closedir(dir);
	fprintf(stderr, "fds listed\n");
	end = now() + secs;
	while (secs < 0 || now() < end)
		x++;
	fprintf(stderr, "fds done\n");
	return 0;
}
