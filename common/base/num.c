/*
 * num: option arguments read through the one number parser (see num.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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

int
num_next(const char **p, int base, uint64_t *v)
{
	size_t used;
	int rc;

	/* the digits stop at the NUL: no length is needed */
	if (base == 16)
		rc = num_x64(*p, SIZE_MAX, v, &used);
	else
		rc = num_u64(*p, SIZE_MAX, v, &used);
	*p += used;
	return rc;
}

int
num_decimal(const char *s, size_t len, double *v)
{
	const char *dot = memchr(s, '.', len);
	size_t ilen = dot != NULL ? (size_t)(dot - s) : len, flen, i;
	char buf[24 + 48 + 1];
	uint64_t whole;
	int rc;

	*v = 0;
	if ((rc = num_u64(s, ilen, &whole, NULL)) == NUM_BAD)
		return NUM_BAD;
	flen = dot != NULL ? len - ilen - 1 : 0;
	for (i = 0; i < flen; i++)
		if (dot[1 + i] < '0' || dot[1 + i] > '9')
			return NUM_BAD;
	if (rc == NUM_RANGE) {
		*v = HUGE_VAL;
		return NUM_RANGE;
	}
	if (flen > 48)
		flen = 48;
	/* whole has at most 20 digits: the copy strtod reads is bounded */
	i = (size_t)snprintf(buf, sizeof(buf), "%ju.", (uintmax_t)whole);
	memcpy(buf + i, dot != NULL ? dot + 1 : "", flen);
	buf[i + flen] = '\0';
	*v = strtod(buf, NULL);
	return NUM_OK;
}
