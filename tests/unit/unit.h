/*
 * unit.h: a tiny TAP producer for the unit tests of common/.
 *
 *	CHECK(cond, "what it shows");
 *	CHECK_STR(got, want, "what it shows");
 *	CHECK_INT(got, want, "what it shows");		signed, as intmax_t
 *	CHECK_UINT(got, want, "what it shows");		unsigned, as uintmax_t
 *	CHECK_MEM(got, gotlen, want, wantlen, "what it shows");
 *	CHECK_EQ(got, want, "what it shows");		any of the three, by got's type
 *	SKIP("what it would show", "why it cannot run here");
 *	fd = unit_memfd(bytes, n);		an fd at offset 0 holding them
 *	return unit_done();
 *
 * Each CHECK_ but CHECK evaluates its arguments once and, when it fails,
 * prints what it got and what it wanted ("got 3, want 4"), so that a
 * failure in a log says what went wrong without a debugger. NULL strings
 * print as (null) and never match.
 */
#ifndef FG_UNIT_H
#define FG_UNIT_H

#include <inttypes.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int unit_n, unit_failed;

#define CHECK(cond, what) do {						\
	unit_n++;							\
	if (cond) printf("ok %d - %s\n", unit_n, what);			\
	else { unit_failed++;						\
		printf("not ok %d - %s\n#   %s:%d: %s\n", unit_n, what,	\
		    __FILE__, __LINE__, #cond); }			\
} while (0)

/* A check that cannot run here: counted as skipped, with the reason. */
#define SKIP(what, why)							\
	printf("ok %d - %s # SKIP %s\n", ++unit_n, what, why)

/* The result of one check: ok, or not ok with where and why. */
static inline void
unit_result(int ok, const char *what, const char *file, int line)
{
	unit_n++;
	if (ok) {
		printf("ok %d - %s\n", unit_n, what);
		return;
	}
	unit_failed++;
	printf("not ok %d - %s\n#   %s:%d: ", unit_n, what, file, line);
}

static inline void
unit_int(intmax_t got, intmax_t want, const char *what, const char *file,
    int line)
{
	unit_result(got == want, what, file, line);
	if (got != want)
		printf("got %jd, want %jd\n", got, want);
}

static inline void
unit_uint(uintmax_t got, uintmax_t want, const char *what, const char *file,
    int line)
{
	unit_result(got == want, what, file, line);
	if (got != want)
		printf("got %ju (0x%jx), want %ju (0x%jx)\n", got, got, want, want);
}

static inline void
unit_str(const char *got, const char *want, const char *what,
    const char *file, int line)
{
	int ok = got && want && strcmp(got, want) == 0;

	unit_result(ok, what, file, line);
	if (!ok)
		printf("got '%s', want '%s'\n", got ? got : "(null)",
		    want ? want : "(null)");
}

/* Bytes as C would write them: printable ASCII as is, the rest escaped. */
static inline void
unit_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	putchar('"');
	for (i = 0; b && i < len; i++) {
		if (b[i] == '\\' || b[i] == '"')
			printf("\\%c", b[i]);
		else if (b[i] >= 0x20 && b[i] < 0x7f)
			putchar(b[i]);
		else if (b[i] == '\n')
			printf("\\n");
		else
			printf("\\x%02x", b[i]);
	}
	putchar('"');
}

static inline void
unit_mem(const void *got, size_t glen, const void *want, size_t wlen,
    const char *what, const char *file, int line)
{
	int ok = got && want && glen == wlen && memcmp(got, want, glen) == 0;

	unit_result(ok, what, file, line);
	if (ok)
		return;
	printf("got %zu bytes ", glen);
	got ? unit_bytes(got, glen) : (void)printf("(null)");
	printf(", want %zu bytes ", wlen);
	want ? unit_bytes(want, wlen) : (void)printf("(null)");
	putchar('\n');
}

#define CHECK_STR(got, want, what)					\
	unit_str(got, want, what, __FILE__, __LINE__)
#define CHECK_INT(got, want, what)					\
	unit_int((intmax_t)(got), (intmax_t)(want), what, __FILE__, __LINE__)
#define CHECK_UINT(got, want, what)					\
	unit_uint((uintmax_t)(got), (uintmax_t)(want), what, __FILE__, __LINE__)
#define CHECK_MEM(got, glen, want, wlen, what)				\
	unit_mem(got, glen, want, wlen, what, __FILE__, __LINE__)

/* CHECK_INT, CHECK_UINT or CHECK_STR, chosen by the type of got. */
#define CHECK_EQ(got, want, what) _Generic((got),			\
	char *: unit_str, const char *: unit_str,			\
	unsigned char: unit_uint, unsigned short: unit_uint,		\
	unsigned int: unit_uint, unsigned long: unit_uint,		\
	unsigned long long: unit_uint, _Bool: unit_uint,		\
	default: unit_int)(got, want, what, __FILE__, __LINE__)

/* An fd holding p[0..n), at offset 0; exits 2 when it cannot be made. */
static inline int
unit_memfd(const void *p, size_t n)
{
	int fd = memfd_create("unit", 0);

	if (fd == -1 || write(fd, p, n) != (ssize_t)n ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		perror("memfd");
		exit(2);
	}
	return fd;
}

static inline int
unit_done(void)
{
	printf("1..%d\n", unit_n);
	return unit_failed != 0;
}

#endif
