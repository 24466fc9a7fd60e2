/*
 * hashtab: an open-addressing index from 64-bit hashes to item numbers.
 * The items stay in the caller's own array, in the caller's order; the
 * table only finds them. Each slot holds an item's number and the high half
 * of its hash, so probing rarely touches an item that cannot match, and
 * growing needs no callback. The caller says which item is equal:
 *
 *	struct hashtab_probe p;
 *	uint32_t it;
 *
 *	hashtab_probe(&t, h, &p);
 *	while ((it = hashtab_next(&t, &p)) != HASHTAB_NONE)
 *		if (same(&items[it], key))
 *			return it;
 *	it = nitems++;			(append the new item)
 *	hashtab_add(&t, &p, it);
 *
 * One probe serves both the look-up and the insertion. The slots are a
 * power of two, probed linearly, doubled when three quarters are full.
 * Items are never removed. The hash should have good high bits (XXH3 or
 * hashtab_int): they choose the slot.
 */
#ifndef FG_HASHTAB_H
#define FG_HASHTAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define HASHTAB_NONE	UINT32_MAX	/* no item; never a valid number */
#define HASHTAB_HIGH	0xffffffff00000000ULL

struct hashtab {
	uint64_t	*slot;		/* 0 = free, else high half of the
					   hash | item number + 1 */
	size_t		 mask;		/* number of slots - 1 */
	size_t		 count;		/* items held */
};

/* Where a look-up is: after the last HASHTAB_NONE, the free slot. */
struct hashtab_probe {
	size_t		 i;
	uint64_t	 tag;		/* the hash's high half, in place */
};

/* Makes an empty table with room for n items before it first grows. */
void	hashtab_init(struct hashtab *, size_t n);
/* Frees the slots, not the table itself nor the caller's items. */
void	hashtab_release(struct hashtab *);

/* Starts a look-up of hash h. */
static inline void
hashtab_probe(const struct hashtab *t, uint64_t h, struct hashtab_probe *p)
{
	p->tag = h & HASHTAB_HIGH;
	p->i = (size_t)(h >> 32) & t->mask;
}

/*
 * Returns the next item whose hash may be the probe's (the high halves
 * match; the caller compares the keys), or HASHTAB_NONE when there are no
 * more: then the probe rests on the free slot where the key belongs.
 * Items of the same hash come in the order they were added.
 */
static inline uint32_t
hashtab_next(const struct hashtab *t, struct hashtab_probe *p)
{
	const uint64_t *slot = t->slot, tag = p->tag;
	size_t i = p->i, mask = t->mask;
	uint64_t s;

	/* in locals: a store to p->i could alias the slots */
	while ((s = slot[i]) != 0) {
		i = (i + 1) & mask;
		if ((s & HASHTAB_HIGH) == tag) {
			p->i = i;
			return (uint32_t)s - 1;
		}
	}
	p->i = i;
	return HASHTAB_NONE;
}

/* Doubles the slots; hashtab_add calls it when three quarters are full. */
void	hashtab_grow(struct hashtab *);

/*
 * Files item under the probe's hash, in the free slot that hashtab_next
 * ended on; the table grows afterwards when it must. item must be below
 * HASHTAB_NONE (the caller's items would fill 32 GB before that; past
 * it, abort), and the probe is spent.
 */
static inline void
hashtab_add(struct hashtab *t, struct hashtab_probe *p, uint32_t item)
{
	if (item >= HASHTAB_NONE)
		abort();
	t->slot[p->i] = p->tag | ((uint64_t)item + 1);
	if (++t->count * 4 > (t->mask + 1) * 3)
		hashtab_grow(t);
}

/*
 * A hash of an integer key (a pid, an address), for tables not keyed by
 * bytes: every input bit moves the high bits.
 */
static inline uint64_t
hashtab_int(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
