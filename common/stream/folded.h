/*
 * folded: parse one line of folded stacks, "STACK COUNT", or the
 * differential "STACK BEFORE AFTER" (fg-stream(5)).
 *
 * A count is a non-negative integer that fits in 64 bits, or a decimal
 * ("12.5") for scaled input. As in flamegraph.pl, a line whose stack itself
 * ends in " NUMBER" is read as differential. A line that holds a NUL byte
 * is FOLDED_NUL: a name cut there would fold into another.
 */
#ifndef FG_FOLDED_H
#define FG_FOLDED_H

#include <stddef.h>
#include <stdint.h>

enum folded_status {
	FOLDED_OK,
	FOLDED_BLANK,		/* empty or white space only: skip quietly */
	FOLDED_NOCOUNT,		/* no count at the end of the line */
	FOLDED_BADCOUNT,	/* negative, or not a number */
	FOLDED_OVERFLOW,	/* an integer count over 2^64-1 */
	FOLDED_NUL,		/* a NUL byte: no name holds one */
	FOLDED_NOSTACK		/* a count and nothing before it: the last */
};

struct folded_count {
	uint64_t	 u;		/* the value when !decimal */
	double		 d;		/* the value, always */
	int		 decimal;	/* written with a fraction */
};

struct folded_line {
	const char	*stack;		/* borrowed from the line; not NUL-terminated */
	size_t		 stack_len;
	int		 ncounts;	/* 1, or 2 for differential */
	struct folded_count count[2];	/* count[0] is BEFORE when ncounts is 2 */
};

enum folded_status folded_parse(const char *line, size_t len,
		    struct folded_line *out);

/* A short phrase for a status, for "fgsvg: FILE:LINE: PHRASE" messages. */
const char	*folded_strerror(enum folded_status);

#endif
