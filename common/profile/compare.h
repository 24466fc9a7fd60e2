/*
 * compare: two sets of runs of a program, before and after a change,
 * compared function by function, with intervals that tell a real change
 * from sampling noise (fgfold --compare).
 *
 *	struct compare c;
 *	compare_init(&c, &opts);
 *	for each run: rc = compare_read(&c, side, fd, name);	(0 before,
 *						 1 after; 2: said, stop)
 *	rc = compare_finish(&c);		(the rows, c.rows; 2: said)
 *	cmptable_write(&c, stdout, aligned);	(fold/cmptable.h)
 *	fails = compare_fails(&c, pct, &row);
 *	compare_release(&c);
 *
 * A run is one file: a sample stream (fg-stream(5), symbolized or not) or
 * folded stacks, folded by profile/fold.h with no process-name frame.
 * Per run and per function it keeps the total (inclusive) time, each
 * sample counted once per function however often the function is on its
 * stack, and the self time (the leaf's). Time is milliseconds of the
 * event's time for clock events and off-CPU time (the samples' periods,
 * in ns, summed), samples otherwise. Functions are matched by name;
 * compiler clones (f.constprop.0, f.isra.0, f.part.0, f.cold, ...) are f
 * (not on a dotted name: java.lang.Object.clone is itself);
 * inlined frames are functions of their own.
 *
 * The statistics (profile/stats.h): each side's per-run values give a
 * mean and a variance, the runs' own (where the ticks fell is in it),
 * never below one sample a run. With two runs or more a side, the
 * functions' pooled variances are moderated toward their trend over the
 * functions' sizes (a moderated t, compare.c's prior_fit), or, when too
 * few functions tell the trend, each difference gets a Welch interval;
 * at 95%. With one run on a side, that side's variance is the counting
 * noise of its weighted samples (the sum of their weights squared), or
 * the larger noise its spread over the run's time shows
 * (profile/cmpbins.h), and COMPARE_RUN_CV of the value for the noise
 * between runs. [all], and a
 * function on every sample, is tested alone; the functions' p-values
 * are adjusted by Benjamini-Hochberg (over the rows at least min_change
 * before or after: no other can change by as much), and a row is slower
 * or faster when its adjusted p-value is at most opts.q and its change
 * at least opts.min_change percent of the before runs' whole time. A
 * side whose runs' whole time trends, in the order they were read, by
 * three times that and more than their noise is said to drift.
 *
 * Stacks cut short (their root-most frame STREAM_TRUNCATED: deeper than
 * the recorder unwound) have lost their callers, whose totals leave them
 * out. When COMPARE_CUT_SAY percent of a run's samples or more are cut,
 * compare_finish says so, and the rows of the functions above the cut
 * are COMPARE_UNMEASURED, not tested. A function is above a cut stack
 * when the whole stacks (of any run) that hold the longest beginning of
 * its part below the cut (up to COMPARE_CUT_MATCH functions from its
 * outermost) hold it above that part, and no cut stack of the run holds
 * it (one seen below the cut too is measured as well as the cut allows);
 * when no whole stack holds the part's outermost function, it is taken
 * to be below the functions on COMPARE_CUT_ROOT percent of the whole
 * stacks' time or more (main, the runtime's start). A row is unmeasured
 * when, in some run over COMPARE_CUT_SAY, the cut stacks below it weigh
 * min_change percent of that run's whole time or more. Self time is the
 * leaf's, always below the cut: its rows are never unmeasured.
 */
#ifndef FG_COMPARE_H
#define FG_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "profile/cmpbins.h"
#include "profile/stats.h"
#include "stream/intern.h"
#include "stream/stream.h"

/*
 * Sides recorded apart: when every run's stream says when it started
 * (fg-stream(5)'s "# start") and every run of one side started before
 * every run of the other, not in turns, compare_finish says so in one
 * line with the gap, the first start of the later side less the last of
 * the earlier, and keeps it in c->apart: a machine that changed between
 * them moves every row alike. With one run a side there are no turns to
 * take: only a gap of COMPARE_APART_ONE seconds or more is said.
 */
#define COMPARE_APART_ONE	60.0

/*
 * The default practical size, percent of the whole run: half of 1%, so
 * that a change of 1% of the run is found. At 1%, a change of exactly
 * that size (a function at 5% of the run doing a fifth more) is called
 * same whenever its estimate falls a hair short of it, about one time
 * in two (bench/compare.sh).
 */
#define COMPARE_MIN_CHANGE	0.5

/*
 * A run with this percentage of its samples cut ([truncated]) or more is
 * said, and hides its cut stacks' callers (above). Fewer are common (a
 * frame without CFI in a library, a sample in a signal's trampoline) and
 * move a total by less than a change is called at.
 */
#define COMPARE_CUT_SAY		2.0
#define COMPARE_CUT_ROOT	90.0
#define COMPARE_CUT_MATCH	32	/* functions of a cut part matched */

/*
 * The run-to-run noise that one run a side cannot measure, as a
 * coefficient of variation of a function's time: the same fixed work's
 * CPU time moves between runs by about this much on the machines
 * measured (bench/compare.sh: tests/record/kernels.c, each kernel timed
 * by itself). With one run a side it is added to the counting noise.
 */
#define COMPARE_RUN_CV		0.05

/*
 * The moderated test's prior (compare.c's prior_fit): at least this many
 * function rows in the family to fit it, and its degrees of freedom at
 * most this many times the rows' own.
 */
#define COMPARE_PRIOR_ROWS	4
#define COMPARE_PRIOR_DF	4
#define COMPARE_PRIOR_CURVE	6	/* rows for a curve, not a line */

enum compare_norm {
	COMPARE_TIME,		/* time (or samples) per run, or per unit */
	COMPARE_SHARE,		/* percent of the run's whole time */
	COMPARE_MEDIAN		/* time per run, each run scaled by the
				   median of its functions' ratios to their
				   typical time: a machine-wide drift taken out */
};

enum compare_unit {
	COMPARE_MS,
	COMPARE_SAMPLES,
	COMPARE_PERCENT,
	COMPARE_BYTES,		/* a heap profile's bytes */
	COMPARE_ALLOCS		/* a heap profile's allocations */
};

enum compare_verdict {
	COMPARE_SAME,
	COMPARE_SLOWER,
	COMPARE_FASTER,
	COMPARE_UNMEASURED	/* its total leaves out the stacks cut below it */
};

struct compare_opts {
	int		 self;		/* rows of self time, not total */
	enum compare_norm norm;
	double		 per;		/* > 0: the units of work of a run */
	/*
	 * Or each run's own (compare_per_read): pers[j] for run j, in the
	 * order read, npers of them (compare_finish refuses another
	 * number than the runs'); per_name names them. Borrowed.
	 */
	const double	*pers;
	size_t		 npers;
	const char	*per_name;
	double		 min_change;	/* percent of before's whole time */
	double		 q;		/* the false discovery rate */
	const char	*event;		/* fold only this event; NULL: the first */
	int		 alloc_objects;	/* a heap profile's allocations (fgfold
					   --objects), not its bytes */
	int		 alloc_inuse;	/* what it left allocated (--inuse) */
	/*
	 * Rust crates (profile/own.h) whose functions lead the table
	 * (fold/cmptable.h), and whose self time holds the code inlined
	 * into them: the self time of a leaf goes to the innermost of
	 * those functions among the leaf and the frames it is inlined
	 * into, down to the nearest frame not inlined (as fgfold --top
	 * --own counts it). Borrowed.
	 */
	char *const	*own;
	size_t		 nown;
	/*
	 * NULL, or called with each unique stack of a run as it is read
	 * (its index in runs, the stack borrowed for the call, its weight
	 * in the unit, before any scale): a picture of the runs
	 * (svg/cmpdraw.h) keeps them.
	 */
	void		(*on_stack)(void *arg, size_t run, const char *stack,
			    size_t len, double w);
	void		*on_stack_arg;
};

/* One function's values in one run. */
struct compare_val {
	double		 incl, self;	/* its total and self time */
	double		 sqincl, sqself; /* the same, of each sample's weight
					   squared: their variance */
	double		 cutin;		/* its time in cut stacks */
	double		 wincl, wself;	/* the variance its time spread over
					   the run shows (profile/cmpbins.h;
					   a side's first run only) */
};

/* One run as read: per function, its total and self time. */
struct compare_run {
	char		*name;		/* owned */
	int		 side;		/* 0 before, 1 after */
	double		 whole;		/* all its time, in the unit */
	double		 samples;	/* all its samples */
	uint32_t	*ids;		/* the functions it has, in order */
	struct compare_val *vals;	/* their values, nv of them (any other
					   function's are 0: sparse, as a
					   small run beside a big one has few) */
	size_t		 nv;
	size_t		 hint;		/* where run_val last found one */
	double		 sqwhole;	/* its samples' weights squared */
	size_t		 n;
	double		 scale;		/* its values are divided by it */
	uint64_t	 start_ns;	/* its "# start", ns since the Epoch, */
	int		 has_start;	/* when its stream has one */
	double		 cut;		/* its time in cut stacks */
	double		 cut_samples;	/* its cut stacks' samples */
	struct compare_cut {
		size_t	 cut;		/* its part below the cut, in c->cuts */
		double	 w;
	}		*cuts;		/* its cut stacks */
	size_t		 ncuts, cutcap;
};

struct compare_row {
	const char	*name;		/* borrowed from c->funcs; "[all]" */
	size_t		 len;
	double		 before, after;	/* means per run */
	double		 change, low, high;
	double		 p, q;		/* the p-value, and adjusted */
	double		 df;		/* of its test; INFINITY: normal */
	double		 s2, s2df;	/* the runs' pooled variance of one
					   run's value, its degrees of freedom
					   (0: a side has one run) */
	int		 whole;		/* its time is the whole run's in
					   every run: [all]'s test */
	enum compare_verdict verdict;
	double		 hidden;	/* percent of a run's whole time that
					   its total may leave out, cut below it */
};

/*
 * The prior of the function rows' variances (compare.c's prior_fit): the
 * log of a variance is a curve over log(mean) with d0 degrees of freedom,
 * fitted over rows rows whose own have d each.
 */
struct compare_prior {
	double		 k[3];		/* log s2 = k0 + k1 x + k2 x^2, x the
					   log of the mean */
	double		 d0, d;
	size_t		 rows;
};

struct compare {
	struct compare_opts opts;	/* copied; event borrowed */
	struct intern	 funcs;		/* function names; an entry's index
					   is its id */
	struct compare_run *runs;
	size_t		 nruns, runcap;
	size_t		 nside[2];
	char		*event;		/* the runs' event, owned; "" for
					   folded stacks */
	const char	*event_run;	/* the run that said it first */
	int		 timed;		/* the event's periods are time */
	enum stream_ev	 heap;		/* a heap profile's event, or
					   STREAM_EV_OTHER */
	enum compare_unit unit;
	size_t		*stamp;		/* per function: the stack that last
					   counted it, plus 1 */
	size_t		 stampcap;
	struct compare_val *cur;	/* the run being read's values, per
					   function id (dense; run_settle) */
	unsigned char	*curseen;	/* the ids in it */
	size_t		 curcap;
	uint32_t	*touched;	/* those ids, as first seen */
	size_t		 ntouched, touchcap;
	struct stats_tq	 tq;		/* a t quantile remembered */
	int		 binning;	/* the run read is its side's first */
	struct cmpbins	 bins;		/* its samples in time bins */
	double		*fbin;		/* per function: its total's, then its
					   self time's bins (2 CMPBINS_N) */
	size_t		 fbincap;
	double		 wbin[CMPBINS_N]; /* the whole run's */
	double		*sqp;		/* per stack of the run read: its
					   samples' periods squared, summed */
	size_t		 sqpcap;
	struct compare_row measured;	/* "[all]" as measured, before
					   any --normalize (per unit with
					   --per): the gate's */
	enum compare_unit measured_unit;
	struct compare_row *rows;	/* rows[0] is "[all]"; sorted */
	size_t		 nrows;
	double		 whole_before;	/* before's mean whole time */
	double		 min_abs;	/* opts.min_change in the unit */
	size_t		 tested;	/* rows in the family: over min_abs
					   before or after */
	int		 counting_only;	/* a side has one run */
	struct compare_prior prior;	/* of the last rows made; rows 0:
					   none, Welch */
	double		 drift[2];	/* a side's runs' trend, first to
					   last (0: none found, or fewer
					   than 3 runs) */
	double		 apart;		/* > 0: the sides were recorded apart,
					   not in turns, this many seconds
					   between them (find_apart) */
	char		*method;	/* what was compared, how: one line */
	struct intern	 wholes;	/* the whole stacks of all runs, as
					   function ids (uint32_t), root first */
	struct intern	 cuts;		/* the parts of cut stacks below the
					   cut, the same way */
	uint32_t	*seq;		/* a stack's ids, as it is read */
	size_t		 seqcap;
	double		*hidden;	/* per function: the most of a run's
					   whole time, in percent, cut below it
					   (NULL: no run has COMPARE_CUT_SAY) */
	double		 cut[2];	/* each side's samples cut */
	double		 samples[2];	/* each side's samples */
};

/* opts is copied; its event and own are borrowed until compare_release. */
void	 compare_init(struct compare *, const struct compare_opts *);
void	 compare_release(struct compare *);

/*
 * Reads one run from fd (name for messages) into side 0 (before) or 1
 * (after). Returns 0, or 2 when the run cannot be compared, said in one
 * line naming it: no text (a perf.data), a bad line or a stream cut
 * short, no sample, another event than the runs before it.
 */
int	 compare_read(struct compare *, int side, int fd, const char *name);

/*
 * compare_read of each file of runs[0] (before) and runs[1] (after),
 * NULL-ended ("-" standard input): 0, or 2 when one cannot be opened or
 * compared (said), the rest not read.
 */
int	 compare_read_runs(struct compare *, char **runs[2]);

/*
 * Compares the runs read (at least one a side): fills rows, min_abs,
 * method and drift, and says the method and a drift on stderr, a line
 * each. Returns 0, or 2 when the sides have no function in common
 * (said).
 */
int	 compare_finish(struct compare *);

/*
 * After compare_finish: the rows of total (self 0) or self time (1),
 * made as c->rows is, with the same runs, scales and min_abs, into
 * *rows (the caller frees it; the names are borrowed from c->funcs).
 * Returns how many. A picture that shows both kinds calls it for the
 * kind c->rows is not.
 */
size_t	 compare_rows(struct compare *, int self, struct compare_row **rows);

/* What --fail-slower gates on. */
enum compare_gate {
	COMPARE_GATE_ALL,	/* the whole run, as measured */
	COMPARE_GATE_FUNCTIONS	/* that, and each function while the whole
				   is slower */
};

/*
 * How many rows are slower by more than pct percent of the before runs'
 * whole time (0: the gate passes). COMPARE_GATE_ALL reads c->measured
 * alone, the whole run before any --normalize, which hides a change of
 * the whole (--normalize=median takes a uniform one out): 1 when its
 * verdict is slower and its change above the bar. COMPARE_GATE_FUNCTIONS
 * also counts the functions slower and above the bar, but only when
 * c->measured is slower: work that moved between functions, or to a
 * function renamed, makes one slower and another faster and leaves the
 * whole the same, and is no regression. *worst, when not NULL, gets the
 * row that tripped it, or NULL when none: c->measured, or a function
 * (of the own crates', when one of theirs is among them), the one whose
 * change is the largest part of its time after (main's is every
 * function's).
 */
size_t	 compare_fails(const struct compare *, double pct,
	    enum compare_gate gate, const struct compare_row **worst);

/*
 * The function to name beside a whole run found slower: of the
 * functions called slower, the one compare_fails would name; NULL when
 * none is.
 */
const struct compare_row *compare_culprit(const struct compare *);

/*
 * The mean, variance and degrees of freedom of one side (0 before, 1
 * after) of a row into *s, from v[j], the value of run j, and sq[j], the
 * sum of its samples' weights squared (NULL: v[j] times the run's mean
 * weight), read with one run a side (the runs of the other side are not
 * read): as every row of the table is made, for a picture that tests
 * its frames the same way.
 */
void	 compare_side(const struct compare *, int side, const double *v,
	    const double *sq, struct stats_side *s);

/*
 * Reads --per=FILE's counts of work from fd (name for messages): one a
 * line, a positive number, a run each. Into *v (made; the caller frees
 * it) and *n. Returns 0, or 2 when a line is no count or the file holds
 * none (said in one line, FILE:LINE and the fix).
 */
int	 compare_per_read(int fd, const char *name, double **v, size_t *n);

/*
 * --per's argument: a number, every run's units of work (o->per); else
 * a file of counts, one a run (compare_per_read: o->pers, *pers made,
 * the caller frees it after compare_release). Returns 0, or 2 (said).
 */
int	 compare_per_option(struct compare_opts *o, const char *arg,
	    double **pers);

/* Whether the runs' time is per unit of work: --per=N or --per=FILE. */
int	 compare_per_unit(const struct compare *);

/* Adds s seconds to b as a gap is said: "2.5 s", "4 min 3 s", "2 h 5 min". */
struct buf;
void	 compare_say_gap(struct buf *b, double s);

/* The verdict's word in the table: "same", "slower", "faster", "unmeasured". */
const char *compare_verdict_name(enum compare_verdict);
/*
 * The verdict's word for c's runs: compare_verdict_name's, but in a heap
 * profile "more" and "fewer" (allocations) or "less" (bytes).
 */
const char *compare_verdict_word(const struct compare *,
	    enum compare_verdict);
/* The unit's word: "ms", "samples", "%", "bytes", "allocations". */
const char *compare_unit_name(enum compare_unit);

/*
 * The length of the function name s[0..len) without the compilers' clone
 * suffixes, which name the same function: ".constprop.N", ".isra.N",
 * ".part.N", ".cold" (or ".cold.N"), ".lto_priv.N", ".llvm.N",
 * ".localalias", ".specialized.N", ".clone.N", any of them one after
 * another, and " [clone .constprop.0]" (a demangled C++ name). The
 * dotted ones only on a name with no dot of its own: a dotted name
 * (java.lang.Object.clone, a Python module's) is whole, and so is a
 * word without the number it needs (Object.part).
 */
size_t	 compare_name_len(const char *s, size_t len);

#endif
