/*
 * unit.h: a tiny TAP producer for the unit tests of common/.
 *
 *	CHECK(cond, "what it shows");
 *	CHECK_STR(got, want, "what it shows");
 *	return unit_done();
 */
#ifndef FG_UNIT_H
#define FG_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_n, unit_failed;

#define CHECK(cond, what) do {						\
	unit_n++;							\
	if (cond) printf("ok %d - %s\n", unit_n, what);			\
	else { unit_failed++;						\
		printf("not ok %d - %s\n#   %s:%d: %s\n", unit_n, what,	\
		    __FILE__, __LINE__, #cond); }			\
} while (0)

#define CHECK_STR(got, want, what) do {					\
	const char *g_ = (got), *w_ = (want);				\
	unit_n++;							\
	if (g_ && w_ && strcmp(g_, w_) == 0)				\
		printf("ok %d - %s\n", unit_n, what);			\
	else { unit_failed++;						\
		printf("not ok %d - %s\n#   %s:%d: got '%s', want '%s'\n",	\
		    unit_n, what, __FILE__, __LINE__,			\
		    g_ ? g_ : "(null)", w_ ? w_ : "(null)"); }		\
} while (0)

static inline int
unit_done(void)
{
	printf("1..%d\n", unit_n);
	return unit_failed != 0;
}

#endif
