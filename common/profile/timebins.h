/*
 * timebins: a stream's samples binned as they are read, per thread, time
 * bin and stack, so that memory grows with threads, stacks and bins, never
 * with samples. fgsvg's timeline draws them (svg/timeline.h); the
 * comparison of runs will weigh them.
 *
 * The run's end is unknown while reading, and the bins the timeline draws
 * are chosen from the whole run (its span over at most 400 bins, and no
 * narrower than 8 samples of the busiest thread). So the samples go into
 * fine bins, of 2^shift ns from time 0, that are merged later: the shift
 * starts at 0 (exact times) and grows, merging neighbours, each time the
 * cells (one per thread, fine bin, stack, on- or off-CPU) pass their cap:
 * to the widest fine bins of which the run so far spans at least
 * 2 * TIMEBINS_FINE_MIN (so a drawn bin, 1/400 of the run, is some 20 fine
 * bins or more: rounded to whole ones, it is at most 5% wider). The
 * drawn bins are then whole numbers of fine bins, from the first sample's
 * fine bin: while the shift is 0 they are exactly what they were when
 * every sample was kept (the same bytes), and past it each drawn bin
 * starts at most one fine bin earlier and is at most one fine bin wider.
 *
 * An off-CPU wait is spread over the bins it spans. Waits are kept exact
 * (their start and length) up to TIMEBINS_WAITS of them, to be spread over
 * the drawn bins at the end; past that they are spread over the fine bins
 * as they come, the shift made large enough that the run so far spans at
 * most TIMEBINS_SPREAD of them (so each thread's waits make at most about
 * that many cells: they do not overlap), but for those longer than
 * TIMEBINS_LONG fine bins, still kept exact.
 *
 * Hostile or broken streams are bounded so: a wait whose time and period
 * pass 2^64-1 ns ends there (clamped); a wait that begins before the end
 * of an earlier wait of its thread (a thread waits for one thing at a
 * time: overlapping, or out of order) is not spread but weighed where it
 * began, so that a thread's waits span the run at most once; and when the
 * waits kept exact would make more than TIMEBINS_PIECES pieces over the
 * drawn bins, fewer bins are drawn. The first of each is kept to be said.
 *
 *	timebins_init(&tb);
 *	fold opts.on_sample = timebins_on_sample, on_sample_arg = &tb
 *	... fold the streams ...
 *	timebins_finish(&tb);
 *	timebins_range(&tb, bins, &r); timebins_each(&tb, &r, fn, arg);
 *	timebins_release(&tb);
 */
#ifndef FG_PROFILE_TIMEBINS_H
#define FG_PROFILE_TIMEBINS_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashtab.h"
#include "profile/fold.h"

#define TIMEBINS_CELLS		((size_t)1 << 16)	/* cells before merging */
#define TIMEBINS_FINE_MIN	4096	/* fine bins over the run, at least */
#define TIMEBINS_LAST		256	/* cells remembered as last used */
#define TIMEBINS_WAITS		65536	/* waits kept exact, at most */
#define TIMEBINS_SPREAD		(4 * TIMEBINS_FINE_MIN)	/* fine bins over the run, at most,
					   once waits are spread on reading */
#define TIMEBINS_LONG		16	/* fine bins of a wait kept exact
					   once waits are spread on reading */
#define TIMEBINS_PIECES		((uint64_t)1 << 21)	/* waits' pieces over the drawn
					   bins, at most, while bins can be fewer */

/* A thread, in the order first seen. */
struct timebins_thread {
	int64_t		 pid, tid;	/* 0: none; perf's -1 (no task) is -1 */
	char		*comm;		/* the last COMM seen, owned */
	uint64_t	 n;		/* samples */
	uint64_t	 on[2], off[2];	/* weights: [0] counts, [1] periods */
	uint64_t	 wait_end;	/* the latest end of its waits, ns */
};

/* Where the first of some bad samples was: its input and line. */
struct timebins_bad {
	uint64_t	 n;		/* how many */
	char		*name;		/* the first's input, owned */
	unsigned long	 line;
};

/* The weights of one thread's samples of one stack in one fine bin. */
struct timebins_cell {
	uint64_t	 fbin;		/* time >> shift */
	size_t		 stack;		/* fold's stack id */
	uint32_t	 thread;	/* index in threads */
	uint32_t	 off;		/* off-CPU time */
	uint64_t	 w[2];		/* [0] counts, [1] periods */
};

/* A wait kept exact until the drawn bins are known. */
struct timebins_wait {
	uint64_t	 time, period;
	size_t		 stack;
	uint32_t	 thread;
	uint64_t	 count;
};

struct timebins {
	struct timebins_thread *threads;
	size_t		 nthreads, threadcap;
	struct hashtab	 tindex;	/* threads by pid and tid */
	struct timebins_cell *cells;
	size_t		 ncells, cellcap;
	size_t		 cap;		/* merge when ncells passes it */
	struct hashtab	 cindex;	/* cells by fine bin, stack, thread */
	uint32_t	 last[TIMEBINS_LAST];	/* by stack, thread, side: the
					   cell last added to, or ~0 */
	int		 shift;		/* fine bins are 2^shift ns */
	struct timebins_wait *waits;
	size_t		 nwaits, waitcap;
	int		 spread;	/* waits go to the fine bins now */
	uint64_t	 tmin, tmax;	/* first ns, last ns (a wait's end) */
	uint64_t	 samples;	/* timed samples binned */
	uint64_t	 untimed;	/* samples with no time: not binned */
	int		 finished;	/* timebins_finish was called */
	struct timebins_bad clamped;	/* waits ending past 2^64-1 ns */
	struct timebins_bad overlap;	/* waits not spread: they began
					   before an earlier one ended */
};

/* The drawn bins over the run (timebins_range's result). */
struct timebins_range {
	uint64_t	 t0;		/* the first bin's start, ns */
	uint64_t	 bw;		/* a bin's width, ns: whole fine bins */
	int		 nb;		/* bins */
	uint64_t	 pieces;	/* samples, a wait counted once per bin */
	int		 fewer;		/* fewer bins than asked: the waits'
					   pieces passed TIMEBINS_PIECES */
};

/* Makes empty bins in *tb, which the caller holds. */
void	timebins_init(struct timebins *);
/* Frees the threads, cells and waits tb owns, not tb itself. */
void	timebins_release(struct timebins *);

/*
 * Adds one sample: s and its strings are borrowed for the call. A wait
 * that passes 2^64-1 ns, or begins before an earlier one of its thread
 * ended, is counted in clamped or overlap (the first's place copied), for
 * the caller to say.
 */
void	timebins_add(struct timebins *, const struct fold_sample *s);

/*
 * Says that no sample comes any more: the cells' index goes (its memory),
 * the cells stay for timebins_range and timebins_each. Adding a sample
 * afterwards aborts.
 */
void	timebins_finish(struct timebins *);

/* fold_opts.on_sample: arg is the struct timebins. */
void	timebins_on_sample(void *arg, const struct fold_sample *s);

/*
 * Chooses the drawn bins: at most bins of them over the run, each at least
 * 8 samples of the busiest thread, and no fewer than minbins; fewer still
 * (down to minbins, r->fewer set) while the waits kept exact would make
 * more than TIMEBINS_PIECES pieces. Returns -1 when no sample had a time.
 */
int	timebins_range(const struct timebins *, int bins, int minbins,
	    struct timebins_range *r);

/*
 * Calls fn once for each weight of a thread, stack, drawn bin and side (on-
 * or off-CPU), in no order; the same thread, stack, bin and side may come
 * more than once (its weights add up). w is [0] the counts, [1] the periods.
 */
void	timebins_each(const struct timebins *, const struct timebins_range *r,
	    void (*fn)(void *arg, uint32_t thread, size_t stack, uint32_t bin,
	    int off, const uint64_t w[2]), void *arg);

#endif
