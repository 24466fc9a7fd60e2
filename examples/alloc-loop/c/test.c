/*
 * Unit tests for alloc-loop: the slow and the fixed version must find the
 * same pair for every list, valid or odd. Prints TAP; exits 1 on failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pairsum.h"

static int n_test, n_fail;

static void
same(const char *what, const int32_t *v, size_t n, int64_t target,
    long want_i, long want_j)
{
	struct pair s = find_pair_slow(v, n, target);
	struct pair f = find_pair_fast(v, n, target);
	int ok = s.i == f.i && s.j == f.j;

	if (want_j != -2)
		ok = ok && s.i == want_i && s.j == want_j;
	n_test++;
	if (!ok) {
		n_fail++;
		printf("not ok %d - %s: slow (%ld, %ld), fast (%ld, %ld)\n",
		    n_test, what, s.i, s.j, f.i, f.j);
	} else
		printf("ok %d - %s\n", n_test, what);
}

int
main(void)
{
	static const int32_t one[] = { 7 };
	static const int32_t basic[] = { 3, 9, 4, 5, 6 };
	static const int32_t dup[] = { 5, 5, 5 };
	static const int32_t neg[] = { -4, 10, -6, 2 };
	static const int32_t ext[] = { INT32_MAX, INT32_MIN, INT32_MAX, -1 };
	static const int32_t zero[] = { 0, 1, 0 };
	uint64_t x = 88172645463325252ULL;
	int mismatch = 0;

	same("empty list, NULL pointer", NULL, 0, 0, -1, -1);
	same("one element", one, 1, 14, -1, -1);
	same("first pair by j, then i", basic, 5, 9, 2, 3);
	same("pair that needs the last element", basic, 5, 15, 1, 4);
	same("no pair", basic, 5, 100, -1, -1);
	same("duplicates: first index wins", dup, 3, 10, 0, 1);
	same("negative numbers", neg, 4, -10, 0, 2);
	same("extremes do not overflow", ext, 4, (int64_t)INT32_MAX * 2, 0, 2);
	same("INT32_MIN + INT32_MAX", ext, 4, -1, 0, 1);
	same("target outside int32", ext, 4, (int64_t)1 << 40, -1, -1);
	same("zero pair", zero, 3, 0, 0, 2);
	for (int r = 0; r < 20000; r++) {
		int32_t v[40];
		size_t n = r % 40;
		int64_t t;
		struct pair s, f;

		for (size_t k = 0; k < n; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			v[k] = (int32_t)(x % 61) - 30;
		}
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		t = (int64_t)(x % 121) - 60;
		s = find_pair_slow(v, n, t);
		f = find_pair_fast(v, n, t);
		mismatch += s.i != f.i || s.j != f.j;
	}
	n_test++;
	if (mismatch) {
		n_fail++;
		printf("not ok %d - 20000 random lists: %d differ\n", n_test, mismatch);
	} else
		printf("ok %d - 20000 random lists agree\n", n_test);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
