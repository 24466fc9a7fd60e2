/*
 * perfdata_zstd: compressed records (perf record -z), decompressed as they
 * come.
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "base/xalloc.h"
#include "perf/cursor.h"
#include "perf/perfdata_impl.h"

/*
 * Says that the compressed record at off "what" and its samples are
 * skipped: the first such record with its place, the others counted for
 * perfdata_summary.
 */
static void __attribute__((format(printf, 3, 4)))
zbad(struct perfdata *pd, uint64_t off, const char *fmt, ...)
{
	char what[128];
	va_list ap;

	if (pd->zbad++ > 0) {
		pd->bad = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pd_bad_at(pd, off, "a compressed record %s: the rest of it is "
	    "skipped, the records before kept", what);
}

/*
 * Hands over the whole records in zbuf; keeps a part cut at its end.
 * Returns 0, or -1 when a record's size is impossible: what follows
 * cannot be told apart.
 */
static int
zrecords(struct perfdata *pd, uint64_t off, pd_record_fn *each)
{
	struct perf_event_header h;
	struct cursor c;
	size_t at = 0;

	for (;;) {
		cursor_init(&c, pd->zbuf + at, pd->zlen - at);
		if (cursor_copy(&c, &h, sizeof(h)) != 0)
			break;
		if (h.size < sizeof(h)) {
			zbad(pd, off, "holds a record of size %u", h.size);
			return -1;
		}
		if (pd->zlen - at < h.size)
			break;
		each(pd, pd->zbuf + at, h.size, off, 1);
		at += h.size;
	}
	memmove(pd->zbuf, pd->zbuf + at, pd->zlen - at);
	pd->zlen -= at;
	return 0;
}

/* COMPRESSED (perf record -z): zstd frames of records. */
void
pd_compressed(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off, int two, pd_record_fn *each)
{
	ZSTD_inBuffer in;
	uint64_t made = 0, most;
	size_t r;

	in.src = p + 8;
	in.size = len - 8;
	in.pos = 0;
	if (two) {
		struct cursor c;
		uint64_t dsz;

		cursor_init(&c, p, len);
		cursor_skip(&c, 8);
		dsz = cursor_u64(&c);
		if (c.bad) {
			pd_bad_at(pd, off, "a COMPRESSED2 record of %u bytes: "
			    "skipped", len);
			return;
		}
		in.src = p + 16;
		in.size = dsz < (uint64_t)len - 16 ? (size_t)dsz : len - 16;
	}
	most = (uint64_t)in.size * PERFDATA_ZRATIO;
	if (most < PERFDATA_ZFLOOR)
		most = PERFDATA_ZFLOOR;
	if (pd->zs == NULL)
		pd->zs = ZSTD_createDStream();
	if (pd->zs == NULL)
		errx(2, "cannot decompress '%s': ZSTD_createDStream failed",
		    pd->name);
	for (;;) {
		ZSTD_outBuffer out;

		GROW(pd->zbuf, pd->zlen + READ_CHUNK, pd->zcap);
		out.dst = pd->zbuf + pd->zlen;
		out.size = pd->zcap - pd->zlen;
		if (out.size > most - made)
			out.size = (size_t)(most - made);
		out.pos = 0;
		r = ZSTD_decompressStream(pd->zs, &out, &in);
		if (ZSTD_isError(r)) {
			zbad(pd, off, "cannot be decompressed (%s)",
			    ZSTD_getErrorName(r));
			break;
		}
		pd->zlen += out.pos;
		made += out.pos;
		if (zrecords(pd, off, each) != 0)
			break;
		/* all read, and no more output waiting */
		if (in.pos == in.size && out.pos < out.size)
			return;
		if (made == most) {
			zbad(pd, off, "decompresses to more than %u times its "
			    "size (a zip bomb?)", PERFDATA_ZRATIO);
			break;
		}
	}
	/* the rest of this record is lost: start afresh at the next */
	ZSTD_initDStream(pd->zs);
	pd->zlen = 0;
}
