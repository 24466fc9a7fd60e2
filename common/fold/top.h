/*
 * top: fgfold --top, the table of the functions that hold the most
 * samples, made from a fold's table of stacks.
 */
#ifndef FG_TOP_H
#define FG_TOP_H

#include <stddef.h>
#include <stdio.h>

#include "fold/fold.h"

/*
 * Writes a table of the n functions with the most self samples (the leaf
 * frame of a stack), with self and total counts and percentages. The
 * process-name root frame is left out unless opts.no_comm was set.
 * Returns 0, or -1 on a write error.
 */
int	fold_top(struct fold *, FILE *, size_t n);

#endif
