/* fib-tower, slow version: the textbook recursion, exponential in n. */
#include "fib.h"

__attribute__((noinline)) static uint64_t
fib_rec(int n)
{
	if (n < 2)
		return (uint64_t)n;
	return fib_rec(n - 1) + fib_rec(n - 2);
}

int
fib_slow(int n, uint64_t *out)
{
	if (n < 0 || n > FIB_MAX)
		return -1;
	*out = fib_rec(n);
	return 0;
}
