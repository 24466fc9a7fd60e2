/*
 * write: a folded profile's stacks as folded lines (fg-stream(5)), the
 * output of fgfold: "STACK COUNT", or "STACK BEFORE AFTER" for --diff.
 */
#ifndef FG_FOLD_WRITE_H
#define FG_FOLD_WRITE_H

#include <stdio.h>

#include "profile/fold.h"

/*
 * Writes f's table (settled first, fold_settle) sorted by stack: "STACK
 * COUNT", or "STACK BEFORE AFTER" when diff is set, BEFORE scaled to
 * AFTER's total with opts.normalize. Returns 0, or -1 on a write error.
 */
int	fold_write(struct fold *, FILE *, int diff);

#endif
