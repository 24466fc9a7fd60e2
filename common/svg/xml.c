#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "base/str.h"
#include "svg/xml.h"

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

void
xml_clean(struct buf *b, const char *s, size_t len)
{
	static const char hexdig[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, j, k;

	/* room for the common case; and a NUL even when s is empty */
	buf_grow(b, len);
	b->p[b->len] = '\0';
	while (i < len) {
		/* a run of printable ASCII, the common case */
		for (j = i; j < len && u[j] >= 0x20 && u[j] < 0x7f &&
		    u[j] != '\\'; j++)
			;
		if (j > i) {
			buf_add(b, s + i, j - i);
			i = j;
		} else if (u[i] == '\\' && i + 1 < len && u[i + 1] == 'x') {
			BUF_ADDL(b, "\\x5c");
			i++;
		} else if ((k = utf8_ok(u + i, len - i)) > 0) {
			buf_add(b, s + i, k);
			i += k;
		} else {
			char e[4] = { '\\', 'x', hexdig[u[i] >> 4],
				hexdig[u[i] & 15] };

			buf_add(b, e, 4);
			i++;
		}
	}
}

void
xml_entities(struct buf *b, const char *s, size_t len)
{
	size_t i, run = 0;

	buf_grow(b, len);
	b->p[b->len] = '\0';
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
		buf_add(b, s + run, i - run);
		buf_add(b, ent, strlen(ent));
		run = i + 1;
	}
	buf_add(b, s + run, len - run);
}

void
xml_escape(struct buf *b, const char *s, size_t len)
{
	struct buf t;

	buf_init(&t);
	xml_clean(&t, s, len);
	xml_entities(b, t.p, t.len);
	buf_release(&t);
}

/* Appends code point c (at most U+10FFFF) as UTF-8. */
static void
put_utf8(struct buf *b, unsigned long c)
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
	buf_add(b, u, n);
}

/*
 * Reads the character reference "&#N;" or "&#xH;" at s[0..len) (s[0] is
 * '&', s[1] is '#'); returns its length and stores the code point in *c,
 * or returns 0 when it is not one (no digits, no ';', past U+10FFFF).
 */
static size_t
charref(const char *s, size_t len, unsigned long *c)
{
	size_t j = 2;
	int hex = 0, ok = 0, v;

	*c = 0;
	if (len <= 2)
		return 0;
	if (s[j] == 'x')
		hex = 1, j++;
	for (; j < len && s[j] != ';'; j++) {
		v = hex ? str_hexval(s[j]) :
		    s[j] >= '0' && s[j] <= '9' ? s[j] - '0' : -1;
		if (v < 0 || *c > 0x10ffff)
			break;
		*c = *c * (hex ? 16 : 10) + v;
		ok = 1;
	}
	if (ok && j < len && s[j] == ';' && *c <= 0x10ffff)
		return j + 1;
	return 0;
}

char *
xml_unescape(const char *s, size_t len, size_t *outlen)
{
	static const struct { const char *ent; char c; } ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&apos;", '\'' },
	};
	struct buf b;
	unsigned long c;
	size_t i = 0, k, n;

	buf_init(&b);
	buf_grow(&b, len);
	b.p[0] = '\0';
	while (i < len) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
		    str_hexval(s[i + 2]) >= 0 && str_hexval(s[i + 3]) >= 0) {
			buf_addc(&b, (char)(str_hexval(s[i + 2]) << 4 |
			    str_hexval(s[i + 3])));
			i += 4;
			continue;
		}
		if (s[i] == '&') {
			for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++)
				if (str_starts(s + i, len - i, ents[k].ent))
					break;
			if (k < sizeof(ents) / sizeof(ents[0])) {
				buf_addc(&b, ents[k].c);
				i += strlen(ents[k].ent);
				continue;
			}
			if (i + 1 < len && s[i + 1] == '#' &&
			    (n = charref(s + i, len - i, &c)) > 0) {
				put_utf8(&b, c);
				i += n;
				continue;
			}
		}
		buf_addc(&b, s[i]);
		i++;
	}
	return buf_detach(&b, outlen);
}

void
xml_jsstr(struct buf *b, const char *s, size_t len)
{
	struct buf t;
	size_t i;

	buf_init(&t);
	xml_clean(&t, s, len);
	buf_addc(b, '"');
	for (i = 0; i < t.len; i++) {
		unsigned char c = (unsigned char)t.p[i];

		if (c < 0x20 || c == '"' || c == '\\' || c == '<' ||
		    c == '>' || c == '&' || c == ']')
			buf_addf(b, "\\u%04x", c);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '"');
	buf_release(&t);
}
