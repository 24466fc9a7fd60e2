/*
 * perfdata_events: the recording's events, the ids that name them, and the
 * build IDs of its files.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

#include "base/str.h"
#include "base/xalloc.h"
#include "perf/perf.h"
#include "perf/perfdata_impl.h"
#include "stream/stream.h"

/* ---- events and ids ---- */

void
pd_event_set_name(struct perfdata_event *e, const char *name)
{
	free(e->name);
	e->name = xstrdup(name);
	e->dec.event = e->name;
}

/* A name from the attribute alone, when no EVENT_DESC says one. */
static void
event_default_name(struct perfdata_event *e)
{
	const char *n = perf_event_name(e->attr.type, e->attr.config);
	char buf[64];

	if (n == NULL) {
		snprintf(buf, sizeof(buf), "event-%u-%" PRIx64, e->attr.type,
		    (uint64_t)e->attr.config);
		n = buf;
	}
	pd_event_set_name(e, n);
}

int
pd_event_add(struct perfdata *pd, const unsigned char *a, size_t size,
    uint64_t off)
{
	struct perfdata_event *e;

	if (pd->nevents >= EVENTS_MAX) {
		if (!pd->events_full)
			pd_bad_at(pd, off, "more than %d events: the rest and "
			    "their samples are skipped; record fewer events (-e)",
			    EVENTS_MAX);
		pd->events_full = 1;
		return -1;
	}
	GROW(pd->events, pd->nevents + 1, pd->events_cap);
	e = &pd->events[pd->nevents++];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, a, size < sizeof(e->attr) ? size : sizeof(e->attr));
	perf_decoder_init_attr(&e->dec, &e->attr, NULL);
	event_default_name(e);
	return (int)(pd->nevents - 1);
}

int
pd_id_add(struct perfdata *pd, uint64_t id, int ev, uint64_t off)
{
	struct hashtab_probe hp;
	uint32_t i;

	hashtab_probe(&pd->ididx, hashtab_int(id), &hp);
	while ((i = hashtab_next(&pd->ididx, &hp)) != HASHTAB_NONE)
		if (pd->ids[i].id == id) {
			pd->ids[i].event = (uint32_t)ev;
			return 0;
		}
	if (pd->nids >= IDS_MAX) {
		if (!pd->ids_full)
			pd_bad_at(pd, off, "more than %u event ids (one per "
			    "event and CPU or thread): the rest and their "
			    "samples are skipped; record fewer events or CPUs "
			    "(-e, -C)", IDS_MAX);
		pd->ids_full = 1;
		return -1;
	}
	GROW(pd->ids, pd->nids + 1, pd->ids_cap);
	pd->ids[pd->nids].id = id;
	pd->ids[pd->nids].event = (uint32_t)ev;
	hashtab_add(&pd->ididx, &hp, (uint32_t)pd->nids++);
	return 0;
}

/* The event of id, or -1. */
int
pd_id_find(const struct perfdata *pd, uint64_t id)
{
	struct hashtab_probe hp;
	uint32_t i;

	hashtab_probe(&pd->ididx, hashtab_int(id), &hp);
	while ((i = hashtab_next(&pd->ididx, &hp)) != HASHTAB_NONE)
		if (pd->ids[i].id == id)
			return (int)pd->ids[i].event;
	return -1;
}

void
pd_bid_add(struct perfdata *pd, const char *path, const unsigned char *id,
    size_t len, int kernel)
{
	struct hashtab_probe hp;
	struct perfdata_bid *b;
	uint32_t i;

	if (len == 0 || len > 20)
		return;
	if (kernel && strcmp(path, STREAM_KERNEL) == 0) {
		free(pd->kernel_buildid);
		pd->kernel_buildid = str_hexdup(id, len);
		return;
	}
	hashtab_probe(&pd->bididx, XXH3_64bits(path, strlen(path)), &hp);
	while ((i = hashtab_next(&pd->bididx, &hp)) != HASHTAB_NONE)
		if (strcmp(pd->bids[i].path, path) == 0)
			return;		/* the first one (a rebuild: another file) */
	GROW(pd->bids, pd->nbids + 1, pd->bids_cap);
	b = &pd->bids[pd->nbids];
	b->path = xstrdup(path);
	memcpy(b->id, id, len);
	b->len = len;
	hashtab_add(&pd->bididx, &hp, (uint32_t)pd->nbids++);
}

const struct perfdata_bid *
pd_bid_find(const struct perfdata *pd, const char *path)
{
	struct hashtab_probe hp;
	uint32_t i;

	if (pd->nbids == 0)
		return NULL;
	hashtab_probe(&pd->bididx, XXH3_64bits(path, strlen(path)), &hp);
	while ((i = hashtab_next(&pd->bididx, &hp)) != HASHTAB_NONE)
		if (strcmp(pd->bids[i].path, path) == 0)
			return &pd->bids[i];
	return NULL;
}

