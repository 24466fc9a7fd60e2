/*
 * pool: IDLE threads (argv[2], default 32) that wait on a condition
 * variable in pool_idle while the main thread does a fixed amount of work
 * (argv[1] billion additions, default 0.3) in pool_work, then wakes them
 * to end. A pool of idle workers, as thread pools and async runtimes
 * keep. On stderr: "work SECONDS" (the main thread's wall time for the
 * work), "idle-switches N" (the context switches the idle threads made in
 * all, from getrusage: a few when nothing wakes them) and "idle-wait LO
 * HI": an idle thread's mean wait in seconds, from the start of its wait
 * to the wake-up call (LO) and to its return from the wait (HI, which
 * also holds its wait for the CPU and the lock once woken). A thread's
 * off-CPU time in pool_idle lies between the two, however busy the
 * machine is.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "spin.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int done;
static long switches;
static double wait_start, woken, wait_end;	/* sums over the idle threads */

__attribute__((noinline)) static void *
pool_idle(void *arg)
{
	struct rusage ru;

	pthread_mutex_lock(&m);
	wait_start += spin_now();
	while (!done)
		pthread_cond_wait(&c, &m);
	wait_end += spin_now();
	getrusage(RUSAGE_THREAD, &ru);
	switches += ru.ru_nvcsw + ru.ru_nivcsw;
	pthread_mutex_unlock(&m);
	return arg;
}

__attribute__((noinline)) static void
pool_work(long n)
{
	for (long i = 0; i < n; i++)
		spin_sink += (unsigned long)i;
}

int
main(int argc, char **argv)
{
	long n = (long)((argc > 1 ? atof(argv[1]) : 0.3) * 1e9);
	int idle = argc > 2 ? atoi(argv[2]) : 32;
	pthread_t *t;
	double t0;

	if (idle < 0 || idle > 4096 || (t = calloc((size_t)idle + 1, sizeof(*t))) == NULL)
		return 2;
	for (int i = 0; i < idle; i++)
		if (pthread_create(&t[i], NULL, pool_idle, NULL) != 0)
			return 1;
	t0 = spin_now();
	pool_work(n);
	fprintf(stderr, "work %.3f\n", spin_now() - t0);
	pthread_mutex_lock(&m);
	done = 1;
	woken = spin_now() * idle;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < idle; i++)
		pthread_join(t[i], NULL);
	fprintf(stderr, "idle-switches %ld\n", switches);
	if (idle > 0)
		fprintf(stderr, "idle-wait %.4f %.4f\n",
		    (woken - wait_start) / idle, (wait_end - wait_start) / idle);
	free(t);
	return 0;
}
