/*
 * fuzz_pprof: fgpprof's conversion, stream to profile.proto, on any text.
 * The profile is then decoded here, strictly: every message must parse to
 * its end, and every id and string index it holds must point at something
 * that is in the profile. Then it is gzipped to /dev/null.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pprof/pb.h"
#include "pprof/pprof.h"

struct cur {
	const uint8_t	*p, *end;
};

static int
varint(struct cur *c, uint64_t *v)
{
	int shift;

	*v = 0;
	for (shift = 0; c->p < c->end && shift < 64; shift += 7) {
		uint8_t b = *c->p++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 1;
	}
	return 0;
}

/* The next field: its number, and a varint value or a sub-cursor. */
static int
field(struct cur *c, uint32_t *num, uint64_t *v, struct cur *sub)
{
	uint64_t tag;

	if (c->p == c->end)
		return 0;
	if (!varint(c, &tag) || ((tag & 7) != 0 && (tag & 7) != 2))
		abort();
	*num = tag >> 3;
	if (!varint(c, v))
		abort();
	if ((tag & 7) == 2) {
		if (*v > (uint64_t)(c->end - c->p))
			abort();
		sub->p = c->p;
		sub->end = c->p + *v;
		c->p += *v;
		*v = UINT64_MAX;	/* not a varint */
	}
	return 1;
}

/* Counts the top-level fields num. */
static uint64_t
count(const struct buf *b, uint32_t want)
{
	struct cur c = { (const uint8_t *)b->p, (const uint8_t *)b->p + b->len }, sub;
	uint32_t num;
	uint64_t v, n = 0;

	while (field(&c, &num, &v, &sub))
		n += num == want;
	return n;
}

static void
check_refs(const struct buf *b)
{
	struct cur c = { (const uint8_t *)b->p, (const uint8_t *)b->p + b->len }, sub, s2, s3;
	uint64_t nstr = count(b, 6), nloc = count(b, 4), nfn = count(b, 5),
	    nmap = count(b, 3), ntypes = count(b, 1), v, w;
	uint32_t num, n2, n3;

	if (nstr == 0)
		abort();
	while (field(&c, &num, &v, &sub)) {
		switch (num) {
		case 2:		/* Sample */
			while (field(&sub, &n2, &v, &s2)) {
				if (n2 == 1)
					while (s2.p < s2.end)
						if (!varint(&s2, &w) || w == 0 || w > nloc)
							abort();
				if (n2 == 2) {
					uint64_t nv = 0;

					while (s2.p < s2.end)
						if (!varint(&s2, &w) || (int64_t)w < 0 || ++nv > ntypes)
							abort();
					if (nv != ntypes)
						abort();
				}
				if (n2 == 3)
					while (field(&s2, &n3, &w, &s3))
						if ((n3 == 1 || n3 == 2) && w >= nstr)
							abort();
			}
			break;
		case 4:		/* Location */
			while (field(&sub, &n2, &v, &s2)) {
				if (n2 == 2 && (v == 0 || v > nmap))
					abort();
				if (n2 == 4)
					while (field(&s2, &n3, &w, &s3))
						if (n3 == 1 && (w == 0 || w > nfn))
							abort();
			}
			break;
		case 1: case 3: case 5: case 11:
			while (field(&sub, &n2, &v, &s2))
				if (v != UINT64_MAX && n2 != 1 && n2 < 7 &&
				    (num != 3 || n2 >= 5) && v >= nstr)
					abort();
			break;
		case 13: case 14:
			if (v >= nstr)
				abort();
			break;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pprof p;
	struct buf out;
	int fd = fuzz_fd(data, size);

	pprof_init(&p);
	pprof_stream(&p, fd, "fuzz");
	close(fd);
	buf_init(&out);
	pprof_encode(&p, &out);
	check_refs(&out);
	buf_release(&out);
	if (pprof_write(&p, fuzz_null()) != 0)
		abort();
	pprof_release(&p);
	return 0;
}
