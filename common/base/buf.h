/*
 * buf: one growable byte buffer for every writer here, as git has strbuf.
 * It carries its length, holds any bytes (NULs too), and keeps a NUL
 * after the last byte once it has memory, so that b.p can be read as a C
 * string when the contents hold no NUL.
 *
 *	struct buf b;
 *	buf_init(&b);			in memory only
 *	buf_adds(&b, "main");
 *	buf_addf(&b, " %d", 42);
 *	... b.p[0..b.len) ...
 *	buf_release(&b);
 *
 * A buffer made with buf_init_fd writes itself to a file descriptor: once
 * it holds BUF_FLUSH_AT bytes, the next add writes them out first (so a
 * pointer into b.p is good only until the next add), and buf_flush writes
 * what is left. A write that fails is remembered in b.error (an errno);
 * later writes are skipped and the bytes dropped, so the caller checks
 * once, at the end.
 */
#ifndef FG_BUF_H
#define FG_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BUF_FLUSH_AT	(1u << 20)

struct buf {
	char		*p;		/* owned; NULL until something is added */
	size_t		 len;		/* bytes held */
	size_t		 cap;		/* bytes allocated */
	int		 fd;		/* where buf_flush writes (borrowed), with to_fd */
	int		 to_fd;		/* made by buf_init_fd: writes itself to fd */
	int		 error;		/* errno of the first failed write, or 0 */
};

/*
 * Empty, in memory. A struct buf of all zero bytes (a static one, one in
 * a struct that was memset to 0 or xcalloc'ed) is the same: it need not
 * be initialised.
 */
void	 buf_init(struct buf *);
void	 buf_init_fd(struct buf *, int fd);	/* empty, written to fd (borrowed) */
void	 buf_release(struct buf *);		/* frees p; buf_init makes it usable again */

/*
 * Makes room for n more bytes and a NUL (flushing first when it writes to
 * an fd); the contents stay NUL-terminated.
 */
void	 buf_grow(struct buf *, size_t n);

/*
 * The contents as a C string: "" for an empty buffer, never NULL, even
 * one that never had memory (all zero bytes).
 */
static inline const char *
buf_str(const struct buf *b)
{
	return b->p != NULL ? b->p : "";
}

/* Cuts the buffer to its first len bytes (len <= b->len), keeping its memory. */
static inline void
buf_setlen(struct buf *b, size_t len)
{
	b->len = len;
	if (b->p != NULL)
		b->p[len] = '\0';
}

/* Empties the buffer, keeping its memory. */
static inline void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
}

/*
 * Whether n more bytes go in without buf_grow: they fit, and a buffer
 * that writes to an fd is not due to flush.
 */
static inline int
buf_fits(const struct buf *b, size_t n)
{
	return b->len + n + 1 <= b->cap && (!b->to_fd || b->len < BUF_FLUSH_AT);
}

/*
 * Appends p[0..n) (p borrowed; it may be NULL when n is 0). Inline: the
 * writers here append a few bytes at a time, and the copy in place is
 * most of what they do.
 */
static inline void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (!buf_fits(b, n))
		buf_grow(b, n);
	if (n > 0)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static inline void
buf_addc(struct buf *b, char c)
{
	if (!buf_fits(b, 1))
		buf_grow(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

/* Appends v in decimal. */
static inline void
buf_addu(struct buf *b, uint64_t v)
{
	char d[20];
	size_t i = sizeof(d);

	do
		d[--i] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	buf_add(b, d + i, sizeof(d) - i);
}

/*
 * Appends v as a base-128 varint, low group first, the high bit set on
 * every byte but the last: 1 to 10 bytes (protocol buffers' varint, and
 * the ids of a profile's stack keys, profile/stacks.h).
 */
static inline void
buf_varint(struct buf *b, uint64_t v)
{
	char tmp[10];
	size_t n = 0;

	while (v >= 0x80) {
		tmp[n++] = (char)(v | 0x80);
		v >>= 7;
	}
	tmp[n++] = (char)v;
	buf_add(b, tmp, n);
}

/*
 * Reads a varint that buf_varint wrote (well formed: nothing checks it)
 * at *p, and moves *p past it.
 */
static inline uint64_t
buf_varint_get(const uint8_t **p)
{
	uint64_t v = 0;
	int shift = 0;

	while (**p & 0x80) {
		v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
		(*p)++;
	}
	v |= (uint64_t)**p << shift;
	(*p)++;
	return v;
}

void	 buf_adds(struct buf *, const char *s);
void	 buf_addf(struct buf *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Appends a string literal, its length known at compile time. */
#define BUF_ADDL(b, lit)	buf_add((b), (lit), sizeof(lit) - 1)

/*
 * Writes what the buffer holds to its fd and empties it. Returns 0, or -1
 * when this or an earlier write failed (b->error says why). A buffer in
 * memory only is left as it is, and 0 returned.
 */
int	 buf_flush(struct buf *);

/*
 * Hands over the bytes: returns p (NUL-terminated; an empty string when
 * nothing was added), sets *len when len is not NULL, and leaves the
 * buffer empty, as after buf_init. The caller frees the result.
 */
char	*buf_detach(struct buf *, size_t *len);

#endif
