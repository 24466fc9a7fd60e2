/*
 * perfdecode: turns the records the kernel writes into a perf ring buffer
 * or a perf.data file holds (the sample layout an event's attributes ask
 * for, and the mmap, comm, task, lost and throttle records of its side
 * band) into source events (source.h). The inverse of perf_attr_fill for
 * fgrecord's own events (perf_decoder_init), and of any perf record's
 * attributes (perf_decoder_init_attr: every sample_type bit the kernel
 * has, the ones the session does not use skipped); no system calls, so
 * that a test can feed it records made by hand.
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
#include <sys/types.h>
#include <linux/perf_event.h>

#include "perf/event.h"

/*
 * The longest callchain the kernel writes by default
 * (kernel.perf_event_max_stack), markers included: a chain this long may
 * have been cut.
 */
#define PERF_MAX_STACK	127

struct perf_decoder {
	int		 dwarf;		/* samples carry registers and a stack */
	const char	*event;		/* borrowed: the samples' event name */
	const char	*ev_name;	/* the event whose enum ev is (set by
					   the first sample after event is) */
	enum stream_ev	 ev;
	uint64_t	*ips;		/* owned: the current callchain */
	size_t		 ips_cap;
	/* The layout, from the event's attributes. */
	uint64_t	 sample_type;	/* PERF_SAMPLE_* */
	uint64_t	 read_format;	/* PERF_FORMAT_*, for PERF_SAMPLE_READ */
	uint64_t	 regs_user;	/* sample_regs_user */
	uint64_t	 regs_intr;	/* sample_regs_intr */
	uint64_t	 branch_type;	/* branch_sample_type */
	int		 sample_id_all;	/* side-band records end in a sample_id */
	uint64_t	 period;	/* a sample's with no PERIOD field: the
					   attr's fixed sample_period, else 0 */
};

/*
 * The identity part of a record: the sample's own fields, or the
 * sample_id_all trailer of a side-band record. A field the layout lacks
 * is 0.
 */
struct perf_record_ids {
	uint32_t	 pid, tid;
	uint64_t	 time;
	uint64_t	 id;		/* PERF_SAMPLE_IDENTIFIER or _ID */
	uint32_t	 cpu;
	int		 has_time, has_id;
};

/*
 * The layout of fgrecord's own events (perf_attr_fill's). event is
 * borrowed until perf_decoder_release.
 */
void	 perf_decoder_init(struct perf_decoder *, int dwarf, const char *event);

/*
 * The layout attr (sample_type, read_format, the register masks, the
 * branch sample type, sample_id_all) asks for, as perf record set it: dwarf
 * is whether it copies registers and the user stack. event is borrowed.
 */
void	 perf_decoder_init_attr(struct perf_decoder *,
	    const struct perf_event_attr *attr, const char *event);
void	 perf_decoder_release(struct perf_decoder *);

/*
 * Reads the identity of record h (h->size readable bytes) with d's
 * layout. Returns 0, or -1 when the record is too short for it.
 */
int	 perf_decode_ids(const struct perf_decoder *d,
	    const struct perf_event_header *h, struct perf_record_ids *ids);

/*
 * Decodes the record h (h->size readable bytes, any alignment) and hands
 * its event to sink. A sample without a callchain gets one of its IP; with
 * a branch stack recorded as a call stack (--call-graph lbr) its user
 * part is the IP and the calls' sources. Mappings that are not executable, records of the
 * idle task's pid -1, and kinds the session has no use for are skipped.
 * Returns 1 when an event reached the sink, else 0.
 */
int	 perf_decode(struct perf_decoder *, const struct perf_event_header *h,
	    const struct source_sink *sink);

/*
 * Reads the period of sample h (h->size readable bytes) with d's layout
 * into *period. Returns 0, or -1 (*period 0) when h is no sample, the
 * layout has no period or the sample is too short for it.
 */
int	 perf_sample_period(const struct perf_decoder *d,
	    const struct perf_event_header *h, uint64_t *period);

/*
 * Reads the count of sample h with d's layout into *count: the value of
 * its PERF_SAMPLE_READ part, the event's count when the sample was
 * taken (a read_format without PERF_FORMAT_GROUP). Returns 0, or -1
 * (*count 0) when h is no sample, the layout has no such count or the
 * sample is too short for it.
 */
int	 perf_sample_count(const struct perf_decoder *d,
	    const struct perf_event_header *h, uint64_t *count);

/*
 * Returns the thread record h is about, read with d's layout: a
 * sample's, a context switch's (its sample_id), the exiting thread of an
 * exit; 0 for other records and for one too short to say.
 */
pid_t	 perf_record_tid(const struct perf_decoder *d,
	    const struct perf_event_header *h);

/*
 * Returns the time of a record of fgrecord's own layout (the sample's, or
 * the sample_id_all trailer's for the side band), or 0 when the record is
 * too short to have one.
 */
uint64_t perf_record_time(const struct perf_event_header *h);

#endif
