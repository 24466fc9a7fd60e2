#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/buf.h"
#include "base/hashtab.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "stream/stream.h"
#include "svg/timeline.h"
#include "svg/xml.h"

#define ROWH		14	/* pixels per thread row */
#define TIMED_Q		1000	/* a timed stream's weights go in us */
#define BINS_MIN	25	/* the budget narrows the bins to this, no less */

struct tl_thread {
	uint64_t	 pid, tid;
	char		*comm;		/* the last COMM seen, owned */
	double		 on, off;	/* weights */
	uint64_t	 n;		/* samples */
	size_t		 first;		/* order first seen */
};

struct tl_sample {
	uint64_t	 time;
	uint64_t	 count, period;
	uint32_t	 thread;	/* then its rank, busiest first */
	uint32_t	 stack;		/* then its flame node */
	uint32_t	 bin;
	uint8_t		 off;
};

void
timeline_init(struct timeline *tl, const struct timeline_opts *o)
{
	memset(tl, 0, sizeof(*tl));
	tl->opts = *o;
	if (tl->opts.bins <= 0)
		tl->opts.bins = TIMELINE_BINS;
	hashtab_init(&tl->index, 64);
	buf_init(&tl->data);
}

void
timeline_release(struct timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->nthreads; i++)
		free(tl->threads[i].comm);
	free(tl->threads);
	free(tl->samples);
	free(tl->note);
	hashtab_release(&tl->index);
	buf_release(&tl->data);
	memset(tl, 0, sizeof(*tl));
}

/* The thread of pid and tid, added when new; its COMM is the last seen. */
static uint32_t
thread_of(struct timeline *tl, const struct timeline_sample *s)
{
	struct hashtab_probe p;
	struct tl_thread *t;
	uint32_t i;

	hashtab_probe(&tl->index, hashtab_int(s->pid * 0x9e3779b97f4a7c15ULL ^
	    s->tid), &p);
	while ((i = hashtab_next(&tl->index, &p)) != HASHTAB_NONE)
		if (tl->threads[i].pid == s->pid && tl->threads[i].tid == s->tid)
			break;
	if (i == HASHTAB_NONE) {
		i = (uint32_t)tl->nthreads;
		GROW(tl->threads, tl->nthreads + 1, tl->threadcap);
		t = &tl->threads[tl->nthreads++];
		memset(t, 0, sizeof(*t));
		t->pid = s->pid;
		t->tid = s->tid;
		t->first = i;
		hashtab_add(&tl->index, &p, i);
	}
	t = &tl->threads[i];
	if (t->comm == NULL || strlen(t->comm) != s->commlen ||
	    memcmp(t->comm, s->comm, s->commlen) != 0) {
		free(t->comm);
		t->comm = xmemdup0(s->comm, s->commlen);
	}
	return i;
}

void
timeline_add(struct timeline *tl, const struct timeline_sample *s)
{
	struct tl_sample *x;

	if (!s->has_time) {
		tl->untimed++;
		return;
	}
	GROW(tl->samples, tl->nsamples + 1, tl->samplecap);
	x = &tl->samples[tl->nsamples++];
	x->time = s->time;
	x->count = s->count;
	x->period = s->period;
	x->thread = thread_of(tl, s);
	x->stack = s->stack;
	x->off = s->offcpu != 0;
}

static int
cmp_thread(const void *a, const void *b)
{
	const struct tl_thread *x = a, *y = b;
	double wx = x->on + x->off, wy = y->on + y->off;

	if (wx != wy)
		return wx > wy ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

/* Samples by thread rank, bin, then flame node (preorder ranks). */
static int
cmp_sample(const void *a, const void *b)
{
	const struct tl_sample *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->bin != y->bin)
		return x->bin < y->bin ? -1 : 1;
	return (x->stack > y->stack) - (x->stack < y->stack);
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

/* Appends "rgb(R,G,B)" as six hex digits. */
static void
put_hex(struct buf *b, const char *rgb)
{
	unsigned r = 0, g = 0, bl = 0;

	if (sscanf(rgb, "rgb(%u,%u,%u)", &r, &g, &bl) != 3)
		r = g = bl = 200;
	buf_addf(b, "%02x%02x%02x", r & 255, g & 255, bl & 255);
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

static double
sample_weight(const struct tl_sample *s, int timed)
{
	return (double)(timed ? s->period : s->count);
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
	buf_add(&tl->data, names.p ? names.p : "", names.len);
	BUF_ADDL(&tl->data, "], C:\"");
	buf_add(&tl->data, cols.p ? cols.p : "", cols.len);
	BUF_ADDL(&tl->data, "\", B:\"");
	buf_add(&tl->data, bcols.p ? bcols.p : "", bcols.len);
	BUF_ADDL(&tl->data, "\", T:\"");
	buf_add(&tl->data, tr.p ? tr.p : "", tr.len);
	BUF_ADDL(&tl->data, "\",\n");
	buf_release(&names);
	buf_release(&cols);
	buf_release(&bcols);
	buf_release(&tr);
	hashtab_release(&idx);
	free(namenode);
}

/*
 * Each thread's row: "[TID, PID, COMM, ON, OFF, CELLS]", into out (the
 * budget's measure, then (*out)), with bins shifted right by sh;
 * CELLS is per bin with samples, in VLQ: the bin's step from the cell
 * before (the first: the bin), its off-CPU weight, the number of nodes,
 * then per node its step from the node before (the first: its id) and
 * its weight.
 */
static size_t
put_rows(struct buf *out, const struct timeline *tl, const struct tree *t,
    size_t nkept, int sh, uint64_t q, int timed)
{
	size_t len0 = out->len;
	double *acc = xcalloc(nkept + 1, sizeof(*acc));
	uint32_t *touched = xmalloc((nkept + 1) * sizeof(*touched));
	size_t i = 0, j, th, nt;
	uint32_t prevb, prevn;

	BUF_ADDL(out, "R:[");
	for (th = 0; th < tl->nthreads; th++) {
		const struct tl_thread *x = &tl->threads[th];

		buf_addf(out, "%s\n[%llu,%llu,", th ? "," : "",
		    (unsigned long long)x->tid, (unsigned long long)x->pid);
		xml_jsstr(out, x->comm, strlen(x->comm));
		buf_addf(out, ",%llu,%llu,\"",
		    (unsigned long long)qweight(x->on, q),
		    (unsigned long long)qweight(x->off, q));
		prevb = 0;
		while (i < tl->nsamples && tl->samples[i].thread == th) {
			uint32_t b = tl->samples[i].bin >> sh;
			double off = 0;

			nt = 0;
			for (; i < tl->nsamples && tl->samples[i].thread == th &&
			    (tl->samples[i].bin >> sh) == b; i++) {
				const struct tl_sample *s = &tl->samples[i];
				uint32_t k;

				if (s->stack == UINT32_MAX)
					continue;
				k = t->kept[t->map[s->stack]];
				if (acc[k] == 0)
					touched[nt++] = k;
				acc[k] += sample_weight(s, timed);
				if (s->off)
					off += sample_weight(s, timed);
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

int
timeline_build(struct timeline *tl, const struct flame *fl,
    const uint32_t *seq, int timed, struct palette *pal)
{
	struct palette blue;
	struct tree t;
	uint32_t *rankof;
	uint64_t tmin = UINT64_MAX, tmax = 0, bw, q = timed ? TIMED_Q : 1;
	uint64_t busiest = 0;
	struct buf scratch;
	size_t best = SIZE_MAX;
	double bthr = 0;
	int bsh = 0;
	double total = fl->time, thr = 0, px = total / 1180;
	size_t i, n0, nkept = 0, bytes;
	int nb, sh = 0, anyoff = 0, reduced = 0, over = 0;

	if (tl->nsamples == 0 || fl->nnodes == 0 || fl->ends == NULL)
		return -1;
	for (i = 0; i < tl->nsamples; i++) {
		const struct tl_sample *s = &tl->samples[i];
		/* an off-CPU sample's time is when the wait began */
		uint64_t end = s->time + (timed && s->off && s->period > 0 ?
		    s->period - 1 : 0);

		if (s->time < tmin)
			tmin = s->time;
		if (end > tmax)
			tmax = end;
	}
	/* threads busiest first: their ranks replace their numbers */
	tree_make(&t, fl);
	for (i = 0; i < tl->nsamples; i++) {
		struct tl_sample *s = &tl->samples[i];
		struct tl_thread *x = &tl->threads[s->thread];
		double w = sample_weight(s, timed);

		if (s->off) {
			x->off += w;
			anyoff = 1;
		} else
			x->on += w;
		x->n++;
		if (x->n > busiest)
			busiest = x->n;
		s->stack = seq[s->stack] == UINT32_MAX ? UINT32_MAX :
		    t.rank[fl->ends[seq[s->stack]]];
	}
	/* bins of 8 samples or more of the busiest thread: a bar is no noise */
	nb = tl->opts.bins;
	if (busiest / 8 < (uint64_t)nb)
		nb = busiest / 8 < BINS_MIN ? BINS_MIN : (int)(busiest / 8);
	bw = (tmax - tmin) / (uint64_t)nb + 1;
	nb = (int)((tmax - tmin) / bw) + 1;
	n0 = tl->nsamples;
	for (i = 0; i < n0; i++) {
		struct tl_sample *s = &tl->samples[i];
		uint64_t b, last, from, to;

		s->bin = (uint32_t)((s->time - tmin) / bw);
		if (!timed || !s->off || s->period <= 1)
			continue;
		/* a wait is spread over the bins it spans */
		last = (s->time + s->period - 1 - tmin) / bw;
		for (b = s->bin + 1; b <= last; b++) {
			struct tl_sample x = tl->samples[i];

			from = tmin + b * bw;
			to = b == last ? x.time + x.period : from + bw;
			x.bin = (uint32_t)b;
			x.period = to - from;
			GROW(tl->samples, tl->nsamples + 1, tl->samplecap);
			tl->samples[tl->nsamples++] = x;
		}
		s = &tl->samples[i];
		if (last > s->bin)
			s->period = tmin + (uint64_t)(s->bin + 1) * bw - s->time;
	}
	qsort(tl->threads, tl->nthreads, sizeof(*tl->threads), cmp_thread);
	rankof = xmalloc((tl->nthreads + 1) * sizeof(*rankof));
	for (i = 0; i < tl->nthreads; i++)
		rankof[tl->threads[i].first] = (uint32_t)i;
	for (i = 0; i < tl->nsamples; i++)
		tl->samples[i].thread = rankof[tl->samples[i].thread];
	free(rankof);
	qsort(tl->samples, tl->nsamples, sizeof(*tl->samples), cmp_sample);

	/*
	 * The budget: first the nodes too narrow for the whole run's graph
	 * to show (a pixel) are counted in their callers, from the narrowest
	 * up; then the bins are made wider, down to BINS_MIN; then wider
	 * nodes go, up to a twentieth of the run.
	 */
	buf_init(&scratch);
	for (;;) {
		bytes = tree_prune(&t, fl, thr, &nkept);
		buf_reset(&scratch);
		bytes += put_rows(&scratch, tl, &t, nkept, sh, q, timed);
		if (bytes < best) {
			best = bytes;
			bthr = thr;
			bsh = sh;
		}
		if (bytes <= tl->opts.budget)
			break;
		reduced = 1;
		if (thr < px)
			thr = thr == 0 ? total / 16777216 : thr * 2;
		else if ((nb >> (sh + 1)) >= BINS_MIN)
			sh++;
		else if (thr < total / 20)
			thr *= 2;	/* the widest bins: wider frames */
		else {
			/* still over: the smallest seen (wider bins can
			   hold more stacks each than the narrow ones did) */
			over = 1;
			thr = bthr;
			sh = bsh;
			tree_prune(&t, fl, thr, &nkept);
			break;
		}
	}
	if (getenv("FGSVG_TLDEBUG") != NULL)
		fprintf(stderr, "timeline: %zu bytes, thr %g, sh %d\n", best,
		    thr, sh);
	buf_release(&scratch);
	reduced = thr > 0 || sh > 0;
	if (reduced || over) {
		char w[64] = "";

		if (thr > 0)
			snprintf(w, sizeof(w), ": frames under %.3g%% of the run "
			    "counted in their callers", 100 * thr / total);
		free(tl->note);
		tl->note = xasprintf("timeline detail %s %.3g MiB "
		    "(--timeline-budget)%s%s%s", reduced ? "reduced to fit" :
		    "over", (double)tl->opts.budget / 1048576, w,
		    sh > 0 ? (thr > 0 ? ", bins made wider" : ": bins made wider") :
		    "", reduced && over ? "; still over it" : "");
	}

	buf_reset(&tl->data);
	buf_addf(&tl->data, "t0:\"%llu\", ", (unsigned long long)tmin);
	buf_addf(&tl->data, "bw:%llu, nb:%d, q:%llu, tn:%d, sw:%d, un:%llu, "
	    "ns:%zu, note:", (unsigned long long)(bw << sh),
	    ((nb - 1) >> sh) + 1, (unsigned long long)q, timed,
	    fl->opts.sort == FLAME_SORT_WEIGHT && !fl->opts.flamechart,
	    (unsigned long long)tl->untimed, tl->nsamples);
	if (tl->note != NULL)
		xml_jsstr(&tl->data, tl->note, strlen(tl->note));
	else
		BUF_ADDL(&tl->data, "\"\"");
	BUF_ADDL(&tl->data, ",\n");
	if (anyoff)
		palette_init(&blue, &(struct palette_opts){ .scheme = "blue",
		    .hash = pal->opts.hash, .random = pal->opts.random,
		    .seed = pal->opts.seed });
	put_tree(tl, fl, &t, pal, anyoff ? &blue : NULL);
	if (anyoff)
		palette_release(&blue);
	put_rows(&tl->data, tl, &t, nkept, sh, q, timed);
	tl->rows = tl->nthreads < TIMELINE_ROWS ? (int)tl->nthreads :
	    TIMELINE_ROWS;
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
