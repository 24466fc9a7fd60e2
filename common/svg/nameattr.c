#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/lineread.h"
#include "base/safeopen.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "svg/nameattr.h"
#include "svg/xml.h"

void
nameattr_init(struct nameattr *na)
{
	svgmap_init(&na->attrs);
	svgmap_init(&na->titles);
	svgmap_init(&na->links);
	na->why[0] = '\0';
	na->fatal = 0;
}

void
nameattr_release(struct nameattr *na)
{
	svgmap_release(&na->attrs);
	svgmap_release(&na->titles);
	svgmap_release(&na->links);
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
	/* memchr, not strchr: a NUL byte is part of the value, no end */
	for (i = 0; i < n && memchr(":/?#", v[i], 4) == NULL; i++)
		;
	if (i == n || v[i] != ':')
		return 1;
	return (i == 4 && strncasecmp(v, "http", 4) == 0) ||
	    (i == 5 && strncasecmp(v, "https", 5) == 0);
}

/*
 * The attributes --nameattr may give, as flamegraph.pl's option is for. No
 * "id": the script finds its own elements by id (frames, labels, zlabels,
 * fv, matched, ...), a frame that has one of theirs can come first in
 * the document and take its place, and the frames of a name would all
 * share one.
 */
static const char *const keys[] = {
	"xlink:href", "target", "class", "title", NULL
};
enum { KEY_HREF, KEY_TARGET };

/*
 * Checks one key=value pair of a --nameattr line; returns the index of its
 * key in keys ("href" is "xlink:href"), or -1 with why filled, or -2 with
 * why filled for an id, which no graph can carry.
 */
static int
pair(const char *p, size_t klen, const char *v, size_t vlen, char *why,
    size_t whysize)
{
	int k;

	if (str_is(p, klen, "href")) {
		p = keys[KEY_HREF];
		klen = strlen(p);
	}
	for (k = 0; keys[k] != NULL; k++)
		if (str_is(p, klen, keys[k]))
			break;
	if (keys[k] == NULL && str_is(p, klen, "id")) {
		snprintf(why, whysize, "'id' is not allowed: the SVG's script "
		    "finds its own elements by id, and a name's frames would "
		    "share one; use class");
		return -2;
	}
	if (keys[k] == NULL) {
		snprintf(why, whysize, "'%.*s' is not allowed%s; use href, "
		    "xlink:href, target, class or title", (int)(klen > 40 ?
		    40 : klen), p, klen > 2 && strncasecmp(p, "on", 2) == 0 ?
		    " (an event handler runs script)" : str_is(p, klen, "style") ?
		    " (style can hide or restyle the page)" : "");
		return -1;
	}
	if (k == KEY_HREF && !url_ok(v, vlen)) {
		struct buf shown;

		/* control bytes and NULs shown as \xNN, the SVG's way */
		buf_init(&shown);
		xml_clean(&shown, v, vlen > 40 ? 40 : vlen);
		snprintf(why, whysize, "href '%s%s' is not allowed: only "
		    "http, https and relative URLs (no javascript:)", shown.p,
		    vlen > 40 ? "..." : "");
		buf_release(&shown);
		return -1;
	}
	return k;
}

/*
 * Remembers the first bad line and what was wrong with it; a fatal one
 * (fatal nonzero) takes the place of a bad one that was not.
 */
static void
bad_line(struct nameattr *na, unsigned long *bad, unsigned long lineno,
    const char *why, int fatal)
{
	if (*bad != 0 && (na->fatal || !fatal))
		return;
	*bad = lineno;
	na->fatal = fatal;
	snprintf(na->why, sizeof(na->why), "%s", why);
}

/* Adds the pairs of one line, name TAB pairs, to na. a is scratch space. */
static void
add_line(struct nameattr *na, char *line, size_t len, struct buf *a,
    unsigned long *bad, unsigned long lineno)
{
	char why[sizeof(na->why)], *tab, *p, *e, *eq, *next;
	int k, seen = 0;

	if ((tab = memchr(line, '\t', len)) == NULL) {
		bad_line(na, bad, lineno, "no TAB after the name", 0);
		return;
	}
	buf_reset(a);
	e = line + len;
	for (p = tab + 1; p < e; p = next + 1) {
		if ((next = memchr(p, '\t', e - p)) == NULL)
			next = e;
		if ((eq = memchr(p, '=', next - p)) == NULL) {
			bad_line(na, bad, lineno, "a pair with no '='", 0);
			continue;
		}
		if ((k = pair(p, eq - p, eq + 1, next - eq - 1, why,
		    sizeof(why))) < 0) {
			bad_line(na, bad, lineno, why, k == -2);
			continue;
		}
		if (seen & 1 << k) {
			snprintf(why, sizeof(why), "'%s' given twice", keys[k]);
			bad_line(na, bad, lineno, why, 0);
			continue;
		}
		seen |= 1 << k;
		if (strcmp(keys[k], "title") == 0) {
			svgmap_put(&na->titles, line, tab - line, eq + 1,
			    next - eq - 1);
			continue;
		}
		buf_addc(a, ' ');
		buf_adds(a, keys[k]);
		BUF_ADDL(a, "=\"");
		xml_escape(a, eq + 1, next - eq - 1);
		buf_addc(a, '"');
	}
	/* A link opens in the whole window unless told otherwise. */
	if ((seen & 1 << KEY_HREF) && !(seen & 1 << KEY_TARGET))
		BUF_ADDL(a, " target=\"_top\"");
	if (seen & 1 << KEY_HREF)
		svgmap_put(&na->links, line, tab - line, "", 0);
	svgmap_put(&na->attrs, line, tab - line, buf_str(a),
	    a->len);
}

int
nameattr_load(struct nameattr *na, const char *path, unsigned long *bad)
{
	struct lineread lr;
	struct buf a;
	char *line;
	ssize_t len;
	int fd, error;

	*bad = 0;
	na->why[0] = '\0';
	na->fatal = 0;
	if ((fd = safeopen(path, NULL)) < 0)
		return fd;
	lineread_init(&lr, fd, path);
	buf_init(&a);
	while ((len = lineread_next(&lr, &line)) >= 0)
		if (len > 0)
			add_line(na, line, len, &a, bad, lr.lineno);
	error = lr.error;
	buf_release(&a);
	lineread_release(&lr);
	close(fd);
	if (error != 0) {
		errno = error;
		return -1;
	}
	return 0;
}

int
nameattr_opt_load(struct nameattr *na, const char *path, char **why)
{
	unsigned long bad;
	int rv;

	*why = NULL;
	if ((rv = nameattr_load(na, path, &bad)) == SAFEOPEN_NOTREG) {
		*why = xasprintf("cannot read the --nameattr file '%s': not a "
		    "regular file; give a file of NAME<TAB>key=value lines",
		    path);
		return 2;
	}
	if (rv != 0) {
		*why = xasprintf("cannot read the --nameattr file '%s': %s",
		    path, strerror(errno));
		return 2;
	}
	if (bad == 0)
		return 0;
	if (na->fatal) {
		*why = xasprintf("%s:%lu: %s", path, bad, na->why);
		return 2;
	}
	*why = xasprintf("%s:%lu: %s; skipped (expected "
	    "\"NAME<TAB>key=value...\")", path, bad, na->why);
	return 1;
}
