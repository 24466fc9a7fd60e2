/*
 * str: tests on byte strings that carry their length (p[0..len), not
 * NUL-terminated), against a NUL-terminated needle; one hex digit's
 * value, and bytes written as hex. Everything here is inline and borrows
 * its arguments.
 */
#ifndef FG_STR_H
#define FG_STR_H

#include <stddef.h>
#include <string.h>

#include "base/xalloc.h"

/* Whether s[0..len) is exactly lit. */
static inline int
str_is(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len == n && memcmp(s, lit, n) == 0;
}

/* Whether needle occurs in s[0..len). */
static inline int
str_has(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static inline int
str_starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

static inline int
str_ends(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* The value of hex digit c (either case), or -1. */
static inline int
str_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The len bytes at p as lower-case hex, two digits a byte (a build ID's
 * spelling): a new string of 2 * len characters, the caller frees it.
 */
static inline char *
str_hexdup(const void *p, size_t len)
{
	static const char dig[] = "0123456789abcdef";
	const unsigned char *b = p;
	char *s = xmalloc(2 * len + 1);
	size_t i;

	for (i = 0; i < len; i++) {
		s[2 * i] = dig[b[i] >> 4];
		s[2 * i + 1] = dig[b[i] & 15];
	}
	s[2 * len] = '\0';
	return s;
}

#endif
