/*
 * switcher: two threads that hand a token back and forth through two
 * pipes, ROUNDS times (argv[1], default 25000), each working WORK
 * microseconds (argv[2], default 15) before it passes the token on. Every
 * hand-over blocks the thread that passed it, so the process switches out
 * twice per round: about 50,000 times a second with the defaults, for the
 * off-CPU overhead benchmark (bench/offcpu.sh). At exit it prints its own
 * wall time and the rate of voluntary switches it made, on stderr:
 *	wall-seconds 1.012
 *	switches-per-second 49403
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "spin.h"

static long rounds;
static double work_s;
static int ping[2], pong[2];
static volatile unsigned long sink;

__attribute__((noinline)) static void
work(void)
{
	double end = spin_now() + work_s;

	while (spin_now() < end)
		sink++;
}

__attribute__((noinline)) static void
pass(int to, int from)
{
	char c = 't';

	if (write(to, &c, 1) != 1 || read(from, &c, 1) != 1)
		abort();
}

static void *
partner(void *arg)
{
	char c;
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		if (read(ping[0], &c, 1) != 1)
			abort();
		work();
		if (write(pong[1], &c, 1) != 1)
			abort();
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	struct rusage ru;
	double t0, wall;
	long i;

	rounds = argc > 1 ? atol(argv[1]) : 25000;
	work_s = (argc > 2 ? atof(argv[2]) : 15) / 1e6;
	if (rounds <= 0 || work_s < 0 || pipe(ping) != 0 || pipe(pong) != 0) {
		fprintf(stderr, "usage: switcher [rounds [work-microseconds]]\n");
		return 2;
	}
	t0 = spin_now();
	if (pthread_create(&t, NULL, partner, NULL) != 0)
		return 2;
	for (i = 0; i < rounds; i++) {
		work();
		pass(ping[1], pong[0]);
	}
	pthread_join(t, NULL);
	wall = spin_now() - t0;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "wall-seconds %.3f\nswitches-per-second %.0f\n", wall,
	    (double)ru.ru_nvcsw / wall);
	return 0;
}
