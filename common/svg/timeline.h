/*
 * timeline: when, and in which thread, a stream's samples fell: fgsvg's
 * strip above the graph. The samples of a stream (their thread, time,
 * weight and stack) are binned per thread over the run's time; each bin
 * holds the stacks seen there and their weights (on-CPU and off-CPU), as
 * nodes of the flame's tree, so that the page's script can draw the graph
 * again from any range of time and any set of threads (timeline.js).
 *
 * The samples were binned as they were read (profile/timebins.h), so that
 * memory grows with threads, stacks and bins, not with samples. The data
 * is bounded, as the search data is (--search-budget): past the budget,
 * stacks narrower than a share of the run are counted in their callers,
 * then the bins are made wider, and the page says so.
 *
 *	timeline_init(&tl, &opts);
 *	... fold the streams into tb, flame_build(&fl) with fl.opts.ends ...
 *	if (timeline_build(&tl, &tb, &fl, seq, timed, pal) == 0)	to draw
 *		so.timeline = &tl;	svg_write calls timeline_write
 *	timeline_release(&tl);
 */
#ifndef FG_SVG_TIMELINE_H
#define FG_SVG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "profile/timebins.h"
#include "svg/flame.h"
#include "svg/palette.h"

#define TIMELINE_BINS	400	/* time bins across the run, at most */
#define TIMELINE_ROWS	8	/* threads drawn at once; the rest in one row */
#define TIMELINE_BUDGET_MIN	((size_t)256 << 10)	/* fgsvg's least default budget */

struct timeline_opts {
	size_t		 budget;	/* bytes of data at most (fgsvg: 30% of
					   the graph, at least 256 KiB) */
	int		 bins;		/* 0: TIMELINE_BINS */
};

struct timeline {
	struct timeline_opts opts;
	/* timeline_build's result */
	struct buf	 data;		/* the body of the script's fgtl */
	int		 rows;		/* rows drawn */
	char		*note;		/* what was reduced, or NULL */
};

/* Sets up an empty timeline; opts is copied. */
void	 timeline_init(struct timeline *, const struct timeline_opts *);

/* Frees what it holds; it may be timeline_init'ed again. */
void	 timeline_release(struct timeline *);

/*
 * Draws the time bins tb (borrowed for the call: a stream's samples binned
 * as they were read, profile/timebins.h) over the flame fl (borrowed;
 * built with opts.ends): seq[stack] is the line fold's stack was added to
 * fl as (its index in fl->ends, flameread_fold), or UINT32_MAX for a stack
 * not added. timed: the weights are the periods (a stream of time), else
 * the counts. pal (borrowed) colours the names as the graph does. Returns
 * 0 when there is a timeline to draw, -1 when no sample had a time.
 */
int	 timeline_build(struct timeline *, const struct timebins *tb,
	    const struct flame *fl, const uint32_t *seq, int timed,
	    struct palette *pal);

/* The room the timeline takes above the graph, in pixels. */
double	 timeline_height(const struct timeline *, double fontsize);

/*
 * Appends to out, inside the document's script, the timeline's data for a
 * strip at y (pixels from the top) and the script of timeline.js.
 */
void	 timeline_write(struct buf *out, const struct timeline *, double y);

/*
 * The timeline's script, common/svg/timeline.js made into C by make, a
 * NUL-terminated string.
 */
extern const char timeline_script[];

#endif
