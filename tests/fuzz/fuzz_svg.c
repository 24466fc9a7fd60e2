/*
 * fuzz_svg: fgsvg's path from folded text to an SVG document, through
 * folded_parse, flame_add, flame_build, svg_write (layout, escaping,
 * labels, tooltips) and, optionally, a --nameattr file; then checks that
 * the document is well-formed XML that holds only the elements and
 * attributes svg.c writes (xmlcheck.h), and that svg_unescape undoes
 * svg_escape for every line.
 *
 * Input: byte 0 picks the options, byte 1 the share of the rest that is a
 * --nameattr file (at the end, when bit 7 of byte 0 is set); the first line
 * of the rest is the text of --title, --subtitle, --notes, --nametype,
 * --countname and --fonttype; the other lines are folded stacks.
 */
#include <err.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "svg/flame.h"
#include "stream/folded.h"
#include "fuzz.h"
#include "svg/palette.h"
#include "svg/svg.h"
#include "svg/xml.h"
#include "xmlcheck.h"

static void
fail(const char *what, const char *doc, size_t len)
{
	fprintf(stderr, "fuzz_svg: %s\n", what);
	if (doc != NULL)
		fwrite(doc, 1, len < 4096 ? len : 4096, stderr);
	abort();
}

/* xml_unescape(xml_escape(s)) == s, and the escaped text is XML-safe. */
static void
roundtrip(const char *s, size_t len)
{
	struct buf b;
	size_t outlen;
	char *back;

	buf_init(&b);
	xml_escape(&b, s, len);
	if (memchr(b.p ? b.p : "", '<', b.len) != NULL ||
	    memchr(b.p ? b.p : "", '>', b.len) != NULL ||
	    memchr(b.p ? b.p : "", '"', b.len) != NULL ||
	    memchr(b.p ? b.p : "", '\'', b.len) != NULL)
		fail("svg_escape left a markup character", b.p, b.len);
	if (xml_chars((const unsigned char *)(b.p ? b.p : ""), b.len) !=
	    NULL)
		fail("svg_escape left a character XML cannot carry", b.p,
		    b.len);
	back = xml_unescape(b.p ? b.p : "", b.len, &outlen);
	if (outlen != len || memcmp(back, s, len) != 0)
		fail("xml_unescape(xml_escape(s)) != s", s, len);
	free(back);
	buf_release(&b);
}

/*
 * Whether the escaped attribute value v, of length n, is a link that can
 * only go somewhere, as a browser reads it: the entities decoded, leading
 * spaces and control characters skipped, tabs and newlines anywhere
 * dropped; then a scheme (a letter, then letters, digits, '+', '-' or
 * '.', up to the first ':' before any '/', '?' or '#') must be http or
 * https, and a URL without one is relative.
 */
static int
link_ok(const char *v, size_t n)
{
	char *u, *s, *d;
	size_t len, i;
	int ok;

	u = xml_unescape(v, n, &len);
	for (s = d = u, i = 0; i < len; i++)
		if (u[i] != '\t' && u[i] != '\n' && u[i] != '\r')
			*d++ = u[i];
	len = d - u;
	while (len > 0 && (unsigned char)*s <= ' ') {
		s++;
		len--;
	}
	for (i = 0; i < len && !memchr(":/?#", s[i], 4); i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' &&
		    s[i] <= 'Z') && (i == 0 || !((s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '+' || s[i] == '-' || s[i] == '.')))
			break;
	if (i == len || s[i] != ':')
		ok = 1;		/* no scheme: relative */
	else
		ok = (i == 4 && strncasecmp(s, "http", 4) == 0) ||
		    (i == 5 && strncasecmp(s, "https", 5) == 0);
	free(u);
	return ok;
}

/*
 * What --nameattr lets through: only allowed keys, each once (no id: the
 * SVG's own ids are the script's), and no link that runs script.
 */
static void
nameattr_check(const struct nameattr *na)
{
	static const char *const ok[] = { "xlink:href", "target", "class",
	    NULL };
	size_t i, k;

	for (i = 0; i < na->attrs.count; i++) {
		const char *v = na->attrs.ents[i].val, *q, *eq;
		int seen[3] = { 0 };

		for (q = v; *q == ' '; q = strchr(eq + 2, '"') + 1) {
			eq = strchr(q, '=');
			if (eq == NULL || eq[1] != '"' || strchr(eq + 2, '"') == NULL)
				fail("--nameattr: a pair is not k=\"v\"", v, strlen(v));
			for (k = 0; ok[k] != NULL; k++)
				if ((size_t)(eq - q - 1) == strlen(ok[k]) &&
				    memcmp(q + 1, ok[k], eq - q - 1) == 0)
					break;
			if (ok[k] == NULL)
				fail("--nameattr let a key through", v, strlen(v));
			if (seen[k]++)
				fail("--nameattr let a key through twice", v, strlen(v));
			if (k == 0 && !link_ok(eq + 2, strchr(eq + 2, '"') - (eq + 2)))
				fail("--nameattr let a link through that is not http, "
				    "https or relative", v, strlen(v));
		}
		if (*q != '\0')
			fail("--nameattr: trailing bytes", v, strlen(v));
	}
}

/* --fonttype stays inside its declaration: no ';', '{' or '}' of its own. */
static void
css_check(const char *doc, size_t len)
{
	/* the <style> element's rule: the notes (<desc>) may hold its text,
	   but not the '<' that opens the element */
	static const char a[] = "<style type=\"text/css\">\ntext { font-family:",
	    b[] = "; font-size:";
	const char *p, *q;

	if ((p = memmem(doc, len, a, sizeof(a) - 1)) == NULL)
		return;		/* the small "no samples" document */
	p += sizeof(a) - 1;
	if ((q = memmem(p, len - (p - doc), b, sizeof(b) - 1)) == NULL)
		fail("the font-family declaration does not end as written", doc, len);
	if (memchr(p, ';', q - p) || memchr(p, '{', q - p) || memchr(p, '}', q - p))
		fail("--fonttype reached the CSS rule", doc, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct flame_opts fo;
	struct palette_opts po;
	struct nameattr na;
	struct svg_opts so;
	struct palette pal;
	struct folded_line f;
	struct buf out;
	struct flame fl;
	const char *p, *end, *nl, *why;
	char *text = NULL, path[64] = "";
	size_t nalen = 0;
	unsigned long bad;
	int fd;

	if (size < 2)
		return 0;
	memset(&fo, 0, sizeof(fo));
	memset(&po, 0, sizeof(po));
	fo.sort = data[0] & 1 ? FLAME_SORT_WEIGHT : FLAME_SORT_NAME;
	fo.reverse = data[0] & 2;
	fo.flamechart = data[0] & 4;
	fo.chain = data[0] & 8;
	po.scheme = fo.chain ? "chain" : data[0] & 16 ? "java" : "hot";
	po.hash = data[0] & 32;
	svg_opts_default(&so);
	so.flamechart = fo.flamechart;
	so.inverted = data[0] & 64;
	so.negate = data[1] & 1;
	so.minwidth = data[1] & 2 ? 0 : 0.1;
	so.width = data[1] & 4 ? 21 : 1200;
	p = (const char *)data + 2;
	end = (const char *)data + size;
	if (data[0] & 128) {
		nalen = (size_t)(end - p) * (data[1] >> 3) / 32;
		end -= nalen;
	}

	/* The option strings, from the first line. */
	if ((nl = memchr(p, '\n', end - p)) != NULL) {
		text = strndup(p, nl - p);
		if (text == NULL)
			abort();
		so.title = so.subtitle = so.notes = so.nametype =
		    so.countname = so.fonttype = text;
		roundtrip(p, nl - p);
		p = nl + 1;
	}

	nameattr_init(&na);
	if (nalen > 0) {
		snprintf(path, sizeof(path), "/tmp/fuzz_svg.%d", (int)getpid());
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd == -1 || write(fd, end, nalen) != (ssize_t)nalen)
			abort();
		close(fd);
		if (nameattr_load(&na, path, &bad) != 0)
			abort();
		nameattr_check(&na);
		so.nameattr = &na;
	}

	if (palette_init(&pal, &po) != 0)
		abort();
	flame_init(&fl, &fo);
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', end - p)) == NULL)
			nl = end;
		if (folded_parse(p, nl - p, &f) == FOLDED_OK) {
			/* both ways in: copied, and kept in place (the input
			   outlives the flame), as fgsvg does for a file */
			if ((nl - p) & 1)
				flame_add_kept(&fl, p, nl - p, &f);
			else
				flame_add(&fl, p, nl - p, &f);
			roundtrip(f.stack, f.stack_len);
		}
	}
	flame_build(&fl);
	buf_init(&out);
	if (svg_write(&out, &fl, &so, &pal) != 0)
		abort();
	if ((why = xml_check(out.p, out.len, so.nameattr != NULL)) != NULL)
		fail(why, out.p, out.len);
	css_check(out.p, out.len);
	buf_release(&out);
	flame_release(&fl);
	palette_release(&pal);
	nameattr_release(&na);
	if (path[0] != '\0')
		unlink(path);
	free(text);
	return 0;
}
