/*
 * Unit tests of common/base/num: the overflow edges 2^64-1 (read) and 2^64
 * (out of range, saturated), with and without leading zeros and on both
 * sides of the 19-digit fast path; digits only; the leading-digits mode
 * and its count; option arguments within [lo, hi].
 */
#include <stdint.h>
#include <string.h>

#include "base/num.h"
#include "unit.h"

/* num_u64 on all of the C string s. */
static int
whole(const char *s, uint64_t *v)
{
	return num_u64(s, strlen(s), v, NULL);
}

int
main(void)
{
	uint64_t v;
	size_t used;

	/* whole strings */
	CHECK_INT(whole("0", &v), NUM_OK, "0 is read");
	CHECK_UINT(v, 0, "0's value");
	CHECK_INT(whole("12", &v), NUM_OK, "12 is read");
	CHECK_UINT(v, 12, "12's value");
	CHECK_INT(whole("18446744073709551615", &v), NUM_OK, "2^64-1 is read");
	CHECK_UINT(v, UINT64_MAX, "2^64-1's value");
	CHECK_INT(whole("18446744073709551616", &v), NUM_RANGE,
	    "2^64 is out of range");
	CHECK_UINT(v, UINT64_MAX, "2^64 saturates at 2^64-1");
	CHECK_INT(whole("18446744073709551620", &v), NUM_RANGE,
	    "2^64+4 is out of range (the last digit alone overflows)");
	CHECK_INT(whole("99999999999999999999", &v), NUM_RANGE,
	    "twenty nines are out of range");
	CHECK_INT(whole("184467440737095516150", &v), NUM_RANGE,
	    "2^64-1 with a digit more is out of range");
	CHECK_UINT(v, UINT64_MAX, "and saturates");
	CHECK_INT(whole("0000018446744073709551615", &v), NUM_OK,
	    "2^64-1 after leading zeros is read");
	CHECK_UINT(v, UINT64_MAX, "its value");
	CHECK_INT(whole("9999999999999999999", &v), NUM_OK,
	    "19 nines (the fast path's longest) are read");
	CHECK_UINT(v, 9999999999999999999ULL, "their value");
	CHECK_INT(whole("10000000000000000000", &v), NUM_OK,
	    "10^19 (20 digits, checked path) is read");
	CHECK_UINT(v, 10000000000000000000ULL, "its value");

	/* not digits only */
	CHECK_INT(whole("", &v), NUM_BAD, "empty: bad");
	CHECK_UINT(v, 0, "a bad string's value is 0");
	CHECK_INT(whole("-1", &v), NUM_BAD, "a sign: bad");
	CHECK_INT(whole("+1", &v), NUM_BAD, "a plus sign: bad");
	CHECK_INT(whole(" 1", &v), NUM_BAD, "a leading space: bad");
	CHECK_INT(whole("1 ", &v), NUM_BAD, "a trailing space: bad");
	CHECK_INT(whole("0x10", &v), NUM_BAD, "hex: bad");
	CHECK_INT(whole("1.5", &v), NUM_BAD, "a decimal point: bad");
	CHECK_INT(num_u64("123", 2, &v, NULL), NUM_OK,
	    "only s[0..len) is read");
	CHECK_UINT(v, 12, "its value");

	/* leading digits */
	CHECK_INT(num_u64("42 rest", 7, &v, &used), NUM_OK,
	    "leading digits are read");
	CHECK_UINT(v, 42, "their value");
	CHECK_UINT(used, 2, "their count");
	CHECK_INT(num_u64("x1", 2, &v, &used), NUM_BAD,
	    "no leading digit: bad");
	CHECK_UINT(used, 0, "none counted");
	CHECK_INT(num_u64("18446744073709551616:", 21, &v, &used), NUM_RANGE,
	    "leading 2^64: out of range");
	CHECK_UINT(used, 20, "every digit counted past an overflow");
	CHECK_UINT(v, UINT64_MAX, "and saturated");

	/* option arguments */
	v = 7;
	CHECK_INT(num_arg("1000", 1, 1000, &v), 0, "the upper bound is taken");
	CHECK_UINT(v, 1000, "its value");
	CHECK_INT(num_arg("1", 1, 1000, &v), 0, "the lower bound is taken");
	v = 7;
	CHECK_INT(num_arg("1001", 1, 1000, &v), -1, "above the range: refused");
	CHECK_INT(num_arg("0", 1, 1000, &v), -1, "below the range: refused");
	CHECK_INT(num_arg("", 0, 10, &v), -1, "empty: refused");
	CHECK_INT(num_arg("-0", 0, 10, &v), -1, "a sign: refused");
	CHECK_INT(num_arg("5x", 0, 10, &v), -1, "trailing text: refused");
	CHECK_UINT(v, 7, "a refused argument leaves the value");
	CHECK_INT(num_arg("18446744073709551615", 0, UINT64_MAX, &v), 0,
	    "2^64-1 within [0, 2^64-1]");
	CHECK_UINT(v, UINT64_MAX, "its value");
	CHECK_INT(num_arg("18446744073709551616", 0, UINT64_MAX, &v), -1,
	    "2^64: refused, not saturated into the range");
	return unit_done();
}
