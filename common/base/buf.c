#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/xalloc.h"

void
buf_init(struct buf *b)
{
	memset(b, 0, sizeof(*b));
}

void
buf_init_fd(struct buf *b, int fd)
{
	buf_init(b);
	b->fd = fd;
	b->to_fd = 1;
}

void
buf_release(struct buf *b)
{
	free(b->p);
	buf_init(b);
}

int
buf_flush(struct buf *b)
{
	size_t off = 0;
	ssize_t n;

	if (!b->to_fd)
		return 0;
	while (off < b->len && b->error == 0) {
		n = write(b->fd, b->p + off, b->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			b->error = errno;
		else
			off += n;
	}
	buf_reset(b);
	return b->error != 0 ? -1 : 0;
}

void
buf_grow(struct buf *b, size_t n)
{
	if (b->to_fd && b->len >= BUF_FLUSH_AT)
		buf_flush(b);
	if (n > (size_t)-1 - 2 - b->len)
		xnomem((size_t)-1);
	if (b->len + n + 1 > b->cap) {
		GROW(b->p, b->len + n + 1, b->cap);
		b->p[b->len] = '\0';
	}
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	buf_grow(b, 64);
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		buf_grow(b, n);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += n;
}

char *
buf_detach(struct buf *b, size_t *len)
{
	char *p = b->p != NULL ? b->p : xstrdup("");

	if (len != NULL)
		*len = b->len;
	b->p = NULL;
	buf_release(b);
	return p;
}
