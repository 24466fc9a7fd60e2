/*
 * folded: parse one line of folded stacks, "STACK COUNT", or the
 * differential "STACK BEFORE AFTER" (fg-stream(5)); and the one reader of
 * a folded input, which hands each good line to a callback.
 *
 * A count is a non-negative integer that fits in 64 bits, or a decimal
 * ("12.5") for scaled input whose whole part does, read whole however
 * many digits it has (base/num). As in flamegraph.pl, a line whose stack itself
 * ends in " NUMBER" is read as differential. A line that holds a NUL byte
 * is FOLDED_NUL: a name cut there would fold into another.
 */
#ifndef FG_FOLDED_H
#define FG_FOLDED_H

#include <stddef.h>
#include <stdint.h>

#include "base/lineread.h"

enum folded_status {
	FOLDED_OK,
	FOLDED_BLANK,		/* empty or white space only: skip quietly */
	FOLDED_NOCOUNT,		/* no count at the end of the line */
	FOLDED_BADCOUNT,	/* negative, or not a number */
	FOLDED_OVERFLOW,	/* a count over 2^64-1 (a fraction's whole part too) */
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

/*
 * As folded_parse for the line "STACK COUNT", for a stack (borrowed, no
 * count in it) whose count is held apart, as a folded profile holds it:
 * no line is written. A stack that itself ends in " NUMBER" is read as
 * differential, BEFORE that number and AFTER count, as flamegraph.pl
 * reads the line; white space at its end is not part of it. Returns
 * FOLDED_OK, FOLDED_NUL (a NUL byte in the stack) or FOLDED_NOSTACK (an
 * empty stack, or white space only).
 */
enum folded_status folded_parse_stack(const char *stack, size_t len,
		    uint64_t count, struct folded_line *out);

/* A short phrase for a status, for "fgsvg: FILE:LINE: PHRASE" messages. */
const char	*folded_strerror(enum folded_status);

/*
 * The folded reader: the one loop over a folded input's lines, for
 * fgfold --folded/--diff and fgsvg.
 *
 *	struct folded_reader r;
 *	folded_reader_init(&r, &opts);
 *	for each input: lineread_init(&lr, fd, name);	(or lineread_map)
 *		rc = folded_read(&r, &lr);
 *		lineread_release(&lr);
 *
 * It sniffs the input first (stream/sniff.h: a perf.data, a gzip, a sample
 * stream ... is refused in one line, nothing of it read), parses each
 * line, says the first bad line of each kind as "NAME:LINE: WHAT...",
 * keeps the integer counts' sums per slot within 2^64-1 (a line that would
 * take one past it is skipped, said the first time), and hands every
 * good line to on_line. Blank lines are skipped quietly. What is said
 * once is said once per reader: a reader per input says it per input.
 */
struct folded_item {
	const char	*line;		/* the whole line, borrowed for the call;
					   not NUL-terminated */
	size_t		 len;
	int		 kept;		/* line stays valid as long as the
					   input's mapping (lineread_map) */
	unsigned long	 lineno;
	struct folded_line fl;		/* its parse: fl.stack is in line */
	int		 to[2];		/* the slot each count goes to */
};

struct folded_reader_opts {
	const char	*tool;		/* its own name, in a refusal: "fgfold" */
	int		 slot;		/* the slot of a plain line's count, 0
					   or 1 (a differential line's go to 0
					   and 1) */
	int		 say_forms;	/* a bad line's message names the two
					   forms expected; else it quotes the
					   line */
	const char	*fewer;		/* how to stay within 2^64-1, ending the
					   message of a line skipped for its sum:
					   "fold fewer files at a time" */
	uint64_t	*totals;	/* borrowed: the integer counts' sums per
					   slot, checked and added to */
	void		(*on_line)(void *arg, const struct folded_item *);
	void		*arg;
};

struct folded_reader {
	struct folded_reader_opts opts;	/* copied; the pointers borrowed */
	unsigned long	 bad;		/* malformed lines */
	unsigned long	 skipped;	/* lines skipped for their sum */
	int		 read_failed;	/* a read failed (said) */
	int		 seen[FOLDED_NOSTACK + 1]; /* per status: lines so far */
};

void	 folded_reader_init(struct folded_reader *,
	    const struct folded_reader_opts *);

/*
 * Reads lr's lines (borrowed: the caller made it, with lineread_init or
 * lineread_map, and releases it) to the end; a failed read is said, as
 * cmdfile_read_failed words it. Returns 0 when the input was clean, 1 when
 * a line was bad or skipped or a read failed, SNIFF_REFUSED (2) when it was
 * refused (said; nothing of it read).
 */
int	 folded_read(struct folded_reader *, struct lineread *lr);

#endif
