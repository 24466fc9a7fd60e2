#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "record/summary.h"

void
record_summary(const struct record *r)
{
	const struct record_stats *s = &r->stats;
	double rate = s->seconds > 0 ? s->samples / s->seconds : 0;
	double trunc = s->samples ? 100.0 * s->truncated / s->samples : 0;
	char stitched[96] = "";
	int i, best = 1;

	if (r->opts.cfg.quiet)
		return;
	for (i = 1; i < UNWIND_NEND; i++)
		if (s->end_reason[i] > s->end_reason[best])
			best = i;
	if (s->stitched)
		snprintf(stitched, sizeof(stitched), ", %" PRIu64 " stack%s "
		    "completed from an earlier sample of the same thread",
		    s->stitched, s->stitched == 1 ? "" : "s");
	fprintf(stderr, "%s: %" PRIu64 " samples in %.2f s (%.0f/s), "
	    "%" PRIu64 " lost, %.1f%% truncated%s%s%s%s, own CPU %.2f s\n",
	    program_invocation_short_name, s->samples, s->seconds, rate,
	    s->lost, trunc,
	    s->truncated ? " (mostly: " : "",
	    s->truncated ? (r->opts.cfg.dwarf || best == UNWIND_DEPTH ?
	    unwind_end_str(best) : "frame-pointer chain ended early") : "",
	    s->truncated ? ")" : "", stitched, s->cpu_seconds);
	if (r->opts.cfg.mode != RECORD_CPU)
		fprintf(stderr, "fgrecord: %" PRIu64 " waits off the CPU, %.3f s "
		    "in all; %" PRIu64 " preemptions %s\n", s->waits,
		    s->wait_ns / 1e9, r->src.preempted,
		    r->opts.cfg.mode == RECORD_OFFCPU ? "left out (the thread "
		    "could run)" : "counted as off-CPU");
	if (r->opts.cfg.mode != RECORD_CPU && s->lost)
		fprintf(stderr, "fgrecord: the kernel lost %" PRIu64 " records "
		    "of switches: their waits are missing (and %" PRIu64 " more "
		    "that might have been paired wrongly); fewer bytes per switch "
		    "lose fewer: --call-graph dwarf,4096 or fp\n", s->lost,
		    r->src.waits_dropped);
	if (s->procs_denied)
		fprintf(stderr, "%s: the maps of %" PRIu64 " of %" PRIu64
		    " processes (%.1f%%) could not be read (other users' "
		    "processes): their stacks stop at the first frame, 'pc in "
		    "no known mapping'; run as root to read them\n",
		    program_invocation_short_name, s->procs_denied, s->procs,
		    100.0 * s->procs_denied / s->procs);
	if (r->src.ops->summary)
		r->src.ops->summary(&r->src, s->throttled);
	if (s->truncated && r->opts.cfg.dwarf) {
		if (best == UNWIND_NOSTACK && trunc > 5 &&
		    r->opts.cfg.stack_size < RECORD_STACK_MAX)
			fprintf(stderr, "%s: most truncated stacks were "
			    "deeper than the stack copy: try --call-graph "
			    "dwarf,%d\n", program_invocation_short_name,
			    RECORD_STACK_MAX);
		else if (best == UNWIND_NOSTACK && trunc > 5)
			fprintf(stderr, "%s: most truncated stacks were "
			    "deeper than %d bytes, the largest stack copy the "
			    "kernel takes\n", program_invocation_short_name,
			    RECORD_STACK_MAX);
	}
}
