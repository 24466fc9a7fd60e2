/*
 * num: the one number parser. An unsigned decimal or hex number read from
 * a string that carries its length (a field of a stream line, a pid in a
 * file name, an address in /proc/kallsyms) or from a NUL-terminated
 * option argument, with exact overflow detection: 18446744073709551615
 * (2^64-1) is read, 18446744073709551616 (2^64) is out of range, and so
 * for ffffffffffffffff and 10000000000000000 in hex.
 *
 *	uint64_t v;
 *	switch (num_u64(s, len, &v, NULL)) {	(num_x64 for hex)
 *	case NUM_OK:	 ...	v is s's value
 *	case NUM_RANGE:	 ...	past 2^64-1; v is UINT64_MAX (saturated)
 *	case NUM_BAD:	 ...	empty, or not digits only; v is 0
 *	}
 *
 * Digits only: no sign, no space, no "0x", as strtoull would take. Each
 * caller decides what an overflow means to it (saturate, an error, 0),
 * and takes off a "0x" where its format has one.
 */
#ifndef FG_NUM_H
#define FG_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "base/str.h"

#define NUM_OK		0
#define NUM_BAD		(-1)	/* no digit, or (whole mode) a non-digit */
#define NUM_RANGE	(-2)	/* past 2^64-1 */

/*
 * Reads the decimal number at s[0..len) into *v. With used NULL, all of
 * s[0..len) must be digits; with used set, the leading digits are read and
 * their count is stored in *used (what follows them is the caller's).
 * Returns NUM_OK; NUM_RANGE with *v UINT64_MAX (*used still counts every
 * digit); or NUM_BAD with *v 0. Borrows s. Inline: stream heads and folded
 * counts are read through it, once a line.
 */
static inline int
num_u64(const char *s, size_t len, uint64_t *v, size_t *used)
{
	uint64_t x = 0;
	size_t i, n = 0;
	int rc = NUM_OK;

	while (n < len && s[n] >= '0' && s[n] <= '9')
		n++;
	if (used != NULL)
		*used = n;
	if (n == 0 || (used == NULL && n != len)) {
		*v = 0;
		return NUM_BAD;
	}
	if (n <= 19)	/* 10^19 - 1 < 2^64: no digit can overflow */
		for (i = 0; i < n; i++)
			x = x * 10 + (unsigned)(s[i] - '0');
	else
		for (i = 0; i < n; i++) {
			unsigned d = (unsigned)(s[i] - '0');

			if (x > (UINT64_MAX - d) / 10) {
				x = UINT64_MAX;
				rc = NUM_RANGE;
				break;
			}
			x = x * 10 + d;
		}
	*v = x;
	return rc;
}

/*
 * As num_u64, for the hex digits (either case) at s[0..len): more than 16
 * of them after the leading zeros are out of range. Inline: every line of
 * /proc/kallsyms is read through it.
 */
static inline int
num_x64(const char *s, size_t len, uint64_t *v, size_t *used)
{
	uint64_t x = 0;
	size_t n = 0;
	int d, rc = NUM_OK;

	for (; n < len && (d = str_hexval(s[n])) >= 0; n++) {
		if ((x >> 60) != 0)
			rc = NUM_RANGE;
		x = x << 4 | (unsigned)d;
	}
	if (used != NULL)
		*used = n;
	if (n == 0 || (used == NULL && n != len)) {
		*v = 0;
		return NUM_BAD;
	}
	*v = rc == NUM_OK ? x : UINT64_MAX;
	return rc;
}

/*
 * Reads the digits at *p (decimal when base is 10, hex when 16) of a
 * NUL-terminated string into *v, and moves *p past them: a field of a
 * /proc file, a colour's component. Returns as num_u64 reading leading
 * digits: NUM_OK, NUM_RANGE (saturated, *p past every digit), or NUM_BAD
 * when no digit is at *p (*p unmoved).
 */
int	num_next(const char **p, int base, uint64_t *v);

/*
 * Reads the decimal number at s[0..len), DIGITS or DIGITS.DIGITS (a
 * folded line's fractional count), into *v, however many digits it has.
 * Returns NUM_OK; NUM_RANGE when the digits before the dot are past
 * 2^64-1, the range of an integer count (*v then HUGE_VAL); or NUM_BAD
 * (*v 0) when it is anything else. The value is rounded once, as
 * strtod(3) rounds it, from its first 48 digits after the dot (what
 * follows cannot move a double).
 */
int	num_decimal(const char *s, size_t len, double *v);

/*
 * Reads the option argument s (NUL-terminated, digits only) into *v when
 * its value is within [lo, hi]. Returns 0, or -1 (*v untouched) when s is
 * empty, holds anything but digits, or is out of range: the caller then
 * says so, quoting s, and exits 2. Borrows s.
 */
int	num_arg(const char *s, uint64_t lo, uint64_t hi, uint64_t *v);

/*
 * Reads the option argument s (NUL-terminated, a number as strtod(3)
 * reads it, all of s) into *v when it is finite and within [lo, hi].
 * Returns 0, or -1 (*v untouched) when s is empty, not a number, has
 * anything after it, overflows or underflows, or is out of range: the
 * caller says so, quoting s, and exits 2. Borrows s.
 */
int	num_real(const char *s, double lo, double hi, double *v);

#endif
