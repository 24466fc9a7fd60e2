/*
 * spawner: creates N threads (argv[1], default 10000), one at a time,
 * each joined before the next starts; each spins US microseconds of CPU
 * (argv[2], default 0). Prints on stderr, at the end:
 *	threads N
 *	rate R		threads created and joined per second of wall time
 *	main-wall S	the main thread's wall time, seconds
 * The creating is in spawn_one, so that a profile shows where it is.
 */
#include <pthread.h>
#include <string.h>

#include "spin.h"

#define NOINLINE __attribute__((noinline))

static double us;

static void *
body(void *arg)
{
	if (us > 0)
		spin_for(us / 1e6);
	return arg;
}

static NOINLINE int
spawn_one(void)
{
	pthread_t t;
	int e;

	if ((e = pthread_create(&t, NULL, body, NULL)) != 0) {
		fprintf(stderr, "spawner: pthread_create: %s\n", strerror(e));
		return -1;
	}
	return pthread_join(t, NULL);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000, i;
	double t0, t1;

	us = argc > 2 ? atof(argv[2]) : 0;
	t0 = spin_now();
	for (i = 0; i < n; i++)
		if (spawn_one() != 0)
			return 1;
	t1 = spin_now();
	fprintf(stderr, "threads %ld\nrate %.0f\nmain-wall %.3f\n", n,
	    t1 > t0 ? n / (t1 - t0) : 0, t1 - t0);
	return 0;
}
