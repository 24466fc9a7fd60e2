/*
 * perfdata: reads what perf record writes, a perf.data file (PERFILE2:
 * a header, the events' attributes and their ids, the data section, the
 * feature sections) or its pipe mode (perf record -o -: a short header,
 * then the attributes and features as records before the data), and
 * hands the records perfdecode knows to a sink as source events, in time
 * order, each decoded with the layout of the event it belongs to.
 *
 *	struct perfdata pd;
 *	if ((status = perfdata_init(&pd, fd, "perf.data", head, headlen)))
 *		exit(status);		(said: 2 no perf data it reads, 1 bad)
 *	pd.events[i].name ...		(what was recorded, for the header)
 *	rc = perfdata_read(&pd, &sink);	(0, or 1 when a bad part was said)
 *	perfdata_summary(&pd);		(what was skipped, in one line)
 *	perfdata_release(&pd);
 *
 * Input is read once, from the front: a pipe never seeks. A regular file
 * has its header, attributes and features read with pread first, then
 * its data section streamed; records are held only until their round of
 * perf's FINISHED_ROUND ordering has passed (or, without rounds, up to
 * PERFDATA_QUEUE_MAX bytes), so memory does not grow with the file.
 *
 * Bad input is said on stderr in one line with the place, 'NAME':OFFSET,
 * and what can be done; what came before (and after, where the records
 * can still be told apart) is kept. Records compressed with zstd
 * (perf record -z) are decompressed as they come.
 *
 * Losses are counted twice in a perf.data: LOST records where the kernel
 * dropped samples, and the LOST_SAMPLES perf record writes at its end
 * from each event's own count of them (read_format LOST). The sink gets
 * the LOST records as they come and, at the end, what the closing counts
 * hold beyond them: the larger of the two, not their sum (and the
 * kernel's own LOST_SAMPLES, which have a time, besides). THROTTLE
 * records reach the sink; with their UNTHROTTLE they say how long the
 * kernel did not sample (throttled_ns). Records of no use here
 * (AUXTRACE, tracing data, KSYMBOL, BPF_EVENT, CGROUP, TEXT_POKE, ...)
 * are counted and said once by perfdata_summary.
 */
#ifndef FG_PERFDATA_H
#define FG_PERFDATA_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/hashtab.h"
#include "perf/perfdecode.h"
#include "perf/perfqueue.h"
#include "perf/event.h"

/*
 * The bytes of records held for ordering (theirs and their entries')
 * before the older half is handed over regardless: a file without
 * FINISHED_ROUND, or with rounds bigger than this, streams through in
 * this much memory.
 */
#define PERFDATA_QUEUE_MAX	(32u << 20)

/*
 * The most a compressed record (perf record -z) may decompress to: this
 * many times its compressed bytes, and at least PERFDATA_ZFLOOR. perf
 * compresses a ring buffer's worth at a time, 3 to 30 times; a record
 * that holds more (zeros, or one sample repeated: a zip bomb) has the
 * rest of its data skipped, said once.
 */
#define PERFDATA_ZRATIO		1024u
#define PERFDATA_ZFLOOR		(1u << 20)

/* One event (attribute) of the recording. */
struct perfdata_event {
	char		*name;		/* owned: EVENT_DESC's, or from the attribute */
	struct perf_event_attr attr;	/* zero past what the file had */
	struct perf_decoder dec;	/* its sample layout */
	uint64_t	 samples;	/* handed to the sink */
};

struct perfdata_bid;

struct perfdata {
	const char	*name;		/* borrowed: for messages */
	int		 fd;		/* borrowed, or -1: head is all */
	int		 seekable;	/* a regular file: pread */
	int		 pipe;		/* pipe mode */
	int		 swapped;	/* big-endian */
	const unsigned char *head;	/* borrowed: read before fd */
	size_t		 headlen;
	uint64_t	 pos;		/* offset of the next byte of input */
	uint64_t	 data_off, data_end;	/* the data section (pipe: to EOF) */
	uint64_t	 file_size;	/* a regular file's, else 0 */
	int		 cut;		/* the file ends in its data section (said) */
	unsigned char	*meta;		/* owned: a pipe's bytes before its data */
	uint64_t	 metalen;

	struct perfdata_event *events;	/* owned */
	size_t		 nevents, events_cap;
	struct perfdata_id {
		uint64_t id;
		uint32_t event;
	}		*ids;		/* owned: the events' ids */
	size_t		 nids, ids_cap;
	struct hashtab	 ididx;		/* of ids */
	int		 events_full;	/* EVENTS_MAX reached (said) */
	int		 ids_full;	/* IDS_MAX reached (said) */
	int		 late_attr;	/* an attribute in the data (said) */

	char		*cmdline;	/* owned, or NULL: CMDLINE */
	char		*hostname;	/* owned, or NULL */
	char		*osrelease;	/* owned, or NULL */
	char		*kernel_buildid; /* owned hex, or NULL */
	struct perfdata_bid *bids;	/* owned: BUILD_ID's files */
	size_t		 nbids, bids_cap;
	struct hashtab	 bididx;	/* of bids, by path */

	/* the data being read */
	unsigned char	*buf;		/* owned: input from offset bufoff */
	size_t		 buflen, bufpos, bufcap;
	uint64_t	 bufoff;	/* input offset of buf[0] */
	int		 eof;
	int		 init_done;	/* pipe mode: the header records are read */

	/* the ordering queue */
	struct perfqueue queue;		/* bounded by PERFDATA_QUEUE_MAX */
	uint64_t	 last_time, flush_limit;
	int		 cur_event;	/* of the record being handed over */
	const struct source_sink *sink;	/* borrowed, in perfdata_read */

	/* zstd (perf record -z) */
	void		*zs;		/* owned ZSTD_DStream, or NULL */
	unsigned char	*zbuf;		/* owned: decompressed, not yet a record */
	size_t		 zlen, zcap;
	uint64_t	 zbad;		/* compressed records skipped (one said) */

	/* what was met */
	uint64_t	 lost_said;	/* samples LOST records said were lost */
	uint64_t	 lost_closing;	/* perf record's closing LOST_SAMPLES */
	struct perfdata_throttle {
		uint64_t id, since;	/* since: when throttled, or 0: not now */
	}		*throttles;	/* owned: each id ever throttled */
	size_t		 nthrottles, throttles_cap;
	struct hashtab	 throttleidx;	/* of throttles, by id */
	uint64_t	 unthrottles;	/* UNTHROTTLE records */
	uint64_t	 throttled_ns;	/* between THROTTLE and UNTHROTTLE */
	int		 kernel_frames;	/* a sample had a kernel part */
	uint64_t	 skipped[128];	/* records of no use, by type */
	uint64_t	 unknown_id;	/* samples of no event's id */
	uint64_t	 undecoded;	/* samples that did not hold their layout */
	int		 bad;		/* a bad part was said */
};

/*
 * Makes *pd, which the caller holds, a reader of the perf data on fd
 * (borrowed: the caller closes it after perfdata_release; -1 when head
 * is all of it), named name in messages (borrowed likewise), whose first
 * headlen bytes were already read into head (borrowed likewise), and
 * reads its header: in a file the attributes, their ids and the
 * features; in pipe mode the records up to the first of the data.
 * Returns 0, with at least one event, and pd to be released with
 * perfdata_release; or, when it cannot be read at all, said in one line
 * and with nothing left to release, 2 when it is no perf data this reads
 * (big-endian, the old PERFFILE format, a read error) and 1 when it is
 * perf data gone bad (no attributes, a header cut short or corrupt):
 * the exit status.
 */
int	 perfdata_init(struct perfdata *pd, int fd, const char *name,
	    const void *head, size_t headlen);

/*
 * Reads the data and hands the events to sink in time order. Returns 0,
 * or 1 when part of it was bad (said, one line each: the place and the
 * fix), the rest handed over all the same.
 */
int	 perfdata_read(struct perfdata *, const struct source_sink *sink);

/*
 * Says on stderr in one line what perfdata_read skipped as of no use
 * (which records, how many) and how many samples named no event; nothing
 * when nothing was.
 */
void	 perfdata_summary(const struct perfdata *);

/*
 * Frees what pd owns (events, ids, features, buffers, the queue, the
 * zstd stream), not pd itself, and closes nothing: fd is the caller's.
 */
void	 perfdata_release(struct perfdata *);

#endif
