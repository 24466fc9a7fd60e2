/* Unit tests of common/svg/svg.c (the writer) and common/svg/svgmap.c; the
 * escaping is test_xml.c's, the colours test_palette.c's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "svg/palette.h"
#include "svg/svg.h"
#include "svg/svgmap.h"
#include "unit.h"

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
	test_svgmap();
	test_write();
	return unit_done();
}
