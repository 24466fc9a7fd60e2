#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stream/diag.h"

void
stream_diag_init(struct stream_diag *d, const char *name)
{
	d->name = name;
	d->bad = 0;
}

void
stream_diag_bad(struct stream_diag *d, unsigned long lineno, const char *line,
    size_t len)
{
	char q[DIAG_QUOTE_SIZE];

	d->bad++;
	if (d->bad <= DIAG_BAD_SHOWN)
		warnx("%s:%lu: unrecognised line '%s'", d->name, lineno,
		    stream_quote(q, sizeof(q), line, len, 80));
	if (d->bad == DIAG_BAD_SHOWN + 1)
		warnx("%s: more unrecognised lines follow; only the first %d "
		    "are shown", d->name, DIAG_BAD_SHOWN);
}

void
stream_diag_cut(const struct stream_diag *d, unsigned long lineno)
{
	warnx("%s:%lu: the last sample has no closing empty line, so the "
	    "stream was cut off; dropped it", d->name, lineno);
}

void
stream_diag_cut_kept(const struct stream_diag *d, unsigned long lineno)
{
	warnx("%s:%lu: the last sample has no closing empty line, so the "
	    "stream was cut off; passed it on as it is", d->name, lineno);
}

void
stream_diag_cut_line(const struct stream_diag *d, unsigned long lineno)
{
	warnx("%s:%lu: the input ends in the middle of this line, with no "
	    "newline, so the stream was cut off; passed over it", d->name,
	    lineno);
}

void
stream_diag_cut_inside(const struct stream_diag *d, unsigned long lineno,
    unsigned long head, int kept)
{
	warnx("%s:%lu: the input ends in the middle of this line, with no "
	    "newline, so the stream was cut off; %s the sample of line %lu%s",
	    d->name, lineno, kept ? "passed on" : "dropped", head,
	    kept ? " as it is" : "");
}

void
stream_diag_empty(const char *why)
{
	warnx("no samples: the input is well formed, and holds none%s%s",
	    why != NULL ? ": " : "", why != NULL ? why : "");
}

size_t
stream_text_char(const unsigned char *s, size_t len)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c == '\t')
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;		/* control, DEL, continuation, overlong */
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (len < n)
		return 0;
	if (c == 0xc2)
		lo = 0xa0;		/* U+0080..U+009F: the C1 controls */
	else if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;		/* no surrogates */
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

char *
stream_quote(char *out, size_t outsize, const char *s, size_t len, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, n, lim = len < max ? len : max;

	if (outsize == 0)
		return out;
	while (i < lim) {
		n = stream_text_char(u + i, lim - i);
		if (n == 0 || u[i] == '\t') {
			if (o + 5 > outsize)
				break;
			snprintf(out + o, 5, "\\x%02x", u[i]);
			o += 4;
			i++;
			continue;
		}
		if (o + n + 1 > outsize)
			break;
		while (n-- > 0)
			out[o++] = s[i++];
	}
	if (i < len && o + 4 <= outsize) {
		out[o++] = '.';
		out[o++] = '.';
		out[o++] = '.';
	}
	out[o] = '\0';
	return out;
}

char *
stream_quoted(const char *s, size_t len)
{
	size_t size = len * 4 + 4;
	char *q;

	if (len > (SIZE_MAX - 4) / 4)
		size = SIZE_MAX;
	q = xmalloc(size);
	return stream_quote(q, size, s, len, len);
}

/*
 * The most of a message's text that is said: room for a path of
 * PATH_MAX and the words around it. A frame address or a name of
 * megabytes from the input is cut there, with "...": a warning is one
 * line of a terminal's scroll, never the input again.
 */
#define MESSAGE_MAX	8192

/*
 * The message of fmt and ap, quoted as stream_quote quotes, at most
 * MESSAGE_MAX bytes of it; the caller frees it.
 */
static char *
quoted_message(const char *fmt, va_list ap)
{
	va_list aq;
	char *m, *q;
	size_t max;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		n = 0;
	m = xmalloc((size_t)n + 1);
	vsnprintf(m, (size_t)n + 1, fmt, ap);
	max = (size_t)n < MESSAGE_MAX ? (size_t)n : MESSAGE_MAX;
	q = xmalloc(max * 4 + 4);
	stream_quote(q, max * 4 + 4, m, (size_t)n, max);
	free(m);
	return q;
}

void
stream_vwarnx(const char *fmt, va_list ap)
{
	char *q = quoted_message(fmt, ap);

	warnx("%s", q);
	free(q);
}

void
stream_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	stream_vwarnx(fmt, ap);
	va_end(ap);
}

void
stream_vwarn(const char *fmt, va_list ap)
{
	int e = errno;
	char *q = quoted_message(fmt, ap);

	warnx("%s: %s", q, strerror(e));
	free(q);
}
