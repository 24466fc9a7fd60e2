/*
 * cursor: reads the words of a byte range (a perf record's body, a
 * perf.data feature section) in order, checking the end at every read.
 * Words are read in the machine's order, at any alignment: perf writes
 * its records in the order of the machine that recorded them, and
 * perfdata refuses a file of the other order before any is read.
 *
 *	struct cursor c;
 *	cursor_init(&c, p, n);
 *	a = cursor_u32(&c);
 *	b = cursor_u64(&c);
 *	if (c.bad) ... (the range was too short for them)
 *
 * A read past the end returns 0, reads nothing and marks the cursor bad;
 * every read after it returns 0 too, so that a parser reads a whole
 * layout and checks bad once. The bytes are borrowed, never copied.
 */
#ifndef FG_CURSOR_H
#define FG_CURSOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cursor {
	const unsigned char *p;		/* borrowed: the next byte */
	const unsigned char *end;	/* one past the last */
	int		 bad;		/* a read went past the end */
};

/* Starts c over the n bytes at p (borrowed). */
static inline void
cursor_init(struct cursor *c, const void *p, size_t n)
{
	c->p = p;
	c->end = c->p + n;
	c->bad = 0;
}

/* The bytes left to read (0 once bad). */
static inline size_t
cursor_left(const struct cursor *c)
{
	return c->bad ? 0 : (size_t)(c->end - c->p);
}

/* Skips n bytes. Returns where they start, or NULL (c is then bad). */
static inline const unsigned char *
cursor_skip(struct cursor *c, uint64_t n)
{
	const unsigned char *at = c->p;

	if (c->bad || (uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	return at;
}

/* Copies the next n bytes to v. Returns 0, or -1 (c is then bad). */
static inline int
cursor_copy(struct cursor *c, void *v, size_t n)
{
	const unsigned char *at = cursor_skip(c, n);

	if (at == NULL)
		return -1;
	memcpy(v, at, n);
	return 0;
}

/* The next 4 bytes as a word, or 0 (c is then bad). */
static inline uint32_t
cursor_u32(struct cursor *c)
{
	uint32_t v = 0;

	cursor_copy(c, &v, 4);
	return v;
}

/* The next 8 bytes as a word, or 0 (c is then bad). */
static inline uint64_t
cursor_u64(struct cursor *c)
{
	uint64_t v = 0;

	cursor_copy(c, &v, 8);
	return v;
}

#endif
