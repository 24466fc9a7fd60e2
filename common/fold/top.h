/*
 * top: fgfold --top, the table of the functions that hold the most
 * samples, made from a fold's table of stacks.
 */
#ifndef FG_TOP_H
#define FG_TOP_H

#include <stddef.h>
#include <stdio.h>

#include "profile/fold.h"

/*
 * Writes a table of the n functions with the most self samples (the leaf
 * frame of a stack), with self and total counts and percentages. The
 * process-name root frame is left out unless opts.no_comm was set.
 *
 * With opts.own (crate names), a table of those crates' functions comes
 * first ("c::f", "<c::T>::f", "<T as c::Trait>::f"), by self then total:
 * a frame marked inlined ("_[i]") counts toward the function that holds
 * it, so the self of a leaf goes to the innermost own function among the
 * leaf and the frames it is inlined into, down to the nearest frame that
 * is not inlined. Both tables then show names without the mark. Returns
 * 0, or -1 on a write error.
 */
int	fold_top(struct fold *, FILE *, size_t n);

#endif
