/*
 * num: option arguments read through the one number parser (see num.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
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

int
num_real(const char *s, double lo, double hi, double *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(x) ||
	    x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}
