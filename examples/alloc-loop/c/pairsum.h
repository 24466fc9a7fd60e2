/*
 * alloc-loop: find the first pair of numbers in a short list that add up
 * to a target.
 *
 * "First" means: the pair (i, j), i < j, with the smallest j, and for that
 * j the smallest i. Both versions below return exactly that pair, or
 * (-1, -1) when there is none.
 */
#ifndef PAIRSUM_H
#define PAIRSUM_H

#include <stddef.h>
#include <stdint.h>

struct pair {
	long i, j;
};

/*
 * The slow version: builds a hash map from value to first index on every
 * call, then looks each complement up in it. One malloc per element, one
 * free per element, every call. v may be NULL when n is 0.
 */
struct pair find_pair_slow(const int32_t *v, size_t n, int64_t target);

/*
 * The fixed version: a linear scan. For the short lists this program
 * searches, comparing every pair costs less than one allocation. v may be
 * NULL when n is 0.
 */
struct pair find_pair_fast(const int32_t *v, size_t n, int64_t target);

#endif
