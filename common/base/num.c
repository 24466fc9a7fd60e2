/*
 * num: option arguments read through the one number parser (see num.h).
 */
#include <string.h>

#include "base/num.h"

int
num_arg(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	uint64_t x;

	if (num_u64(s, strlen(s), &x, NULL) != NUM_OK || x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}
