/*
 * srccache: the text of the source files DWARF names, read on first use
 * and kept by line: the lines fgsym --annotate shows beside the
 * instructions. A path is read through safeopen_read (a regular file, at
 * most SRCCACHE_MAX bytes, never a FIFO or a device); one that cannot be
 * read has no lines, and is not tried again.
 *
 *	struct srccache c;
 *	srccache_init(&c);
 *	if ((text = srccache_line(&c, "a.c", 12, &len)) != NULL) ...
 *	srccache_release(&c);
 */
#ifndef FG_SRCCACHE_H
#define FG_SRCCACHE_H

#include <stddef.h>

/* A source file larger is not shown: 64 MiB. */
#define SRCCACHE_MAX	((size_t)64 << 20)

struct srcfile;

struct srccache {
	struct srcfile	*files;		/* owned; in the order first asked */
	size_t		 n, cap;
};

/* Makes an empty cache; all zero bytes is one too. */
void	 srccache_init(struct srccache *);

/*
 * Returns line (1-based) of the file path, without its newline and its
 * leading and trailing blanks, and sets *len to its length; or NULL when
 * the file cannot be read or has no such line. The text is borrowed from
 * the cache until srccache_release; path is copied.
 */
const char *srccache_line(struct srccache *, const char *path, int line,
	    size_t *len);

/* Frees every file's text; the cache is empty again. */
void	 srccache_release(struct srccache *);

#endif
