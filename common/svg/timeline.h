/*
 * timeline: when, and in which thread, a stream's samples fell: fgsvg's
 * strip above the graph. The samples of a stream (their thread, time,
 * weight and stack) are binned per thread over the run's time; each bin
 * holds the stacks seen there and their weights (on-CPU and off-CPU), as
 * nodes of the flame's tree, so that the page's script can draw the graph
 * again from any range of time and any set of threads (timeline.js).
 *
 * The data is bounded, as the search data is (--search-budget): past the
 * budget, stacks narrower than a share of the run are counted in their
 * callers, then the bins are made wider, and the page says so.
 *
 *	timeline_init(&tl, &opts);
 *	for each sample: timeline_add(&tl, &sample);
 *	... flame_build(&fl) with fl.opts.ends ...
 *	if (timeline_build(&tl, &fl, seq, timed) == 0)	something to draw
 *		so.timeline = &tl;	svg_write calls timeline_write
 *	timeline_release(&tl);
 */
#ifndef FG_SVG_TIMELINE_H
#define FG_SVG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/hashtab.h"
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

/* One sample, as the stream gave it. */
struct timeline_sample {
	uint64_t	 pid, tid;	/* 0: none */
	const char	*comm;		/* borrowed for the call */
	size_t		 commlen;
	uint64_t	 time;		/* ns, when has_time */
	int		 has_time;
	uint32_t	 stack;		/* the caller's id of its stack */
	uint64_t	 count;		/* its weight as a count */
	uint64_t	 period;	/* its weight as time (timed streams) */
	int		 offcpu;
};

struct tl_thread;
struct tl_sample;

struct timeline {
	struct timeline_opts opts;
	struct tl_thread *threads;	/* in the order first seen */
	size_t		 nthreads, threadcap;
	struct hashtab	 index;		/* of threads, by pid and tid */
	struct tl_sample *samples;
	size_t		 nsamples, samplecap;
	uint64_t	 untimed;	/* samples with no time: not binned */
	/* timeline_build's result */
	struct buf	 data;		/* the body of the script's fgtl */
	int		 rows;		/* rows drawn */
	char		*note;		/* what was reduced, or NULL */
};

/* Sets up an empty timeline; opts is copied. */
void	 timeline_init(struct timeline *, const struct timeline_opts *);

/* Frees what it holds; it may be timeline_init'ed again. */
void	 timeline_release(struct timeline *);

/* Adds one sample; s and its strings are borrowed for the call. */
void	 timeline_add(struct timeline *, const struct timeline_sample *s);

/*
 * Bins the samples over the flame fl (borrowed; built with opts.ends):
 * seq[stack] is the line the stack was added to fl as (its index in
 * fl->ends), or UINT32_MAX for a stack not added. timed: the weights are
 * the periods (a stream of time), else the counts. pal (borrowed) colours
 * the names as the graph does. Returns 0 when there is a timeline to draw,
 * -1 when no sample had a time.
 */
int	 timeline_build(struct timeline *, const struct flame *fl,
	    const uint32_t *seq, int timed, struct palette *pal);

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
