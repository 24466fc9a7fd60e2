#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "svg/flame.h"
#include "base/hashtab.h"
#include "base/xalloc.h"

void
flame_init(struct flame *f, const struct flame_opts *o)
{
	memset(f, 0, sizeof(*f));
	f->opts = *o;
	f->maxdelta = 1;
}

/* A block of copied lines: 1 MiB, or one line's worth when larger. */
struct flame_chunk {
	struct flame_chunk *next;
	size_t		 len, cap;
	char		 data[];
};

#define CHUNK_SIZE	((size_t)1 << 20)

void
flame_release(struct flame *f)
{
	struct flame_chunk *c, *next;

	for (c = f->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(f->lines);
	free(f->nodes);
	free(f->lastkid);
	free(f->delta);
	free(f->has_delta);
	free(f->frames);
	free(f->drops);
	free(f->ends);
	memset(f, 0, sizeof(*f));
}

int
flame_delta(const struct flame *f, uint32_t node, double *delta)
{
	if (f->has_delta == NULL || !f->has_delta[node])
		return 0;
	*delta = f->delta[node];
	return 1;
}

const char *
flame_name(const struct flame *f, uint32_t node, size_t *len)
{
	*len = f->nodes[node].namelen;
	return f->nodes[node].name;
}

/* Makes room for n more bytes of one line in the current chunk. */
static void
room(struct flame *f, size_t n)
{
	struct flame_chunk *c = f->chunks;
	size_t cap;

	if (c != NULL && c->cap - c->len >= n)
		return;
	cap = n > CHUNK_SIZE ? n : CHUNK_SIZE;
	c = xmalloc(sizeof(*c) + cap);
	c->next = f->chunks;
	c->len = 0;
	c->cap = cap;
	f->chunks = c;
}

/* Appends to the line being copied; room() was asked for enough. */
static void
put(struct flame *f, const char *s, size_t n)
{
	struct flame_chunk *c = f->chunks;

	memcpy(c->data + c->len, s, n);
	c->len += n;
}

/* Appends the stack, frames reversed, as Perl's join/reverse/split does. */
static void
put_reversed(struct flame *f, const char *s, size_t n)
{
	size_t end = n, b;
	int first = 1;

	/* split drops trailing empty fields */
	while (end > 0 && s[end - 1] == ';')
		end--;
	while (end > 0) {
		b = end;
		while (b > 0 && s[b - 1] != ';')
			b--;
		if (!first)
			put(f, ";", 1);
		put(f, s + b, end - b);
		first = 0;
		end = b > 0 ? b - 1 : 0;
		if (b == 1 && end == 0) {
			/* a leading empty field */
			put(f, ";", 1);
			break;
		}
	}
}

/* Appends the stack with "_[w]" after every frame that follows ";--;". */
static void
put_chain(struct flame *f, const char *s, size_t n)
{
	const char *sep = memmem(s, n, ";--;", 4), *p, *e, *semi;

	if (sep == NULL) {
		put(f, s, n);
		return;
	}
	put(f, s, sep + 4 - s);
	p = sep + 4;
	e = s + n;
	while (p < e) {
		semi = memchr(p, ';', e - p);
		if (semi == NULL)
			semi = e;
		put(f, p, semi - p);
		if (!(semi - p == 2 && p[0] == '-' && p[1] == '-') && semi > p)
			put(f, "_[w]", 4);
		if (semi < e)
			put(f, ";", 1);
		p = semi + 1;
	}
}

/* A new line at the end of f->lines, numbered in input order. */
static struct flame_line *
new_line(struct flame *f)
{
	struct flame_line *l;

	GROW(f->lines, f->nlines + 1, f->linecap);
	l = &f->lines[f->nlines];
	l->seq = f->nlines++;
	return l;
}

/* The counts of a line just added, from its parse. */
static void
set_counts(struct flame *f, struct flame_line *l, const struct folded_line *fl)
{
	l->ncounts = fl->ncounts;
	l->count[0] = fl->count[0].d;
	l->count[1] = fl->ncounts == 2 ? fl->count[1].d : 0;
	if (fl->ncounts == 2)
		f->differential = 1;
}

/*
 * Copies the stack of fl into a new line, reversed or chained as the
 * options say, with room for extra more bytes after it; returns the line.
 */
static struct flame_line *
add_stack(struct flame *f, const struct folded_line *fl, size_t extra)
{
	struct flame_line *l;
	size_t start;

	l = new_line(f);
	/* chain's "_[w]" makes ";x" (2 bytes) at most 6, and the last frame
	   4 longer; reversing can add a ';' */
	room(f, 3 * fl->stack_len + extra + 2);
	start = f->chunks->len;
	l->p = f->chunks->data + start;
	if (f->opts.reverse)
		put_reversed(f, fl->stack, fl->stack_len);
	else if (f->opts.chain)
		put_chain(f, fl->stack, fl->stack_len);
	else
		put(f, fl->stack, fl->stack_len);
	l->stacklen = l->len = f->chunks->len - start;
	set_counts(f, l, fl);
	return l;
}

void
flame_add(struct flame *f, const char *line, size_t len,
    const struct folded_line *fl)
{
	struct flame_line *l;
	size_t i;
	int sp;

	l = add_stack(f, fl, len);
	/* The counts as written, white space runs made one space. */
	sp = 1;
	for (i = fl->stack_len; i < len; i++) {
		if (line[i] == ' ' || line[i] == '\t') {
			sp = 1;
			continue;
		}
		if (sp)
			put(f, " ", 1);
		sp = 0;
		put(f, line + i, 1);
	}
	l->len = (size_t)(f->chunks->data + f->chunks->len - l->p);
}

void
flame_add_stack(struct flame *f, const char *stack, size_t len,
    uint64_t count)
{
	struct folded_line fl;

	if (folded_parse_stack(stack, len, count, &fl) == FOLDED_OK)
		add_stack(f, &fl, 0);
}

void
flame_add_weight(struct flame *f, const char *stack, size_t len,
    double weight)
{
	struct folded_line fl = { .stack = stack, .stack_len = len,
	    .ncounts = 1, .count[0] = { .d = weight, .decimal = 1 } };

	add_stack(f, &fl, 0);
}

void
flame_add_kept(struct flame *f, const char *line, size_t len,
    const struct folded_line *fl)
{
	struct flame_line *l;
	size_t i;

	if (f->opts.reverse || f->opts.chain) {
		flame_add(f, line, len, fl);
		return;
	}
	/* the counts as flame_add writes them: one space before each */
	for (i = fl->stack_len; i < len; i++)
		if ((line[i] == ' ' && (i + 1 == len || line[i + 1] == ' ' ||
		    line[i + 1] == '\t')) || line[i] == '\t') {
			flame_add(f, line, len, fl);
			return;
		}
	l = new_line(f);
	l->p = line;
	l->stacklen = fl->stack_len;
	l->len = len;
	set_counts(f, l, fl);
}

static int
cmpline(const void *a, const void *b)
{
	const struct flame_line *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->p, y->p, n);

	if (c != 0)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static uint32_t
node_new(struct flame *f, uint32_t parent, const char *name, uint32_t namelen,
    uint32_t depth, double stime)
{
	struct flame_node *n;
	uint32_t id;

	if (f->nnodes + 1 > f->nodecap) {
		GROW(f->nodes, f->nnodes + 1, f->nodecap);
		f->lastkid = xrealloc(f->lastkid, f->nodecap *
		    sizeof(*f->lastkid));
		if (f->differential) {
			f->delta = xrealloc(f->delta, f->nodecap *
			    sizeof(*f->delta));
			f->has_delta = xrealloc(f->has_delta, f->nodecap);
		}
	}
	id = (uint32_t)f->nnodes++;
	n = &f->nodes[id];
	n->name = name;
	n->namelen = namelen;
	n->depth = depth;
	n->parent = parent;
	n->child = n->next = FLAME_NONE;
	n->stime = stime;
	n->etime = 0;
	f->lastkid[id] = FLAME_NONE;
	if (f->differential) {
		f->delta[id] = 0;
		f->has_delta[id] = 0;
	}
	if (parent != FLAME_NONE) {
		if (f->lastkid[parent] == FLAME_NONE)
			f->nodes[parent].child = id;
		else
			f->nodes[f->lastkid[parent]].next = id;
		f->lastkid[parent] = id;
	}
	return id;
}

struct span {
	const char	*p;
	uint32_t	 len;
};

/* Splits a stack into frames as Perl's split(";") does. Returns the count. */
static size_t
split(const char *s, size_t len, struct span **v, size_t *cap)
{
	size_t n = 0, b = 0, i;

	while (len > 0 && s[len - 1] == ';')
		len--;
	if (len == 0)
		return 0;
	for (;;) {
		const char *semi = memchr(s + b, ';', len - b);

		i = semi ? (size_t)(semi - s) : len;
		if (n + 1 > *cap)
			GROW(*v, n + 1, *cap);
		(*v)[n].p = s + b;
		(*v)[n].len = (uint32_t)(i - b);
		n++;
		if (semi == NULL)
			return n;
		b = i + 1;
	}
}

static int
cmpweight(const void *a, const void *b, void *arg)
{
	const struct flame *f = arg;
	const struct flame_node *x = &f->nodes[*(const uint32_t *)a];
	const struct flame_node *y = &f->nodes[*(const uint32_t *)b];
	double wx = x->etime - x->stime, wy = y->etime - y->stime;

	if (wx != wy)
		return wx > wy ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) -
	    (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* Reorders every node's children widest first and moves them to match. */
static void
sort_weight(struct flame *f)
{
	uint32_t *kids = NULL, id, c;
	size_t cap = 0, n, i;
	double x;

	/* nodes[] is in preorder: a parent is placed before its children. */
	for (id = 0; id < f->nnodes; id++) {
		struct flame_node *p = &f->nodes[id];

		n = 0;
		for (c = p->child; c != FLAME_NONE; c = f->nodes[c].next) {
			GROW(kids, n + 1, cap);
			kids[n++] = c;
		}
		if (n == 0)
			continue;
		qsort_r(kids, n, sizeof(*kids), cmpweight, f);
		p->child = kids[0];
		x = p->stime;
		for (i = 0; i < n; i++) {
			struct flame_node *k = &f->nodes[kids[i]];
			double w = k->etime - k->stime;

			k->next = i + 1 < n ? kids[i + 1] : FLAME_NONE;
			/* its own children follow it in nodes[], placed later */
			k->stime = x;
			k->etime = x + w;
			x += w;
		}
	}
	free(kids);
}

/*
 * Returns the child of parent called name, or FLAME_NONE with p on the
 * free slot of kids, the index of nodes by (parent, name).
 */
static uint32_t
kidfind(const struct flame *f, const struct hashtab *kids, uint32_t parent,
    const char *name, uint32_t len, struct hashtab_probe *p)
{
	const struct flame_node *n;
	uint32_t id;

	hashtab_probe(kids, XXH3_64bits_withSeed(name, len, parent), p);
	while ((id = hashtab_next(kids, p)) != HASHTAB_NONE) {
		n = &f->nodes[id];
		if (n->parent == parent && n->namelen == len &&
		    memcmp(n->name, name, len) == 0)
			return id;
	}
	return FLAME_NONE;
}

/*
 * Builds the tree for the weight sort: every frame merged with its
 * same-named siblings, whatever the order of the lines. A node's width is
 * kept in etime (stime 0) until sort_weight places it.
 */
static void
build_merged(struct flame *f)
{
	struct hashtab kids;
	struct hashtab_probe p;
	struct span *fr = NULL;
	size_t frcap = 0, li, m, i;
	uint32_t cur, id;

	hashtab_init(&kids, 768);
	for (li = 0; li < f->nlines; li++) {
		const struct flame_line *l = &f->lines[li];
		int diff = l->ncounts == 2;
		double c = diff ? l->count[1] : l->count[0];

		if (f->nnodes == 0)
			node_new(f, FLAME_NONE, "", 0, 0, 0);
		m = split(l->p, l->stacklen, &fr, &frcap);
		cur = 0;
		f->nodes[0].etime += c;
		if (diff)
			f->has_delta[0] = 1;
		for (i = 0; i < m; i++) {
			id = kidfind(f, &kids, cur, fr[i].p, fr[i].len, &p);
			if (id == FLAME_NONE) {
				id = node_new(f, cur, fr[i].p, fr[i].len,
				    (uint32_t)i + 1, 0);
				hashtab_add(&kids, &p, id);
			}
			f->nodes[id].etime += c;
			if (diff) {
				f->has_delta[id] = 1;
				if (i + 1 == m)
					f->delta[id] += l->count[1] -
					    l->count[0];
			}
			cur = id;
		}
		if (diff && fabs(l->count[1] - l->count[0]) > f->maxdelta)
			f->maxdelta = fabs(l->count[1] - l->count[0]);
		if (f->ends != NULL)
			f->ends[l->seq] = cur;
		f->time += c;
	}
	hashtab_release(&kids);
	free(fr);
}

/* The length of the common prefix of a[0..na) and b[0..nb). */
static size_t
common_prefix(const char *a, size_t na, const char *b, size_t nb)
{
	size_t n = na < nb ? na : nb, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * Builds the tree the reference's way: each line (in sorted order) shares
 * with the line before it the frames of their common prefix. The prefix is
 * found bytewise, and only the frames after it are split and opened; end[d]
 * is where the frame at depth d of the line before ends, in its bytes.
 */
void
flame_build(struct flame *f)
{
	struct span *fr = NULL;
	uint32_t *path = NULL;
	size_t *end = NULL;
	size_t frcap = 0, pathcap = 0, endcap = 0, pathlen = 0, li, m, i, same;
	size_t prevlen = 0, n, lcp, from;
	const char *prev = NULL;
	double t = 0;

	if (f->opts.ends)
		f->ends = xmalloc((f->nlines ? f->nlines : 1) * sizeof(*f->ends));
	if (f->opts.sort == FLAME_SORT_WEIGHT && !f->opts.flamechart) {
		build_merged(f);
		sort_weight(f);
		goto done;
	}
	if (!f->opts.flamechart && f->nlines > 1)
		qsort(f->lines, f->nlines, sizeof(*f->lines), cmpline);
	for (li = 0; li < f->nlines; li++) {
		const struct flame_line *l = &f->lines[li];
		const char *c = l->p;
		int diff = l->ncounts == 2;
		double d = diff ? l->count[1] - l->count[0] : 0;

		/* split(";") drops trailing empty fields */
		for (n = l->stacklen; n > 0 && c[n - 1] == ';'; n--)
			;
		/* frames 1..same-1 of the line before are this one's too */
		same = 0;
		if (pathlen > 0 && n == 0)
			same = 1;
		else if (pathlen > 0) {
			lcp = common_prefix(prev, prevlen, c, n);
			for (same = 1; same < pathlen && end[same] <= lcp; same++)
				;
			if (same > 1 && end[same - 1] == lcp && lcp < n &&
			    c[lcp] != ';')
				same--;
		}
		from = same > 1 ? end[same - 1] + 1 : 0;
		m = from < n ? split(c + from, n - from, &fr, &frcap) : 0;
		for (i = pathlen; i > same; i--)
			f->nodes[path[i - 1]].etime = t;
		GROW(path, same + m + 1, pathcap);
		GROW(end, same + m + 1, endcap);
		if (same == 0) {
			path[0] = node_new(f, FLAME_NONE, "", 0, 0, t);
			if (diff) {
				f->has_delta[path[0]] = 1;
				f->delta[path[0]] = m == 0 ? d : 0;
			}
			same = 1;
		}
		for (i = 0; i < m; i++) {
			uint32_t id = node_new(f, path[same + i - 1], fr[i].p,
			    fr[i].len, (uint32_t)(same + i), t);

			if (diff) {
				f->has_delta[id] = 1;
				f->delta[id] = i + 1 == m ? d : 0;
			}
			path[same + i] = id;
			end[same + i] = (size_t)(fr[i].p - c) + fr[i].len;
		}
		pathlen = same + m;
		if (f->ends != NULL)
			f->ends[l->seq] = path[pathlen - 1];
		prev = c;
		prevlen = n;
		if (diff && fabs(d) > f->maxdelta)
			f->maxdelta = fabs(d);
		t += diff ? l->count[1] : l->count[0];
	}
	for (i = pathlen; i > 0; i--)
		f->nodes[path[i - 1]].etime = t;
	f->time = t;
	free(fr);
	free(path);
	free(end);
done:
	free(f->lastkid);
	f->lastkid = NULL;
}

static void
emit(struct flame *f, uint32_t node, uint32_t depth, uint32_t nmerged,
    double stime, double etime, double self)
{
	struct flame_frame *fr;

	if (f->nframes + 1 > f->framecap)
		GROW(f->frames, f->nframes + 1, f->framecap);
	fr = &f->frames[f->nframes++];
	fr->node = node;
	fr->depth = depth;
	fr->nmerged = nmerged;
	fr->first = FLAME_NONE;
	fr->stime = stime;
	fr->etime = etime;
	fr->self = self;
	if (depth > f->depthmax)
		f->depthmax = depth;
}

/* A node whose children flame_layout is going through. */
struct walk {
	uint32_t	 id;
	size_t		 frame;		/* its index in frames[] */
	uint32_t	 next;		/* the next child to look at */
	uint32_t	 nrun;		/* narrow children in the current run */
	double		 run;		/* their total width */
	double		 runstart;
	uint32_t	 runfirst;	/* the run's first node */
};

/* Lists the run of narrow children of w as one frame, if wide enough. */
static void
end_run(struct flame *f, struct walk *w, double mintime)
{
	if (w->nrun > 0 && w->run >= mintime) {
		emit(f, FLAME_NONE, f->nodes[w->id].depth + 1, w->nrun,
		    w->runstart, w->runstart + w->run, w->run);
		f->frames[f->nframes - 1].first = w->runfirst;
	} else if (w->nrun > 0) {
		if (f->ndrops + 1 > f->dropcap)
			GROW(f->drops, f->ndrops + 1, f->dropcap);
		f->drops[f->ndrops].frame = w->frame;
		f->drops[f->ndrops].first = w->runfirst;
		f->drops[f->ndrops++].n = w->nrun;
	}
	w->nrun = 0;
	w->run = 0;
}

void
flame_layout(struct flame *f, double total, double mintime)
{
	struct walk *stk = NULL, *w;
	size_t cap = 0, sp = 0;
	struct flame_node *n, *k;
	double etime, kw;
	uint32_t c;

	f->nframes = 0;
	f->depthmax = 0;
	f->ndrops = 0;
	if (f->nnodes == 0)
		return;
	/* The root spans the --total when it is larger than the sum. */
	n = &f->nodes[0];
	etime = total > n->etime ? total : n->etime;
	emit(f, 0, 0, 0, n->stime, etime, etime - n->stime);
	GROW(stk, 1, cap);
	memset(&stk[sp], 0, sizeof(*stk));
	stk[sp].id = 0;
	stk[sp].frame = f->nframes - 1;
	stk[sp++].next = n->child;
	/* Depth first, without recursion: stacks can be very deep. */
	while (sp > 0) {
		w = &stk[sp - 1];
		if ((c = w->next) == FLAME_NONE) {
			end_run(f, w, mintime);
			sp--;
			continue;
		}
		k = &f->nodes[c];
		w->next = k->next;
		kw = k->etime - k->stime;
		/* self: the width less every child's, drawn or not */
		f->frames[w->frame].self -= kw;
		if (kw < mintime) {
			if (w->nrun++ == 0) {
				w->runstart = k->stime;
				w->runfirst = c;
			}
			w->run += kw;
			continue;
		}
		end_run(f, w, mintime);
		emit(f, c, k->depth, 0, k->stime, k->etime, kw);
		if (sp + 1 > cap)
			GROW(stk, sp + 1, cap);
		memset(&stk[sp], 0, sizeof(*stk));
		stk[sp].id = c;
		stk[sp].frame = f->nframes - 1;
		stk[sp++].next = k->child;
	}
	free(stk);
}
