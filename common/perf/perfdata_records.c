/*
 * perfdata_records: what each type of record of a perf.data means to the
 * reader.
 */
#include <string.h>

#include "base/hashtab.h"
#include "base/xalloc.h"
#include "perf/cursor.h"
#include "perf/perfdata_impl.h"

/*
 * The two words after the header of record p (len bytes) into *a and *b:
 * 0, or -1 when it is too short for them.
 */
static int
two_words(const unsigned char *p, uint32_t len, uint64_t *a, uint64_t *b)
{
	struct cursor c;

	cursor_init(&c, p, len);
	cursor_skip(&c, sizeof(struct perf_event_header));
	*a = cursor_u64(&c);
	*b = cursor_u64(&c);
	return c.bad ? -1 : 0;
}

/* The word after the header of record p (len bytes), or 0 when none. */
static uint64_t
first_word(const unsigned char *p, uint32_t len)
{
	struct cursor c;

	cursor_init(&c, p, len);
	cursor_skip(&c, sizeof(struct perf_event_header));
	return cursor_u64(&c);
}

/*
 * PERF_RECORD_HEADER_ATTR (pipe mode): an attribute and its ids. perf
 * writes them before the data and never compresses them; one elsewhere
 * (a file's data section, a compressed record, after the first sample)
 * is refused, or a small file could name millions of events.
 */
static void
header_attr(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off, int nested)
{
	struct cursor c;
	uint32_t asz;
	int ev;

	if (nested || !pd->pipe || pd->init_done) {
		if (!pd->late_attr)
			pd_bad_at(pd, off, "an event attribute record %s: "
			    "ignored, and any more like it (perf writes them "
			    "only before the data, uncompressed: the file was "
			    "made otherwise)", nested ? "inside a compressed "
			    "record" : !pd->pipe ? "in a file's data section" :
			    "after the data began");
		pd->late_attr = 1;
		return;
	}
	if (len < 8 + ATTR_SIZE_VER0) {
		pd_bad_at(pd, off, "an attribute record of %u bytes: skipped", len);
		return;
	}
	cursor_init(&c, p, len);
	cursor_skip(&c, 8 + offsetof(struct perf_event_attr, size));
	asz = cursor_u32(&c);
	if (asz == 0)
		asz = ATTR_SIZE_VER0;
	if (asz < ATTR_SIZE_VER0 || asz > len - 8u || (len - 8 - asz) % 8) {
		pd_bad_at(pd, off, "an attribute record of %u bytes holds an "
		    "attribute of %u: skipped", len, asz);
		return;
	}
	if ((ev = pd_event_add(pd, p + 8, asz, off)) < 0)
		return;
	cursor_init(&c, p + 8 + asz, len - 8 - asz);
	while (cursor_left(&c) > 0)
		if (pd_id_add(pd, cursor_u64(&c), ev, off) != 0)
			break;
}

/* PERF_RECORD_EVENT_UPDATE: an event's name, in pipe mode. */
static void
event_update(struct perfdata *pd, const unsigned char *p, uint32_t len)
{
	uint64_t type, id;
	int ev;

	if (two_words(p, len, &type, &id) != 0 || len < 25)
		return;
	if (type != EVENT_UPDATE_NAME || (ev = pd_id_find(pd, id)) < 0 ||
	    memchr(p + 24, '\0', len - 24) == NULL || p[24] == '\0')
		return;
	pd_event_set_name(&pd->events[ev], (const char *)p + 24);
}

/*
 * The identity of side-band record h: its trailer read with the layout
 * of the event its id names (the first event's when it names none).
 * Returns 0, or -1 when the record is too short for it.
 */
static int
side_ids(const struct perfdata *pd, const struct perf_event_header *h,
    struct perf_record_ids *ids)
{
	int ev;

	if (perf_decode_ids(&pd->events[0].dec, h, ids) != 0)
		return -1;
	if (pd->nevents > 1 && ids->has_id && (ev = pd_id_find(pd, ids->id)) > 0)
		return perf_decode_ids(&pd->events[ev].dec, h, ids);
	return 0;
}

/*
 * LOST_SAMPLES: the kernel's, where it dropped samples (queued as any
 * record), or perf record's closing count of an event's losses, written
 * at its end with no time (time 0): those count what LOST records count,
 * and are kept for the end (lost_closing).
 */
static void
lost_samples(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off)
{
	struct perf_event_header h = { 0 };
	struct perf_record_ids ids;
	struct cursor c;

	cursor_init(&c, p, len);
	cursor_copy(&c, &h, sizeof(h));
	if (h.misc & MISC_LOST_SAMPLES_BPF)
		return;		/* left out on purpose by perf record --filter */
	if (len >= 16 && side_ids(pd, (const void *)p, &ids) == 0 &&
	    (!ids.has_time || ids.time == 0)) {
		pd->lost_closing += cursor_u64(&c);
		return;
	}
	pd_enqueue(pd, p, len, off);
}

/*
 * THROTTLE and UNTHROTTLE (time, id, stream_id): the time between the
 * two of an event's id is time the kernel did not sample it. The ids are
 * found by hash: a file of a million throttled ids takes no longer than
 * a million records.
 */
static void
throttle(struct perfdata *pd, const unsigned char *p, uint32_t len, int on)
{
	struct perfdata_throttle *t;
	struct hashtab_probe hp;
	uint64_t time, id;
	uint32_t i;

	if (two_words(p, len, &time, &id) != 0)
		return;
	if (!on)
		pd->unthrottles++;
	hashtab_probe(&pd->throttleidx, hashtab_int(id), &hp);
	while ((i = hashtab_next(&pd->throttleidx, &hp)) != HASHTAB_NONE)
		if (pd->throttles[i].id == id)
			break;
	if (i == HASHTAB_NONE) {
		if (!on || pd->nthrottles >= IDS_MAX)
			return;		/* throttled before the recording began */
		GROW(pd->throttles, pd->nthrottles + 1, pd->throttles_cap);
		i = (uint32_t)pd->nthrottles++;
		pd->throttles[i].id = id;
		pd->throttles[i].since = 0;
		hashtab_add(&pd->throttleidx, &hp, i);
	}
	t = &pd->throttles[i];
	if (on)
		t->since = time ? time : 1;
	else if (t->since) {
		if (time > t->since)
			pd->throttled_ns += time - t->since;
		t->since = 0;
	}
}

static void
skip_type(struct perfdata *pd, unsigned type)
{
	pd->skipped[type < PD_TYPES ? type : PD_TYPES - 1]++;
}

/*
 * One record of len bytes (whole, at any alignment) found at input offset
 * off; nested: inside a compressed one.
 */
void
pd_handle(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off, int nested)
{
	struct perf_event_header h = { 0 };
	struct cursor c;
	uint64_t w1, w2;

	cursor_init(&c, p, len);
	cursor_copy(&c, &h, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_SAMPLE:
		pd->init_done = 1;
		pd_enqueue(pd, p, len, off);
		break;
	case PERF_RECORD_LOST:
		if (two_words(p, len, &w1, &w2) == 0)	/* id, lost */
			pd->lost_said += w2;
		pd->init_done = 1;
		pd_enqueue(pd, p, len, off);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		pd->init_done = 1;
		if (pd->nevents > 0)
			lost_samples(pd, p, len, off);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		pd->init_done = 1;
		throttle(pd, p, len, h.type == PERF_RECORD_THROTTLE);
		if (h.type == PERF_RECORD_THROTTLE)
			pd_enqueue(pd, p, len, off);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/*
		 * --switch-events: when a thread left the CPU and came back,
		 * without its stack; the waits a flame graph could draw need
		 * one (fgrecord --off-cpu takes it)
		 */
		pd->init_done = 1;
		break;
	case PD_HEADER_ATTR:
		header_attr(pd, p, len, off, nested);
		break;
	case PD_HEADER_BUILD_ID:
		pd_buildid_record(pd, p, len);
		break;
	case PD_HEADER_FEATURE:
		if (len >= 16) {
			uint64_t feat = first_word(p, len);

			if (feat < FEAT_BITS && pd_feature_wanted((int)feat) &&
			    pd_feature(pd, (int)feat, p + 16, len - 16) != 0)
				pd_bad_at(pd, off, "the %s feature record is "
				    "corrupt: ignored", pd_feature_name((int)feat));
		}
		break;
	case PD_EVENT_UPDATE:
		event_update(pd, p, len);
		break;
	case PD_FINISHED_ROUND:
		/*
		 * perf writes a round after reading every buffer: a record of
		 * the next round may be older than this round's newest, not
		 * older than the round before's.
		 */
		pd_flush(pd, pd->flush_limit, 0);
		pd->flush_limit = pd->last_time;
		break;
	case PD_FINISHED_INIT:
		pd->init_done = 1;
		break;
	case PD_COMPRESSED:
	case PD_COMPRESSED2:
		if (nested)
			skip_type(pd, h.type);
		else
			pd_compressed(pd, p, len, off, h.type == PD_COMPRESSED2,
			    pd_handle);
		break;
	case PD_HEADER_EVENT_TYPE:
	case PD_ID_INDEX:
	case PD_THREAD_MAP:
	case PD_CPU_MAP:
	case PD_TIME_CONV:
		break;
	default:
		skip_type(pd, h.type);
		break;
	}
}

/* What follows a record outside its size: AUXTRACE's and tracing data. */
uint64_t
pd_trailing_bytes(const struct perfdata *pd, const unsigned char *p,
    uint32_t len)
{
	struct perf_event_header h = { 0 };
	struct cursor c;
	uint64_t n = 0;
	uint32_t sz;

	cursor_init(&c, p, len);
	cursor_copy(&c, &h, sizeof(h));
	if (h.type == PD_AUXTRACE)
		n = cursor_u64(&c);
	if (h.type == PD_HEADER_TRACING_DATA && pd->pipe) {
		sz = cursor_u32(&c);
		n = c.bad ? 0 : ((uint64_t)sz + 7) & ~7ULL;
	}
	return n;
}

