/*
 * lock-wait: THREADS workers (the main thread is one of them) each fetch
 * ITEMS items from a slow service and add them to one shared tally. Built twice: "before" calls
 * tally_add_slow, "after" (with -DFIXED) calls tally_add_fast. Both print
 * the same line. A CPU profile of "before" shows little: the time goes to
 * waiting, for the service and for the lock. fgrecord --off-cpu shows
 * where.
 *
 * usage: before [ITEMS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "tally.h"

#ifdef FIXED
#define tally_add tally_add_fast
#else
#define tally_add tally_add_slow
#endif

#define THREADS 4

static struct tally tally = { .lock = PTHREAD_MUTEX_INITIALIZER };
static long items;

struct worker {
	pthread_t	 thread;
	uint64_t	 first;
};

static void *
work(void *arg)
{
	struct worker *w = arg;

	for (long k = 0; k < items; k++)
		tally_add(&tally, w->first + (uint64_t)k);
	return NULL;
}

int
main(int argc, char **argv)
{
	struct worker w[THREADS];

	items = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	if (items <= 0) {
		fprintf(stderr, "usage: %s [ITEMS]\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < THREADS; i++)
		w[i].first = (uint64_t)i * (uint64_t)items;
	for (int i = 1; i < THREADS; i++)
		if (pthread_create(&w[i].thread, NULL, work, &w[i]) != 0) {
			perror("pthread_create");
			return 1;
		}
	work(&w[0]);
	for (int i = 1; i < THREADS; i++)
		pthread_join(w[i].thread, NULL);
	printf("lock-wait: %llu items, digest sum %016llx, squares %016llx\n",
	    (unsigned long long)tally.count, (unsigned long long)tally.sum,
	    (unsigned long long)tally.squares);
	return 0;
}
