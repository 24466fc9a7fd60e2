/*
 * summary: the lines fgrecord prints on stderr at the end of a recording
 * (fgrecord(1), DIAGNOSTICS): how many samples, lost and truncated, and
 * the hints that follow from them (a larger stack copy, fewer bytes per
 * switch); then the source's own warnings (source_ops.summary: perf's
 * about the kernel's sampling rate); last the files the samples were in
 * that have no DWARF, whose inlined functions fgsym cannot show.
 */
#ifndef FG_SUMMARY_H
#define FG_SUMMARY_H

#include "record/record.h"

/*
 * Prints the summary of session *r, which has drained its source and
 * filled r->stats, on stderr; nothing when r->opts.cfg.quiet. Its source
 * must still be open (its summary reads it).
 */
void	 record_summary(const struct record *r);

#endif
