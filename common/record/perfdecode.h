/*
 * perfdecode: turns the records the kernel writes into a perf ring buffer
 * (the sample layout perf_attr_fill asks for, and the mmap, comm, task,
 * lost and throttle records of its side band) into source events
 * (source.h). The inverse of perf_attr_fill; no system calls, so that a
 * test can feed it records made by hand.
 *
 *	struct perf_decoder d;
 *	perf_decoder_init(&d, dwarf, "cpu-clock");
 *	perf_decode(&d, rec, &sink);	(once per record)
 *	perf_decoder_release(&d);
 *
 * A record that is cut short, or whose lengths point past its end, is
 * skipped whole: nothing of it reaches the sink.
 */
#ifndef FG_PERFDECODE_H
#define FG_PERFDECODE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "record/source.h"

/*
 * The longest callchain the kernel writes by default
 * (kernel.perf_event_max_stack), markers included: a chain this long may
 * have been cut.
 */
#define PERF_MAX_STACK	127

struct perf_decoder {
	int		 dwarf;		/* samples carry registers and a stack */
	const char	*event;		/* borrowed: the samples' event name */
	uint64_t	*ips;		/* owned: the current callchain */
	size_t		 ips_cap;
};

/* event is borrowed until perf_decoder_release. */
void	 perf_decoder_init(struct perf_decoder *, int dwarf, const char *event);
void	 perf_decoder_release(struct perf_decoder *);

/*
 * Decodes the record h (h->size readable bytes, any alignment) and hands
 * its event to sink. Mappings that are not executable, records of the
 * idle task's pid -1, and kinds the session has no use for are skipped.
 * Returns 1 when an event reached the sink, else 0.
 */
int	 perf_decode(struct perf_decoder *, const struct perf_event_header *h,
	    const struct source_sink *sink);

/*
 * Returns a record's time (the sample's, or the sample_id_all trailer's
 * for the side band), or 0 when the record is too short to have one.
 */
uint64_t perf_record_time(const struct perf_event_header *h);

#endif
