/*
 * xalloc: allocation that cannot fail. On exhaustion the program exits with
 * status 2 and a message naming the size, which is the only sane thing a
 * filter can do; callers never check for NULL.
 */
#ifndef FG_XALLOC_H
#define FG_XALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);		/* caller frees */
void	*xcalloc(size_t, size_t);	/* caller frees */
void	*xrealloc(void *, size_t);	/* caller frees the result */
char	*xstrdup(const char *);		/* caller frees */
char	*xmemdup0(const void *, size_t);	/* copies n bytes, adds a NUL; caller frees */

/* asprintf(3) that cannot fail; caller frees. */
char	*xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The n strings of v joined by single spaces (a command line); caller frees. */
char	*xjoin(char *const *v, int n);

/* Exits 2 with "out of memory allocating N bytes". */
void	 xnomem(size_t n) __attribute__((noreturn));

/*
 * Grows *pbuf (holding *pcap elements of size elem) so that it can hold at
 * least need elements, doubling. Used as: GROW(arr, n + 1, cap); the macro
 * tests need against cap before the call (it is on hot paths), so its
 * arguments are evaluated more than once and must have no side effects.
 */
void	 xgrow(void **pbuf, size_t *pcap, size_t need, size_t elem);
#define GROW(arr, need, cap) do { \
	if ((size_t)(need) > (size_t)(cap)) \
		xgrow((void **)&(arr), &(cap), (need), sizeof(*(arr))); \
} while (0)

#endif
