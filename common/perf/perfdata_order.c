/*
 * perfdata_order: records held and handed over in time order, each decoded
 * with its event's layout.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "perf/perfdata_impl.h"
#include "perf/perfqueue.h"
#include "perf/cursor.h"

/* ---- the ordering queue ---- */

/* The sink between perfdecode and the caller's: build IDs, counts. */
static void
on_decoded(void *arg, const struct source_event *ev)
{
	struct perfdata *pd = arg;
	struct source_event e;
	const struct perfdata_bid *b;

	if (ev->kind == SOURCE_SAMPLE) {
		pd->events[pd->cur_event].samples++;
		if (ev->u.sample.nr > 0 &&
		    ev->u.sample.callchain[0] == PERF_CONTEXT_KERNEL)
			pd->kernel_frames = 1;
	}
	if (ev->kind == SOURCE_MMAP && ev->u.mmap.buildid == NULL &&
	    (b = pd_bid_find(pd, ev->u.mmap.path)) != NULL) {
		e = *ev;
		e.u.mmap.buildid = b->id;
		e.u.mmap.buildid_len = b->len;
		pd->sink->fn(pd->sink->arg, &e);
		return;
	}
	pd->sink->fn(pd->sink->arg, ev);
}

static void
deliver(void *arg, const void *rec, const struct perfqueue_rec *r)
{
	struct perfdata *pd = arg;
	struct source_sink mine = { on_decoded, pd };
	const struct perf_event_header *h = rec;
	struct perf_event_header hh = { 0 };
	struct cursor c;

	pd->cur_event = r->tag;
	cursor_init(&c, rec, r->len);
	cursor_copy(&c, &hh, sizeof(hh));
	if (perf_decode(&pd->events[r->tag].dec, h, &mine) == 0 &&
	    hh.type == PERF_RECORD_SAMPLE) {
		if (pd->undecoded++ == 0)
			pd_bad_at(pd, r->off, "a sample of %u bytes does not hold "
			    "what event '%s' says it records: skipped (and any "
			    "more such, counted at the end)", hh.size,
			    pd->events[r->tag].name);
	}
}

void
pd_flush(struct perfdata *pd, uint64_t limit, int half)
{
	perfqueue_flush(&pd->queue, limit, half, pd->sink ? deliver : NULL,
	    pd);
}

/* A record of the kernel's: queued under its event and time. */
void
pd_enqueue(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off)
{
	const struct perf_event_header *h = (const void *)p;
	struct perf_record_ids ids;
	struct cursor c;
	uint32_t type;
	int ev = 0;

	cursor_init(&c, p, len);
	type = cursor_u32(&c);	/* perf_event_header: type, misc, size */
	if (pd->nevents == 0) {
		pd_bad_at(pd, off, "a record before any event attributes: "
		    "skipped; the file's header is corrupt");
		return;
	}
	if (pd->nevents > 1 && perf_decode_ids(&pd->events[0].dec, h,
	    &ids) == 0 && ids.has_id) {
		if ((ev = pd_id_find(pd, ids.id)) < 0 && type ==
		    PERF_RECORD_SAMPLE) {
			if (pd->unknown_id++ == 0)
				pd_bad_at(pd, off, "a sample of id %" PRIu64 ", "
				    "which no event's attributes list: skipped "
				    "(and any more, counted at the end); the "
				    "file's attributes are corrupt", ids.id);
			return;
		}
		if (ev < 0)
			ev = 0;
	}
	if (perf_decode_ids(&pd->events[ev].dec, h, &ids) != 0 ||
	    !ids.has_time)
		ids.time = pd->last_time;	/* keeps its place */
	if (ids.time > pd->last_time)
		pd->last_time = ids.time;
	/* the records' bytes and their entries, within the bound */
	if (perfqueue_full(&pd->queue, len))
		pd_flush(pd, 0, 1);
	perfqueue_add(&pd->queue, p, len, ids.time, off, ev);
}
