/*
 * uallocs: known heap allocations per function, few enough calls for
 * fgrecord --alloc through uprobes (t332), where every call traps: each
 * f_* function allocates about 100 MB in blocks of one size through one
 * allocation call, f_leak keeps its blocks. The truth, "FUNCTION EVENT
 * VALUE" for the four events, is written to the file named first,
 * counted as the program runs.
 *
 *	uallocs TRUTH [GO]
 *
 * With GO, it first waits until the file GO exists (for fgrecord -p to
 * attach), polling, and says "waiting" on stdout. Prints "done" and
 * exits 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct truth {
	const char *fn;
	unsigned long long bytes, objects, live_bytes, live_objects;
};

enum { SMALL, CALLOC, REALLOC, RENULL, MEMALIGN, LARGE, LEAK, NFN };
static struct truth t[NFN] = {
	{ "f_small" }, { "f_calloc" }, { "f_realloc" }, { "f_renull" },
	{ "f_memalign" }, { "f_large" }, { "f_leak" },
};
static void *volatile sink;
static void *leaked[1000];

static __attribute__((noinline, noipa)) void
f_small(int n)
{
	for (int i = 0; i < n; i++) {
		char *p = malloc(2000);

		p[0] = 1;
		sink = p;
		free(p);
	}
	t[SMALL].bytes += 2000ULL * n;
	t[SMALL].objects += n;
}

static __attribute__((noinline, noipa)) void
f_calloc(int n)
{
	for (int i = 0; i < n; i++) {
		sink = calloc(16, 250);
		free(sink);
	}
	t[CALLOC].bytes += 4000ULL * n;
	t[CALLOC].objects += n;
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
			t[REALLOC].bytes += s;
			t[REALLOC].objects++;
		}
		free(p);
	}
}

/* realloc(NULL): glibc's goes on to its malloc, one allocation all the same */
static __attribute__((noinline, noipa)) void
f_renull(int n)
{
	for (int i = 0; i < n; i++) {
		char *p = realloc(NULL, 4000);

		p[0] = 1;
		sink = p;
		free(p);
	}
	t[RENULL].bytes += 4000ULL * n;
	t[RENULL].objects += n;
}

static __attribute__((noinline, noipa)) void
f_memalign(int n)
{
	for (int i = 0; i < n; i++) {
		void *p;

		if (posix_memalign(&p, 64, 4000) != 0)
			abort();
		sink = p;
		free(p);
	}
	t[MEMALIGN].bytes += 4000ULL * n;
	t[MEMALIGN].objects += n;
}

static __attribute__((noinline, noipa)) void
f_large(int n)
{
	for (int i = 0; i < n; i++) {
		sink = malloc(300000);
		free(sink);
	}
	t[LARGE].bytes += 300000ULL * n;
	t[LARGE].objects += n;
}

static __attribute__((noinline, noipa)) void
f_leak(int n)
{
	for (int i = 0; i < n; i++) {
		leaked[i] = malloc(100000);
		memset(leaked[i], 1, 64);
	}
	t[LEAK].bytes += 100000ULL * n;
	t[LEAK].objects += n;
	t[LEAK].live_bytes += 100000ULL * n;
	t[LEAK].live_objects += n;
}

int
main(int argc, char **argv)
{
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: uallocs TRUTH [GO]\n");
		return 2;
	}
	if (argc > 2) {
		printf("waiting\n");
		fflush(stdout);
		while (access(argv[2], F_OK) != 0)
			usleep(10000);
	}
	f_small(50000);
	f_calloc(25000);
	f_realloc(800);
	f_renull(25000);
	f_memalign(25000);
	f_large(350);
	f_leak(1000);
	if ((f = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 0; i < NFN; i++) {
		fprintf(f, "%s alloc-bytes %llu\n", t[i].fn, t[i].bytes);
		fprintf(f, "%s alloc-objects %llu\n", t[i].fn, t[i].objects);
		fprintf(f, "%s inuse-bytes %llu\n", t[i].fn, t[i].live_bytes);
		fprintf(f, "%s inuse-objects %llu\n", t[i].fn, t[i].live_objects);
	}
	fclose(f);
	printf("done\n");
	fflush(stdout);
	return 3;
}
