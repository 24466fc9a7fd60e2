/* Unit tests of common/svg/xml.c: xml_escape and xml_unescape are a
 * matched pair (the round trip gives back every byte string), and what
 * xml_escape gives is XML-safe text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "svg/xml.h"
#include "unit.h"

static char *
esc(const char *s, size_t len)
{
	struct buf b;
	char *r;

	buf_init(&b);
	xml_escape(&b, s, len);
	r = strndup(b.p ? b.p : "", b.len);
	buf_release(&b);
	return r;
}

/* 1 when s[0..len) is valid UTF-8 with no character XML 1.0 forbids. */
static int
xml_safe(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k, j;

	while (i < len) {
		uint32_t c = u[i];

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
			    c == 0x7f || c == '<' || c == '>')
				return 0;
			i++;
			continue;
		}
		k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
		if (k == 0)
			return 0;
		c &= 0x3f >> k;
		for (j = 1; j <= k; j++) {
			if (i + j >= len || (u[i + j] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (u[i + j] & 0x3f);
		}
		if ((c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff ||
		    c > 0x10ffff || (c >= 0x80 && c < 0xa0) ||
		    (k == 1 && c < 0x80) || (k == 2 && c < 0x800) ||
		    (k == 3 && c < 0x10000))
			return 0;
		i += k + 1;
	}
	return 1;
}

static void
roundtrip(const char *s, size_t len, const char *what)
{
	char *e = esc(s, len), *u;
	size_t ulen;

	u = xml_unescape(e, strlen(e), &ulen);
	CHECK(ulen == len && memcmp(u, s, len) == 0, what);
	CHECK(xml_safe(e, strlen(e)), what);
	free(u);
	free(e);
}

static void
test_escape(void)
{
	static const char *const cases[] = {
		"", "plain", "a<b>&\"'", "<script>alert(1)</script>", "x]]>y",
		"caf\xc3\xa9", "\xff\xfe", "\x01\x1b\x7f", "tab\there",
		"back\\xslash", "\\x41", "\\", "\\x", "&amp;", "&#65;",
		"\xed\xa0\x80", "\xef\xbf\xbe", "\xc0\xaf", "\xf4\x90\x80\x80",
		"\xf0\x9f\x94\xa5 fire", "\xc2\x85 nel", "trunc\xe2\x82",
		"std::vector<int, std::allocator<int> >::push_back",
	};
	static const struct {
		const char *in;
		size_t len;
		const char *want, *what;
	} fixed[] = {
		{ "a<b>&\"'", 7, "a&lt;b&gt;&amp;&quot;&#39;", "the five XML characters" },
		{ "x]]>y", 5, "x]]&gt;y", "]]> cannot end anything" },
		{ "a\xff" "b\x01" "c", 5, "a\\xffb\\x01c", "bad UTF-8 and controls become \\xNN" },
		{ "\\x41", 4, "\\x5cx41", "a backslash before x is escaped" },
		{ "C:\\dir", 6, "C:\\dir", "other backslashes are kept" },
		{ "caf\xc3\xa9", 5, "caf\xc3\xa9", "valid UTF-8 is kept" },
		{ "\xed\xa0\x80", 3, "\\xed\\xa0\\x80", "an encoded surrogate is not UTF-8" },
		{ "nul\0here", 8, "nul\\x00here", "a NUL byte" },
	};
	uint32_t x = 12345;
	char buf[64];
	size_t i, j, n;
	char *e;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		e = esc(fixed[i].in, fixed[i].len);
		CHECK_STR(e, fixed[i].want, fixed[i].what);
		free(e);
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		roundtrip(cases[i], strlen(cases[i]), cases[i]);
	/* random bytes, biased towards the interesting ones */
	for (i = 0; i < 3000; i++) {
		n = i % sizeof(buf);
		for (j = 0; j < n; j++) {
			static const char pick[] = "\\x<>&\"'];\xc3\xa9\xff\xed\xa0\x01";

			x = x * 1103515245 + 12345;
			buf[j] = (x >> 16) % 3 == 0 ?
			    pick[(x >> 8) % (sizeof(pick) - 1)] : (char)(x >> 20);
		}
		{
			char *ee = esc(buf, n), *u;
			size_t ul;
			int ok;

			u = xml_unescape(ee, strlen(ee), &ul);
			ok = ul == n && memcmp(u, buf, n) == 0 &&
			    xml_safe(ee, strlen(ee));
			if (!ok || i == 2999)
				CHECK(ok, "3000 random strings round-trip and are XML-safe");
			free(u);
			free(ee);
			if (!ok)
				break;
		}
	}
}

static void
test_unescape(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "&amp;&lt;&gt;&quot;&apos;&#39;", "&<>\"''" },
		{ "&#65;&#x42;&#x1F525;", "AB\xf0\x9f\x94\xa5" },
		{ "&nbsp; &#; &#x; &#65 &#x110000;", "&nbsp; &#; &#x; &#65 &#x110000;" },
		{ "\\x41\\x4", "A\\x4" },
		{ "\\xzz\\x5cx41", "\\xzz\\x41" },
		{ "", "" },
	};
	char what[80], *u;
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "unescape '%s'", cases[i].in);
		u = xml_unescape(cases[i].in, strlen(cases[i].in), &n);
		CHECK_STR(u, cases[i].want, what);
		CHECK(n == strlen(cases[i].want), "and its length");
		free(u);
	}
	u = xml_unescape("a\\x00b", 6, &n);
	CHECK(n == 3 && memcmp(u, "a\0b", 4) == 0, "\\x00 gives a NUL, and one ends the string");
	free(u);
}

static void
test_steps(void)
{
	struct buf b;

	buf_init(&b);
	xml_clean(&b, "<\xff>\x01", 4);
	CHECK_STR(b.p, "<\\xff>\\x01", "xml_clean leaves markup to xml_entities");
	buf_reset(&b);
	xml_entities(&b, "<a href='x'>&", 13);
	CHECK_STR(b.p, "&lt;a href=&#39;x&#39;&gt;&amp;", "xml_entities alone");
	buf_release(&b);
}

/* xml_jsstr: a JavaScript string literal that no CDATA section ends in */
static void
test_jsstr(void)
{
	struct buf b;

	buf_init(&b);
	xml_jsstr(&b, "a\"b\\c<d>&]]>\te", 14);
	CHECK_STR(b.p, "\"a\\u0022b\\u005cc\\u003cd\\u003e\\u0026\\u005d\\u005d"
	    "\\u003e\\u0009e\"", "xml_jsstr escapes what ends a string or CDATA");
	buf_reset(&b);
	xml_jsstr(&b, "\xff\xc3\xa9", 3);
	CHECK_STR(b.p, "\"\\u005cxff\xc3\xa9\"", "xml_jsstr cleans bad UTF-8 first, keeps good");
	buf_reset(&b);
	xml_jsstr(&b, "", 0);
	CHECK_STR(b.p, "\"\"", "xml_jsstr of nothing is an empty string");
	buf_release(&b);
}

int
main(void)
{
	test_escape();
	test_unescape();
	test_steps();
	test_jsstr();
	return unit_done();
}
