/* Unit tests of common/svg/svg.c (escaping and its inverse, the writer),
 * common/svg/svgmap.c and common/svg/palette.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "svg/palette.h"
#include "svg/svg.h"
#include "svg/xml.h"
#include "svg/svgmap.h"
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
	uint32_t x = 12345;
	char buf[64];
	size_t i, j, n;
	char *e;

	e = esc("a<b>&\"'", 7);
	CHECK_STR(e, "a&lt;b&gt;&amp;&quot;&#39;", "the five XML characters");
	free(e);
	e = esc("x]]>y", 5);
	CHECK_STR(e, "x]]&gt;y", "]]> cannot end anything");
	free(e);
	e = esc("a\xff" "b\x01" "c", 5);
	CHECK_STR(e, "a\\xffb\\x01c", "bad UTF-8 and controls become \\xNN");
	free(e);
	e = esc("\\x41", 4);
	CHECK_STR(e, "\\x5cx41", "a backslash before x is escaped");
	free(e);
	e = esc("C:\\dir", 6);
	CHECK_STR(e, "C:\\dir", "other backslashes are kept");
	free(e);
	e = esc("caf\xc3\xa9", 5);
	CHECK_STR(e, "caf\xc3\xa9", "valid UTF-8 is kept");
	free(e);
	e = esc("\xed\xa0\x80", 3);
	CHECK_STR(e, "\\xed\\xa0\\x80", "an encoded surrogate is not UTF-8");
	free(e);
	e = esc("nul\0here", 8);
	CHECK_STR(e, "nul\\x00here", "a NUL byte");
	free(e);
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
test_svgmap(void)
{
	struct svgmap m;
	struct svgmap_entry **v;
	char key[32];
	const char *val;
	size_t n, vlen, i;
	int ok = 1;

	svgmap_init(&m);
	CHECK(svgmap_get(&m, "a", 1, NULL) == NULL, "empty map");
	for (i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		svgmap_put(&m, key, strlen(key), key + 1, strlen(key + 1));
	}
	svgmap_put(&m, "k7", 2, "seven", 5);
	for (i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		val = svgmap_get(&m, key, strlen(key), &vlen);
		if (i == 7)
			ok &= val != NULL && vlen == 5 && memcmp(val, "seven", 5) == 0;
		else
			ok &= val != NULL && vlen == strlen(key + 1) &&
			    memcmp(val, key + 1, vlen) == 0;
	}
	CHECK(ok && m.count == 1000, "1000 keys, one replaced");
	v = svgmap_sorted(&m, &n);
	CHECK(n == 1000 && strcmp(v[0]->key, "k0") == 0 &&
	    strcmp(v[1]->key, "k1") == 0 && strcmp(v[2]->key, "k10") == 0,
	    "sorted bytewise");
	free(v);
	svgmap_release(&m);
}

static void
test_palette(void)
{
	struct palette_opts o = { .scheme = "hot" };
	struct palette p;
	const char *c1, *c2;
	char c[PALETTE_COLORLEN];

	CHECK(palette_scheme_ok("rust") && palette_scheme_ok("python") &&
	    !palette_scheme_ok("teal"), "known schemes");
	o.hash = 1;
	palette_init(&p, &o);
	palette_color(&p, "", 0, c);
	CHECK_STR(c, "rgb(255,230,55)", "--hash hot colour of the root");
	palette_color(&p, "intel_pmu_enable_all", 20, c);
	CHECK_STR(c, "rgb(230,164,28)", "--hash hot colour as flamegraph.pl");
	palette_release(&p);
	o.hash = 0;
	palette_init(&p, &o);
	palette_color(&p, "", 0, c);
	CHECK_STR(c, "rgb(213,39,9)", "default colour as flamegraph.pl (srand/rand)");
	palette_release(&p);
	o.scheme = "java";
	o.hash = 1;
	palette_init(&p, &o);
	palette_color(&p, "Lorg/x/Y;.f_[j]", 15, c);
	CHECK(strncmp(c, "rgb(", 4) == 0 && atoi(c + 4) < 120, "java: JIT is green");
	palette_color(&p, "memcpy_[k]", 10, c);
	CHECK(strstr(c, ",0)") != NULL, "java: kernel is orange");
	palette_release(&p);
	palette_diff(10, 10, 0, c);
	CHECK_STR(c, "rgb(255,0,0)", "largest growth is red");
	palette_diff(-5, 10, 0, c);
	CHECK_STR(c, "rgb(105,105,255)", "half shrinkage is light blue");
	palette_diff(-5, 10, 1, c);
	CHECK_STR(c, "rgb(255,105,105)", "negate swaps");
	palette_diff(0, 10, 0, c);
	CHECK_STR(c, "rgb(255,255,255)", "no change is white");
	CHECK(palette_background("mem", NULL, &c1, &c2) == 0 &&
	    strcmp(c2, "#e0ffe0") == 0, "mem has a green background");
	CHECK(palette_background("hot", "#123456", &c1, &c2) == 0 &&
	    strcmp(c1, "#123456") == 0, "a flat background");
	CHECK(palette_background("hot", "#12345", &c1, &c2) == -1 &&
	    palette_background("hot", "pink", &c1, &c2) == -1, "bad backgrounds");
}

static void
test_write(void)
{
	struct flame_opts fo = { .sort = FLAME_SORT_NAME };
	struct palette_opts po = { .scheme = "hot", .hash = 1 };
	struct folded_line fl;
	struct svg_opts so;
	struct palette pal;
	struct buf b;
	struct flame f;
	const char *line = "a;b<c> 3";

	svg_opts_default(&so);
	palette_init(&pal, &po);
	flame_init(&f, &fo);
	flame_build(&f);
	buf_init(&b);
	CHECK(svg_write(&b, &f, &so, &pal) == 0 && strstr(b.p,
	    ">no samples</text>") != NULL, "an empty flame says no samples");
	buf_release(&b);
	flame_release(&f);

	flame_init(&f, &fo);
	folded_parse(line, strlen(line), &fl);
	flame_add(&f, line, strlen(line), &fl);
	flame_build(&f);
	buf_init(&b);
	CHECK(svg_write(&b, &f, &so, &pal) == 0, "writes");
	CHECK(strstr(b.p, "<title>b&lt;c&gt; (3 samples, 100.00%; self 3 "
	    "samples, 100.00%)</title><rect x=\"10.0\" y=\"37\" "
	    "width=\"1180.0\" height=\"15.0\"") != NULL, "a frame, escaped");
	CHECK(strstr(b.p, "<![CDATA[") != NULL &&
	    strstr(strstr(b.p, "<![CDATA[") + 9, "]]>") ==
	    strstr(b.p, "]]></script>"), "the script ends its CDATA once");
	CHECK(strstr(b.p, "height=\"118\"") != NULL, "height for depth 2");
	buf_release(&b);
	flame_release(&f);
	palette_release(&pal);
}

int
main(void)
{
	test_escape();
	test_svgmap();
	test_palette();
	test_write();
	return unit_done();
}
