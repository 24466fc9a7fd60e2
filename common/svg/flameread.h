/*
 * flameread: fgsvg's inputs, folded stacks (fg-stream(5): "STACK COUNT"
 * or "STACK BEFORE AFTER"), read into a flame through the folded reader
 * (stream/folded.h) with fgsvg's wording. A bad line is warned about
 * (the first of each kind, "NAME:LINE: what; expected ..."), counted and
 * skipped; so is a line that would take the integer counts' sum past
 * 2^64-1 (said once), as fgfold does, rather than rounded silently. A
 * regular file is mapped, and the flame keeps its lines in place: the
 * mappings last until flameread_release, which comes after flame_release.
 *
 *	flame_init(&fl, &fo);
 *	flameread_init(&fr, &fl);
 *	for each input: flameread_fd(&fr, fd, name); close fd
 *	rval = flameread_finish(&fr);		warns "skipped N malformed lines"
 *	flame_build(&fl); ... svg_write(...) ...
 *	flame_release(&fl);
 *	flameread_release(&fr);
 */
#ifndef FG_SVG_FLAMEREAD_H
#define FG_SVG_FLAMEREAD_H

#include <stddef.h>
#include <stdint.h>

#include "base/lineread.h"
#include "profile/fold.h"
#include "stream/folded.h"
#include "svg/flame.h"

struct flameread {
	struct flame	*fl;		/* borrowed: where the lines go */
	uint64_t	 totals[2];	/* the integer counts summed, BEFORE
					   and AFTER (a plain line's count is
					   AFTER) */
	struct folded_reader rd;	/* one for all inputs: a kind of bad
					   line is said once in all; it points
					   at totals, so fr stays where
					   flameread_init set it up */
	int		 refused;	/* an input was no text (stream/sniff.h
					   said what): the exit status is 2 */
	struct lineread	*maps;		/* owned: the mapped inputs */
	size_t		 nmaps, mapcap;
};

/* Sets up fr to read into fl (borrowed until flameread_release). */
void	 flameread_init(struct flameread *fr, struct flame *fl);

/*
 * Reads the folded lines of fd (borrowed: the caller closes it, and may
 * as soon as this returns) into fr's flame, naming it name (borrowed for
 * the call) in messages. Every problem is warned about here and
 * remembered for flameread_finish.
 */
void	 flameread_fd(struct flameread *fr, int fd, const char *name);

/*
 * As flameread_fd, from lr (borrowed: the caller made it and releases it;
 * what a peek looked at is read too, and lr->name names it), the lines
 * copied unless lr is a mapping. Returns -1 when the input was refused
 * (said: fr->refused is set), else 0.
 */
int	 flameread_lines(struct flameread *fr, struct lineread *lr);

/*
 * Ends the reading: warns "skipped N malformed lines" when there were
 * any. Returns 1 when some input was bad (malformed lines, a read error,
 * a line skipped for its sum), 0 when all was clean.
 */
int	 flameread_finish(struct flameread *fr);

/*
 * Adds the stacks folded from sample streams (f, settled first: borrowed
 * for the call) to fr's flame, each with its count. Returns a new array
 * (the caller frees it) that gives for each stack of f->tab the line it
 * is in the flame (its index in fl->ends), or UINT32_MAX for a stack not
 * drawn: the timeline's map from stacks to the flame.
 */
uint32_t *flameread_fold(struct flameread *fr, struct fold *f);

/* Unmaps the inputs: after flame_release, since the flame points into them. */
void	 flameread_release(struct flameread *fr);

#endif
