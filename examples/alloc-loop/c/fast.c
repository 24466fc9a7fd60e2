/* alloc-loop, fixed version: a linear scan, no allocation. */
#include "pairsum.h"

struct pair
find_pair_fast(const int32_t *v, size_t n, int64_t target)
{
	struct pair p = { -1, -1 };

	for (size_t j = 1; j < n; j++)
		for (size_t i = 0; i < j; i++)
			if ((int64_t)v[i] + v[j] == target) {
				p.i = (long)i;
				p.j = (long)j;
				return p;
			}
	return p;
}
