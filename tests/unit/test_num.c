/*
 * Unit tests of common/base/num: the overflow edges 2^64-1 (read) and 2^64
 * (out of range, saturated), with and without leading zeros and on both
 * sides of the 19-digit fast path; digits only; the leading-digits mode
 * and its count; option arguments within [lo, hi]; the same for hex.
 */
#include <stdint.h>
#include <string.h>

#include "base/num.h"
#include "unit.h"

static const struct {
	const char	*s;
	int		 rc;
	uint64_t	 v;
	const char	*what;
} cases[] = {
	{ "0", NUM_OK, 0, "0 is read" },
	{ "12", NUM_OK, 12, "12 is read" },
	{ "18446744073709551615", NUM_OK, UINT64_MAX, "2^64-1 is read" },
	{ "18446744073709551616", NUM_RANGE, UINT64_MAX,
	    "2^64 is out of range, saturated at 2^64-1" },
	{ "18446744073709551620", NUM_RANGE, UINT64_MAX,
	    "2^64+4 is out of range (the last digit alone overflows)" },
	{ "99999999999999999999", NUM_RANGE, UINT64_MAX,
	    "twenty nines are out of range" },
	{ "184467440737095516150", NUM_RANGE, UINT64_MAX,
	    "2^64-1 with a digit more is out of range" },
	{ "0000018446744073709551615", NUM_OK, UINT64_MAX,
	    "2^64-1 after leading zeros is read" },
	{ "9999999999999999999", NUM_OK, 9999999999999999999ULL,
	    "19 nines (the fast path's longest) are read" },
	{ "10000000000000000000", NUM_OK, 10000000000000000000ULL,
	    "10^19 (20 digits, checked path) is read" },
	{ "", NUM_BAD, 0, "empty: bad, 0" },
	{ "-1", NUM_BAD, 0, "a sign: bad" },
	{ "+1", NUM_BAD, 0, "a plus sign: bad" },
	{ " 1", NUM_BAD, 0, "a leading space: bad" },
	{ "1 ", NUM_BAD, 0, "a trailing space: bad" },
	{ "0x10", NUM_BAD, 0, "hex: bad" },
	{ "1.5", NUM_BAD, 0, "a decimal point: bad" },
};

static const struct {
	const char	*s;
	int		 rc;
	uint64_t	 v;
	const char	*what;
} xcases[] = {
	{ "0", NUM_OK, 0, "hex 0 is read" },
	{ "1f", NUM_OK, 0x1f, "hex 1f is read" },
	{ "DeadBeef", NUM_OK, 0xdeadbeef, "either case" },
	{ "ffffffffffffffff", NUM_OK, UINT64_MAX, "hex 2^64-1 is read" },
	{ "10000000000000000", NUM_RANGE, UINT64_MAX,
	    "hex 2^64 is out of range, saturated at 2^64-1" },
	{ "fffffffffffffffff", NUM_RANGE, UINT64_MAX,
	    "seventeen f's are out of range" },
	{ "0000ffffffffffffffff", NUM_OK, UINT64_MAX,
	    "hex 2^64-1 after leading zeros is read" },
	{ "ffffffff81000000", NUM_OK, 0xffffffff81000000ULL,
	    "a kernel address is read" },
	{ "", NUM_BAD, 0, "hex empty: bad, 0" },
	{ "0x10", NUM_BAD, 0, "hex with 0x: bad (the caller takes it off)" },
	{ "-1", NUM_BAD, 0, "hex with a sign: bad" },
	{ " 1", NUM_BAD, 0, "hex after a space: bad" },
	{ "1g", NUM_BAD, 0, "a letter past f: bad" },
};

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
	size_t used, i;

	/* whole strings: the overflow edges, the fast path's, bad ones */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(whole(cases[i].s, &v), cases[i].rc, cases[i].what);
		CHECK_UINT(v, cases[i].v, cases[i].what);
	}
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

	/* hex */
	for (i = 0; i < sizeof(xcases) / sizeof(xcases[0]); i++) {
		CHECK_INT(num_x64(xcases[i].s, strlen(xcases[i].s), &v, NULL),
		    xcases[i].rc, xcases[i].what);
		CHECK_UINT(v, xcases[i].v, xcases[i].what);
	}
	CHECK_INT(num_x64("abc", 2, &v, NULL), NUM_OK,
	    "hex: only s[0..len) is read");
	CHECK_UINT(v, 0xab, "its value");
	CHECK_INT(num_x64("7f T _stext", 11, &v, &used), NUM_OK,
	    "leading hex digits are read");
	CHECK_UINT(v, 0x7f, "their value");
	CHECK_UINT(used, 2, "their count");
	CHECK_INT(num_x64(" 7f", 3, &v, &used), NUM_BAD,
	    "no leading hex digit: bad");
	CHECK_UINT(used, 0, "none counted");
	CHECK_INT(num_x64("10000000000000000 x", 19, &v, &used), NUM_RANGE,
	    "leading hex 2^64: out of range");
	CHECK_UINT(used, 17, "every hex digit counted past an overflow");
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

	/* real option arguments, as fgsvg's --width or --minwidth */
	{
		double d = 7;

		CHECK(num_real("0.59", 0.01, 100, &d) == 0 && d == 0.59,
		    "0.59 within [0.01, 100]");
		CHECK(num_real("1e3", 0.1, 1000, &d) == 0 && d == 1000,
		    "an exponent; the upper bound is taken");
		CHECK(num_real("21", 21, 1e6, &d) == 0 && d == 21,
		    "the lower bound is taken");
		d = 7;
		CHECK_INT(num_real("20.99", 21, 1e6, &d), -1, "below: refused");
		CHECK_INT(num_real("1000.5", 0, 1000, &d), -1, "above: refused");
		CHECK_INT(num_real("", 0, 10, &d), -1, "empty: refused");
		CHECK_INT(num_real("5x", 0, 10, &d), -1, "trailing text: refused");
		CHECK_INT(num_real("nan", 0, 10, &d), -1, "nan: refused");
		CHECK_INT(num_real("inf", 0, 1e300, &d), -1, "inf: refused");
		CHECK_INT(num_real("1e999", 0, 1e300, &d), -1,
		    "an overflow: refused");
		CHECK(d == 7, "a refused argument leaves the value");
	}
	/* fractional counts, however many digits (issue 42, point 10) */
	{
		static const char long_frac[] = "1.25000000000000000000000000"
		    "00000000000000000000000000000000000000000000000000001";
		static const char long_whole[] = "12345678901234567890123456"
		    "789012345678901234567890123456789012345678901234567890.5";
		double d = 7;

		CHECK(num_decimal("12.5", 4, &d) == NUM_OK && d == 12.5,
		    "12.5");
		CHECK(num_decimal("12.", 3, &d) == NUM_OK && d == 12, "12.");
		CHECK(num_decimal("0.1", 3, &d) == NUM_OK && d == 0.1,
		    "0.1 rounded as strtod rounds it");
		CHECK(num_decimal(long_frac, strlen(long_frac), &d) == NUM_OK &&
		    d == 1.25, "80 digits after the dot: read whole");
		CHECK_INT(num_decimal(long_whole, strlen(long_whole), &d),
		    NUM_RANGE, "80 digits before the dot: past the range, "
		    "not read from its first 63");
		CHECK_INT(num_decimal("18446744073709551616.5", 22, &d),
		    NUM_RANGE, "2^64 and a half: past the range");
		CHECK(num_decimal("18446744073709551615.5", 22, &d) == NUM_OK &&
		    d == 18446744073709551615.5, "2^64-1 and a half: read");
		CHECK_INT(num_decimal(".5", 2, &d), NUM_BAD, ".5: no whole part");
		CHECK_INT(num_decimal("1.2.3", 5, &d), NUM_BAD, "two dots");
		CHECK_INT(num_decimal("1.5x", 4, &d), NUM_BAD, "a letter");
		CHECK_INT(num_decimal("1.5 2", 3, &d), NUM_OK,
		    "only the length given is read");
	}

	/* numbers at a cursor: /proc fields, a colour's components */
	{
		const char *line = "7f00-7fff 00ff:12 x", *p = line;
		uint64_t a = 1, b = 1;

		CHECK(num_next(&p, 16, &a) == NUM_OK && a == 0x7f00 &&
		    *p == '-', "hex digits, the cursor at the dash");
		p++;
		CHECK(num_next(&p, 16, &a) == NUM_OK && a == 0x7fff, "again");
		p++;
		CHECK(num_next(&p, 10, &b) == NUM_OK && b == 0 && *p == 'f',
		    "decimal stops at a hex letter");
		p = line + 18;
		CHECK(num_next(&p, 10, &b) == NUM_BAD && p == line + 18,
		    "no digit: NUM_BAD, the cursor unmoved");
		p = "18446744073709551616,";
		CHECK(num_next(&p, 10, &b) == NUM_RANGE && *p == ',' &&
		    b == UINT64_MAX, "2^64: saturated, past every digit");
	}
	return unit_done();
}
