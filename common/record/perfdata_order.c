/*
 * perfdata_order: records held and handed over in time order, each decoded
 * with its event's layout.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "record/perfdata_impl.h"

/* ---- the ordering queue ---- */

static int
rec_cmp(const void *a, const void *b)
{
	const struct perfdata_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

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
deliver(struct perfdata *pd, const struct perfdata_rec *r)
{
	struct source_sink mine = { on_decoded, pd };
	const struct perf_event_header *h =
	    (const void *)(pd->arena + r->at);
	struct perf_event_header hh;

	pd->cur_event = r->event;
	memcpy(&hh, h, sizeof(hh));
	if (perf_decode(&pd->events[r->event].dec, h, &mine) == 0 &&
	    hh.type == PERF_RECORD_SAMPLE) {
		if (pd->undecoded++ == 0)
			pd_bad_at(pd, r->off, "a sample of %u bytes does not hold "
			    "what event '%s' says it records: skipped (and any "
			    "more such, counted at the end)", hh.size,
			    pd->events[r->event].name);
	}
}

static int
rec_at_cmp(const void *a, const void *b)
{
	const struct perfdata_rec *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* Whether q[0..n) is in time order already (one CPU, or few records). */
static int
sorted(const struct perfdata_rec *q, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (rec_cmp(&q[i - 1], &q[i]) > 0)
			return 0;
	return 1;
}

/*
 * Hands over the queued records of time up to limit, or the first half
 * when half is set, in time order, and keeps the others, moved to the
 * front of the arena in place (no second arena: the bound is the
 * memory's).
 */
void
pd_flush(struct perfdata *pd, uint64_t limit, int half)
{
	size_t i, n, alen = 0;

	if (pd->nq == 0)
		return;
	if (!sorted(pd->q, pd->nq))
		qsort(pd->q, pd->nq, sizeof(*pd->q), rec_cmp);
	for (n = 0; n < pd->nq && (half ? n < (pd->nq + 1) / 2 :
	    pd->q[n].time <= limit); n++)
		if (pd->sink)
			deliver(pd, &pd->q[n]);
	if (n == pd->nq) {
		pd->nq = 0;
		pd->alen = 0;
		return;
	}
	memmove(pd->q, pd->q + n, (pd->nq - n) * sizeof(*pd->q));
	pd->nq -= n;
	/* in the arena's order, each record moves down, never over another */
	qsort(pd->q, pd->nq, sizeof(*pd->q), rec_at_cmp);
	for (i = 0; i < pd->nq; i++) {
		if (pd->q[i].at != alen)
			memmove(pd->arena + alen, pd->arena + pd->q[i].at,
			    pd->q[i].len);
		pd->q[i].at = alen;
		alen += pd->q[i].len;
	}
	pd->alen = alen;
}

/* A record of the kernel's: queued under its event and time. */
void
pd_enqueue(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off)
{
	const struct perf_event_header *h = (const void *)p;
	struct perf_record_ids ids;
	struct perfdata_rec *r;
	uint32_t type;
	int ev = 0;

	memcpy(&type, p, 4);	/* perf_event_header: type, misc, size */
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
	if (pd->alen + len + (pd->nq + 1) * sizeof(*pd->q) >
	    PERFDATA_QUEUE_MAX && pd->nq > 0)
		pd_flush(pd, 0, 1);
	if (pd->alen + len > pd->acap)
		GROW(pd->arena, pd->alen + len, pd->acap);
	if (pd->nq + 1 > pd->qcap)
		GROW(pd->q, pd->nq + 1, pd->qcap);
	r = &pd->q[pd->nq++];
	r->time = ids.time;
	r->seq = pd->seq++;
	r->off = off;
	r->at = pd->alen;
	r->len = len;
	r->event = ev;
	memcpy(pd->arena + pd->alen, p, len);
	pd->alen += len;
}

