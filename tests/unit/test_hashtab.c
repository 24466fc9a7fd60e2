/*
 * Unit tests of common/base/hashtab.c: items are found again across many
 * growths; absent keys are not found, and the probe then rests on a free
 * slot; items that share a hash, or only its high half, are told apart by
 * the caller's comparison and come back in the order they were added;
 * hashtab_init's room is honoured.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/hashtab.h"
#include "unit.h"

#define N	100000
/* One hash for many keys, whose slot is the last one: the run wraps. */
#define HASH1	0xffffffff00000042ULL

static uint64_t keys[N];
static size_t nkeys;

/* Looks key up under hash h; adds it when absent and add is set. */
static uint32_t
get(struct hashtab *t, uint64_t key, uint64_t h, int add)
{
	struct hashtab_probe p;
	uint32_t it;

	hashtab_probe(t, h, &p);
	while ((it = hashtab_next(t, &p)) != HASHTAB_NONE)
		if (keys[it] == key)
			return it;
	if (t->slot[p.i] != 0)
		return HASHTAB_NONE - 1;	/* not on a free slot */
	if (!add)
		return HASHTAB_NONE;
	keys[nkeys] = key;
	hashtab_add(t, &p, (uint32_t)nkeys);
	return (uint32_t)nkeys++;
}

int
main(void)
{
	struct hashtab t;
	struct hashtab_probe p;
	size_t i, bad = 0, mask;
	uint32_t it, last;

	/* many keys, through many growths */
	hashtab_init(&t, 0);
	for (i = 0; i < N; i++)
		bad += get(&t, i * 7, hashtab_int(i * 7), 1) != i;
	CHECK(bad == 0 && t.count == N, "100000 keys added, numbered in order");
	CHECK(t.count * 4 <= (t.mask + 1) * 3, "at most three quarters full");
	for (i = 0, bad = 0; i < N; i++)
		bad += get(&t, i * 7, hashtab_int(i * 7), 0) != i;
	CHECK(bad == 0, "every key found again after growing");
	for (i = 0, bad = 0; i < 1000; i++)
		bad += get(&t, i * 7 + 3, hashtab_int(i * 7 + 3), 0) !=
		    HASHTAB_NONE;
	CHECK(bad == 0, "absent keys not found; the probe ends on a free slot");
	CHECK(hashtab_int(1) != hashtab_int(2) &&
	    (hashtab_int(1) >> 32) != (hashtab_int(2) >> 32),
	    "hashtab_int moves the high bits");
	hashtab_release(&t);
	CHECK(t.slot == NULL && t.count == 0, "release empties the table");

	/* one hash for all: the caller's comparison tells them apart */
	nkeys = 0;
	hashtab_init(&t, 0);
	for (i = 0, bad = 0; i < 2000; i++)
		bad += get(&t, i, HASH1, 1) != i;
	for (i = 0; i < 2000; i++)
		bad += get(&t, i, HASH1, 0) != i;
	CHECK(bad == 0 && t.count == 2000, "2000 keys under one hash");
	hashtab_probe(&t, HASH1, &p);
	for (i = 0, bad = 0, last = 0; (it = hashtab_next(&t, &p)) !=
	    HASHTAB_NONE; i++) {
		bad += i > 0 && it <= last;
		last = it;
	}
	CHECK(i == 2000 && bad == 0, "items of one hash come in the order added, across the wrap");
	hashtab_release(&t);

	/* the same high half, different low halves: still told apart */
	nkeys = 0;
	hashtab_init(&t, 0);
	for (i = 0, bad = 0; i < 100; i++)
		bad += get(&t, i, 0xabcdef0100000000ULL | i, 1) != i;
	for (i = 0; i < 100; i++)
		bad += get(&t, i, 0xabcdef0100000000ULL | i, 0) != i;
	CHECK(bad == 0, "a shared high half is not a match by itself");
	hashtab_release(&t);

	/* room asked for at init: no growth until it is used up */
	nkeys = 0;
	hashtab_init(&t, 1000);
	mask = t.mask;
	for (i = 0; i < 1000; i++)
		get(&t, i, hashtab_int(i), 1);
	CHECK(t.mask == mask, "room for 1000 items: no growth for 1000");
	for (; t.mask == mask; i++)
		get(&t, i, hashtab_int(i), 1);
	CHECK(t.mask == 2 * mask + 1 && i * 4 > (mask + 1) * 3,
	    "grows by doubling, past three quarters");
	hashtab_release(&t);
	return unit_done();
}
