/*
 * xmlcheck.h: a small, strict well-formedness check for the SVG documents
 * fgsvg writes, for the fuzz harnesses. It is not a general XML parser: it
 * knows the subset svg.c emits (one prolog, one comment, CDATA in the
 * script) and accepts only the elements and attributes svg.c writes, so
 * that a name which injects an element, an attribute or a second script
 * fails the check instead of passing as well-formed XML.
 *
 * xml_check(doc, len, any_attr) returns NULL when the document is well
 * formed, or a static string saying what is wrong. any_attr allows
 * attribute names outside the list (a --nameattr file chooses them).
 */
#ifndef FG_XMLCHECK_H
#define FG_XMLCHECK_H

#include <stddef.h>
#include <string.h>

static const char *const xml_elements[] = {
	"svg", "defs", "linearGradient", "stop", "style", "script", "rect",
	"text", "g", "title", "a", "desc", NULL
};

static const char *const xml_attrs[] = {
	"version", "width", "height", "viewBox", "xmlns", "xmlns:xlink", "id",
	"y1", "y2", "x1", "x2", "stop-color", "offset", "type", "x", "y",
	"fill", "class", "style", "xlink:href", "href", "target", "onclick",
	"onmouseover", "onmouseout", "text-anchor", "preserveAspectRatio",
	"font-family",
	"font-size", "opacity", "rx", "ry", "data-name", "data-l", NULL
};

static int
xml_in(const char *const *list, const char *s, size_t n)
{
	for (; *list != NULL; list++)
		if (strlen(*list) == n && memcmp(*list, s, n) == 0)
			return 1;
	return 0;
}

static int
xml_namech(unsigned char c, int first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    c == ':' || c >= 0x80)
		return 1;
	return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

/* Length of a valid reference at s ("&amp;", "&#60;", "&#x3c;"), or 0. */
static size_t
xml_ref(const char *s, const char *end)
{
	static const char *const ents[] = { "&amp;", "&lt;", "&gt;", "&quot;",
	    "&apos;", NULL };
	const char *p;

	for (int i = 0; ents[i] != NULL; i++) {
		size_t n = strlen(ents[i]);

		if ((size_t)(end - s) >= n && memcmp(s, ents[i], n) == 0)
			return n;
	}
	if (end - s < 4 || s[1] != '#')
		return 0;
	p = s + 2;
	if (*p == 'x') {
		for (p++; p < end && strchr("0123456789abcdefABCDEF", *p) &&
		    *p != '\0'; p++)
			;
		if (p == s + 3)
			return 0;
	} else {
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			;
		if (p == s + 2)
			return 0;
	}
	return p < end && *p == ';' ? (size_t)(p + 1 - s) : 0;
}

/* Valid UTF-8 with only the characters XML 1.0 allows. */
static const char *
xml_chars(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		unsigned cp, n;

		if (c < 0x80) {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				return "a control character";
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			return "invalid UTF-8";
		for (unsigned k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return "invalid UTF-8";
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
		    cp == 0xfffe || cp == 0xffff)
			return "a character XML cannot carry";
		i += n + 1;
	}
	return NULL;
}

static const char *
xml_check(const char *doc, size_t len, int any_attr)
{
	const char *p = doc, *end = doc + len, *q, *e;
	const char *stack[64];
	size_t stlen[64];
	int depth = 0, roots = 0, scripts = 0;

	if ((e = xml_chars((const unsigned char *)doc, len)) != NULL)
		return e;
	if (len >= 5 && memcmp(p, "<?xml", 5) == 0) {
		if ((q = memmem(p, len, "?>", 2)) == NULL)
			return "unterminated prolog";
		p = q + 2;
	}
	while (p < end) {
		if (*p == '&') {
			if (depth == 0 || xml_ref(p, end) == 0)
				return "a bare '&' in text";
			p += xml_ref(p, end);
			continue;
		}
		if (*p == '>' && p - doc >= 2 && p[-1] == ']' && p[-2] == ']')
			return "\"]]>\" in text";
		if (*p != '<') {
			if (depth == 0 && *p != '\n' && *p != ' ' && *p != '\t' &&
			    *p != '\r')
				return "text outside the root element";
			p++;
			continue;
		}
		if ((size_t)(end - p) >= 4 && memcmp(p, "<!--", 4) == 0) {
			if ((q = memmem(p + 4, end - p - 4, "--", 2)) == NULL ||
			    q + 2 >= end || q[2] != '>')
				return "bad comment";
			p = q + 3;
			continue;
		}
		if ((size_t)(end - p) >= 9 && memcmp(p, "<![CDATA[", 9) == 0) {
			if (depth == 0 || strcmp(stack[depth - 1], "script") != 0)
				return "CDATA outside a script";
			if ((q = memmem(p + 9, end - p - 9, "]]>", 3)) == NULL)
				return "unterminated CDATA";
			p = q + 3;
			continue;
		}
		if (p + 1 < end && p[1] == '/') {
			q = p + 2;
			while (q < end && xml_namech(*q, q == p + 2))
				q++;
			if (depth == 0 || stlen[depth - 1] != (size_t)(q - p - 2) ||
			    memcmp(stack[depth - 1], p + 2, q - p - 2) != 0)
				return "mismatched end tag";
			if (q >= end || *q != '>')
				return "bad end tag";
			depth--;
			p = q + 1;
			continue;
		}
		/* A start tag. */
		q = p + 1;
		if (q >= end || !xml_namech(*q, 1))
			return "a bare '<' in text";
		while (q < end && xml_namech(*q, q == p + 1))
			q++;
		if (!xml_in(xml_elements, p + 1, q - p - 1))
			return "an element svg.c does not write";
		if (q - p - 1 == 6 && memcmp(p + 1, "script", 6) == 0 &&
		    ++scripts > 1)
			return "a second script";
		if (depth == 0 && roots++ > 0)
			return "a second root element";
		if (depth == 64)
			return "too deep";
		stack[depth] = p + 1;
		stlen[depth] = q - p - 1;
		for (;;) {
			const char *an;
			char quote;
			int ws = 0;

			while (q < end && (*q == ' ' || *q == '\n' || *q == '\t'))
				q++, ws = 1;
			if (q >= end)
				return "unterminated start tag";
			if (*q == '>') {
				/* Only svg.c's element names are pushed. */
				stack[depth] = xml_elements[0];
				for (int i = 0; xml_elements[i]; i++)
					if (strlen(xml_elements[i]) ==
					    stlen[depth] && memcmp(xml_elements[i],
					    p + 1, stlen[depth]) == 0)
						stack[depth] = xml_elements[i];
				depth++;
				p = q + 1;
				break;
			}
			if (*q == '/' && q + 1 < end && q[1] == '>') {
				p = q + 2;
				break;
			}
			if (!ws || !xml_namech(*q, 1))
				return "bad attribute";
			an = q;
			while (q < end && xml_namech(*q, q == an))
				q++;
			if (!any_attr && !xml_in(xml_attrs, an, q - an))
				return "an attribute svg.c does not write";
			if (q + 1 >= end || *q != '=' || (q[1] != '"' &&
			    q[1] != '\''))
				return "bad attribute value";
			quote = q[1];
			for (q += 2; q < end && *q != quote; ) {
				if (*q == '<')
					return "'<' in an attribute value";
				if (*q == '&') {
					size_t n = xml_ref(q, end);

					if (n == 0)
						return "a bare '&' in an attribute";
					q += n;
				} else
					q++;
			}
			if (q >= end)
				return "unterminated attribute value";
			q++;
		}
	}
	if (depth != 0)
		return "unclosed element";
	if (roots != 1)
		return "no root element";
	return NULL;
}

#endif
