#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <xxhash.h>

#include "stream/stream.h"
#include "base/str.h"
#include "base/hashtab.h"
#include "base/lineread.h"
#include "svg/svg.h"
#include "base/xalloc.h"

#define FLUSH_AT	(1 << 20)
#define XPAD		10	/* flamegraph.pl's side pads, pixels */
#define FRAMEPAD	1	/* and the gap between rows */

/* --- the output buffer ------------------------------------------------ */

void
svgbuf_init(struct svgbuf *b, int fd)
{
	memset(b, 0, sizeof(*b));
	b->fd = fd;
}

void
svgbuf_release(struct svgbuf *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

int
svgbuf_flush(struct svgbuf *b)
{
	size_t off = 0;
	ssize_t n;

	if (b->fd < 0)
		return 0;
	while (off < b->len && b->error == 0) {
		n = write(b->fd, b->buf + off, b->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			b->error = errno;
		else
			off += n;
	}
	b->len = 0;
	if (b->error != 0) {
		errno = b->error;
		return -1;
	}
	return 0;
}

static void
reserve(struct svgbuf *b, size_t n)
{
	if (b->fd >= 0 && b->len >= FLUSH_AT)
		svgbuf_flush(b);
	if (b->len + n + 1 > b->cap)
		GROW(b->buf, b->len + n + 1, b->cap);
}

void
svgbuf_put(struct svgbuf *b, const char *s, size_t n)
{
	reserve(b, n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

void
svgbuf_puts(struct svgbuf *b, const char *s)
{
	svgbuf_put(b, s, strlen(s));
}

void
svgbuf_printf(struct svgbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	reserve(b, 64);
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		GROW(b->buf, b->len + n + 1, b->cap);
		va_start(ap, fmt);
		vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += n;
}

static inline void
putch(struct svgbuf *b, char c)
{
	if (b->len + 2 > b->cap)
		reserve(b, 1);
	b->buf[b->len++] = c;
}

/* svgbuf_put, inline when it fits; PUTL appends a string literal. */
static inline void
put(struct svgbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap || (b->fd >= 0 && b->len >= FLUSH_AT)) {
		svgbuf_put(b, s, n);
		return;
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}
#define PUTL(b, lit)	put((b), "" lit, sizeof(lit) - 1)

/* Appends n in decimal: the integers of the search data. */
static void
put_uint(struct svgbuf *b, uint64_t n)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do
		tmp[--i] = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	put(b, tmp + i, sizeof(tmp) - i);
}

/* --- escaping --------------------------------------------------------- */

/*
 * Returns the length of the valid UTF-8 sequence at s[0..len) that XML can
 * carry, or 0 when s[0] does not start one.
 */
static size_t
utf8_ok(const unsigned char *s, size_t len)
{
	unsigned c = s[0];

	if (c < 0x80)
		return (c >= 0x20 || c == '\t') && c != 0x7f ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf)
		return len >= 2 && (s[1] & 0xc0) == 0x80 &&
		    !(c == 0xc2 && s[1] < 0xa0) ? 2 : 0;	/* C1 controls */
	if (c >= 0xe0 && c <= 0xef) {
		if (len < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0;			/* overlong */
		if (c == 0xed && s[1] >= 0xa0)
			return 0;			/* surrogates */
		if (c == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
			return 0;			/* U+FFFE, U+FFFF */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (len < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

static const char hexdig[] = "0123456789abcdef";

void
svg_clean(struct svgbuf *b, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;

	reserve(b, len);
	while (i < len) {
		size_t j = i;

		/* a run of printable ASCII, the common case */
		while (j < len && u[j] >= 0x20 && u[j] < 0x7f && u[j] != '\\')
			j++;
		if (j > i) {
			put(b, s + i, j - i);
			i = j;
			continue;
		}
		if (u[i] == '\\' && i + 1 < len && u[i + 1] == 'x') {
			PUTL(b, "\\x5c");
			i++;
		} else if ((k = utf8_ok(u + i, len - i)) > 0) {
			if (b->len + k + 1 > b->cap)
				reserve(b, k);
			memcpy(b->buf + b->len, s + i, k);
			b->len += k;
			i += k;
		} else {
			char e[4] = { '\\', 'x', hexdig[u[i] >> 4],
				hexdig[u[i] & 15] };

			put(b, e, 4);
			i++;
		}
	}
	if (b->cap > b->len)
		b->buf[b->len] = '\0';
}

void
svg_xml(struct svgbuf *b, const char *s, size_t len)
{
	size_t i, run = 0;

	reserve(b, len);
	for (i = 0; i < len; i++) {
		const char *ent;

		if (s[i] > '>' || (s[i] < '&' && s[i] != '"'))
			continue;
		switch (s[i]) {
		case '&':	ent = "&amp;"; break;
		case '<':	ent = "&lt;"; break;
		case '>':	ent = "&gt;"; break;
		case '"':	ent = "&quot;"; break;
		case '\'':	ent = "&#39;"; break;
		default:	continue;
		}
		put(b, s + run, i - run);
		put(b, ent, strlen(ent));
		run = i + 1;
	}
	put(b, s + run, len - run);
}

void
svg_escape(struct svgbuf *b, const char *s, size_t len)
{
	struct svgbuf t;

	svgbuf_init(&t, -1);
	svg_clean(&t, s, len);
	svg_xml(b, t.buf ? t.buf : "", t.len);
	svgbuf_release(&t);
}

/* Appends code point c as UTF-8. */
static void
put_utf8(struct svgbuf *b, unsigned long c)
{
	char u[4];
	size_t n;

	if (c < 0x80)
		u[0] = (char)c, n = 1;
	else if (c < 0x800)
		u[0] = (char)(0xc0 | c >> 6), u[1] = (char)(0x80 | (c & 0x3f)),
		    n = 2;
	else if (c < 0x10000)
		u[0] = (char)(0xe0 | c >> 12),
		    u[1] = (char)(0x80 | ((c >> 6) & 0x3f)),
		    u[2] = (char)(0x80 | (c & 0x3f)), n = 3;
	else
		u[0] = (char)(0xf0 | c >> 18),
		    u[1] = (char)(0x80 | ((c >> 12) & 0x3f)),
		    u[2] = (char)(0x80 | ((c >> 6) & 0x3f)),
		    u[3] = (char)(0x80 | (c & 0x3f)), n = 4;
	svgbuf_put(b, u, n);
}

char *
svg_unescape(const char *s, size_t len, size_t *outlen)
{
	static const struct { const char *ent; char c; } ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&apos;", '\'' },
	};
	struct svgbuf b;
	size_t i = 0, k;

	svgbuf_init(&b, -1);
	reserve(&b, len);
	while (i < len) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
		    str_hexval(s[i + 2]) >= 0 && str_hexval(s[i + 3]) >= 0) {
			putch(&b, (char)(str_hexval(s[i + 2]) << 4 |
			    str_hexval(s[i + 3])));
			i += 4;
			continue;
		}
		if (s[i] == '&') {
			for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
				size_t n = strlen(ents[k].ent);

				if (len - i >= n && memcmp(s + i, ents[k].ent,
				    n) == 0) {
					putch(&b, ents[k].c);
					i += n;
					break;
				}
			}
			if (k < sizeof(ents) / sizeof(ents[0]))
				continue;
			if (i + 2 < len && s[i + 1] == '#') {
				unsigned long c = 0;
				size_t j = i + 2;
				int hex = 0, ok = 0;

				if (s[j] == 'x')
					hex = 1, j++;
				for (; j < len && s[j] != ';'; j++) {
					int v = hex ? str_hexval(s[j]) :
					    (s[j] >= '0' && s[j] <= '9' ?
					    s[j] - '0' : -1);

					if (v < 0 || c > 0x10ffff)
						break;
					c = c * (hex ? 16 : 10) + v;
					ok = 1;
				}
				if (ok && j < len && s[j] == ';' &&
				    c <= 0x10ffff) {
					put_utf8(&b, c);
					i = j + 1;
					continue;
				}
			}
		}
		putch(&b, s[i]);
		i++;
	}
	putch(&b, '\0');
	*outlen = b.len - 1;
	return b.buf;
}

/* --- --nameattr ------------------------------------------------------- */

void
svg_nameattr_init(struct svg_nameattr *na)
{
	svgmap_init(&na->attrs);
	svgmap_init(&na->titles);
	svgmap_init(&na->links);
	na->why[0] = '\0';
}

void
svg_nameattr_release(struct svg_nameattr *na)
{
	svgmap_release(&na->attrs);
	svgmap_release(&na->titles);
	svgmap_release(&na->links);
}

static int
keyis(const char *p, size_t n, const char *key)
{
	return n == strlen(key) && memcmp(p, key, n) == 0;
}

/*
 * A link that can only go somewhere: http or https, or a relative URL (no
 * scheme: a '/', '?' or '#' comes before any ':'). The browser skips
 * leading spaces and control characters before it reads the scheme, so
 * does this.
 */
static int
url_ok(const char *v, size_t n)
{
	size_t i = 0;

	while (i < n && (unsigned char)v[i] <= ' ')
		i++;
	v += i;
	n -= i;
	for (i = 0; i < n && !strchr(":/?#", v[i]); i++)
		;
	if (i == n || v[i] != ':')
		return 1;
	return (i == 4 && strncasecmp(v, "http", 4) == 0) ||
	    (i == 5 && strncasecmp(v, "https", 5) == 0);
}

/* The attributes --nameattr may give, as flamegraph.pl's option is for. */
static const char *const nameattr_keys[] = {
	"xlink:href", "target", "class", "title", "id", NULL
};

/*
 * Checks one key=value pair of a --nameattr line; returns the index of its
 * key in nameattr_keys ("href" is "xlink:href"), or -1 with why filled.
 */
static int
nameattr_pair(const char *p, size_t klen, const char *v, size_t vlen,
    char *why, size_t whysize)
{
	int k;

	if (keyis(p, klen, "href")) {
		p = "xlink:href";
		klen = 10;
	}
	for (k = 0; nameattr_keys[k] != NULL; k++)
		if (keyis(p, klen, nameattr_keys[k]))
			break;
	if (nameattr_keys[k] == NULL) {
		snprintf(why, whysize, "'%.*s' is not allowed%s; use href, "
		    "xlink:href, target, class, title or id", (int)(klen > 40 ?
		    40 : klen), p, klen > 2 && strncasecmp(p, "on", 2) == 0 ?
		    " (an event handler runs script)" : keyis(p, klen, "style") ?
		    " (style can hide or restyle the page)" : "");
		return -1;
	}
	if (k == 0 && !url_ok(v, vlen)) {
		snprintf(why, whysize, "href '%.*s%s' is not allowed: only "
		    "http, https and relative URLs (no javascript:)",
		    (int)(vlen > 40 ? 40 : vlen), v, vlen > 40 ? "..." : "");
		return -1;
	}
	return k;
}

int
svg_nameattr_load(struct svg_nameattr *na, const char *path,
    unsigned long *bad)
{
	struct lineread lr;
	struct svgbuf a;
	char *line, *tab, *p, *e, *eq, *next;
	ssize_t len;
	int fd, err, k, seen;

	*bad = 0;
	na->why[0] = '\0';
	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	lineread_init(&lr, fd, path);
	svgbuf_init(&a, -1);
	while ((len = lineread_next(&lr, &line)) >= 0) {
		if (len == 0)
			continue;
		if ((tab = memchr(line, '\t', len)) == NULL) {
			if (*bad == 0) {
				*bad = lr.lineno;
				snprintf(na->why, sizeof(na->why), "no TAB after "
				    "the name");
			}
			continue;
		}
		a.len = 0;
		seen = 0;
		e = line + len;
		for (p = tab + 1; p < e; p = next + 1) {
			char why[sizeof(na->why)];

			if ((next = memchr(p, '\t', e - p)) == NULL)
				next = e;
			eq = memchr(p, '=', next - p);
			if (eq == NULL)
				snprintf(why, sizeof(why), "a pair with no '='");
			else if ((k = nameattr_pair(p, eq - p, eq + 1,
			    next - eq - 1, why, sizeof(why))) >= 0 &&
			    (seen & 1 << k))
				snprintf(why, sizeof(why), "'%s' given twice",
				    nameattr_keys[k]);
			else if (k >= 0)
				goto good;
			if (*bad == 0) {
				*bad = lr.lineno;
				memcpy(na->why, why, sizeof(why));
			}
			continue;
good:
			seen |= 1 << k;
			if (keyis(nameattr_keys[k], strlen(nameattr_keys[k]),
			    "title")) {
				svgmap_put(&na->titles, line, tab - line,
				    eq + 1, next - eq - 1);
				continue;
			}
			svgbuf_puts(&a, " ");
			svgbuf_puts(&a, nameattr_keys[k]);
			PUTL(&a, "=\"");
			svg_escape(&a, eq + 1, next - eq - 1);
			PUTL(&a, "\"");
		}
		/* A link opens in the whole window unless told otherwise. */
		if ((seen & 1) && !(seen & 2))
			PUTL(&a, " target=\"_top\"");
		if (seen & 1)
			svgmap_put(&na->links, line, tab - line, "", 0);
		svgmap_put(&na->attrs, line, tab - line, a.buf ? a.buf : "",
		    a.len);
	}
	err = lr.error;
	svgbuf_release(&a);
	lineread_release(&lr);
	close(fd);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/* --- the document ----------------------------------------------------- */

void
svg_opts_default(struct svg_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->countname = "samples";
	o->nametype = "Function:";
	o->fonttype = "Verdana";
	o->bgcolor1 = "#eeeeee";
	o->bgcolor2 = "#eeeeb0";
	o->width = 1200;
	o->frameheight = 16;
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->minwidth = 0.1;
	o->factor = 1;
	o->search_budget = (size_t)24 << 20;
	o->timens = -1;
}

/*
 * Formats v with a fixed number of decimals (0 to 3) into out, as printf's
 * "%.Nf" does. Exact binary values that lie near a rounding tie go to
 * snprintf, so the result is always printf's. Returns the length; *val,
 * when val is not NULL, gets the number printed, as strtod would read it.
 */
static size_t
fmt_fixed(char *out, size_t size, double v, int decimals, double *val)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	static const unsigned pow10[] = { 1, 10, 100, 1000 };
	static const char two[] =
	    "00010203040506070809101112131415161718192021222324252627282930"
	    "31323334353637383940414243444546474849505152535455565758596061"
	    "62636465666768697071727374757677787980818283848586878889909192"
	    "939495969798999";
	double t, frac;
	unsigned long long n, ip;
	unsigned fp;
	char tmp[32], *p = tmp + sizeof(tmp);
	size_t len;
	int neg = signbit(v) != 0, d;

	t = (neg ? -v : v) * scale[decimals];
	if (!(t < 1e15))
		goto slow;
	/* t is not negative: truncation is floor */
	n = (unsigned long long)t;
	frac = t - (double)n;
	if (fabs(frac - 0.5) < 1e-6)
		goto slow;
	n += frac > 0.5;
	/* exact integer over exact power of ten: rounded once, as strtod */
	if (val != NULL)
		*val = neg ? -(n / scale[decimals]) : n / scale[decimals];
	ip = n / pow10[decimals];
	fp = (unsigned)(n % pow10[decimals]);
	/* right to left: the decimals, the point, the integer part by pairs */
	for (d = 0; d < decimals; d++) {
		*--p = (char)('0' + fp % 10);
		fp /= 10;
	}
	if (decimals > 0)
		*--p = '.';
	while (ip >= 100) {
		p -= 2;
		memcpy(p, two + 2 * (ip % 100), 2);
		ip /= 100;
	}
	if (ip >= 10) {
		p -= 2;
		memcpy(p, two + 2 * ip, 2);
	} else
		*--p = (char)('0' + ip);
	if (neg)
		*--p = '-';
	len = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(out, p, len);
	out[len] = '\0';
	return len;
slow:
	len = (size_t)snprintf(out, size, "%.*f", decimals, v);
	if (val != NULL)
		*val = strtod(out, NULL);
	return len;
}

static void
put_fixed(struct svgbuf *b, double v, int decimals)
{
	char s[400];

	put(b, s, fmt_fixed(s, sizeof(s), v, decimals, NULL));
}

/* Perl's default conversion of a number to a string. */
static void
put_num(struct svgbuf *b, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		char s[32];

		put(b, s, fmt_fixed(s, sizeof(s), v, 0, NULL));
	} else
		svgbuf_printf(b, "%.15g", v);
}

/* "%.0f" of v with thousands separated by commas, as flamegraph.pl does. */
static void
put_count(struct svgbuf *b, double v, double *rounded)
{
	char s[400];
	size_t n, i, sign, nd;

	n = fmt_fixed(s, sizeof(s), v, 0, rounded);
	sign = s[0] == '-';
	nd = n - sign;
	if (sign)
		putch(b, '-');
	for (i = 0; i < nd; i++) {
		if (i > 0 && (nd - i) % 3 == 0)
			putch(b, ',');
		putch(b, s[sign + i]);
	}
}

/* Appends a JavaScript string literal safe inside CDATA. */
static void
put_jsstr(struct svgbuf *b, const char *s)
{
	struct svgbuf t;
	size_t i;

	svgbuf_init(&t, -1);
	svg_clean(&t, s, strlen(s));
	putch(b, '"');
	for (i = 0; i < t.len; i++) {
		unsigned char c = (unsigned char)t.buf[i];

		if (c < 0x20 || c == '"' || c == '\\' || c == '<' ||
		    c == '>' || c == '&' || c == ']')
			svgbuf_printf(b, "\\u%04x", c);
		else
			putch(b, (char)c);
	}
	putch(b, '"');
	svgbuf_release(&t);
}

/* Strips flamegraph.pl's _[k], _[w], _[i] or _[j] from the end of a name. */
static size_t
strip_annotation(const char *s, size_t len)
{
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' &&
	    s[len - 1] == ']' && strchr("kwij", s[len - 2]) != NULL &&
	    s[len - 2] != '\0')
		return len - 4;
	return len;
}

/*
 * Appends the label that fits in chars characters: the name, or its first
 * chars - 2 characters and "..", or nothing when chars < 3.
 */
static void
put_label(struct svgbuf *b, const char *clean, size_t len, long chars)
{
	size_t i = 0, n = 0;

	if (chars < 3)
		return;
	while (i < len && n < (size_t)chars) {
		i++;
		while (i < len && ((unsigned char)clean[i] & 0xc0) == 0x80)
			i++;
		n++;
	}
	if (i >= len) {
		svg_xml(b, clean, len);
		return;
	}
	/* more characters than fit: keep chars - 2 of them */
	i = 0;
	for (n = 0; n < (size_t)chars - 2; n++) {
		i++;
		while (i < len && ((unsigned char)clean[i] & 0xc0) == 0x80)
			i++;
	}
	svg_xml(b, clean, i);
	PUTL(b, "..");
}

/*
 * Appends a --fonttype inside the <style> rule: letters, digits, spaces,
 * commas, '-' and '_' as they are (a list of families), any other ASCII
 * character as a CSS escape ("\\3b "), so that none ends the declaration
 * or the rule; other bytes made safe text.
 */
static void
put_cssfont(struct svgbuf *b, const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == ' ' || c == ',' || c == '-' ||
		    c == '_')
			putch(b, c);
		else if (c < 0x80)
			svgbuf_printf(b, "\\%x ", c);
		else {
			const char *q = p;

			while (((unsigned char)q[1]) >= 0x80)
				q++;
			svg_escape(b, p, q + 1 - p);
			p = q;
		}
	}
}

static void
header(struct svgbuf *b, const struct svg_opts *o, double height)
{
	svgbuf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\" "
	    "standalone=\"yes\"?>\n");
	svgbuf_printf(b, "<svg version=\"1.1\" width=\"%d\" height=\"",
	    o->width);
	put_num(b, height);
	svgbuf_printf(b, "\" viewBox=\"0 0 %d ", o->width);
	put_num(b, height);
	svgbuf_puts(b, "\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
	    "<!-- Flame graph drawn by fgsvg(1) of fgtools. -->\n");
	if (o->notes != NULL && *o->notes != '\0') {
		PUTL(b, "<desc id=\"notes\">");
		svg_escape(b, o->notes, strlen(o->notes));
		PUTL(b, "</desc>\n");
	}
}

static void
put_text(struct svgbuf *b, const char *id, double x, double y,
    const char *s, const char *extra)
{
	svgbuf_printf(b, "<text id=\"%s\" x=\"%.2f\" y=\"", id, x);
	put_num(b, y);
	svgbuf_printf(b, "\"%s>", extra);
	svg_escape(b, s, strlen(s));
	PUTL(b, "</text>\n");
}

static int
empty_doc(struct svgbuf *b, const struct svg_opts *o)
{
	header(b, o, o->fontsize * 5);
	svgbuf_printf(b, "<text x=\"%d\" y=\"", o->width / 2);
	put_num(b, o->fontsize * 2);
	svgbuf_printf(b, "\" text-anchor=\"middle\" font-family=\"");
	svg_escape(b, o->fonttype, strlen(o->fonttype));
	PUTL(b, "\" font-size=\"");
	put_num(b, o->fontsize);
	PUTL(b, "\">no samples</text>\n</svg>\n");
	return svgbuf_flush(b);
}

/* What every frame's place and tooltip need, computed once. */
struct geom {
	double		 wpt;		/* pixels per count */
	double		 height;	/* of the image */
	double		 ypad1, ypad2;	/* flamegraph.pl's top and bottom pads */
	double		 per;		/* pixels per label character */
	double		 tscaled;	/* the total times --factor */
	struct svgbuf	 cn;		/* " COUNTNAME", escaped once */
	int		 timens;	/* counts are ns: print time */
	unsigned char	*off;		/* per node: drawn as off-CPU */
	struct palette	*blue;		/* off-CPU frames' shades */
};

/* Appends a time in ns as people read it: "1.25 s", "12.50 ms", "800 ns". */
static void
put_time(struct svgbuf *b, double ns)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, " s" }, { 1e6, " ms" }, { 1e3, " us" }, { 1, " ns" }
	};
	size_t i;

	for (i = 0; i < 3 && fabs(ns) < u[i].div; i++)
		;
	put_fixed(b, ns / u[i].div, i < 3 ? 2 : 0);
	svgbuf_puts(b, u[i].unit);
}

/* A count as a tooltip shows it: "1,234 samples", or a time. */
static void
put_amount(struct svgbuf *b, double v, const struct geom *g, double *shown)
{
	if (g->timens) {
		put_time(b, v);
		*shown = v;
		return;
	}
	put_count(b, v, shown);
	put(b, g->cn.buf, g->cn.len);
}

/*
 * Marks the nodes drawn as off-CPU: an [off-cpu] node and what lies above
 * it (under --reverse it is near the root), and a node all of whose time
 * lies in [off-cpu] nodes. Returns how many [off-cpu] nodes there are.
 */
static size_t
mark_offcpu(const struct flame *fl, unsigned char *off)
{
	double *t = xcalloc(fl->nnodes + 1, sizeof(*t));
	size_t i, n = 0;

	for (i = 0; i < fl->nnodes; i++) {
		const struct flame_node *nd = &fl->nodes[i];

		off[i] = str_is(nd->name, nd->namelen, STREAM_OFFCPU_FRAME);
		if (off[i]) {
			n++;
			t[i] = nd->etime - nd->stime;
		}
		if (nd->parent != FLAME_NONE && off[nd->parent])
			off[i] = 1;
	}
	for (i = fl->nnodes; i-- > 1; )
		if (fl->nodes[i].parent != FLAME_NONE)
			t[fl->nodes[i].parent] += t[i];
	for (i = 0; i < fl->nnodes; i++) {
		double w = fl->nodes[i].etime - fl->nodes[i].stime;

		if (n > 0 && !off[i] && w > 0 && t[i] >= w * (1 - 1e-9))
			off[i] = 1;
	}
	free(t);
	return n;
}

/* Appends " (N samples, P%[; +D%][; self S samples, Q%])" for a frame. */
static void
put_info(struct svgbuf *b, const struct flame *fl, const struct flame_frame *f,
    const struct svg_opts *o, const struct geom *g)
{
	const struct flame_node *n = f->node != FLAME_NONE ?
	    &fl->nodes[f->node] : NULL;
	double samples, self, d = 0;
	int has_delta = n != NULL && flame_delta(fl, f->node, &d);

	PUTL(b, " (");
	put_amount(b, (f->etime - f->stime) * o->factor, g, &samples);
	if (f->depth == 0 && n != NULL) {
		PUTL(b, ", 100%)");
		return;
	}
	PUTL(b, ", ");
	put_fixed(b, 100 * samples / g->tscaled, 2);
	PUTL(b, "%");
	if (has_delta) {
		/* + 0.0: no "-0.00%" for a negated zero */
		d = (o->negate ? -d : d) + 0.0;
		svgbuf_puts(b, d > 0 ? "; +" : "; ");
		put_fixed(b, 100 * d / g->tscaled, 2);
		PUTL(b, "%");
	}
	if (n != NULL) {
		PUTL(b, "; self ");
		put_amount(b, f->self * o->factor, g, &self);
		PUTL(b, ", ");
		put_fixed(b, 100 * self / g->tscaled, 2);
		PUTL(b, "%");
	}
	PUTL(b, ")");
}

/*
 * What the search needs of the frames not drawn: the names and own times of
 * the frames merged into each grey frame, and of the runs of children too
 * narrow, all together, to be drawn under a frame, so that "Matched" counts
 * them too. names is the body of a JS array of distinct names, written into
 * fgcfg.N; each such frame's slice of d is those subtrees in preorder, as
 * entries joined by spaces, each "[U^]NAME[*SELF]": NAME an index into
 * fgcfg.N, SELF the own time in counts when not 0, U how many levels the
 * entry lies above a child of the entry before it when not 0 (the first
 * entry, a merged or hidden sibling, lies at depth 0). Only digits and
 * " ^*.-+e": safe in an XML attribute. The budget (--search-budget) goes
 * to the frames that hide the most time first; once the whole passes it,
 * the frames left get data-l="-", and the script says that "Matched" is a
 * lower bound.
 */

struct mdata {
	struct svgbuf	 names;
	uint32_t	 nnames;
	struct svgbuf	 d;
	size_t		*off;		/* per frame: start and end in d, or
					   SIZE_MAX for none */
	unsigned char	*omit;		/* per frame: its data passed the
					   budget, written as data-l="-" */
	struct hashtab	 index;		/* of the names, by XXH3 */
	uint32_t	*namenode;	/* per name: a node that bears it */
	size_t		 nncap;
	int		 full;		/* the budget ran out */
	size_t		 budget;	/* bytes of names and d, at most */
};

/* Returns the index in md->names of node's name, adding it first. */
static uint32_t
mdata_name(struct mdata *md, const struct flame *fl, uint32_t node,
    struct svgbuf *tmp)
{
	size_t len, olen, i;
	const char *raw = flame_name(fl, node, &len), *o;
	struct hashtab_probe p;
	uint32_t idx;

	hashtab_probe(&md->index, XXH3_64bits(raw, len), &p);
	while ((idx = hashtab_next(&md->index, &p)) != HASHTAB_NONE) {
		o = flame_name(fl, md->namenode[idx], &olen);
		if (olen == len && memcmp(o, raw, len) == 0)
			return idx;
	}
	idx = md->nnames++;
	hashtab_add(&md->index, &p, idx);
	GROW(md->namenode, md->nnames, md->nncap);
	md->namenode[idx] = node;
	/* the name as its frame's label shows it, as a JS string */
	tmp->len = 0;
	svg_clean(tmp, raw, strip_annotation(raw, len));
	if (idx > 0)
		putch(&md->names, ',');
	putch(&md->names, '"');
	for (i = 0; i < tmp->len; i++) {
		unsigned char c = (unsigned char)tmp->buf[i];

		if (c < 0x20 || c == '"' || c == '\\' || c == '<' ||
		    c == '>' || c == '&' || c == ']')
			svgbuf_printf(&md->names, "\\u%04x", c);
		else
			putch(&md->names, (char)c);
	}
	putch(&md->names, '"');
	return idx;
}

/*
 * Appends to md->d the n siblings from first, each with its subtree, in
 * preorder; *prev is the depth of the entry before, when d passed start.
 * Sets md->full and stops once the budget is passed.
 */
static void
mdata_run(struct mdata *md, const struct flame *fl, uint32_t first,
    uint32_t n, size_t start, uint32_t *prev, uint32_t **stk, size_t *cap,
    struct svgbuf *tmp)
{
	uint32_t base = fl->nodes[first].depth, c, k, d, j;
	size_t sp;

	for (c = first, j = 0; j < n && c != FLAME_NONE && !md->full;
	    j++, c = fl->nodes[c].next) {
		sp = 0;
		GROW(*stk, 1, *cap);
		(*stk)[sp++] = c;
		while (sp > 0) {
			const struct flame_node *nd = &fl->nodes[(*stk)[--sp]];
			double self = nd->etime - nd->stime;
			size_t lo = sp, a, b;

			for (k = nd->child; k != FLAME_NONE;
			    k = fl->nodes[k].next) {
				self -= fl->nodes[k].etime - fl->nodes[k].stime;
				GROW(*stk, sp + 1, *cap);
				(*stk)[sp++] = k;
			}
			/* pushed in order: reverse, to pop the first first */
			for (a = lo, b = sp; a + 1 < b; a++, b--) {
				uint32_t t = (*stk)[a];

				(*stk)[a] = (*stk)[b - 1];
				(*stk)[b - 1] = t;
			}
			d = nd->depth - base;
			/* Integers through put_uint: printf was most of the time. */
			if (md->d.len > start) {
				putch(&md->d, ' ');
				if (d != *prev + 1) {
					put_uint(&md->d, *prev + 1 - d);
					putch(&md->d, '^');
				}
			}
			*prev = d;
			put_uint(&md->d, mdata_name(md, fl,
			    (uint32_t)(nd - fl->nodes), tmp));
			if (self > 0) {
				putch(&md->d, '*');
				if (self == floor(self) && self < 1e12)
					put_uint(&md->d, (uint64_t)self);
				else
					svgbuf_printf(&md->d, "%.12g", self);
			}
			if (md->d.len + md->names.len > md->budget) {
				md->full = 1;
				return;
			}
		}
	}
}

struct wide {
	double		 w;		/* the time a frame's data-l holds */
	size_t		 i;		/* the frame */
};

/* Orders the widest first, then by frame, so that output is stable. */
static int
cmp_wide(const void *a, const void *b)
{
	const struct wide *x = a, *y = b;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * Fills md for the grey frames of fl->frames, and for the frames whose
 * narrow children were too narrow, all together, to be drawn (fl->drops).
 */
static void
mdata_build(struct mdata *md, const struct flame *fl, size_t budget)
{
	struct svgbuf tmp;
	uint32_t *stk = NULL, prev = 0;
	size_t cap = 0, i, j, n = 0, o, *dhead, *dnext;
	struct wide *order;

	memset(md, 0, sizeof(*md));
	md->budget = budget;
	hashtab_init(&md->index, 768);
	svgbuf_init(&md->names, -1);
	svgbuf_init(&md->d, -1);
	svgbuf_init(&tmp, -1);
	md->off = xcalloc(2 * (fl->nframes ? fl->nframes : 1),
	    sizeof(*md->off));
	md->omit = xcalloc(fl->nframes ? fl->nframes : 1, 1);
	/* each frame's drops, in order, as lists */
	dhead = xmalloc((fl->nframes ? fl->nframes : 1) * sizeof(*dhead));
	dnext = xmalloc((fl->ndrops ? fl->ndrops : 1) * sizeof(*dnext));
	for (i = 0; i < fl->nframes; i++)
		dhead[i] = SIZE_MAX;
	for (j = fl->ndrops; j-- > 0; ) {
		dnext[j] = dhead[fl->drops[j].frame];
		dhead[fl->drops[j].frame] = j;
	}
	/* the budget goes to the widest hidden time first */
	order = xmalloc((fl->nframes ? fl->nframes : 1) * sizeof(*order));
	for (i = 0; i < fl->nframes; i++) {
		const struct flame_frame *f = &fl->frames[i];

		order[n].w = 0;
		if (f->node == FLAME_NONE && f->first != FLAME_NONE)
			order[n].w = f->etime - f->stime;
		for (j = dhead[i]; j != SIZE_MAX; j = dnext[j]) {
			const struct flame_node *c = &fl->nodes[fl->drops[j].first];
			uint32_t m;

			for (m = 0; m < fl->drops[j].n; m++) {
				order[n].w += c->etime - c->stime;
				if (c->next == FLAME_NONE)
					break;
				c = &fl->nodes[c->next];
			}
		}
		md->off[2 * i] = md->off[2 * i + 1] = SIZE_MAX;
		if (order[n].w > 0 || dhead[i] != SIZE_MAX ||
		    f->node == FLAME_NONE)
			order[n++].i = i;
	}
	qsort(order, n, sizeof(*order), cmp_wide);
	for (o = 0; o < n; o++) {
		const struct flame_frame *f = &fl->frames[i = order[o].i];
		size_t start = md->d.len;
		int any = f->node == FLAME_NONE && f->first != FLAME_NONE;

		if (!any && dhead[i] == SIZE_MAX)
			continue;
		if (!md->full && any)
			mdata_run(md, fl, f->first, f->nmerged, start, &prev,
			    &stk, &cap, &tmp);
		for (j = dhead[i]; j != SIZE_MAX && !md->full; j = dnext[j])
			mdata_run(md, fl, fl->drops[j].first, fl->drops[j].n,
			    start, &prev, &stk, &cap, &tmp);
		if (md->full) {
			md->d.len = start;
			md->omit[i] = 1;
			continue;
		}
		md->off[2 * i] = start;
		md->off[2 * i + 1] = md->d.len;
	}
	free(order);
	free(dhead);
	free(dnext);
	free(stk);
	svgbuf_release(&tmp);
}

static void
mdata_release(struct mdata *md)
{
	svgbuf_release(&md->names);
	svgbuf_release(&md->d);
	free(md->off);
	free(md->omit);
	hashtab_release(&md->index);
	free(md->namenode);
}

/*
 * Appends one frame to b: a <g> (an <a> for a --nameattr link) holding its
 * tooltip and its rectangle; and its label to lb when at least three
 * characters fit. name is scratch space.
 */
static void
put_frame(struct svgbuf *b, struct flame *fl, const struct flame_frame *f,
    const struct svg_opts *o, struct palette *pal, const struct geom *g,
    struct svgbuf *name, struct svgbuf *lb, const struct mdata *md)
{
	size_t fi = (size_t)(f - fl->frames);
	const struct flame_node *n = f->node != FLAME_NONE ?
	    &fl->nodes[f->node] : NULL;
	const char *raw = "", *attrs = NULL, *ttl = NULL;
	size_t rawlen = 0, ttllen = 0, nlen;
	double x1, x2, y1, y2, rx1, rx2, d;
	char color[PALETTE_COLORLEN], num[400];
	int link = 0;
	long chars;

	if (n != NULL)
		raw = flame_name(fl, f->node, &rawlen);
	x1 = XPAD + f->stime * g->wpt;
	x2 = XPAD + f->etime * g->wpt;
	if (!o->inverted) {
		y1 = g->height - g->ypad2 - (f->depth + 1.0) * o->frameheight +
		    FRAMEPAD;
		y2 = g->height - g->ypad2 - (double)f->depth * o->frameheight;
	} else {
		y1 = g->ypad1 + (double)f->depth * o->frameheight;
		y2 = g->ypad1 + (f->depth + 1.0) * o->frameheight - FRAMEPAD;
	}
	/* The label: the name made safe, its annotation removed. */
	name->len = 0;
	if (n == NULL)
		svgbuf_printf(name, "[%u narrow frames]", f->nmerged);
	else if (f->depth == 0)
		PUTL(name, "all");
	else
		svg_clean(name, raw, strip_annotation(raw, rawlen));
	if (o->nameattr != NULL && n != NULL) {
		attrs = svgmap_get(&o->nameattr->attrs, raw, rawlen, NULL);
		ttl = svgmap_get(&o->nameattr->titles, raw, rawlen, &ttllen);
		link = svgmap_get(&o->nameattr->links, raw, rawlen,
		    NULL) != NULL;
	}

	svgbuf_puts(b, link ? "<a" : "<g");
	if (n == NULL)
		PUTL(b, " class=\"m\"");
	if (md->omit[fi])
		PUTL(b, " data-l=\"-\"");
	else if (md->off[2 * fi] != SIZE_MAX) {
		PUTL(b, " data-l=\"");
		svgbuf_put(b, md->d.buf + md->off[2 * fi],
		    md->off[2 * fi + 1] - md->off[2 * fi]);
		putch(b, '"');
	}
	if (attrs != NULL)
		svgbuf_puts(b, attrs);
	PUTL(b, "><title>");
	if (ttl != NULL)
		svg_escape(b, ttl, ttllen);
	else {
		svg_xml(b, name->buf, name->len);
		put_info(b, fl, f, o, g);
	}
	PUTL(b, "</title>");

	if (n == NULL)
		strcpy(color, "rgb(176,176,176)");
	else if (rawlen == 2 && raw[0] == '-' && raw[1] == '-')
		strcpy(color, "rgb(160,160,160)");
	else if (rawlen == 1 && raw[0] == '-')
		strcpy(color, "rgb(200,200,200)");
	else if (flame_delta(fl, f->node, &d))
		palette_diff(d, fl->maxdelta, o->negate, color);
	else if (g->off[f->node])
		palette_color(g->blue, raw, rawlen, color);
	else
		palette_color(pal, raw, rawlen, color);
	/* flamegraph.pl's width is the difference of the rounded ends */
	nlen = fmt_fixed(num, sizeof(num), x1, 1, &rx1);
	PUTL(b, "<rect x=\"");
	put(b, num, nlen);
	PUTL(b, "\" y=\"");
	put_num(b, y1);
	nlen = fmt_fixed(num, sizeof(num), x2, 1, &rx2);
	PUTL(b, "\" width=\"");
	put_fixed(b, rx2 - rx1, 1);
	PUTL(b, "\" height=\"");
	put_fixed(b, y2 - y1, 1);
	PUTL(b, "\" fill=\"");
	svgbuf_puts(b, color);
	PUTL(b, "\"/>");
	svgbuf_puts(b, link ? "</a>\n" : "</g>\n");
	if ((chars = (long)((x2 - x1) / g->per)) >= 3) {
		PUTL(lb, "<text x=\"");
		put_fixed(lb, x1 + 3, 2);
		PUTL(lb, "\" y=\"");
		put_num(lb, 3 + (y1 + y2) / 2);
		PUTL(lb, "\">");
		put_label(lb, name->buf, name->len, chars);
		PUTL(lb, "</text>\n");
	}
}

int
svg_write(struct svgbuf *b, struct flame *fl, const struct svg_opts *o,
    struct palette *pal)
{
	const double xpad = XPAD;
	double ypad1 = o->fontsize * 3, ypad2 = o->fontsize * 2 + 10;
	double ypad3 = o->fontsize * 2, timemax, wpt, mintime, height, fh;
	int sub = o->subtitle != NULL && *o->subtitle != '\0';
	const char *title = o->title;
	struct svgbuf name, labels;
	struct palette blue;
	struct mdata md;
	struct geom g;
	size_t i;

	if (fl->time <= 0 || fl->nnodes == 0)
		return empty_doc(b, o);
	timemax = o->total > fl->time ? o->total : fl->time;
	wpt = (o->width - 2 * xpad) / timemax;
	mintime = o->minwidth_pct ? timemax * o->minwidth / 100 :
	    o->minwidth / wpt;
	flame_layout(fl, timemax, mintime);
	mdata_build(&md, fl, o->search_budget);
	g.off = xmalloc(fl->nnodes + 1);
	g.timens = mark_offcpu(fl, g.off) > 0 ? o->timens != 0 : o->timens > 0;
	fh = o->frameheight;
	height = (fl->depthmax + 1) * fh + ypad1 + ypad2;
	if (sub)
		height += ypad3;
	if (title == NULL)
		title = o->flamechart ? "Flame Chart" :
		    o->inverted ? "Icicle Graph" : "Flame Graph";

	header(b, o, height);
	svgbuf_printf(b, "<defs>\n<linearGradient id=\"background\" y1=\"0\" "
	    "y2=\"1\" x1=\"0\" x2=\"0\">\n<stop stop-color=\"%s\" "
	    "offset=\"5%%\"/>\n<stop stop-color=\"%s\" offset=\"95%%\"/>\n"
	    "</linearGradient>\n</defs>\n", o->bgcolor1, o->bgcolor2);
	PUTL(b, "<style type=\"text/css\">\ntext { font-family:");
	put_cssfont(b, o->fonttype);
	PUTL(b, "; font-size:");
	put_num(b, o->fontsize);
	svgbuf_puts(b, "px; fill:rgb(0,0,0); }\n#title { text-anchor:middle; "
	    "font-size:");
	put_num(b, o->fontsize + 5);
	svgbuf_puts(b, "px; }\n"
	    "#subtitle { text-anchor:middle; fill:rgb(160,160,160); }\n"
	    "#search, #ignorecase { opacity:0.1; cursor:pointer; }\n"
	    "#search:hover, #search.show, #ignorecase:hover, "
	    "#ignorecase.show { opacity:1; }\n"
	    "#unzoom { cursor:pointer; }\n"
	    "#frames > * { cursor:pointer; }\n"
	    "#frames > *:hover > rect { stroke:black; stroke-width:0.5; "
	    "vector-effect:non-scaling-stroke; }\n"
	    "#labels, #zlabels, #fnlabels { pointer-events:none; }\n"
	    ".hide { display:none; }\n.parent { opacity:0.5; }\n"
	    "</style>\n<script type=\"text/ecmascript\"><![CDATA[\n"
	    "var fgcfg = {W:");
	svgbuf_printf(b, "%d, xpad:%g, fh:%d, fs:", o->width, xpad,
	    o->frameheight);
	put_num(b, o->fontsize);
	PUTL(b, ", fw:");
	put_num(b, o->fontwidth);
	svgbuf_printf(b, ", inv:%d, rev:%d, sc:\"rgb(230,0,230)\", nt:",
	    o->inverted, o->reverse);
	put_jsstr(b, o->nametype);
	PUTL(b, ", cn:");
	put_jsstr(b, o->countname);
	PUTL(b, ", T:");
	svgbuf_printf(b, "%.17g, tn:%d", timemax, g.timens);
	PUTL(b, ", N:[");
	svgbuf_put(b, md.names.buf ? md.names.buf : "", md.names.len);
	PUTL(b, "]};\n");
	svgbuf_puts(b, svg_script);
	PUTL(b, "]]></script>\n");
	svgbuf_printf(b, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"",
	    o->width);
	put_num(b, height);
	PUTL(b, "\" fill=\"url(#background)\"/>\n");
	put_text(b, "title", o->width / 2, o->fontsize * 2, title, "");
	if (sub)
		put_text(b, "subtitle", o->width / 2, o->fontsize * 4,
		    o->subtitle, "");
	put_text(b, "details", xpad, height - ypad2 / 2, " ", "");
	put_text(b, "unzoom", xpad, o->fontsize * 2, "Reset Zoom",
	    " class=\"hide\"");
	put_text(b, "search", o->width - xpad - 100, o->fontsize * 2,
	    "Search", "");
	put_text(b, "ignorecase", o->width - xpad - 16, o->fontsize * 2, "ic",
	    " class=\"show\"");
	put_text(b, "matched", o->width - xpad - 100, height - ypad2 / 2, " ",
	    "");

	/*
	 * The frames go in a nested <svg> whose viewBox the script narrows to
	 * zoom; the labels go in a group of their own, outside it, so that
	 * zooming does not stretch them.
	 */
	svgbuf_printf(b, "<svg id=\"fv\" x=\"%g\" y=\"0\" width=\"%g\" "
	    "height=\"", xpad, o->width - 2 * xpad);
	put_num(b, height);
	svgbuf_printf(b, "\" viewBox=\"%g 0 %g ", xpad, o->width - 2 * xpad);
	put_num(b, height);
	PUTL(b, "\" preserveAspectRatio=\"none\">\n<g id=\"frames\">\n");
	svgbuf_init(&name, -1);
	svgbuf_init(&labels, -1);
	g.wpt = wpt;
	g.height = height;
	g.ypad1 = ypad1;
	g.ypad2 = ypad2;
	g.per = o->fontsize * o->fontwidth;
	g.tscaled = timemax * o->factor;
	svgbuf_init(&g.cn, -1);
	PUTL(&g.cn, " ");
	svg_escape(&g.cn, o->countname, strlen(o->countname));
	g.blue = &blue;
	palette_init(&blue, &(struct palette_opts){ .scheme = "blue",
	    .hash = pal->opts.hash, .random = pal->opts.random,
	    .seed = pal->opts.seed });
	for (i = 0; i < fl->nframes; i++)
		put_frame(b, fl, &fl->frames[i], o, pal, &g, &name, &labels,
		    &md);
	svgbuf_release(&name);
	svgbuf_release(&g.cn);
	free(g.off);
	palette_release(&blue);
	mdata_release(&md);
	PUTL(b, "</g>\n</svg>\n<g id=\"labels\">\n");
	svgbuf_put(b, labels.buf ? labels.buf : "", labels.len);
	svgbuf_release(&labels);
	PUTL(b, "</g>\n<g id=\"zlabels\"></g>\n</svg>\n");
	return svgbuf_flush(b);
}
