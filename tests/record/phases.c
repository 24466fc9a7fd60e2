/*
 * phases: thread "worker-a" runs phase_one for SECONDS of CPU time, then
 * phase_two for as long, while thread "worker-b" runs steady until A is
 * done; then the main thread naps (sleeps) in nap for SECONDS/2 and
 * spins in after_nap for SECONDS/4 of CPU. CPU time, not wall time: the
 * phases hold whatever the machine's load (tests/record/spin.h).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include "spin.h"

static double secs;
static volatile int a_done;

__attribute__((noinline)) void phase_one(void) { spin_for(secs); }
__attribute__((noinline)) void phase_two(void) { spin_for(secs); }
__attribute__((noinline)) void steady(void) { while (!a_done) spin_for(0.005); }
__attribute__((noinline)) void after_nap(void) { spin_for(secs / 4); }

__attribute__((noinline)) void
nap(void)
{
	struct timespec ts = { (time_t)(secs / 2), (long)((secs / 2 -
	    (time_t)(secs / 2)) * 1e9) };

	nanosleep(&ts, NULL);
}

static void *
a_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "worker-a");
	phase_one();
	phase_two();
	a_done = 1;
	return NULL;
}

static void *
b_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "worker-b");
	steady();
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t a, b;

	secs = spin_secs(argc, argv, 1.0);
	pthread_create(&b, NULL, b_main, NULL);
	pthread_create(&a, NULL, a_main, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	nap();
	after_nap();
	return 0;
}
