#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lineread.h"
#include "xalloc.h"

#define LR_CHUNK	(256 * 1024)

void
lineread_init(struct lineread *lr, int fd, const char *name)
{
	memset(lr, 0, sizeof(*lr));
	lr->fd = fd;
	lr->name = name;
	lr->cap = LR_CHUNK * 2;
	lr->buf = xmalloc(lr->cap + 1);
}

void
lineread_release(struct lineread *lr)
{
	free(lr->buf);
	lr->buf = NULL;
}

/* Reads more input after what is buffered; returns bytes read, 0 at EOF. */
static ssize_t
fill(struct lineread *lr)
{
	ssize_t n;

	if (lr->start > 0) {
		memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
		lr->end -= lr->start;
		lr->start = 0;
	}
	if (lr->cap - lr->end < LR_CHUNK) {
		lr->cap *= 2;
		lr->buf = xrealloc(lr->buf, lr->cap + 1);
	}
	do
		n = read(lr->fd, lr->buf + lr->end, lr->cap - lr->end);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		lr->error = errno;
		return 0;
	}
	lr->end += n;
	return n;
}

ssize_t
lineread_next(struct lineread *lr, char **line)
{
	size_t scanned = lr->start;
	char *nl;
	size_t len;

	for (;;) {
		nl = memchr(lr->buf + scanned, '\n', lr->end - scanned);
		if (nl != NULL)
			break;
		if (lr->eof) {
			if (lr->start == lr->end)
				return -1;
			/* The last line, with no newline. */
			nl = lr->buf + lr->end;
			lr->partial = 1;
			break;
		}
		scanned = lr->end - lr->start;
		if (fill(lr) == 0)
			lr->eof = 1;
		scanned += lr->start;
	}
	len = nl - (lr->buf + lr->start);
	*line = lr->buf + lr->start;
	lr->start += len + (nl < lr->buf + lr->end);
	if (len > 0 && (*line)[len - 1] == '\r')
		len--;
	(*line)[len] = '\0';
	lr->lineno++;
	return len;
}
