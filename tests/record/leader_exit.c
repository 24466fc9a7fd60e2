/*
 * leader_exit: the main thread starts a worker, then leaves with
 * pthread_exit after 0.2 s; the worker spins for SECONDS of its own CPU
 * time. The process lives on with a zombie main thread.
 */
#include <pthread.h>
#include "spin.h"

static double secs;

__attribute__((noinline)) static void *
worker(void *arg)
{
	double end = spin_cpu() + secs;

	(void)arg;
	while (spin_cpu() < end)
		for (unsigned long i = 0; i < 100000; i++)
			spin_sink += i;
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t;

	secs = spin_secs(argc, argv, 1.5);
	pthread_create(&t, NULL, worker, NULL);
	usleep(200000);
	pthread_exit(NULL);
}
