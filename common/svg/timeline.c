#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/buf.h"
#include "base/hashtab.h"
#include "base/num.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "profile/timebins.h"
#include "stream/stream.h"
#include "svg/timeline.h"
#include "svg/xml.h"

#define ROWH		14	/* pixels per thread row */
#define TIMED_Q		1000	/* a timed stream's weights go in us */
#define BINS_MIN	25	/* the budget narrows the bins to this, no less */

/* One weight of a thread, drawn bin and flame node, from the time bins. */
struct tl_cell {
	uint32_t	 thread;	/* its rank, busiest first */
	uint32_t	 bin;
	uint32_t	 node;		/* its preorder rank; UINT32_MAX: none */
	uint32_t	 off;
	uint64_t	 w;
};

/* What timeline_build works on, besides the tree. */
struct cells {
	const struct timebins *tb;
	const struct timebins_thread **threads;	/* busiest first */
	uint32_t	*rankof;	/* per thread: its rank */
	const uint32_t	*nodeof;	/* per flame line: its node's rank */
	const uint32_t	*seq;		/* per stack: its flame line */
	struct tl_cell	*v;
	size_t		 n;
	size_t		 kept;		/* threads with a row of their own; the
					   rest share the row after them */
	size_t		 nrows;		/* rows written */
	double		 rest[2];	/* the rest's on- and off-CPU weights */
	int		 timed;
	int		 anyoff;
};

void
timeline_init(struct timeline *tl, const struct timeline_opts *o)
{
	memset(tl, 0, sizeof(*tl));
	tl->opts = *o;
	if (tl->opts.bins <= 0)
		tl->opts.bins = TIMELINE_BINS;
	buf_init(&tl->data);
}

void
timeline_release(struct timeline *tl)
{
	free(tl->note);
	buf_release(&tl->data);
	memset(tl, 0, sizeof(*tl));
}

/* A thread's weights, as counts or (timed) as periods. */
static double
thread_on(const struct timebins_thread *x, int timed)
{
	return (double)x->on[timed ? 1 : 0];
}

static double
thread_off(const struct timebins_thread *x, int timed)
{
	return (double)x->off[timed ? 1 : 0];
}

/* Threads busiest first, then in the order first seen (qsort_r, timed). */
static int
cmp_thread(const void *a, const void *b, void *arg)
{
	const struct timebins_thread *x = *(const struct timebins_thread *const *)a;
	const struct timebins_thread *y = *(const struct timebins_thread *const *)b;
	int timed = *(const int *)arg;
	double wx = thread_on(x, timed) + thread_off(x, timed);
	double wy = thread_on(y, timed) + thread_off(y, timed);

	if (wx != wy)
		return wx > wy ? -1 : 1;
	return (x > y) - (x < y);
}

/* Cells by thread rank, bin, then flame node (preorder ranks). */
static int
cmp_cell(const void *a, const void *b)
{
	const struct tl_cell *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->bin != y->bin)
		return x->bin < y->bin ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The cells' numbers are written as base-64 VLQ, as source maps write
 * them: five bits a character, low first, the sixth bit set on every
 * character but a number's last; no separator. Characters that need no
 * escape in a JavaScript string inside CDATA.
 */
static const char vlq_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t
ndigits(uint64_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static void
put_vlq(struct buf *b, uint64_t v)
{
	do {
		unsigned d = v & 31;

		v >>= 5;
		buf_addc(b, vlq_digits[d | (v != 0 ? 32 : 0)]);
	} while (v != 0);
}

/* Appends "rgb(R,G,B)" as six hex digits; grey when it is not that. */
static void
put_hex(struct buf *b, const char *rgb)
{
	static const char after[3] = { ',', ',', ')' };
	const char *p = rgb + 4;
	uint64_t c[3];
	int i;

	for (i = 0; i < 3 && strncmp(rgb, "rgb(", 4) == 0; i++)
		if (num_next(&p, 10, &c[i]) != NUM_OK || *p++ != after[i])
			break;
	if (i < 3)
		c[0] = c[1] = c[2] = 200;
	buf_addf(b, "%02x%02x%02x", (unsigned)(c[0] & 255),
	    (unsigned)(c[1] & 255), (unsigned)(c[2] & 255));
}

/* What the build works on: the flame's nodes in drawing order. */
struct tree {
	uint32_t	*order;		/* nodes in preorder, by child links */
	uint32_t	*rank;		/* per node: its place in order */
	uint32_t	*map;		/* per rank: the rank it is counted at */
	uint32_t	*kept;		/* per rank: its id among the kept */
	size_t		 n;
	/* for the budget's measure of the tree */
	uint32_t	*name;		/* per rank: its name's id, first seen first */
	struct tree_name {
		uint32_t first;		/* its first rank */
		double	 w;		/* its widest node */
		size_t	 bytes;		/* its string and colours */
	}		*names;
	size_t		 nnames;
};

/* Each rank's name id, and per name its widest node and its bytes. */
static void
tree_names(struct tree *t, const struct flame *fl)
{
	struct hashtab idx;
	struct hashtab_probe p;
	size_t r, len, olen, cap = 0;
	uint32_t id;
	const char *raw, *o;

	t->name = xmalloc((t->n + 1) * sizeof(*t->name));
	t->names = NULL;
	t->nnames = 0;
	hashtab_init(&idx, 256);
	for (r = 0; r < t->n; r++) {
		const struct flame_node *nd = &fl->nodes[t->order[r]];
		double w = r == 0 ? INFINITY : nd->etime - nd->stime;

		raw = flame_name(fl, t->order[r], &len);
		hashtab_probe(&idx, XXH3_64bits(raw, len), &p);
		while ((id = hashtab_next(&idx, &p)) != HASHTAB_NONE) {
			o = flame_name(fl, t->order[t->names[id].first], &olen);
			if (olen == len && memcmp(o, raw, len) == 0)
				break;
		}
		if (id == HASHTAB_NONE) {
			id = (uint32_t)t->nnames++;
			hashtab_add(&idx, &p, id);
			GROW(t->names, t->nnames, cap);
			t->names[id].first = (uint32_t)r;
			t->names[id].w = w;
			/* "NAME", and its six hex digits in C and in B */
			t->names[id].bytes = len + 3 + 12;
		} else if (w > t->names[id].w)
			t->names[id].w = w;
		t->name[r] = id;
	}
	hashtab_release(&idx);
}

static void
tree_make(struct tree *t, const struct flame *fl)
{
	uint32_t *stk, c, sp = 0;
	size_t n = 0;

	t->n = fl->nnodes;
	t->order = xmalloc((t->n + 1) * sizeof(*t->order));
	t->rank = xmalloc((t->n + 1) * sizeof(*t->rank));
	t->map = xmalloc((t->n + 1) * sizeof(*t->map));
	t->kept = xmalloc((t->n + 1) * sizeof(*t->kept));
	stk = xmalloc((t->n + 1) * sizeof(*stk));
	if (t->n > 0)
		stk[sp++] = 0;
	while (sp > 0) {
		uint32_t id = stk[--sp], k = 0, a, b;

		t->rank[id] = (uint32_t)n;
		t->order[n++] = id;
		for (c = fl->nodes[id].child; c != FLAME_NONE;
		    c = fl->nodes[c].next, k++)
			stk[sp + k] = c;
		/* pushed in order: reversed, to pop the first first */
		for (a = sp, b = sp + k; a + 1 < b; a++, b--) {
			uint32_t x = stk[a];

			stk[a] = stk[b - 1];
			stk[b - 1] = x;
		}
		sp += k;
	}
	t->n = n;
	free(stk);
	tree_names(t, fl);
}

static void
tree_free(struct tree *t)
{
	free(t->order);
	free(t->rank);
	free(t->map);
	free(t->kept);
	free(t->name);
	free(t->names);
}

/*
 * Keeps the nodes at least thr wide (and the root), counting the others
 * at their nearest kept ancestor. Returns the bytes of the tree's data,
 * at most (put_tree: a name is written once, where first kept).
 */
static size_t
tree_prune(struct tree *t, const struct flame *fl, double thr, size_t *nkept)
{
	size_t r, i, bytes = 0, k = 0;
	uint32_t prev = 0;

	for (r = 0; r < t->n; r++) {
		const struct flame_node *nd = &fl->nodes[t->order[r]];

		if (r == 0 || nd->etime - nd->stime >= thr) {
			t->map[r] = (uint32_t)r;
			t->kept[r] = (uint32_t)k++;
			/* its entry in T: "[U^]NAME " */
			bytes += ndigits(t->name[r]) + 1;
			if (r > 0 && nd->depth != prev + 1)
				bytes += ndigits(prev + 1 - nd->depth) + 1;
			prev = nd->depth;
		} else
			t->map[r] = t->map[t->rank[nd->parent]];
	}
	for (i = 0; i < t->nnames; i++)
		if (t->names[i].w >= thr)
			bytes += t->names[i].bytes;
	*nkept = k;
	return bytes;
}

/* A weight as it is written: in units of q, at least 1 when not 0. */
static uint64_t
qweight(double w, uint64_t q)
{
	double v = floor(w / (double)q + 0.5);

	return w > 0 && v < 1 ? 1 : (uint64_t)v;
}

/* The names and colours of the kept nodes, and the tree, into tl->data. */
static void
put_tree(struct timeline *tl, const struct flame *fl, const struct tree *t,
    struct palette *pal, struct palette *blue)
{
	struct buf names, cols, bcols, tr;
	struct hashtab idx;
	struct hashtab_probe p;
	uint32_t *namenode = NULL, nnames = 0, id, prev = 0;
	size_t cap = 0, r, len, olen;
	char color[PALETTE_COLORLEN];

	buf_init(&names);
	buf_init(&cols);
	buf_init(&bcols);
	buf_init(&tr);
	hashtab_init(&idx, 256);
	for (r = 0; r < t->n; r++) {
		uint32_t node = t->order[r], d = fl->nodes[node].depth;
		const char *raw = flame_name(fl, node, &len), *o;

		if (t->map[r] != r)
			continue;
		hashtab_probe(&idx, XXH3_64bits(raw, len), &p);
		while ((id = hashtab_next(&idx, &p)) != HASHTAB_NONE) {
			o = flame_name(fl, namenode[id], &olen);
			if (olen == len && memcmp(o, raw, len) == 0)
				break;
		}
		if (id == HASHTAB_NONE) {
			id = nnames++;
			hashtab_add(&idx, &p, id);
			GROW(namenode, nnames, cap);
			namenode[id] = node;
			if (id > 0)
				buf_addc(&names, ',');
			if (node == 0)
				xml_jsstr(&names, "all", 3);
			else
				xml_jsstr(&names, raw, len -
				    (len >= 4 && raw[len - 4] == '_' &&
				    raw[len - 3] == '[' && raw[len - 1] == ']' &&
				    strchr("kwij", raw[len - 2]) != NULL ? 4 : 0));
			if (str_is(raw, len, "--"))
				strcpy(color, "rgb(160,160,160)");
			else if (str_is(raw, len, "-"))
				strcpy(color, "rgb(200,200,200)");
			else
				palette_color(pal, raw, len, color);
			put_hex(&cols, color);
			if (blue != NULL) {
				palette_color(blue, raw, len, color);
				put_hex(&bcols, color);
			}
		}
		/* "[U^]NAME": U levels up from a child of the entry before */
		if (r > 0) {
			buf_addc(&tr, ' ');
			if (d != prev + 1) {
				buf_addu(&tr, prev + 1 - d);
				buf_addc(&tr, '^');
			}
		}
		prev = d;
		buf_addu(&tr, id);
	}
	BUF_ADDL(&tl->data, "N:[");
	buf_add(&tl->data, names.p, names.len);
	BUF_ADDL(&tl->data, "], C:\"");
	buf_add(&tl->data, cols.p, cols.len);
	BUF_ADDL(&tl->data, "\", B:\"");
	buf_add(&tl->data, bcols.p, bcols.len);
	BUF_ADDL(&tl->data, "\", T:\"");
	buf_add(&tl->data, tr.p, tr.len);
	BUF_ADDL(&tl->data, "\",\n");
	buf_release(&names);
	buf_release(&cols);
	buf_release(&bcols);
	buf_release(&tr);
	hashtab_release(&idx);
	free(namenode);
}

/*
 * The head of row th: "[TID,PID,COMM,ON,OFF,", or for the threads that
 * share the last row "[null,null,"N other threads",ON,OFF,".
 */
static void
put_head_row(struct buf *out, const struct cells *c, size_t th, uint64_t q)
{
	const struct timebins_thread *x = c->threads[th];
	double on, off;
	char what[64];

	if (th < c->kept) {
		buf_addf(out, "%s\n[%lld,%lld,", th ? "," : "",
		    (long long)x->tid, (long long)x->pid);
		xml_jsstr(out, x->comm, strlen(x->comm));
		on = thread_on(x, c->timed);
		off = thread_off(x, c->timed);
	} else {
		snprintf(what, sizeof(what), "%zu other threads",
		    c->tb->nthreads - c->kept);
		buf_addf(out, "%s\n[null,null,", th ? "," : "");
		xml_jsstr(out, what, strlen(what));
		on = c->rest[0];
		off = c->rest[1];
	}
	buf_addf(out, ",%llu,%llu,\"", (unsigned long long)qweight(on, q),
	    (unsigned long long)qweight(off, q));
}

/*
 * Each thread's row: "[TID, PID, COMM, ON, OFF, CELLS]", into out (the
 * budget's measure, then tl->data), with bins shifted right by sh;
 * CELLS is per bin with samples, in VLQ: the bin's step from the cell
 * before (the first: the bin), its off-CPU weight, the number of nodes,
 * then per node its step from the node before (the first: its id) and
 * its weight.
 */
static size_t
put_rows(struct buf *out, const struct cells *c, const struct tree *t,
    size_t nkept, int sh, uint64_t q)
{
	size_t len0 = out->len;
	double *acc = xcalloc(nkept + 1, sizeof(*acc));
	uint32_t *touched = xmalloc((nkept + 1) * sizeof(*touched));
	size_t i = 0, j, th, nt;
	uint32_t prevb, prevn;

	BUF_ADDL(out, "R:[");
	for (th = 0; th < c->nrows; th++) {
		put_head_row(out, c, th, q);
		prevb = 0;
		while (i < c->n && c->v[i].thread == th) {
			uint32_t b = c->v[i].bin >> sh;
			double off = 0;

			nt = 0;
			for (; i < c->n && c->v[i].thread == th &&
			    (c->v[i].bin >> sh) == b; i++) {
				const struct tl_cell *s = &c->v[i];
				uint32_t k;

				if (s->node == UINT32_MAX)
					continue;
				k = t->kept[t->map[s->node]];
				if (acc[k] == 0)
					touched[nt++] = k;
				acc[k] += (double)s->w;
				if (s->off)
					off += (double)s->w;
			}
			if (nt == 0)
				continue;
			/* ascending: the nodes in preorder, each a step */
			qsort(touched, nt, sizeof(*touched), cmp_u32);
			put_vlq(out, b - prevb);
			put_vlq(out, off > 0 ? qweight(off, q) : 0);
			put_vlq(out, nt);
			for (j = 0, prevn = 0; j < nt; j++) {
				put_vlq(out, touched[j] - prevn);
				put_vlq(out, qweight(acc[touched[j]], q));
				prevn = touched[j];
				acc[touched[j]] = 0;
			}
			prevb = b;
		}
		BUF_ADDL(out, "\"]");
	}
	BUF_ADDL(out, "]");
	free(acc);
	free(touched);
	return out->len - len0;
}

/* timebins_each: one weight, at its thread's rank and its node's. */
static void
cell_add(void *arg, uint32_t thread, size_t stack, uint32_t bin, int off,
    const uint64_t w[2])
{
	struct cells *c = arg;
	struct tl_cell *x;
	uint32_t line = c->seq[stack];

	x = &c->v[c->n++];
	x->thread = c->rankof[thread];
	x->bin = bin;
	x->node = line == UINT32_MAX ? UINT32_MAX : c->nodeof[line];
	x->off = off != 0;
	x->w = w[c->timed ? 1 : 0];
	if (off)
		c->anyoff = 1;
}

/* The threads ranked busiest first, and the cells over the drawn bins. */
static void
cells_make(struct cells *c, const struct timebins *tb,
    const struct timebins_range *r, const uint32_t *nodeof,
    const uint32_t *seq, int timed)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->tb = tb;
	c->nodeof = nodeof;
	c->seq = seq;
	c->timed = timed;
	c->threads = xmalloc((tb->nthreads + 1) * sizeof(*c->threads));
	c->rankof = xmalloc((tb->nthreads + 1) * sizeof(*c->rankof));
	for (i = 0; i < tb->nthreads; i++)
		c->threads[i] = &tb->threads[i];
	qsort_r(c->threads, tb->nthreads, sizeof(*c->threads), cmp_thread,
	    &timed);
	for (i = 0; i < tb->nthreads; i++)
		c->rankof[c->threads[i] - tb->threads] = (uint32_t)i;
	/* the cells, and each wait kept exact once per bin it spans */
	c->v = xmalloc((tb->ncells + tb->nwaits + (r->pieces - tb->samples) +
	    1) * sizeof(*c->v));
	timebins_each(tb, r, cell_add, c);
	qsort(c->v, c->n, sizeof(*c->v), cmp_cell);
	c->kept = c->nrows = tb->nthreads;
}

/*
 * Keeps rows of their own for the kept busiest threads only: the others'
 * cells go into one row after them (a thread, bin and node made one by
 * put_rows, once sorted again).
 */
static void
cells_merge(struct cells *c, size_t kept)
{
	size_t i, i0 = c->n;

	if (kept >= c->kept)
		return;
	for (i = kept; i < c->kept; i++) {
		c->rest[0] += thread_on(c->threads[i], c->timed);
		c->rest[1] += thread_off(c->threads[i], c->timed);
	}
	/* sorted by thread: those merged are the tail */
	for (i = 0; i < c->n; i++)
		if (c->v[i].thread >= kept) {
			if (i0 == c->n)
				i0 = i;
			c->v[i].thread = (uint32_t)kept;
		}
	qsort(c->v + i0, c->n - i0, sizeof(*c->v), cmp_cell);
	c->kept = kept;
	c->nrows = kept + 1;
}

/*
 * The threads kept as rows of their own, busiest first, while their rows
 * take at most half the budget (and TIMELINE_ROWS - 1 at least), each
 * measured as its head and 5 bytes for each of its bins with samples
 * once they are made as wide as the budget makes them (BINS_MIN over the
 * run): a hundred thousand threads would be megabytes of heads alone.
 */
static size_t
rows_fit(const struct cells *c, size_t budget, int nb, uint64_t q)
{
	struct buf b;
	size_t th, i = 0, nbins, bytes = 0;
	uint32_t prev;

	buf_init(&b);
	for (th = 0; th < c->kept; th++) {
		buf_reset(&b);
		put_head_row(&b, c, th, q);
		for (nbins = 0, prev = UINT32_MAX; i < c->n &&
		    c->v[i].thread == th; i++)
			if (c->v[i].bin != prev) {
				nbins++;
				prev = c->v[i].bin;
			}
		bytes += b.len + 5 * ((nbins * BINS_MIN + nb - 1) / nb);
		if (bytes > budget / 2 && th >= TIMELINE_ROWS - 1)
			break;
	}
	buf_release(&b);
	return th;
}

static void
cells_free(struct cells *c)
{
	free(c->threads);
	free(c->rankof);
	free(c->v);
}

/* Per flame line (fl->ends), the preorder rank of the node it ends at. */
static uint32_t *
line_nodes(const struct flame *fl, const struct tree *t)
{
	uint32_t *v = xmalloc((fl->nlines + 1) * sizeof(*v));
	size_t i;

	for (i = 0; i < fl->nlines; i++)
		v[i] = t->rank[fl->ends[i]];
	return v;
}

/* What the budget made of the timeline: the threshold and the shift. */
struct fit {
	double		 thr;		/* nodes narrower are in their callers */
	int		 sh;		/* bins shifted right by it */
	size_t		 merged;	/* threads in the row of the rest */
	size_t		 nkept;
	int		 over;		/* still over the budget */
	struct buf	 rows;		/* put_rows of the fit: the measure
					   kept, not made again */
};

/*
 * The budget: first the threads past what half of it holds go into one
 * row; then the nodes too narrow for the whole run's graph to
 * show (a pixel) are counted in their callers, from the narrowest up;
 * then the bins are made wider, down to BINS_MIN; then wider nodes go, up
 * to a twentieth of the run; then half the threads left go into the one
 * row, until TIMELINE_ROWS - 1 have rows of their own. Still over: the
 * smallest seen (wider bins can hold more stacks each than the narrow
 * ones did).
 */
static void
fit_budget(const struct timeline *tl, const struct flame *fl, struct tree *t,
    struct cells *c, int nb, uint64_t q, struct fit *f)
{
	struct buf *scratch = &f->rows;
	size_t best = SIZE_MAX, bytes, kept;
	double total = fl->time, px = total / 1180, bthr = 0;
	int bsh = 0;

	memset(f, 0, sizeof(*f));
	kept = rows_fit(c, tl->opts.budget, nb, q);
	if (kept < c->kept) {
		f->merged = c->kept - kept;
		cells_merge(c, kept);
	}
	buf_init(scratch);
	for (;;) {
		bytes = tree_prune(t, fl, f->thr, &f->nkept);
		buf_reset(scratch);
		bytes += put_rows(scratch, c, t, f->nkept, f->sh, q);
		if (bytes < best) {
			best = bytes;
			bthr = f->thr;
			bsh = f->sh;
		}
		if (bytes <= tl->opts.budget)
			break;
		if (f->thr < px)
			f->thr = f->thr == 0 ? total / 16777216 : f->thr * 2;
		else if ((nb >> (f->sh + 1)) >= BINS_MIN)
			f->sh++;
		else if (f->thr < total / 20)
			f->thr *= 2;	/* the widest bins: wider frames */
		else if (c->kept > TIMELINE_ROWS - 1) {
			/* fewer rows of their own, half as many each time */
			kept = c->kept / 2 > TIMELINE_ROWS - 1 ? c->kept / 2 :
			    TIMELINE_ROWS - 1;
			f->merged += c->kept - kept;
			cells_merge(c, kept);
			best = SIZE_MAX;
		} else {
			f->over = 1;
			f->thr = bthr;
			f->sh = bsh;
			tree_prune(t, fl, f->thr, &f->nkept);
			buf_reset(scratch);
			put_rows(scratch, c, t, f->nkept, f->sh, q);
			break;
		}
	}
	if (getenv("FGSVG_TLDEBUG") != NULL)
		fprintf(stderr, "timeline: %zu bytes, thr %g, sh %d\n", best,
		    f->thr, f->sh);
}

/*
 * The page's note of what the budget reduced, or none; and of fewer bins
 * than asked, when the waits would make too many pieces (r->fewer).
 */
static void
put_note(struct timeline *tl, const struct fit *f, double total,
    const struct timebins_range *r)
{
	int reduced = f->thr > 0 || f->sh > 0 || f->merged > 0;
	char w[64] = "", m[64] = "", b[96] = "";

	if (r->fewer)
		snprintf(b, sizeof(b), "%s%d bins: the off-CPU waits of so many "
		    "threads span too many", reduced || f->over ? "; " : "",
		    ((r->nb - 1) >> f->sh) + 1);
	if (!reduced && !f->over && !r->fewer)
		return;
	if (f->merged > 0)
		snprintf(m, sizeof(m), ": %zu threads in one row", f->merged);
	if (f->thr > 0)
		snprintf(w, sizeof(w), "%s frames under %.3g%% of the run "
		    "counted in their callers", f->merged > 0 ? "," : ":",
		    100 * f->thr / total);
	free(tl->note);
	if (!reduced && !f->over) {
		tl->note = xstrdup(b);
		return;
	}
	tl->note = xasprintf("timeline detail %s %.3g MiB "
	    "(--timeline-budget)%s%s%s%s%s", reduced ? "reduced to fit" :
	    "over", (double)tl->opts.budget / 1048576, m, w,
	    f->sh > 0 ? (f->thr > 0 || f->merged > 0 ? ", bins made wider" :
	    ": bins made wider") : "", reduced && f->over ? "; still over it" : "",
	    b);
}

/* The data's head: the bins, the weights' unit, the note. */
static void
put_head(struct timeline *tl, const struct flame *fl,
    const struct timebins *tb, const struct timebins_range *r,
    const struct fit *f, uint64_t q, int timed)
{
	buf_reset(&tl->data);
	buf_addf(&tl->data, "t0:\"%llu\", ", (unsigned long long)r->t0);
	buf_addf(&tl->data, "bw:%llu, nb:%d, q:%llu, tn:%d, sw:%d, un:%llu, "
	    "ns:%llu, note:", (unsigned long long)(r->bw << f->sh),
	    ((r->nb - 1) >> f->sh) + 1, (unsigned long long)q, timed,
	    fl->opts.sort == FLAME_SORT_WEIGHT && !fl->opts.flamechart,
	    (unsigned long long)tb->untimed, (unsigned long long)r->pieces);
	if (tl->note != NULL)
		xml_jsstr(&tl->data, tl->note, strlen(tl->note));
	else
		BUF_ADDL(&tl->data, "\"\"");
	BUF_ADDL(&tl->data, ",\n");
}

int
timeline_build(struct timeline *tl, const struct timebins *tb,
    const struct flame *fl, const uint32_t *seq, int timed,
    struct palette *pal)
{
	struct timebins_range r;
	struct palette blue;
	struct cells c;
	struct tree t;
	struct fit f;
	uint32_t *nodeof;
	uint64_t q = timed ? TIMED_Q : 1;

	if (fl->nnodes == 0 || fl->ends == NULL ||
	    timebins_range(tb, tl->opts.bins, BINS_MIN, &r) != 0)
		return -1;
	tree_make(&t, fl);
	nodeof = line_nodes(fl, &t);
	cells_make(&c, tb, &r, nodeof, seq, timed);
	fit_budget(tl, fl, &t, &c, r.nb, q, &f);
	if (getenv("FGSVG_TLDEBUG") != NULL)
		fprintf(stderr, "timebins: shift %d, %zu cells, cap %zu, "
		    "%zu waits, span %llu\n", tb->shift, tb->ncells, tb->cap,
		    tb->nwaits, (unsigned long long)(tb->tmax - tb->tmin));
	put_note(tl, &f, fl->time, &r);
	put_head(tl, fl, tb, &r, &f, q, timed);
	if (c.anyoff)
		palette_init(&blue, &(struct palette_opts){ .scheme = "blue",
		    .hash = pal->opts.hash, .random = pal->opts.random,
		    .seed = pal->opts.seed });
	put_tree(tl, fl, &t, pal, c.anyoff ? &blue : NULL);
	if (c.anyoff)
		palette_release(&blue);
	buf_add(&tl->data, f.rows.p, f.rows.len);
	buf_release(&f.rows);
	tl->rows = c.nrows < TIMELINE_ROWS ? (int)c.nrows : TIMELINE_ROWS;
	cells_free(&c);
	free(nodeof);
	tree_free(&t);
	return 0;
}

double
timeline_height(const struct timeline *tl, double fontsize)
{
	/* the rows, the axis and its labels, and the note under them */
	return 8 + tl->rows * ROWH + fontsize + 10 +
	    (tl->note != NULL ? fontsize : 0);
}

void
timeline_write(struct buf *b, const struct timeline *tl, double y)
{
	buf_addf(b, "var fgtl = {y:%g, rh:%d, rows:%d, ", y, ROWH, tl->rows);
	buf_add(b, tl->data.p, tl->data.len);
	BUF_ADDL(b, "};\n");
	buf_adds(b, timeline_script);
}
