/*
 * churn: the main thread creates a short-lived thread and joins it, again
 * and again, for SECONDS (argv[1], default 1): thousands of clones a
 * second, so that a sampler's interrupt often meets a thread as it
 * clones (tests/t305-fgrecord-ptrace.sh). Each new thread spins a few
 * microseconds in churn_work and ends. Prints the number of threads made
 * on stderr: "threads 4210".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

__attribute__((noinline)) static void *
churn_work(void *arg)
{
	for (int i = 0; i < 2000; i++)
		spin_sink += (unsigned long)i;
	return arg;
}

int
main(int argc, char **argv)
{
	double end = spin_now() + spin_secs(argc, argv, 1.0);
	unsigned long n = 0;
	pthread_t t;

	while (spin_now() < end) {
		if (pthread_create(&t, NULL, churn_work, NULL) != 0) {
			perror("churn: pthread_create");
			return 1;
		}
		pthread_join(t, NULL);
		n++;
	}
	fprintf(stderr, "threads %lu\n", n);
	return 0;
}
