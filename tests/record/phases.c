/*
 * phases: thread "worker-a" runs phase_one for SECONDS of CPU time, then
 * phase_two for as long, while thread "worker-b" runs steady until A is
 * done; then the main thread naps (sleeps) in nap for SECONDS/2 and
 * spins in after_nap for SECONDS/4 of CPU. CPU time, not wall time: the
 * phases hold whatever the machine's load (tests/record/spin.h).
 *
 * phases SECONDS [FILE]: FILE gets the known shares of the first phase,
 * measured by the program itself: the CPU time worker-a spent in
 * phase_one and worker-b in steady over the same span (from phase_one's
 * start to its end, read on each thread's CPU clock), a line
 * "NAME SECONDS" each, so that a test compares the graph of that span
 * with what truly ran there.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "spin.h"

static double secs;
static volatile int a_done;
static pthread_t b;
static const char *known;

/* thread t's CPU time in seconds */
static double
cpu_of(pthread_t t)
{
	struct timespec ts;
	clockid_t c;

	if (pthread_getcpuclockid(t, &c) != 0 || clock_gettime(c, &ts) != 0)
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void phase_one(void) { spin_for(secs); }
__attribute__((noinline)) void phase_two(void) { spin_for(secs); }
__attribute__((noinline)) void steady(void) { while (!a_done) spin_for(0.005); }
__attribute__((noinline)) void after_nap(void) { spin_for(secs / 4); }

__attribute__((noinline)) void
nap(void)
{
	struct timespec ts = { (time_t)(secs / 2), (long)((secs / 2 -
	    (time_t)(secs / 2)) * 1e9) };

	double t0 = spin_now();

	nanosleep(&ts, NULL);
	/* the sleep and the wait for a CPU after it, which --wall counts */
	fprintf(stderr, "nap %.4f\n", spin_now() - t0);
}

static void *
a_main(void *arg)
{
	double a0, b0, a1, b1;
	FILE *f;

	(void)arg;
	pthread_setname_np(pthread_self(), "worker-a");
	a0 = spin_cpu();
	b0 = cpu_of(b);
	phase_one();
	a1 = spin_cpu();
	b1 = cpu_of(b);
	if (known != NULL && (f = fopen(known, "w")) != NULL) {
		fprintf(f, "phase_one %.6f\nsteady %.6f\n", a1 - a0, b1 - b0);
		fclose(f);
	}
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
	pthread_t a;

	secs = spin_secs(argc, argv, 1.0);
	known = argc > 2 ? argv[2] : NULL;
	pthread_create(&b, NULL, b_main, NULL);
	pthread_create(&a, NULL, a_main, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	nap();
	after_nap();
	return 0;
}
