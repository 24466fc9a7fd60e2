/*
 * perfdata_header: a perf.data file's header, its attributes and their
 * ids.
 */
#include <err.h>
#include <inttypes.h>
#include <string.h>

#include "base/xalloc.h"
#include "perf/cursor.h"
#include "perf/perfdata_impl.h"
#include "stream/diag.h"

/* ---- the header ---- */

static int
file_attrs(struct perfdata *pd, const struct file_header *fh)
{
	unsigned char *attrs, *ids;
	size_t n, i, k, got, nids = 0;
	int back;

	if (fh->attr_size < ATTR_SIZE_VER0 + sizeof(struct section) ||
	    fh->attr_size > 4096 || fh->attrs.size % fh->attr_size != 0 ||
	    fh->attrs.size == 0 || fh->attrs.size > META_MAX) {
		pd_bad_at(pd, 16, "the header is corrupt (attributes of %" PRIu64
		    " bytes, %" PRIu64 " in all): nothing can be read; record "
		    "again", fh->attr_size, fh->attrs.size);
		return -1;
	}
	attrs = pd_get(pd, fh->attrs.offset, (size_t)fh->attrs.size, &got,
	    &back);
	if (attrs == NULL) {
		pd_bad_at(pd, fh->attrs.offset + got, "%s the event attributes: "
		    "nothing can be read%s", back ? "cannot seek back to" :
		    "the file ends in", back ? " from a pipe; give the file's "
		    "name" : " (cut short?)");
		return -1;
	}
	n = (size_t)(fh->attrs.size / fh->attr_size);
	for (i = 0; i < n; i++) {
		const unsigned char *a = attrs + i * fh->attr_size;
		struct section ids_sec = { 0, 0 };
		struct cursor c;
		int ev;

		/* the attribute, then its ids' section */
		cursor_init(&c, a, (size_t)fh->attr_size);
		cursor_skip(&c, fh->attr_size - sizeof(ids_sec));
		cursor_copy(&c, &ids_sec, sizeof(ids_sec));
		if ((ev = pd_event_add(pd, a, (size_t)fh->attr_size -
		    sizeof(ids_sec), fh->attrs.offset + i * fh->attr_size)) < 0)
			break;
		if (ids_sec.size == 0)
			continue;
		if (ids_sec.size % 8 == 0 && ids_sec.size / 8 > IDS_MAX - nids) {
			pd_bad_at(pd, ids_sec.offset, "the ids of event %zu make "
			    "more than %u in all: the rest and their samples "
			    "are skipped; record fewer events or CPUs (-e, -C)",
			    i, IDS_MAX);
			break;
		}
		nids += (size_t)ids_sec.size / 8;
		if (ids_sec.size % 8 != 0 ||
		    (ids = pd_get(pd, ids_sec.offset, (size_t)ids_sec.size,
		    &got, &back)) == NULL) {
			pd_bad_at(pd, ids_sec.offset, "the ids of event %zu "
			    "(%" PRIu64 " bytes) cannot be read: its samples "
			    "may go unnamed", i, ids_sec.size);
			continue;
		}
		cursor_init(&c, ids, (size_t)ids_sec.size);
		for (k = 0; cursor_left(&c) > 0; k++)
			if (pd_id_add(pd, cursor_u64(&c), ev,
			    ids_sec.offset + 8 * k) != 0)
				break;
		free(ids);
	}
	free(attrs);
	return 0;
}

int
pd_file_header(struct perfdata *pd, const unsigned char *h0)
{
	struct file_header fh;
	struct cursor c;
	char q[DIAG_QUOTE_SIZE];
	uint64_t end;

	cursor_init(&c, h0, FILE_HEADER_SIZE);
	cursor_copy(&c, &fh, sizeof(fh));
	if (fh.size < FILE_HEADER_SIZE || fh.size > 4096) {
		pd_bad_at(pd, 8, "the header is corrupt (its size is %" PRIu64
		    ", not %d): nothing can be read; record again", fh.size,
		    FILE_HEADER_SIZE);
		return -1;
	}
	if (fh.data.offset < fh.size || fh.data.offset > UINT64_MAX / 2 ||
	    fh.data.size > UINT64_MAX / 4) {
		pd_bad_at(pd, 40, "the header is corrupt (a data section at "
		    "offset %" PRIu64 "): nothing can be read; record again",
		    fh.data.offset);
		return -1;
	}
	if (!pd->seekable) {
		/* a pipe: the ids come before the attributes; hold both */
		size_t got;

		if (fh.data.offset > META_MAX) {
			pd_bad_at(pd, 40, "the header is corrupt (a data section "
			    "at offset %" PRIu64 "): nothing can be read",
			    fh.data.offset);
			return -1;
		}
		pd->meta = xmalloc((size_t)fh.data.offset);
		memcpy(pd->meta, h0, FILE_HEADER_SIZE);
		got = (size_t)fh.data.offset - FILE_HEADER_SIZE;
		if (pd_read(pd, pd->meta +
		    FILE_HEADER_SIZE, got) != (ssize_t)got) {
			pd_bad_at(pd, pd->pos, "the input ends before its data "
			    "section: nothing can be read (cut short?)");
			return -1;
		}
		pd->metalen = fh.data.offset;
	}
	if (file_attrs(pd, &fh) != 0)
		return -1;
	pd->data_off = fh.data.offset;
	pd->data_end = fh.data.offset + fh.data.size;
	if (fh.data.size == 0) {
		/* perf record was killed before it wrote the header back */
		warnx("'%s': the header says the data section is empty: perf "
		    "record did not finish; reading on to the file's end",
		    pd_qname(pd, q));
		pd->data_end = UINT64_MAX;
	}
	end = pd->data_end;
	if (pd->seekable && end != UINT64_MAX && end > pd->file_size) {
		pd_bad_at(pd, pd->file_size, "the file ends in its data section, "
		    "%" PRIu64 " bytes before its end: cut short (copied while "
		    "perf record ran?); the samples before are kept",
		    end - pd->file_size);
		pd->data_end = pd->file_size;
		pd->cut = 1;
	} else if (pd->seekable && end != UINT64_MAX) {
		pd_file_features(pd, &fh);
	}
	pd->pos = pd->data_off;
	return 0;
}

