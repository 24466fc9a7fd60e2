/*
 * work: two threads doing a fixed amount of work each (MILLIONS of loop
 * iterations, default 300), for benchmarks that compare wall times.
 * Prints its own wall time on stderr at exit (and its CPU time, spin.h).
 *
 *	work [MILLIONS [THREADS]]
 *
 * THREADS 1 does the first thread's work in the thread started, the one
 * a recorder that launched it opened its events on.
 */
#include <pthread.h>
#include "spin.h"

static unsigned long iters;
static volatile unsigned long chunk = 1000000;	/* not a constant: no CSE */

__attribute__((noinline)) static unsigned long
left_work(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) static unsigned long
right_work(unsigned long n)
{
	unsigned long s = 1;

	for (unsigned long i = 0; i < n; i++)
		s = s * 31 + i;
	return s;
}

static void *
left(void *arg)
{
	(void)arg;
	for (unsigned long k = 0; k < iters / 1000; k++)
		spin_sink += left_work(chunk);
	return NULL;
}

static void *
right(void *arg)
{
	(void)arg;
	for (unsigned long k = 0; k < iters / 1000; k++)
		spin_sink += right_work(chunk);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t a, b;
	double t0 = spin_now();

	iters = (argc > 1 ? strtoul(argv[1], NULL, 10) : 300) * 1000;
	if (argc > 2 && atoi(argv[2]) == 1) {
		left(NULL);	/* one thread: the first, the one started */
	} else {
		pthread_create(&a, NULL, left, NULL);
		pthread_create(&b, NULL, right, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
	}
	fprintf(stderr, "wall-seconds %.3f\n", spin_now() - t0);
	return 0;
}
