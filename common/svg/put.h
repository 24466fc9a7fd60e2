/*
 * put: the inline fast path of the SVG writers on top of base/buf.h. The
 * document is most of fgsvg's time, and it is written a few bytes at a
 * time: svg_put copies in place when the bytes fit and the buffer need not
 * be flushed, and calls buf_add otherwise, so that the bytes and the
 * flushing are buf_add's exactly.
 *
 *	svg_put(b, name, len);
 *	SVG_PUTL(b, "</title>");	a string literal
 *	buf_addc(b, ',');		one byte (already inline)
 */
#ifndef FG_SVG_PUT_H
#define FG_SVG_PUT_H

#include <stddef.h>
#include <string.h>

#include "base/buf.h"

/* Appends s[0..n) to b (s borrowed); as buf_add. */
static inline void
svg_put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap || (b->fd >= 0 && b->len >= BUF_FLUSH_AT)) {
		buf_add(b, s, n);
		return;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* Appends a string literal, its length known at compile time. */
#define SVG_PUTL(b, lit)	svg_put((b), "" lit, sizeof(lit) - 1)

#endif
