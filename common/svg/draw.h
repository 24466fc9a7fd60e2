/*
 * draw: what fgsvg draws from, read into one flame: folded stacks (each
 * line straight into the flame, svg/flameread.h) or sample streams, folded
 * as fgfold folds them (profile/fold.h, its default options) with their
 * samples binned per thread and time (profile/timebins.h) for the
 * timeline; never both kinds in one graph.
 *
 *	draw_init(&d, &fl, &tlopts, notimeline);
 *	signal(SIGBUS, draw_on_sigbus);
 *	for each input: rv = draw_read(&d, fd, name);	2: exit 2, said
 *	rval |= draw_finish(&d, rval != 0, &so, &pal);	the flame, timeline
 *	svg_write(...);
 *	flame_release(&fl);
 *	draw_release(&d);
 */
#ifndef FG_SVG_DRAW_H
#define FG_SVG_DRAW_H

#include "profile/fold.h"
#include "profile/timebins.h"
#include "svg/flame.h"
#include "svg/flameread.h"
#include "svg/palette.h"
#include "svg/svg.h"
#include "svg/timeline.h"

struct draw {
	struct flame	*fl;		/* borrowed: the graph */
	struct flameread fr;
	struct fold	 fold;
	struct timebins	 tb;		/* the streams' samples, binned */
	struct timeline	 tl;
	char		*folded;	/* the first input of each kind, owned */
	char		*stream;
	int		 notimeline;
	int		 timeline_ok;	/* draw_finish made a timeline */
};

/*
 * Sets up d to read into fl (borrowed until draw_release; made with
 * opts.ends unless notimeline); tlo is copied.
 */
void	draw_init(struct draw *, struct flame *fl,
	    const struct timeline_opts *tlo, int notimeline);

/*
 * Reads fd (borrowed; named name for messages): a sample stream is
 * folded, anything else read as folded stacks (stream/sniff.h refuses
 * what is neither). Exits 2, in one line, when fd is of the other kind
 * than an input before. Returns 0, 1 for a bad line or a read error, 2
 * when the input was refused (said; the tool exits 2).
 */
int	draw_read(struct draw *, int fd, const char *name);

/*
 * Ends the reading and builds the flame; for streams, the timeline too,
 * with pal and so (borrowed for the call) when its budget is 0 (30% of
 * the graph drawn without it, at least TIMELINE_BUDGET_MIN). Then
 * completes so for svg_write: so->timeline is d's timeline when one was
 * made (borrowed until draw_release), and a --total less than the sum of
 * the counts is warned of and dropped. quiet: an error was said already.
 * Returns 1 when some input was bad, else 0.
 */
int	draw_finish(struct draw *, int quiet, struct svg_opts *so,
	    struct palette *pal);

/*
 * A SIGBUS handler for fgsvg: a mapped input (flameread_fd) that shrank
 * while it was read is said in one line, exit 2, rather than died of.
 */
void	draw_on_sigbus(int sig);

/* Frees what d holds: after flame_release (the flame points into it). */
void	draw_release(struct draw *);

#endif
