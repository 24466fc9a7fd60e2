/*
 * perfdata_zstd: compressed records (perf record -z), decompressed as they
 * come.
 */
#include <err.h>
#include <string.h>
#include <zstd.h>

#include "base/xalloc.h"
#include "record/perfdata_impl.h"

/* Hands over the whole records in zbuf; keeps a part cut at its end. */
static void
zrecords(struct perfdata *pd, uint64_t off, pd_record_fn *each)
{
	struct perf_event_header h;
	size_t at = 0;

	while (pd->zlen - at >= sizeof(h)) {
		memcpy(&h, pd->zbuf + at, sizeof(h));
		if (h.size < sizeof(h)) {
			pd_bad_at(pd, off, "a compressed record holds a record of "
			    "size %u: the rest of its data is skipped", h.size);
			at = pd->zlen;
			break;
		}
		if (pd->zlen - at < h.size)
			break;
		each(pd, pd->zbuf + at, h.size, off, 1);
		at += h.size;
	}
	memmove(pd->zbuf, pd->zbuf + at, pd->zlen - at);
	pd->zlen -= at;
}

/* COMPRESSED (perf record -z): zstd frames of records. */
void
pd_compressed(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off, int two, pd_record_fn *each)
{
	ZSTD_inBuffer in;
	size_t r;

	in.src = p + 8;
	in.size = len - 8;
	in.pos = 0;
	if (two) {
		uint64_t dsz;

		if (len < 16) {
			pd_bad_at(pd, off, "a COMPRESSED2 record of %u bytes: "
			    "skipped", len);
			return;
		}
		memcpy(&dsz, p + 8, 8);
		in.src = p + 16;
		in.size = dsz < (uint64_t)len - 16 ? (size_t)dsz : len - 16;
	}
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
		out.pos = 0;
		r = ZSTD_decompressStream(pd->zs, &out, &in);
		if (ZSTD_isError(r)) {
			pd_bad_at(pd, off, "cannot decompress a compressed record "
			    "(%s): its samples are skipped", ZSTD_getErrorName(r));
			ZSTD_initDStream(pd->zs);
			pd->zlen = 0;
			return;
		}
		pd->zlen += out.pos;
		zrecords(pd, off, each);
		/* all read, and no more output waiting */
		if (in.pos == in.size && out.pos < out.size)
			break;
	}
}

