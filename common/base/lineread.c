#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/lineread.h"
#include "base/xalloc.h"

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
		lr->noblank = lr->noblank > lr->start ?
		    lr->noblank - lr->start : 0;
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

/*
 * Whether the line that starts at q (q < end) is empty: "\n", or "\r\n"
 * as lineread_next reads it. Sets *nl to its '\n'. Returns -1 when the
 * input has to be read further to tell.
 */
static int
empty_at(const char *q, const char *end, const char **nl)
{
	if (*q == '\n') {
		*nl = q;
		return 1;
	}
	if (*q != '\r')
		return 0;
	if (q + 1 == end)
		return -1;
	*nl = q + 1;
	return q[1] == '\n';
}

ssize_t
lineread_peek_block(struct lineread *lr, size_t max, char **p)
{
	const char *q, *end, *nl;
	size_t from;
	int e;

	/* What an earlier peek found has no empty line is not read again:
	   a stream with few empty lines costs its length, not its length
	   times max. */
	from = lr->noblank > lr->start ? lr->noblank - lr->start : 0;
	for (;;) {
		size_t avail = lr->end - lr->start;

		end = lr->buf + lr->end;
		*p = lr->buf + lr->start;
		if (from == 0 && avail > 0) {
			if ((e = empty_at(*p, end, &nl)) == 1)
				return nl + 1 - *p;
			if (e < 0 && !lr->eof)
				goto more;
		}
		/* Each '\n' in turn: memchr is much faster than memmem. */
		q = *p + (from > 0 ? from - 1 : 0);
		while ((q = memchr(q, '\n', end - q)) != NULL) {
			if (q + 1 == end)
				break;		/* need the next byte */
			if (q[1] == '\n')
				return q + 2 - *p;
			if (q[1] == '\r') {
				if (q + 2 == end)
					break;
				if (q[2] == '\n')
					return q + 3 - *p;
			}
			q++;
		}
		/* No empty line starts before the last byte or two. */
		from = avail > 2 ? avail - 2 : 0;
		lr->noblank = lr->start + from;
		if (lr->eof || avail >= max)
			return -1;
more:
		if (fill(lr) == 0)
			lr->eof = 1;
		lr->noblank = lr->start + from;
	}
}

size_t
lineread_peek(struct lineread *lr, size_t min, const char **p)
{
	if (lr->map != NULL) {
		*p = lr->map + lr->start;
		return lr->mapsize - lr->start;
	}
	while (lr->end - lr->start < min && !lr->eof)
		if (fill(lr) == 0)
			lr->eof = 1;
	*p = lr->buf + lr->start;
	return lr->end - lr->start;
}

void
lineread_skip(struct lineread *lr, size_t n, unsigned long nlines)
{
	lr->start += n;
	lr->lineno += nlines;
}

int
lineread_map(struct lineread *lr, int fd, const char *name)
{
	struct stat st;
	off_t at;
	void *p;

	lineread_init(lr, fd, name);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX ||
	    (at = lseek(fd, 0, SEEK_CUR)) < 0 || at >= st.st_size)
		return -1;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	/* from where the descriptor is (a shell may have read some), to the
	   end, which counts as read: as a read(2) loop would leave it */
	lr->start = (size_t)at;
	(void)lseek(fd, st.st_size, SEEK_SET);
	/* all of it is read, and read again (the lines are kept): ask the
	   kernel to read it in now rather than fault by fault */
	(void)madvise(p, (size_t)st.st_size, MADV_WILLNEED);
	lr->map = p;
	lr->mapsize = (size_t)st.st_size;
	return 0;
}

ssize_t
lineread_next_kept(struct lineread *lr, const char **line)
{
	const char *p, *nl;
	size_t len;

	if (lr->start >= lr->mapsize)
		return -1;
	p = lr->map + lr->start;
	nl = memchr(p, '\n', lr->mapsize - lr->start);
	if (nl == NULL) {
		/* The last line, with no newline. */
		nl = lr->map + lr->mapsize;
		lr->partial = 1;
	}
	len = (size_t)(nl - p);
	lr->start += len + (nl < lr->map + lr->mapsize);
	if (len > 0 && p[len - 1] == '\r')
		len--;
	*line = p;
	lr->lineno++;
	return (ssize_t)len;
}

void
lineread_unmap(struct lineread *lr)
{
	if (lr->map != NULL)
		munmap((void *)lr->map, lr->mapsize);
	lr->map = NULL;
	lr->mapsize = 0;
}
