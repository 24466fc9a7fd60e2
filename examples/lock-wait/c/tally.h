/*
 * lock-wait: worker threads fetch items from a slow service, fingerprint
 * them and add them to one shared tally, guarded by a mutex.
 *
 * Fetching an item is a round trip of FETCH_US microseconds (a sleep
 * stands for the network here); its fingerprint, item_digest(item), is a
 * microsecond or two of arithmetic. The tally keeps the count of items, the sum of their
 * digests and the sum of digest * digest (mod 2^64): totals that do not
 * depend on the order in which the threads add, so that every run and
 * both versions print the same line.
 */
#ifndef TALLY_H
#define TALLY_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#define FETCH_US 200

struct tally {
	pthread_mutex_t	 lock;
	uint64_t	 count, sum, squares;
};

/*
 * Fetches an item from the slow service: the thread waits FETCH_US
 * microseconds, off the CPU, and gets the item back.
 */
static inline uint64_t
fetch_item(uint64_t item)
{
	struct timespec ts = { 0, FETCH_US * 1000L };

	while (nanosleep(&ts, &ts) != 0)
		;
	return item;
}

/* The fingerprint of one item: deterministic, a microsecond or two. */
static inline uint64_t
item_digest(uint64_t item)
{
	uint64_t h = item * 0x9e3779b97f4a7c15ULL + 1;

	for (int i = 0; i < 1000; i++)
		h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL + (uint64_t)i;
	return h;
}

/*
 * The slow version: takes the lock, then fetches the item and computes its
 * digest while holding it. Every other thread that wants to add waits on
 * the lock meanwhile, off the CPU, so the threads take turns instead of
 * waiting for their fetches side by side.
 */
void	 tally_add_slow(struct tally *t, uint64_t item);

/*
 * The fixed version: fetches the item and computes its digest first, and
 * holds the lock only for the three additions.
 */
void	 tally_add_fast(struct tally *t, uint64_t item);

#endif
