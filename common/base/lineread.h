/*
 * lineread: read lines from a file descriptor with large buffered reads and
 * memchr, with no limit on line length.
 *
 *	struct lineread lr;
 *	lineread_init(&lr, fd, "input.txt");
 *	while ((len = lineread_next(&lr, &line)) >= 0)
 *		... line[0..len) is the line, without its '\n' or "\r\n" ...
 *	lineread_release(&lr);
 *
 * The line is borrowed: it stays valid until the next call, and it is
 * NUL-terminated at line[len] (a NUL byte inside it is kept as data, so use
 * len, not strlen). lr.lineno is the number of the line just returned.
 * lr.partial is set when the line returned last had no '\n' at the end of
 * the input, which in a stream means the writer was cut off.
 */
#ifndef FG_LINEREAD_H
#define FG_LINEREAD_H

#include <stddef.h>
#include <sys/types.h>

struct lineread {
	int		 fd;
	const char	*name;		/* borrowed, for messages */
	char		*buf;
	size_t		 cap;		/* bytes allocated */
	size_t		 start;		/* first unconsumed byte */
	size_t		 end;		/* one past the last byte read */
	int		 eof;
	int		 error;		/* errno of a failed read, or 0 */
	int		 partial;	/* last line had no newline */
	unsigned long	 lineno;
	size_t		 noblank;	/* no empty line starts in [start, noblank) */
	const char	*map;		/* lineread_map's mapping, or NULL */
	size_t		 mapsize;
};

/* fd and name are borrowed: the caller closes fd after lineread_release. */
void	 lineread_init(struct lineread *, int fd, const char *name);
ssize_t	 lineread_next(struct lineread *, char **line);	/* -1 at end or error */
/* Frees the buffer (lines borrowed from it go with it), not lr itself. */
void	 lineread_release(struct lineread *);

/*
 * Looks ahead, without consuming anything, for the end of the current block
 * of lines: the first empty line, "\n" or "\r\n". Returns the length of
 * the text from here up to and including that empty line's '\n' (1 when
 * the next line is "\n", 2 when it is "\r\n"), and sets *p to it, borrowed
 * until the next call. Returns -1 when no empty line comes within max
 * bytes, or the input ends first. Text a peek has looked through is not
 * looked through again by the next: peeking at every line costs time
 * linear in the input.
 */
ssize_t	 lineread_peek_block(struct lineread *, size_t max, char **p);

/*
 * The input from here on as far as it is read in, reading more until there
 * are min bytes or the input ends (a mapping: all of it), and consuming
 * nothing: for a look at the first bytes of an input. Sets *p, borrowed
 * until the next call, and returns the number of bytes there.
 */
size_t	 lineread_peek(struct lineread *, size_t min, const char **p);

/* Consumes n bytes that hold nlines lines, as returned by a peek. */
void	 lineread_skip(struct lineread *, size_t n, unsigned long nlines);

/*
 * For a reader that keeps its lines: maps the regular file fd, so that
 * lineread_next_kept gives its lines in place, from fd's offset to the end
 * of the file (fd is left at the end), not NUL-terminated, valid until
 * lineread_unmap (after lineread_release, which does not unmap). Returns 0;
 * or -1 when fd is not a regular file, has nothing left or cannot be
 * mapped, and then lr is as after lineread_init.
 */
int	 lineread_map(struct lineread *, int fd, const char *name);
ssize_t	 lineread_next_kept(struct lineread *, const char **line);
void	 lineread_unmap(struct lineread *);

#endif
