/*
 * perfdata_impl: what the files of the perf.data reader share and no one
 * else sees (perfdata.h is the reader's interface). Each file holds one
 * part of reading:
 *
 *	perfdata.c		opening, the loop over records, the summary
 *	perfdata_input.c	the input, read once from the front, and its buffer
 *	perfdata_header.c	a file's header: attributes and their ids
 *	perfdata_features.c	the feature sections (and pipe mode's records of them)
 *	perfdata_events.c	the events, their ids, the files' build IDs
 *	perfdata_records.c	what each type of record means
 *	perfdata_order.c	records held and handed over in time order
 *	perfdata_zstd.c		compressed records (perf record -z)
 *	perfdata_resync.c	finding the next good record after a corrupt one
 *
 * Every function here takes the reader whose state it changes; messages
 * go through pd_bad_at, which marks the reader bad.
 */
#ifndef FG_PERFDATA_IMPL_H
#define FG_PERFDATA_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf/perfdata.h"


/* perf's own record types, after the kernel's (tools/perf/util/event.h). */
enum {
	PD_HEADER_ATTR = 64,
	PD_HEADER_EVENT_TYPE,
	PD_HEADER_TRACING_DATA,
	PD_HEADER_BUILD_ID,
	PD_FINISHED_ROUND,
	PD_ID_INDEX,
	PD_AUXTRACE_INFO,
	PD_AUXTRACE,
	PD_AUXTRACE_ERROR,
	PD_THREAD_MAP,
	PD_CPU_MAP,
	PD_STAT_CONFIG,
	PD_STAT,
	PD_STAT_ROUND,
	PD_EVENT_UPDATE,
	PD_TIME_CONV,
	PD_HEADER_FEATURE,
	PD_COMPRESSED,
	PD_FINISHED_INIT,
	PD_COMPRESSED2,
	PD_TYPES = 128
};

/* The feature sections read (tools/perf/util/header.h). */
enum {
	FEAT_BUILD_ID = 2,
	FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4,
	FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12,
	FEAT_BITS = 256
};

#define EVENT_UPDATE_NAME	2	/* PERF_EVENT_UPDATE__NAME (UNIT 0, SCALE 1) */
#define MISC_BUILD_ID_SIZE	(1 << 15)
#define MISC_LOST_SAMPLES_BPF	(1 << 15)	/* perf's PERF_RECORD_MISC_LOST_SAMPLES_BPF */
#define FILE_HEADER_SIZE	104
#define PIPE_HEADER_SIZE	16
#define ATTR_SIZE_VER0		64	/* the first perf_event_attr */
#define META_MAX		(256u << 20)	/* attributes, ids, a feature */
#define EVENTS_MAX		4096		/* perf record -e 'syscalls:*' is 700 */
#define IDS_MAX			(1u << 22)	/* events x CPUs, or x threads */
#define READ_CHUNK		(1u << 20)

struct section {
	uint64_t	 offset, size;
};

struct file_header {
	char		 magic[8];
	uint64_t	 size;
	uint64_t	 attr_size;
	struct section	 attrs, data, event_types;
	uint64_t	 features[FEAT_BITS / 64];
};

struct perfdata_bid {
	char		*path;		/* owned */
	unsigned char	 id[20];
	size_t		 len;
};


/* perfdata.c: messages */

/* The reader's name quoted for a message, in q (DIAG_QUOTE_SIZE bytes). */
const char *pd_qname(const struct perfdata *pd, char *q);

/* Says what is wrong at input offset off, in one line; marks pd bad. */
void	 pd_bad_at(struct perfdata *pd, uint64_t off, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* perfdata_input.c */

/*
 * Reads up to n bytes at the input's offset pd->pos into b. Returns what
 * it read (short only at the end), or -1 (said).
 */
ssize_t	 pd_read(struct perfdata *pd, void *b, size_t n);

/*
 * Reads n bytes at offset off into a new buffer (the caller frees it).
 * NULL with *back set when a pipe would have to go back; NULL with *got
 * less than n when the input ends first.
 */
unsigned char *pd_get(struct perfdata *pd, uint64_t off, size_t n,
	    size_t *got, int *back);

/*
 * Makes n bytes of the data section available at pd->buf + pd->bufpos.
 * Returns how many are (fewer only at the end).
 */
size_t	 pd_need(struct perfdata *pd, size_t n);

/* Skips n bytes of input. Returns 0, or -1 when the input ends first. */
int	 pd_skip_input(struct perfdata *pd, uint64_t n);

/* perfdata_events.c */

/* Names event e (name is copied). */
void	 pd_event_set_name(struct perfdata_event *e, const char *name);

/*
 * Adds an event from an attribute of size bytes as the input holds it
 * (copied), found at input offset off. Returns its index, or -1 when
 * there are EVENTS_MAX already (said once).
 */
int	 pd_event_add(struct perfdata *pd, const unsigned char *a, size_t size,
	    uint64_t off);

/*
 * Says that id, found at input offset off, is of event ev (the last word
 * wins). Returns 0, or -1 when there are IDS_MAX already (said once).
 */
int	 pd_id_add(struct perfdata *pd, uint64_t id, int ev, uint64_t off);

/* The event of id, or -1. */
int	 pd_id_find(const struct perfdata *pd, uint64_t id);

/*
 * Keeps the build ID id (len bytes, at most 20) of the file path (both
 * copied); the kernel's apart when kernel is set. The first one of a
 * path stays.
 */
void	 pd_bid_add(struct perfdata *pd, const char *path,
	    const unsigned char *id, size_t len, int kernel);

/* The build ID of path (borrowed from pd), or NULL. */
const struct perfdata_bid *pd_bid_find(const struct perfdata *pd,
	    const char *path);

/* perfdata_features.c */

/* One build ID record p[0..n). Returns 0, or -1 when it is cut. */
int	 pd_buildid_record(struct perfdata *pd, const unsigned char *p,
	    size_t n);

/* Reads feature feat from p[0..n). Returns -1 when it is corrupt. */
int	 pd_feature(struct perfdata *pd, int feat, const unsigned char *p,
	    size_t n);

/* The name of feature feat, for messages (static). */
const char *pd_feature_name(int feat);

/* Whether feature feat is one this reads. */
int	 pd_feature_wanted(int feat);

/* Reads the feature sections fh lists, after its data section. */
void	 pd_file_features(struct perfdata *pd, const struct file_header *fh);

/* perfdata_header.c */

/*
 * Reads a file's header from h0 (FILE_HEADER_SIZE bytes) and what it
 * points at. Returns 0, or -1 when nothing can be read (said).
 */
int	 pd_file_header(struct perfdata *pd, const unsigned char *h0);

/* perfdata_order.c */

/*
 * Hands over the queued records of time up to limit, or the older half
 * when half is set, in time order, to pd->sink (dropped when it is NULL).
 */
void	 pd_flush(struct perfdata *pd, uint64_t limit, int half);

/* Queues record p (len bytes, copied), found at input offset off. */
void	 pd_enqueue(struct perfdata *pd, const unsigned char *p, uint32_t len,
	    uint64_t off);

/* perfdata_records.c */

/*
 * Does what the record p of len bytes (whole, at any alignment), found
 * at input offset off, says; nested: inside a compressed one.
 */
void	 pd_handle(struct perfdata *pd, const unsigned char *p, uint32_t len,
	    uint64_t off, int nested);

/* How many bytes follow record p outside its size (AUXTRACE's data). */
uint64_t pd_trailing_bytes(const struct perfdata *pd, const unsigned char *p,
	    uint32_t len);

/* perfdata_zstd.c */

/* What a record is handed to: pd_handle's shape. */
typedef void pd_record_fn(struct perfdata *pd, const unsigned char *p,
	    uint32_t len, uint64_t off, int nested);

/*
 * A COMPRESSED (two: COMPRESSED2) record: decompressed as it comes, each
 * whole record in it handed to each (pd_handle, nested set), so that this
 * file calls no other part of the reader back.
 */
void	 pd_compressed(struct perfdata *pd, const unsigned char *p,
	    uint32_t len, uint64_t off, int two, pd_record_fn *each);

/* perfdata_resync.c */

/*
 * Says that the record at off is corrupt (why) and moves to the next good
 * record. Returns 0 when reading goes on, -1 when none is left.
 */
int	 pd_corrupt_at(struct perfdata *pd, uint64_t off, const char *why);

#endif
