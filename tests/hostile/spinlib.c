/*
 * spinlib.c: a shared library with a function to spin in, for fifoswap.c,
 * for SECS of the thread's CPU time (so that a busy machine does not cut
 * its samples short).
 */
#include <time.h>

volatile unsigned long spinlib_sink;

__attribute__((noinline)) void
spinlib_spin(double secs)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (unsigned long i = 0; i < 100000; i++)
			spinlib_sink += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while (b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9 < secs);
}
