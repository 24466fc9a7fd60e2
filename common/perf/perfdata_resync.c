/*
 * perfdata_resync: after a record that cannot be one, the next place where
 * records follow each other again.
 */
#include <inttypes.h>
#include <string.h>

#include "perf/perfdata_impl.h"
#include "stream/diag.h"

/*
 * Could h, at input offset off, be a record perf wrote? A known type, a
 * size that fits the data (a multiple of 8 but for the compressed ones,
 * 8 for FINISHED_ROUND), and a sample that names a known event.
 */
static int
plausible(const struct perfdata *pd, const unsigned char *p, uint64_t off)
{
	struct perf_event_header h;
	struct perf_record_ids ids;

	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h) || (pd->data_end != UINT64_MAX &&
	    off + h.size > pd->data_end))
		return 0;
	if (h.type == PD_COMPRESSED || h.type == PD_COMPRESSED2)
		return h.size > 16;
	if (h.size % 8 != 0 || h.type == 0 || (h.type >= PERF_RECORD_MAX &&
	    (h.type < PD_HEADER_ATTR || h.type > PD_COMPRESSED2)))
		return 0;
	if (h.type == PD_FINISHED_ROUND || h.type == PD_FINISHED_INIT)
		return h.size == 8 && h.misc == 0;
	if (h.type == PERF_RECORD_SAMPLE && pd->nevents > 0)
		return perf_decode_ids(&pd->events[0].dec, (const void *)p,
		    &ids) == 0 && (pd->nevents == 1 || !ids.has_id ||
		    pd_id_find(pd, ids.id) >= 0);
	return 1;
}

/*
 * Do RESYNC_CHAIN plausible records follow each other from the input at
 * rel bytes past pd->bufpos (or fewer, ending where the data ends)?
 */
#define RESYNC_CHAIN	4
static int
chain_at(struct perfdata *pd, size_t rel)
{
	struct perf_event_header h;
	size_t have;
	int k;

	for (k = 0; k < RESYNC_CHAIN; k++) {
		have = pd_need(pd, rel + sizeof(h));
		if (have == rel && k > 0)
			return 1;	/* the data's end, right after one */
		if (have < rel + sizeof(h) || !plausible(pd, pd->buf +
		    pd->bufpos + rel, pd->bufoff + pd->bufpos + rel))
			return 0;
		memcpy(&h, pd->buf + pd->bufpos + rel, sizeof(h));
		rel += h.size;
		if (pd_need(pd, rel) < rel)
			return 0;
	}
	return 1;
}

/*
 * After a record that cannot be one, at pd->bufpos: finds the next place
 * where records follow each other again and moves there. Returns 0, or
 * -1 when the data holds none (all of it read).
 */
static int
resync(struct perfdata *pd)
{
	for (;;) {
		pd->bufpos++;
		if (pd_need(pd, sizeof(struct perf_event_header)) <
		    sizeof(struct perf_event_header))
			return -1;
		if (chain_at(pd, 0))
			return 0;
	}
}

/*
 * Says that the record at off is corrupt (what, in why), and reads on
 * from the next good record when there is one. Returns 0 when reading
 * goes on.
 */
int
pd_corrupt_at(struct perfdata *pd, uint64_t off, const char *why)
{
	char q[DIAG_QUOTE_SIZE];
	uint64_t at;

	if (resync(pd) != 0) {
		pd_bad_at(pd, off, "%s: the data is corrupt from here; the "
		    "samples before are kept", why);
		return -1;
	}
	at = pd->bufoff + pd->bufpos;
	pd_bad_at(pd, off, "%s: skipped %" PRIu64 " corrupt bytes; reading "
	    "resumed at '%s':%" PRIu64 ", the next good record", why,
	    at - off, pd_qname(pd, q), at);
	return 0;
}

