/*
 * cmprun: fgfold --compare's run, from the runs before and after to the
 * table (fold/cmptable.h) on standard output and, with --fail-slower,
 * the verdict.
 */
#ifndef FG_CMPRUN_H
#define FG_CMPRUN_H

#include "profile/compare.h"

/*
 * Reads the runs before and after (runs[0], runs[1]: NULL-ended lists of
 * files) with o, writes the table to standard output, own crates'
 * functions first (a write error is fatal, said). When fail >= 0 and
 * the after runs are slower than the before runs by more than fail
 * percent of their whole time (by gate's rows), says so in one line,
 * naming the row. Returns 0, 1 when fail was passed (said), or 2 when a
 * run could not be compared (said).
 */
int	cmprun(const struct compare_opts *o, char **runs[2], double fail,
	    enum compare_gate gate);

#endif
