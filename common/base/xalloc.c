#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void
xnomem(size_t n)
{
	errx(2, "out of memory allocating %zu bytes", n);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		xnomem(n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		xnomem(n * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		xnomem(n);
	return p;
}

char *
xstrdup(const char *s)
{
	return xmemdup0(s, strlen(s));
}

char *
xmemdup0(const void *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
xgrow(void **pbuf, size_t *pcap, size_t need, size_t elem)
{
	size_t cap = *pcap;

	if (need <= cap)
		return;
	if (cap < 16)
		cap = 16;
	while (cap < need) {
		if (cap > ((size_t)-1 / 2) / elem)
			xnomem((size_t)-1);
		cap *= 2;
	}
	*pbuf = xrealloc(*pbuf, cap * elem);
	*pcap = cap;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		errx(2, "out of memory formatting a message");
	return s;
}

char *
xjoin(char *const *v, int n)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, v[i]);
	}
	return s;
}
