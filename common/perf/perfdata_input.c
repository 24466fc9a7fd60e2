/*
 * perfdata_input: the input of the perf.data reader, read once from the
 * front (pread on a file, read on a pipe), and the buffer of its data
 * section.
 */
#include <err.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "perf/perfdata_impl.h"
#include "stream/diag.h"

/* ---- input ---- */

/*
 * Reads up to n bytes at the input's offset pd->pos: from head first,
 * then fd. Returns what it read (short only at the end), or -1 (said).
 */
ssize_t
pd_read(struct perfdata *pd, void *b, size_t n)
{
	unsigned char *p = b;
	size_t got = 0;

	if (!pd->seekable && pd->pos < pd->headlen) {
		size_t k = pd->headlen - pd->pos;

		if (k > n)
			k = n;
		memcpy(p, pd->head + pd->pos, k);
		got = k;
		pd->pos += k;
	}
	while (got < n && pd->fd >= 0) {
		ssize_t r = pd->seekable ?
		    pread(pd->fd, p + got, n - got, (off_t)pd->pos) :
		    read(pd->fd, p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			char q[DIAG_QUOTE_SIZE];

			warnx("cannot read '%s': %s", pd_qname(pd, q),
			    strerror(errno));
			pd->bad = 1;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
		pd->pos += (uint64_t)r;
	}
	return (ssize_t)got;
}

/*
 * Reads n bytes at offset off into a new buffer: a pipe skips forward to
 * it, and cannot go back (returns NULL with *back set). NULL with *got
 * less than n when the input ends first.
 */
unsigned char *
pd_get(struct perfdata *pd, uint64_t off, size_t n, size_t *got, int *back)
{
	unsigned char *b, tmp[4096];
	ssize_t r;

	*got = 0;
	*back = 0;
	if (pd->meta && off <= pd->metalen) {
		*got = pd->metalen - off < n ? (size_t)(pd->metalen - off) : n;
		if (*got < n)
			return NULL;
		b = xmalloc(n ? n : 1);
		memcpy(b, pd->meta + off, n);
		return b;
	}
	if (pd->seekable) {
		pd->pos = off;
	} else if (off < pd->pos) {
		*back = 1;
		return NULL;
	}
	while (pd->pos < off) {
		uint64_t k = off - pd->pos;

		if ((r = pd_read(pd, tmp, k > sizeof(tmp) ? sizeof(tmp) :
		    (size_t)k)) <= 0)
			return NULL;
	}
	b = xmalloc(n ? n : 1);
	if ((r = pd_read(pd, b, n)) < 0 || (size_t)r < n) {
		*got = r < 0 ? 0 : (size_t)r;
		free(b);
		return NULL;
	}
	*got = n;
	return b;
}

/*
 * Makes n bytes of input available at pd->buf + pd->bufpos, reading no
 * further than the data section's end. Returns what is available.
 */
size_t
pd_need(struct perfdata *pd, size_t n)
{
	size_t have = pd->buflen - pd->bufpos;

	if (have >= n || pd->eof)
		return have;
	if (have > 0)
		memmove(pd->buf, pd->buf + pd->bufpos, have);
	pd->bufoff += pd->bufpos;
	pd->bufpos = 0;
	pd->buflen = have;
	GROW(pd->buf, n > READ_CHUNK ? n : READ_CHUNK, pd->bufcap);
	while (pd->buflen < n && !pd->eof) {
		size_t want = pd->bufcap - pd->buflen;
		uint64_t left = pd->data_end - pd->pos;
		ssize_t r;

		if (left < want)
			want = (size_t)left;
		if (want == 0 || (r = pd_read(pd, pd->buf + pd->buflen,
		    want)) <= 0) {
			pd->eof = 1;
			break;
		}
		pd->buflen += (size_t)r;
	}
	return pd->buflen - pd->bufpos;
}

/* Skips n bytes of input after a record (AUXTRACE's data). */
int
pd_skip_input(struct perfdata *pd, uint64_t n)
{
	while (n > 0) {
		size_t have = pd_need(pd, 1), k;

		if (have == 0)
			return -1;
		k = have < n ? have : (size_t)n;
		pd->bufpos += k;
		n -= k;
	}
	return 0;
}

