/*
 * cmpdraw: two sets of runs compared (profile/compare.h, the statistics
 * of fgfold --compare) and drawn as one differential flame graph
 * (fgsvg --compare).
 *
 *	flame_init(&fl, &fo);			fo.ends set
 *	cmpdraw_init(&d, &copts, &fl);
 *	rc = cmpdraw_read_runs(&d, runs);	2: said, stop
 *	rc = cmpdraw_finish(&d, &so);		2: said, stop
 *	svg_write(&out, &fl, &so, &pal);
 *	flame_release(&fl);
 *	cmpdraw_release(&d);
 *
 * Every stack of every run is drawn at the larger of its mean time per
 * run before and after (in the comparison's unit, its runs' scales
 * applied), so that a stack gone after the change (the function a fix
 * removed) keeps its before width and one that is new shows at its after
 * width; a frame is then at least as wide as its time on either side.
 *
 * A frame is coloured by its own change (its total, or its self time
 * with opts.self), red slower and blue faster, when that change is at
 * least the comparison's min_abs and either its function's verdict
 * (the rows of the table) goes that way and the frame's own Welch
 * interval over the runs is clear of 0 (a gate), or the frame's change
 * is a discovery on its own, under Benjamini-Hochberg over the frames
 * that could move by min_abs: work that moved between callers colours
 * both frames, its function's total the same. Deeper as that change is
 * bigger, the biggest change coloured the deepest (palette_change). Any
 * other frame is grey. The root is [all]'s.
 *
 * The tooltip, after the name: " (WIDTH UNIT wide, P%; here B -> A UNIT
 * a run; NAME in all: total B -> A UNIT, CHANGE, 95% LOW to HIGH,
 * VERDICT; self ...)", the width first as the script reads it.
 */
#ifndef FG_SVG_CMPDRAW_H
#define FG_SVG_CMPDRAW_H

#include <stddef.h>

#include "profile/compare.h"
#include "stream/intern.h"
#include "svg/flame.h"
#include "svg/svg.h"

/* One unique stack of one run, as read: its weight before any scale. */
struct cmpdraw_stack {
	size_t		 stack;		/* its index in stacks */
	size_t		 run;		/* its index in c.runs */
	double		 w;
};

struct cmpdraw {
	struct compare	 c;
	struct flame	*fl;		/* borrowed: the graph */
	struct intern	 stacks;	/* every run's unique stacks */
	struct cmpdraw_stack *ws;	/* each run's stacks, as read */
	size_t		 nws, wscap;
	double		*incl[2];	/* per node: total time before, after
					   (mean per run) */
	double		*own[2];	/* per node: self time */
	struct compare_row *rows[2];	/* the rows of total time, of self */
	size_t		 nrows[2];
	int		 rows_owned[2];	/* made here; else c.rows */
	size_t		*rowof[2];	/* per function id: its row, or
					   SIZE_MAX */
	unsigned char	*moved;		/* per node: 1, its own change is beyond
					   its noise (Welch, 95%); 2, and a
					   discovery among the frames (BH) */
	double		 maxd;		/* the biggest change coloured */
	int		 negate;	/* --negate: the hues swapped */
	char		*title, *subtitle;	/* owned */
};

/*
 * Sets up d to compare with opts (copied; its event borrowed until
 * cmpdraw_release, its on_stack d's own) and to draw into fl (borrowed
 * until cmpdraw_release; made with opts.ends).
 */
void	 cmpdraw_init(struct cmpdraw *, const struct compare_opts *opts,
	    struct flame *fl);

/*
 * Reads the runs, runs[0] before and runs[1] after (NULL-ended file
 * names, as compare_read_runs). Returns 0, or 2 when a run cannot be
 * compared (said).
 */
int	 cmpdraw_read_runs(struct cmpdraw *, char **runs[2]);

/*
 * compare_finish (which says the method on stderr), then the flame built
 * from every run's stacks and so completed for svg_write: the frames'
 * colours and tooltips (so->frame_info, d borrowed until
 * cmpdraw_release), the unit as its count name, and a title and a
 * subtitle that say the runs a side and the whole run's verdict, unless
 * so gave them. Returns 0, or 2 (said) when the runs share no function.
 */
int	 cmpdraw_finish(struct cmpdraw *, struct svg_opts *so);

/* Frees what d holds, after flame_release. */
void	 cmpdraw_release(struct cmpdraw *);

#endif
