/*
 * allocs: known heap allocations per function, for fgrecord --alloc
 * (t330). Each f_* function allocates a known number of blocks of known
 * sizes through one allocation call; f_leak keeps its blocks. The truth,
 * "FUNCTION EVENT VALUE" for the four events, is written to the file
 * named first (counted as the program runs, so that it is what happened,
 * not what the test expects).
 *
 *	allocs TRUTH [exit | _exit | kill | threads | fork | exec | exec2]
 *
 * _exit makes f_small's and f_leak's allocations only, kill f_memalign's
 * and f_leak's; exit and exec2 every function's.
 *
 * Prints "done" and exits 3 (or _exit 3, or is killed by SIGKILL).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct truth {
	const char *fn;
	unsigned long long bytes, objects, live_bytes, live_objects;
};

enum { SMALL, CALLOC, REALLOC, MEMALIGN, LARGE, LEAK, CHILD, NFN };
static struct truth t[NFN] = {
	{ "f_small" }, { "f_calloc" }, { "f_realloc" }, { "f_memalign" },
	{ "f_large" }, { "f_leak" }, { "f_child" },
};
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static void *volatile sink;
static void *leaked[1000];

static void
count(int fn, unsigned long long bytes, unsigned long long n)
{
	pthread_mutex_lock(&mu);
	t[fn].bytes += bytes;
	t[fn].objects += n;
	pthread_mutex_unlock(&mu);
}

static __attribute__((noinline, noipa)) void
f_small(int n)
{
	for (int i = 0; i < n; i++) {
		char *p = malloc(48);

		p[0] = 1;
		sink = p;
		free(p);
	}
	count(SMALL, 48ULL * n, n);
}

static __attribute__((noinline, noipa)) void
f_calloc(int n)
{
	for (int i = 0; i < n; i++) {
		sink = calloc(16, 10);
		free(sink);
	}
	count(CALLOC, 160ULL * n, n);
}

/* chains of realloc, 4 KiB doubling to 64 KiB: each one an allocation */
static __attribute__((noinline, noipa)) void
f_realloc(int n)
{
	for (int i = 0; i < n; i++) {
		char *p = NULL;

		for (size_t s = 4096; s <= 65536; s *= 2) {
			p = realloc(p, s);
			p[s - 1] = 1;
			count(REALLOC, s, 1);
		}
		free(p);
	}
}

static __attribute__((noinline, noipa)) void
f_memalign(int n)
{
	for (int i = 0; i < n; i++) {
		void *p;

		if (posix_memalign(&p, 64, 1000) != 0)
			abort();
		sink = p;
		free(p);
	}
	count(MEMALIGN, 1000ULL * n, n);
}

static __attribute__((noinline, noipa)) void
f_large(int n)
{
	for (int i = 0; i < n; i++) {
		sink = malloc(300000);
		free(sink);
	}
	count(LARGE, 300000ULL * n, n);
}

static __attribute__((noinline, noipa)) void
f_leak(int n)
{
	for (int i = 0; i < n; i++) {
		leaked[i] = malloc(100000);
		memset(leaked[i], 1, 64);
	}
	count(LEAK, 100000ULL * n, n);
	t[LEAK].live_bytes += 100000ULL * n;
	t[LEAK].live_objects += n;
}

static __attribute__((noinline, noipa)) void
f_child(int n)
{
	for (int i = 0; i < n; i++)
		sink = malloc(50000);	/* kept */
	count(CHILD, 50000ULL * n, n);
	t[CHILD].live_bytes += 50000ULL * n;
	t[CHILD].live_objects += n;
}

static void *
worker(void *arg)
{
	(void)arg;
	f_small(500000);
	f_memalign(25000);
	return NULL;
}

static void
write_truth(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	for (int i = 0; i < NFN; i++) {
		if (t[i].objects == 0)
			continue;
		fprintf(f, "%s alloc-bytes %llu\n", t[i].fn, t[i].bytes);
		fprintf(f, "%s alloc-objects %llu\n", t[i].fn, t[i].objects);
		fprintf(f, "%s inuse-bytes %llu\n", t[i].fn, t[i].live_bytes);
		fprintf(f, "%s inuse-objects %llu\n", t[i].fn, t[i].live_objects);
	}
	fclose(f);
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[2] : "exit";

	if (argc < 2) {
		fprintf(stderr, "usage: allocs TRUTH [mode]\n");
		return 2;
	}
	if (strcmp(mode, "threads") == 0) {
		pthread_t th[4];

		for (int i = 0; i < 4; i++)
			pthread_create(&th[i], NULL, worker, NULL);
		for (int i = 0; i < 4; i++)
			pthread_join(th[i], NULL);
		f_leak(1000);
	} else if (strcmp(mode, "fork") == 0) {
		pid_t pid;
		int st;

		f_leak(1000);
		write_truth(argv[1], "w");
		memset(t, 0, sizeof(t[0]) * 0);
		fflush(stdout);
		if ((pid = fork()) == 0) {
			/* the child frees its copy of the parent's blocks */
			for (int i = 0; i < 1000; i++)
				free(leaked[i]);
			f_child(1000);
			printf("child %d\n", (int)getpid());
			fflush(stdout);
			_exit(0);
		}
		waitpid(pid, &st, 0);
		printf("done\n");
		return 3;
	} else if (strcmp(mode, "exec") == 0) {
		/* blocks left in this image go with it at the exec */
		f_leak(1000);
		fflush(stdout);
		execl("/proc/self/exe", "allocs", argv[1], "exec2", (char *)NULL);
		perror("exec");
		return 1;
	} else if (strcmp(mode, "_exit") == 0) {
		f_small(4000000);	/* the ends test two functions only */
		f_leak(1000);
	} else if (strcmp(mode, "kill") == 0) {
		f_memalign(200000);
		f_leak(1000);
	} else {
		f_small(4000000);
		f_calloc(1250000);
		f_realloc(2000);
		f_memalign(200000);
		f_large(200);
		f_leak(1000);
	}
	if (strcmp(mode, "exec2") == 0)
		f_child(1000);
	write_truth(argv[1], "w");
	printf("done\n");
	fflush(stdout);
	if (strcmp(mode, "_exit") == 0)
		_exit(3);
	if (strcmp(mode, "kill") == 0)
		raise(SIGKILL);
	return 3;
}
