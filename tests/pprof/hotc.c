/* fgpprof fixture: two threads and main spin for SECONDS (default 0.4);
 * crunch is the hot function, with an inlined helper. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static double secs = 0.4;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline __attribute__((always_inline)) unsigned long
mix(unsigned long x)
{
	return x * 2654435761u ^ (x >> 7);
}

__attribute__((noinline)) void
crunch(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += mix(i);
}

__attribute__((noinline)) void
light(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

static void *
worker(void *arg)
{
	double end = now() + secs;

	(void)arg;
	while (now() < end) {
		crunch(400000);
		light(40000);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc > 1)
		secs = atof(argv[1]);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	worker(NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
