/*
 * foldperf: perf data (perf.data, or perf record -o -'s pipe) folded in
 * one process, as fgsym FILE | fgfold would fold it: replayed and named
 * by perfnamed.h, each sample handed to the fold as structs
 * (fold_feed_*), with no text between the stages. fgfold and fgsvg on
 * perf data.
 *
 *	lineread_init(&lr, fd, name);
 *	rc = fold_input(&f, &lr, fd, "fgfold");	(a stream, or perf data)
 *	lineread_release(&lr);
 */
#ifndef FG_FOLDPERF_H
#define FG_FOLDPERF_H

#include <stddef.h>

#include "base/lineread.h"
#include "profile/fold.h"

/*
 * Folds the perf data on fd (borrowed; name, borrowed, names it in
 * messages; head[0..headlen) is what was read of it already, borrowed)
 * into f, its frames named as fgsym names them by default (inlined
 * functions; source lines when f's opts.srcline), and says on stderr
 * what the replay and the symbolizer say at their end. Returns 0, 1
 * (part of the input bad, or files that could not be read: said) or 2
 * (no perf data it reads: said; the tool exits 2).
 */
int	fold_perfdata(struct fold *f, int fd, const char *name,
	    const char *head, size_t headlen);

/*
 * Folds the input lr reads from fd (both borrowed): perf data through
 * fold_perfdata, a sample stream through fold_lines (tool names itself
 * in the message that refuses anything else). Returns what they return.
 */
int	fold_input(struct fold *f, struct lineread *lr, int fd,
	    const char *tool);

#endif
