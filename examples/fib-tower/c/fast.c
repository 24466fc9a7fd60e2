/* fib-tower, fixed version: n additions. */
#include "fib.h"

int
fib_fast(int n, uint64_t *out)
{
	uint64_t a = 0, b = 1;

	if (n < 0 || n > FIB_MAX)
		return -1;
	for (int k = 0; k < n; k++) {
		uint64_t t = a + b;

		a = b;
		b = t;
	}
	*out = a;
	return 0;
}
