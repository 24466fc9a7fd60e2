/*
 * Unit tests for fib-tower: the recursive and the iterative version must
 * agree on every n they accept and reject the same n. Prints TAP; exits 1
 * on failure.
 */
#include <limits.h>
#include <stdio.h>

#include "fib.h"

static int n_test, n_fail;

static void
report(const char *what, int ok)
{
	n_test++;
	if (ok)
		printf("ok %d - %s\n", n_test, what);
	else {
		n_fail++;
		printf("not ok %d - %s\n", n_test, what);
	}
}

int
main(void)
{
	static const int bad[] = { -1, -100, INT_MIN, FIB_MAX + 1, 1000, INT_MAX };
	uint64_t a, b;
	int ok = 1;

	for (int n = 0; n <= 27; n++) {
		a = b = 0;
		ok &= fib_slow(n, &a) == 0 && fib_fast(n, &b) == 0 && a == b;
	}
	report("fib(0..27) agree", ok);
	report("fib(0), fib(1), fib(2)", fib_fast(0, &a) == 0 && a == 0 &&
	    fib_fast(1, &a) == 0 && a == 1 && fib_slow(2, &b) == 0 && b == 1);
	report("fib(27) is 196418", fib_slow(27, &a) == 0 && a == 196418);
	report("fib(93) fits in 64 bits", fib_fast(FIB_MAX, &b) == 0 &&
	    b == 12200160415121876738ULL);
	ok = 1;
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		a = b = 42;
		ok &= fib_slow(bad[k], &a) == -1 && fib_fast(bad[k], &b) == -1 &&
		    a == 42 && b == 42;
	}
	report("out-of-range n rejected by both, output untouched", ok);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
