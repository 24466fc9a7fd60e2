#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/buf.h"
#include "base/hashtab.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "stream/stream.h"
#include "svg/svg.h"
#include "svg/xml.h"

#define XPAD		10	/* flamegraph.pl's side pads, pixels */
#define FRAMEPAD	1	/* and the gap between rows */

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
put_fixed(struct buf *b, double v, int decimals)
{
	char s[400];

	buf_add(b, s, fmt_fixed(s, sizeof(s), v, decimals, NULL));
}

/* Perl's default conversion of a number to a string. */
static void
put_num(struct buf *b, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		char s[32];

		buf_add(b, s, fmt_fixed(s, sizeof(s), v, 0, NULL));
	} else
		buf_addf(b, "%.15g", v);
}

/* "%.0f" of v with thousands separated by commas, as flamegraph.pl does. */
static void
put_count(struct buf *b, double v, double *rounded)
{
	char s[400];
	size_t n, i, sign, nd;

	n = fmt_fixed(s, sizeof(s), v, 0, rounded);
	sign = s[0] == '-';
	nd = n - sign;
	if (sign)
		buf_addc(b, '-');
	for (i = 0; i < nd; i++) {
		if (i > 0 && (nd - i) % 3 == 0)
			buf_addc(b, ',');
		buf_addc(b, s[sign + i]);
	}
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
put_label(struct buf *b, const char *clean, size_t len, long chars)
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
		xml_entities(b, clean, len);
		return;
	}
	/* more characters than fit: keep chars - 2 of them */
	i = 0;
	for (n = 0; n < (size_t)chars - 2; n++) {
		i++;
		while (i < len && ((unsigned char)clean[i] & 0xc0) == 0x80)
			i++;
	}
	xml_entities(b, clean, i);
	BUF_ADDL(b, "..");
}

/*
 * Appends a --fonttype inside the <style> rule: letters, digits, spaces,
 * commas, '-' and '_' as they are (a list of families), any other ASCII
 * character as a CSS escape ("\\3b "), so that none ends the declaration
 * or the rule; other bytes made safe text.
 */
static void
put_cssfont(struct buf *b, const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == ' ' || c == ',' || c == '-' ||
		    c == '_')
			buf_addc(b, c);
		else if (c < 0x80)
			buf_addf(b, "\\%x ", c);
		else {
			const char *q = p;

			while (((unsigned char)q[1]) >= 0x80)
				q++;
			xml_escape(b, p, q + 1 - p);
			p = q;
		}
	}
}

static void
header(struct buf *b, const struct svg_opts *o, double height)
{
	buf_adds(b, "<?xml version=\"1.0\" encoding=\"UTF-8\" "
	    "standalone=\"yes\"?>\n");
	buf_addf(b, "<svg version=\"1.1\" width=\"%d\" height=\"",
	    o->width);
	put_num(b, height);
	buf_addf(b, "\" viewBox=\"0 0 %d ", o->width);
	put_num(b, height);
	buf_adds(b, "\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
	    "<!-- Flame graph drawn by fgsvg(1) of fgtools. -->\n");
	if (o->notes != NULL && *o->notes != '\0') {
		BUF_ADDL(b, "<desc id=\"notes\">");
		xml_escape(b, o->notes, strlen(o->notes));
		BUF_ADDL(b, "</desc>\n");
	}
}

static void
put_text(struct buf *b, const char *id, double x, double y,
    const char *s, const char *extra)
{
	buf_addf(b, "<text id=\"%s\" x=\"%.2f\" y=\"", id, x);
	put_num(b, y);
	buf_addf(b, "\"%s>", extra);
	xml_escape(b, s, strlen(s));
	BUF_ADDL(b, "</text>\n");
}

/* Writes out what b holds: 0, or -1 with errno set when a write failed. */
static int
finish(struct buf *b)
{
	if (buf_flush(b) != 0) {
		errno = b->error;
		return -1;
	}
	return 0;
}

static int
empty_doc(struct buf *b, const struct svg_opts *o)
{
	header(b, o, o->fontsize * 5);
	buf_addf(b, "<text x=\"%d\" y=\"", o->width / 2);
	put_num(b, o->fontsize * 2);
	buf_addf(b, "\" text-anchor=\"middle\" font-family=\"");
	xml_escape(b, o->fonttype, strlen(o->fonttype));
	BUF_ADDL(b, "\" font-size=\"");
	put_num(b, o->fontsize);
	BUF_ADDL(b, "\">no samples</text>\n</svg>\n");
	return finish(b);
}

/* What every frame's place and tooltip need, computed once. */
struct geom {
	double		 wpt;		/* pixels per count */
	double		 height;	/* of the image */
	double		 ypad1, ypad2;	/* flamegraph.pl's top and bottom pads */
	double		 ypad3;		/* the subtitle's, when there is one */
	int		 sub;		/* a subtitle is drawn */
	double		 per;		/* pixels per label character */
	double		 tscaled;	/* the total times --factor */
	struct buf	 cn;		/* " COUNTNAME", escaped once */
	size_t		 cn1;		/* its length for a count of 1: the
					   tools' own words lose their "s" */
	int		 timens;	/* counts are ns: print time */
	int		 bytes;		/* counts are bytes (a heap profile) */
	const char	*countname;	/* what a count is: --countname, or a
					   heap profile's bytes or allocations */
	const char	*title;		/* --title, or the graph's kind */
	unsigned char	*off;		/* per node: drawn as off-CPU */
	double		*offt;		/* per node: its off-CPU time, when the
					   graph has on- and off-CPU time (--wall),
					   else NULL */
	struct palette	*blue;		/* off-CPU frames' shades */
};

/* Appends a time in ns as people read it: "1.25 s", "12.50 ms", "800 ns". */
static void
put_time(struct buf *b, double ns)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, " s" }, { 1e6, " ms" }, { 1e3, " us" }, { 1, " ns" }
	};
	size_t i;

	for (i = 0; i < 3 && fabs(ns) < u[i].div; i++)
		;
	put_fixed(b, ns / u[i].div, i < 3 ? 2 : 0);
	buf_adds(b, u[i].unit);
}

/* Appends bytes as people read them: "1.50 MiB", "800 B". */
static void
put_bytes(struct buf *b, double n)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1073741824.0, " GiB" }, { 1048576.0, " MiB" },
		{ 1024.0, " KiB" }, { 1, " B" }
	};
	size_t i;

	for (i = 0; i < 3 && fabs(n) < u[i].div; i++)
		;
	put_fixed(b, n / u[i].div, i < 3 ? 2 : 0);
	buf_adds(b, u[i].unit);
}

/*
 * The length of a count's name for a count of 1: "1 sample", "1
 * allocation", the tools' own words; a --countname word stays as given.
 */
static size_t
one_len(const char *countname)
{
	return strlen(countname) - (strcmp(countname, "samples") == 0 ||
	    strcmp(countname, "allocations") == 0);
}

/* A count as a tooltip shows it: "1,234 samples", a time, or bytes. */
static void
put_amount(struct buf *b, double v, const struct geom *g, double *shown)
{
	if (g->bytes) {
		put_bytes(b, v);
		*shown = v;
		return;
	}
	if (g->timens) {
		put_time(b, v);
		*shown = v;
		return;
	}
	put_count(b, v, shown);
	buf_add(b, g->cn.p, *shown == 1 ? g->cn1 : g->cn.len);
}

/*
 * The heap event of a graph of fgfold's heap profile: its stacks' leaf,
 * "[alloc-bytes]" and the three others (the first found), or
 * STREAM_EV_OTHER.
 */
static enum stream_ev
heap_event(const struct flame *fl)
{
	enum stream_ev a;
	size_t i;

	for (i = 0; i < fl->nnodes; i++)
		if ((a = stream_ev_frame(fl->nodes[i].name,
		    fl->nodes[i].namelen)) != STREAM_EV_OTHER)
			return a;
	return STREAM_EV_OTHER;
}

/*
 * Marks the nodes drawn as off-CPU: an [off-cpu] node and what lies above
 * it (under --reverse it is near the root), and a node all of whose time
 * lies in [off-cpu] nodes. Returns how many [off-cpu] nodes there are.
 * When the graph holds both on- and off-CPU time (--wall), *offt is each
 * node's off-CPU time (the caller frees it), else NULL.
 */
static size_t
mark_offcpu(const struct flame *fl, unsigned char *off, double **offt)
{
	double *t = xcalloc(fl->nnodes + 1, sizeof(*t)), root;
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
	root = fl->nodes[0].etime - fl->nodes[0].stime;
	*offt = n > 0 && t[0] > 0 && t[0] < root * (1 - 1e-9) ? t : NULL;
	for (i = 0; i < fl->nnodes; i++) {
		double w = fl->nodes[i].etime - fl->nodes[i].stime;

		/* above an [off-cpu] node: all of it */
		if (off[i])
			t[i] = w;
		else if (n > 0 && w > 0 && t[i] >= w * (1 - 1e-9))
			off[i] = 1;
	}
	if (*offt == NULL)
		free(t);
	return n;
}

/*
 * Appends "; on-CPU T, off-CPU T" for a frame of a graph of both (--wall),
 * so that a blue frame under a warm one is explained where it is seen.
 */
static void
put_onoff(struct buf *b, const struct flame *fl, const struct flame_frame *f,
    const struct svg_opts *o, const struct geom *g)
{
	const struct flame_node *n = &fl->nodes[f->node];
	double w = n->etime - n->stime, v, off, shown;

	v = (f->etime - f->stime) * o->factor;
	off = w > 0 ? v * (g->offt[f->node] / w) : 0;
	if (off > v)
		off = v;
	BUF_ADDL(b, "; on-CPU ");
	put_amount(b, v - off, g, &shown);
	BUF_ADDL(b, ", off-CPU ");
	put_amount(b, off, g, &shown);
}

/* Appends " (N samples, P%[; +D%][; self S samples, Q%])" for a frame. */
static void
put_info(struct buf *b, const struct flame *fl, const struct flame_frame *f,
    const struct svg_opts *o, const struct geom *g)
{
	const struct flame_node *n = f->node != FLAME_NONE ?
	    &fl->nodes[f->node] : NULL;
	double samples, self, d = 0;
	int has_delta = n != NULL && flame_delta(fl, f->node, &d);

	BUF_ADDL(b, " (");
	put_amount(b, (f->etime - f->stime) * o->factor, g, &samples);
	if (f->depth == 0 && n != NULL) {
		BUF_ADDL(b, ", 100%");
		if (g->offt != NULL)
			put_onoff(b, fl, f, o, g);
		BUF_ADDL(b, ")");
		return;
	}
	BUF_ADDL(b, ", ");
	put_fixed(b, 100 * samples / g->tscaled, 2);
	BUF_ADDL(b, "%");
	if (has_delta) {
		/* + 0.0: no "-0.00%" for a negated zero */
		d = (o->negate ? -d : d) + 0.0;
		buf_adds(b, d > 0 ? "; +" : "; ");
		put_fixed(b, 100 * d / g->tscaled, 2);
		BUF_ADDL(b, "%");
	}
	if (n != NULL && g->offt != NULL)
		put_onoff(b, fl, f, o, g);
	if (n != NULL) {
		BUF_ADDL(b, "; self ");
		put_amount(b, f->self * o->factor, g, &self);
		BUF_ADDL(b, ", ");
		put_fixed(b, 100 * self / g->tscaled, 2);
		BUF_ADDL(b, "%");
	}
	BUF_ADDL(b, ")");
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
	struct buf	 names;
	uint32_t	 nnames;
	struct buf	 d;
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
    struct buf *tmp)
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
	buf_reset(tmp);
	xml_clean(tmp, raw, strip_annotation(raw, len));
	if (idx > 0)
		buf_addc(&md->names, ',');
	buf_addc(&md->names, '"');
	for (i = 0; i < tmp->len; i++) {
		unsigned char c = (unsigned char)tmp->p[i];

		if (c < 0x20 || c == '"' || c == '\\' || c == '<' ||
		    c == '>' || c == '&' || c == ']')
			buf_addf(&md->names, "\\u%04x", c);
		else
			buf_addc(&md->names, (char)c);
	}
	buf_addc(&md->names, '"');
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
    struct buf *tmp)
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
				buf_addc(&md->d, ' ');
				if (d != *prev + 1) {
					buf_addu(&md->d, *prev + 1 - d);
					buf_addc(&md->d, '^');
				}
			}
			*prev = d;
			buf_addu(&md->d, mdata_name(md, fl,
			    (uint32_t)(nd - fl->nodes), tmp));
			if (self > 0) {
				buf_addc(&md->d, '*');
				if (self == floor(self) && self < 1e12)
					buf_addu(&md->d, (uint64_t)self);
				else
					buf_addf(&md->d, "%.12g", self);
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
	struct buf tmp;
	uint32_t *stk = NULL, prev = 0;
	size_t cap = 0, i, j, n = 0, o, *dhead, *dnext;
	struct wide *order;

	memset(md, 0, sizeof(*md));
	md->budget = budget;
	hashtab_init(&md->index, 768);
	buf_init(&md->names);
	buf_init(&md->d);
	buf_init(&tmp);
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
			md->d.p[start] = '\0';
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
	buf_release(&tmp);
}

static void
mdata_release(struct mdata *md)
{
	buf_release(&md->names);
	buf_release(&md->d);
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
put_frame(struct buf *b, struct flame *fl, const struct flame_frame *f,
    const struct svg_opts *o, struct palette *pal, const struct geom *g,
    struct buf *name, struct buf *lb, const struct mdata *md)
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
	buf_reset(name);
	if (n == NULL)
		buf_addf(name, "[%u narrow frames]", f->nmerged);
	else if (f->depth == 0)
		BUF_ADDL(name, "all");
	else
		xml_clean(name, raw, strip_annotation(raw, rawlen));
	if (o->nameattr != NULL && n != NULL) {
		attrs = svgmap_get(&o->nameattr->attrs, raw, rawlen, NULL);
		ttl = svgmap_get(&o->nameattr->titles, raw, rawlen, &ttllen);
		link = svgmap_get(&o->nameattr->links, raw, rawlen,
		    NULL) != NULL;
	}

	buf_adds(b, link ? "<a" : "<g");
	if (n == NULL)
		BUF_ADDL(b, " class=\"m\"");
	if (md->omit[fi])
		BUF_ADDL(b, " data-l=\"-\"");
	else if (md->off[2 * fi] != SIZE_MAX) {
		BUF_ADDL(b, " data-l=\"");
		buf_add(b, md->d.p + md->off[2 * fi],
		    md->off[2 * fi + 1] - md->off[2 * fi]);
		buf_addc(b, '"');
	}
	if (attrs != NULL)
		buf_adds(b, attrs);
	BUF_ADDL(b, "><title>");
	if (o->frame_info != NULL && n != NULL) {
		xml_entities(b, name->p, name->len);
		o->frame_info(o->frame_info_arg, fl, f->node, b, color);
	} else if (ttl != NULL)
		xml_escape(b, ttl, ttllen);
	else {
		xml_entities(b, name->p, name->len);
		put_info(b, fl, f, o, g);
	}
	BUF_ADDL(b, "</title>");

	if (n == NULL)
		strcpy(color, "rgb(176,176,176)");
	else if (o->frame_info != NULL)
		;	/* written with the tooltip */
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
	BUF_ADDL(b, "<rect x=\"");
	buf_add(b, num, nlen);
	BUF_ADDL(b, "\" y=\"");
	put_num(b, y1);
	nlen = fmt_fixed(num, sizeof(num), x2, 1, &rx2);
	BUF_ADDL(b, "\" width=\"");
	put_fixed(b, rx2 - rx1, 1);
	BUF_ADDL(b, "\" height=\"");
	put_fixed(b, y2 - y1, 1);
	BUF_ADDL(b, "\" fill=\"");
	buf_adds(b, color);
	BUF_ADDL(b, "\"/>");
	buf_adds(b, link ? "</a>\n" : "</g>\n");
	if ((chars = (long)((x2 - x1) / g->per)) >= 3) {
		BUF_ADDL(lb, "<text x=\"");
		put_fixed(lb, x1 + 3, 2);
		BUF_ADDL(lb, "\" y=\"");
		put_num(lb, 3 + (y1 + y2) / 2);
		BUF_ADDL(lb, "\">");
		put_label(lb, name->p, name->len, chars);
		BUF_ADDL(lb, "</text>\n");
	}
}

/*
 * Lays the flame out for the page: the total drawn (--total, or the
 * flame's), the pixels per count, the frames wider than --minwidth, the
 * pads and the page's height, into g.
 */
static void
lay_out(struct flame *fl, const struct svg_opts *o, struct geom *g,
    double *timemax)
{
	double mintime;

	g->ypad1 = o->fontsize * 3;
	g->ypad2 = o->fontsize * 2 + 10;
	g->ypad3 = o->fontsize * 2;
	g->sub = o->subtitle != NULL && *o->subtitle != '\0';
	if (o->timeline != NULL)
		g->ypad1 += timeline_height(o->timeline, o->fontsize);
	*timemax = o->total > fl->time ? o->total : fl->time;
	g->wpt = (o->width - 2 * XPAD) / *timemax;
	mintime = o->minwidth_pct ? *timemax * o->minwidth / 100 :
	    o->minwidth / g->wpt;
	flame_layout(fl, *timemax, mintime);
	g->height = (fl->depthmax + 1) * o->frameheight + g->ypad1 + g->ypad2;
	if (g->sub)
		g->height += g->ypad3;
	g->per = o->fontsize * o->fontwidth;
	g->tscaled = *timemax * o->factor;
}

/*
 * What the counts are and the graph is called: a heap profile's counts
 * are bytes, or allocations (--countname aside), and its title says so.
 */
static void
name_counts(const struct flame *fl, const struct svg_opts *o, struct geom *g)
{
	enum stream_ev heap = heap_event(fl);

	g->bytes = !g->timens && stream_ev_bytes(heap);
	g->countname = o->countname;
	if (heap != STREAM_EV_OTHER && !g->timens &&
	    strcmp(g->countname, "samples") == 0)
		g->countname = g->bytes ? "bytes" : "allocations";
	g->title = o->title;
	if (g->title == NULL && heap != STREAM_EV_OTHER && !o->flamechart)
		g->title = heap >= STREAM_EV_INUSE_BYTES ?
		    "In-Use Memory Flame Graph" : "Allocation Flame Graph";
	if (g->title == NULL)
		g->title = o->flamechart ? "Flame Chart" :
		    o->inverted ? "Icicle Graph" : "Flame Graph";
}

/* The page's head: gradient, style, and the script with its settings. */
static void
put_head(struct buf *b, const struct svg_opts *o, const struct geom *g,
    double timemax, const struct mdata *md)
{
	header(b, o, g->height);
	buf_addf(b, "<defs>\n<linearGradient id=\"background\" y1=\"0\" "
	    "y2=\"1\" x1=\"0\" x2=\"0\">\n<stop stop-color=\"%s\" "
	    "offset=\"5%%\"/>\n<stop stop-color=\"%s\" offset=\"95%%\"/>\n"
	    "</linearGradient>\n</defs>\n", o->bgcolor1, o->bgcolor2);
	BUF_ADDL(b, "<style type=\"text/css\">\ntext { font-family:");
	put_cssfont(b, o->fonttype);
	BUF_ADDL(b, "; font-size:");
	put_num(b, o->fontsize);
	buf_adds(b, "px; fill:rgb(0,0,0); }\n#title { text-anchor:middle; "
	    "font-size:");
	put_num(b, o->fontsize + 5);
	buf_adds(b, "px; }\n"
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
	buf_addf(b, "%d, xpad:%g, fh:%d, fs:", o->width, (double)XPAD,
	    o->frameheight);
	put_num(b, o->fontsize);
	BUF_ADDL(b, ", fw:");
	put_num(b, o->fontwidth);
	buf_addf(b, ", inv:%d, rev:%d, sc:\"rgb(230,0,230)\", nt:",
	    o->inverted, o->reverse);
	xml_jsstr(b, o->nametype, strlen(o->nametype));
	BUF_ADDL(b, ", cn:");
	xml_jsstr(b, g->countname, strlen(g->countname));
	BUF_ADDL(b, ", cn1:");
	xml_jsstr(b, g->countname, one_len(g->countname));
	BUF_ADDL(b, ", T:");
	buf_addf(b, "%.17g, tn:%d", timemax, g->bytes ? 2 : g->timens);
	if (o->timeline != NULL)
		buf_addf(b, ", tt:%g", g->ypad1 - o->fontsize * 3);
	BUF_ADDL(b, ", N:[");
	buf_add(b, md->names.p, md->names.len);
	BUF_ADDL(b, "]};\n");
	buf_adds(b, svg_script);
	if (o->timeline != NULL)
		timeline_write(b, o->timeline, o->fontsize * 3 +
		    (g->sub ? g->ypad3 : 0));
	BUF_ADDL(b, "]]></script>\n");
}

/* The background, the title and subtitle, and the texts of the controls. */
static void
put_controls(struct buf *b, const struct svg_opts *o, const struct geom *g)
{
	double bottom = g->height - g->ypad2 / 2;

	buf_addf(b, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"",
	    o->width);
	put_num(b, g->height);
	BUF_ADDL(b, "\" fill=\"url(#background)\"/>\n");
	put_text(b, "title", o->width / 2, o->fontsize * 2, g->title, "");
	if (g->sub)
		put_text(b, "subtitle", o->width / 2, o->fontsize * 4,
		    o->subtitle, "");
	put_text(b, "details", XPAD, bottom, " ", "");
	put_text(b, "unzoom", XPAD, o->fontsize * 2, "Reset Zoom",
	    " class=\"hide\"");
	put_text(b, "search", o->width - XPAD - 100, o->fontsize * 2,
	    "Search", "");
	put_text(b, "ignorecase", o->width - XPAD - 16, o->fontsize * 2, "ic",
	    " class=\"show\"");
	put_text(b, "matched", o->width - XPAD - 100, bottom, " ", "");
}

/*
 * The frames, in a nested <svg> whose viewBox the script narrows to zoom;
 * the labels in a group of their own, outside it, so that zooming does
 * not stretch them.
 */
static void
put_frames(struct buf *b, struct flame *fl, const struct svg_opts *o,
    struct palette *pal, struct geom *g, struct mdata *md)
{
	struct buf name, labels;
	struct palette blue;
	size_t i;

	buf_addf(b, "<svg id=\"fv\" x=\"%g\" y=\"0\" width=\"%g\" "
	    "height=\"", (double)XPAD, o->width - 2.0 * XPAD);
	put_num(b, g->height);
	buf_addf(b, "\" viewBox=\"%g 0 %g ", (double)XPAD,
	    o->width - 2.0 * XPAD);
	put_num(b, g->height);
	BUF_ADDL(b, "\" preserveAspectRatio=\"none\">\n<g id=\"frames\">\n");
	buf_init(&name);
	buf_init(&labels);
	buf_init(&g->cn);
	BUF_ADDL(&g->cn, " ");
	xml_escape(&g->cn, g->countname, strlen(g->countname));
	g->cn1 = g->cn.len - (strlen(g->countname) - one_len(g->countname));
	g->blue = &blue;
	palette_init(&blue, &(struct palette_opts){ .scheme = "blue",
	    .hash = pal->opts.hash, .random = pal->opts.random,
	    .seed = pal->opts.seed });
	for (i = 0; i < fl->nframes; i++)
		put_frame(b, fl, &fl->frames[i], o, pal, g, &name, &labels,
		    md);
	buf_release(&name);
	buf_release(&g->cn);
	palette_release(&blue);
	BUF_ADDL(b, "</g>\n</svg>\n<g id=\"labels\">\n");
	buf_add(b, labels.p, labels.len);
	buf_release(&labels);
	BUF_ADDL(b, "</g>\n<g id=\"zlabels\"></g>\n</svg>\n");
}

int
svg_write(struct buf *b, struct flame *fl, const struct svg_opts *o,
    struct palette *pal)
{
	struct mdata md;
	struct geom g;
	double timemax;

	if (fl->time <= 0 || fl->nnodes == 0)
		return empty_doc(b, o);
	lay_out(fl, o, &g, &timemax);
	mdata_build(&md, fl, o->search_budget);
	g.off = xmalloc(fl->nnodes + 1);
	g.timens = mark_offcpu(fl, g.off, &g.offt) > 0 ? o->timens != 0 :
	    o->timens > 0;
	name_counts(fl, o, &g);
	put_head(b, o, &g, timemax, &md);
	put_controls(b, o, &g);
	put_frames(b, fl, o, pal, &g, &md);
	free(g.off);
	free(g.offt);
	mdata_release(&md);
	return finish(b);
}
