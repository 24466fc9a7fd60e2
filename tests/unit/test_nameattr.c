/* Unit tests of common/svg/nameattr.c: what a --nameattr file gives (the
 * attributes of a name, escaped; its tooltip; whether it is a link), what
 * it refuses (keys that run script or restyle, links that are no http,
 * https or relative URL, keys given twice, lines with no TAB or a pair with
 * no '='), which bad line is reported, and that an id is fatal. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "svg/nameattr.h"
#include "unit.h"

static char path[] = "/tmp/test_nameattr.XXXXXX";

/* Writes len bytes of text as the --nameattr file and loads it into na
 * (set up here; the caller releases it). Returns nameattr_load's value. */
static int
load(struct nameattr *na, const char *text, size_t len, unsigned long *bad)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
	nameattr_init(na);
	return nameattr_load(na, path, bad);
}

#define LOAD(na, s, bad) load(na, s, sizeof(s) - 1, bad)

/* The attributes of name, or NULL. */
static const char *
attrs(const struct nameattr *na, const char *name)
{
	return svgmap_get(&na->attrs, name, strlen(name), NULL);
}

static void
good(void)
{
	struct nameattr na;
	unsigned long bad = 99;

	CHECK_INT(LOAD(&na,
	    "main\thref=https://example.org/?a=1&b=\"2\"\tclass=hot\n"
	    "\n"
	    "spin\txlink:href=/doc/spin.html\ttarget=_blank\ttitle=spins <fast>\n"
	    "free\tclass=a'b\n", &bad), 0, "a good file loads");
	CHECK_UINT(bad, 0, "no bad line");
	CHECK_STR(na.why, "", "and nothing said");
	CHECK_INT(na.fatal, 0, "nothing fatal");
	CHECK_STR(attrs(&na, "main"),
	    " xlink:href=\"https://example.org/?a=1&amp;b=&quot;2&quot;\""
	    " class=\"hot\" target=\"_top\"",
	    "href is xlink:href, values escaped, a link opens in _top");
	CHECK_STR(attrs(&na, "spin"),
	    " xlink:href=\"/doc/spin.html\" target=\"_blank\"",
	    "a target given is kept, the title is not an attribute");
	CHECK_STR(svgmap_get(&na.titles, "spin", 4, NULL), "spins <fast>",
	    "the title replaces the tooltip, raw");
	CHECK(svgmap_get(&na.titles, "main", 4, NULL) == NULL,
	    "no title, no tooltip of its own");
	CHECK(svgmap_get(&na.links, "main", 4, NULL) != NULL &&
	    svgmap_get(&na.links, "spin", 4, NULL) != NULL,
	    "names with an href are links");
	CHECK(svgmap_get(&na.links, "free", 4, NULL) == NULL,
	    "a name with no href is no link");
	CHECK_STR(attrs(&na, "free"), " class=\"a&#39;b\"",
	    "a class alone, its quote escaped, no target");
	CHECK(attrs(&na, "") == NULL && attrs(&na, "mai") == NULL,
	    "only the names of the file");
	nameattr_release(&na);
}

/* One line with a pair refused: *bad is 1, why holds the words want, and
 * a refused link makes no link. */
static void
refused(const char *line, const char *want, const char *what)
{
	struct nameattr na;
	unsigned long bad = 0;

	CHECK_INT(load(&na, line, strlen(line), &bad), 0, what);
	CHECK_UINT(bad, 1, what);
	if (strstr(na.why, want) == NULL)
		printf("#   why is '%s', wanted '%s' in it\n", na.why, want);
	CHECK(strstr(na.why, want) != NULL, what);
	if (strstr(want, "only http") != NULL)
		CHECK(svgmap_get(&na.links, "f", 1, NULL) == NULL, what);
	CHECK_INT(na.fatal, 0, what);
	nameattr_release(&na);
}

static void
refusals(void)
{
	refused("f\tonclick=alert(1)\n", "an event handler runs script",
	    "onclick: refused, as an event handler");
	refused("f\tONLOAD=x\n", "an event handler runs script",
	    "ONLOAD: refused whatever its case");
	refused("f\tstyle=display:none\n", "style can hide",
	    "style: refused");
	refused("f\thref=javascript:alert(1)\n", "only http, https",
	    "a javascript: link is refused");
	refused("f\thref= \x01JaVaScRiPt:x\n", "only http, https",
	    "the spaces and controls a browser skips do not hide the scheme");
	refused("f\thref=mailto:a@b\n", "mailto:a@b", "mailto: is refused");
	refused("f\thref=httpx://a\n", "only http, https",
	    "a scheme that starts as http is not http");
	refused("f\tclass=a\tclass=b\n", "'class' given twice",
	    "a key given twice");
	refused("f\thref=/a\txlink:href=/b\n", "'xlink:href' given twice",
	    "href and xlink:href are one key");
	refused("f\tnoequals\n", "no '='", "a pair with no '='");
	refused("f only a name\n", "no TAB", "a line with no TAB");
}

static void
links(void)
{
	static const struct {
		const char *href;
		int ok;
	} t[] = {
		{ "http://a/", 1 }, { "HTTPS://a/", 1 }, { "page.html", 1 },
		{ "/a:b", 1 }, { "?q=a:b", 1 }, { "#x:y", 1 }, { "", 1 },
		{ "data:text/html,x", 0 }, { "vbscript:x", 0 }, { "ftp://a", 0 },
		{ ":x", 0 },
	};
	char line[200], what[300];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct nameattr na;
		unsigned long bad = 0;
		int n = snprintf(line, sizeof(line), "f\thref=%s\n", t[i].href);

		snprintf(what, sizeof(what), "href '%s': %s", t[i].href,
		    t[i].ok ? "a link" : "refused");
		load(&na, line, n, &bad);
		CHECK(t[i].ok ? bad == 0 &&
		    svgmap_get(&na.links, "f", 1, NULL) != NULL :
		    bad == 1 && svgmap_get(&na.links, "f", 1, NULL) == NULL,
		    what);
		nameattr_release(&na);
	}
}

static void
partial_lines(void)
{
	struct nameattr na;
	unsigned long bad = 0;

	CHECK_INT(LOAD(&na,
	    "a\tclass=ok\n"
	    "b\tonclick=x\tclass=kept\thref=javascript:x\n"
	    "c\tstyle=x\n", &bad), 0, "a file with bad lines loads");
	CHECK_UINT(bad, 2, "the first bad line is the one reported");
	CHECK(strstr(na.why, "'onclick'") != NULL,
	    "and what was wrong with its first bad pair");
	CHECK_STR(attrs(&na, "b"), " class=\"kept\"",
	    "the good pairs of a bad line are kept");
	CHECK(svgmap_get(&na.links, "b", 1, NULL) == NULL,
	    "its refused link is no link");
	CHECK_STR(attrs(&na, "c"), "", "a line of refused pairs only: no attributes");
	CHECK_STR(attrs(&na, "a"), " class=\"ok\"", "a good line beside them");
	nameattr_release(&na);
}

static void
ids(void)
{
	struct nameattr na;
	unsigned long bad = 0;

	CHECK_INT(LOAD(&na,
	    "a\tstyle=x\n"
	    "b\tclass=x\n"
	    "c\tid=frames\n"
	    "d\tid=other\tonclick=y\n", &bad), 0, "a file with an id loads");
	CHECK_INT(na.fatal, 1, "an id is fatal");
	CHECK_UINT(bad, 3, "the id's line takes the place of an earlier bad one");
	CHECK(strstr(na.why, "'id' is not allowed") != NULL, "and its reason");

	nameattr_release(&na);
	CHECK_INT(LOAD(&na, "a\tid=x\nb\tstyle=y\n", &bad), 0,
	    "an id then a bad line");
	CHECK_UINT(bad, 1, "a later bad line does not replace the id's");
	CHECK_INT(na.fatal, 1, "still fatal");
	nameattr_release(&na);

	/* nameattr_load resets what an earlier load said */
	CHECK_INT(LOAD(&na, "a\tid=x\n", &bad), 0, "an id");
	CHECK_INT(nameattr_load(&na, path, &bad), 0, "loaded again");
	CHECK_UINT(bad, 1, "the second load reports it again");
	nameattr_release(&na);
}

static void
bytes(void)
{
	struct nameattr na;
	unsigned long bad = 0;
	size_t vlen = 0;
	const char *v;

	/* a NUL byte is part of the value: "java\0script:" is one scheme */
	CHECK_INT(LOAD(&na, "f\thref=java\0script:x\n", &bad), 0,
	    "a value with a NUL byte loads");
	CHECK_UINT(bad, 1, "a NUL byte does not hide the scheme after it");
	nameattr_release(&na);

	CHECK_INT(LOAD(&na, "a\0b\ttitle=t\0u\n", &bad), 0,
	    "a name and a title with NUL bytes");
	CHECK_UINT(bad, 0, "are no bad line");
	v = svgmap_get(&na.titles, "a\0b", 3, &vlen);
	CHECK_MEM(v, vlen, "t\0u", 3, "the title keeps its bytes");
	nameattr_release(&na);

	CHECK_INT(LOAD(&na, "f\tclass=\x01x\n", &bad), 0,
	    "a control byte in a value");
	CHECK_STR(attrs(&na, "f"), " class=\"\\x01x\"",
	    "is written as \\x01, XML-safe");
	nameattr_release(&na);

	CHECK_INT(LOAD(&na, "last\tclass=x", &bad), 0,
	    "a last line with no newline");
	CHECK_STR(attrs(&na, "last"), " class=\"x\"", "is read");
	nameattr_release(&na);
}

/* Writes text as the --nameattr file and reads it with nameattr_opt_load. */
static int
opt_load(struct nameattr *na, const char *text, char **why)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
	nameattr_init(na);
	return nameattr_opt_load(na, path, why);
}

/* --nameattr's worded load: its status and the line it says. */
static void
worded(void)
{
	struct nameattr na;
	char want[256], *why = (char *)"unset";

	CHECK_INT(opt_load(&na, "a\tclass=x\n", &why), 0, "a good file: 0");
	CHECK(why == NULL, "nothing to say");
	nameattr_release(&na);

	CHECK_INT(opt_load(&na, "a\tclass=x\nb\tstyle=y\n", &why), 1,
	    "a bad line: 1");
	snprintf(want, sizeof(want), "%s:2: %s; skipped (expected "
	    "\"NAME<TAB>key=value...\")", path, na.why);
	CHECK_STR(why, want, "the line, its reason and what was expected");
	CHECK(strstr(why, "style") != NULL, "the reason names the key");
	free(why);
	nameattr_release(&na);

	CHECK_INT(opt_load(&na, "a\tclass=x\nb\tid=y\n", &why), 2,
	    "an id: 2, draw no graph");
	snprintf(want, sizeof(want), "%s:2: %s", path, na.why);
	CHECK_STR(why, want, "the id's line and its reason");
	free(why);
	nameattr_release(&na);
}

/* The worded load of a file that is not there: 2, strerror's words. */
static void
missing(struct nameattr *na)
{
	char want[256], *why = NULL;

	CHECK_INT(nameattr_opt_load(na, path, &why), 2, "a missing file: 2");
	snprintf(want, sizeof(want), "cannot read the --nameattr file '%s': %s",
	    path, strerror(ENOENT));
	CHECK_STR(why, want, "said with strerror's words");
	free(why);
}

int
main(void)
{
	struct nameattr na;
	unsigned long bad = 0;
	int fd;

	if ((fd = mkstemp(path)) < 0) {
		perror(path);
		return 2;
	}
	close(fd);
	good();
	refusals();
	links();
	partial_lines();
	ids();
	bytes();

	worded();

	unlink(path);
	nameattr_init(&na);
	errno = 0;
	CHECK_INT(nameattr_load(&na, path, &bad), -1, "a missing file: -1");
	CHECK_INT(errno, ENOENT, "with errno set");
	nameattr_release(&na);
	nameattr_init(&na);
	missing(&na);
	nameattr_release(&na);
	return unit_done();
}
