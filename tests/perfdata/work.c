/*
 * work: the program tests/t420-perfdata.sh records with perf record. Runs
 * NTHREADS threads (argv[2], default 0: the main thread alone) for
 * SECONDS of CPU time each (argv[1]), in three functions two calls below
 * main (or below the thread's start), one with an inlined helper.
 */
#include <pthread.h>
#include <stdlib.h>
#include "../record/spin.h"

static double secs;

static inline __attribute__((always_inline)) unsigned long
mix(unsigned long x)
{
	for (int i = 0; i < 16; i++)
		x = (x * 6364136223846793005UL + 1442695040888963407UL) ^ (x >> 7);
	return x;
}

__attribute__((noinline)) void
leaf_mix(void)
{
	for (unsigned long i = 0; i < 20000; i++)
		spin_sink += mix(i);
}

__attribute__((noinline)) void
leaf_add(void)
{
	for (unsigned long i = 0; i < 40000; i++)
		spin_sink += i;
}

__attribute__((noinline)) void
middle(int k)
{
	if (k % 2)
		leaf_mix();
	else
		leaf_add();
}

__attribute__((noinline)) void
outer(void)
{
	double end = spin_cpu() + secs;
	int k = 0;

	while (spin_cpu() < end)
		middle(k++);
}

static void *
worker(void *arg)
{
	(void)arg;
	outer();
	return NULL;
}

int
main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 0;
	pthread_t t[16];

	secs = spin_secs(argc, argv, 0.3);
	if (n > 16)
		n = 16;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	outer();
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
