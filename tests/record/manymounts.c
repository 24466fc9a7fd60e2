/*
 * manymounts N M SECONDS: in a mount namespace of its own (run it under
 * unshare -m), makes N tmpfs mounts under a tmpfs it mounts on ./mnt,
 * copies itself there and maps that copy M times with PROT_EXEC (M
 * mappings apart from each other), then spins for SECONDS of CPU time:
 * what made fgrecord read the mount tables again for every mapping.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	int n, m, i, in, out;
	double secs, t0;
	static char buf[65536];
	char p[64];
	ssize_t r;
	long pg = sysconf(_SC_PAGESIZE);

	if (argc != 4)
		return 2;
	n = atoi(argv[1]);
	m = atoi(argv[2]);
	secs = atof(argv[3]);
	if (mount("t", "mnt", "tmpfs", 0, NULL) != 0) {
		perror("mount mnt");
		return 1;
	}
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "mnt/d%d", i);
		if (mkdir(p, 0700) != 0 || mount("t", p, "tmpfs", 0, NULL) != 0) {
			perror(p);
			return 1;
		}
	}
	if ((in = open("/proc/self/exe", O_RDONLY)) < 0 ||
	    (out = open("mnt/copy", O_WRONLY | O_CREAT, 0700)) < 0)
		return 1;
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r)
			return 1;
	close(out);
	close(in);
	if ((in = open("mnt/copy", O_RDONLY)) < 0)
		return 1;
	for (i = 0; i < m; i++) {
		/* a page of room between two: each its own mapping */
		char *a = mmap(NULL, 2 * pg, PROT_NONE, MAP_PRIVATE |
		    MAP_ANONYMOUS, -1, 0);

		if (a == MAP_FAILED || mmap(a, pg, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE | MAP_FIXED, in, 0) == MAP_FAILED)
			return 1;
		munmap(a + pg, pg);
	}
	for (t0 = cpu_now(); cpu_now() - t0 < secs;)
		for (i = 0; i < 100000; i++)
			sink += (unsigned long)i * i;
	printf("%d mounts, %d mappings\n", n, m);
	return 0;
}
