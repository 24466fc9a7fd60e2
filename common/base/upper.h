/*
 * upper: the binary search that every address table here needs.
 *
 *	i = UPPER(f->syms, f->nsyms, addr, addr_value);
 *
 * returns how many elements of the array (sorted by the uint64_t member
 * named) have that member <= addr: the index of the first one above it.
 * So element i - 1, when i > 0, is the last one that starts at or below
 * addr. The array is borrowed, not kept.
 */
#ifndef FG_UPPER_H
#define FG_UPPER_H

#include <stddef.h>
#include <stdint.h>

static inline size_t
upper_u64(const void *base, size_t n, size_t size, size_t keyoff,
    uint64_t key)
{
	const char *b = base;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (*(const uint64_t *)(b + mid * size + keyoff) <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#define UPPER(arr, n, key, member) \
	upper_u64((arr), (n), sizeof(*(arr)), offsetof(__typeof__(*(arr)), member), (key))

#endif
