#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "profile/stats.h"
#include "svg/cmpdraw.h"
#include "svg/palette.h"
#include "svg/xml.h"

#define GREY		"rgb(210,210,210)"	/* same: lighter than a merge */
#define FRAME_MOVED	1	/* d->moved: its interval leaves out 0 */
#define FRAME_FOUND	2	/* and it is a discovery among the frames */


/* compare's hook: each unique stack of a run, kept for the picture. */
static void
on_stack(void *arg, size_t run, const char *stack, size_t len, double w)
{
	struct cmpdraw *d = arg;
	struct intern_entry *e = intern_get(&d->stacks, stack, len);

	GROW(d->ws, d->nws + 1, d->wscap);
	d->ws[d->nws].stack = (size_t)(e - d->stacks.ents);
	d->ws[d->nws].run = run;
	d->ws[d->nws++].w = w;
}

void
cmpdraw_init(struct cmpdraw *d, const struct compare_opts *opts,
    struct flame *fl)
{
	struct compare_opts o = *opts;

	memset(d, 0, sizeof(*d));
	o.on_stack = on_stack;
	o.on_stack_arg = d;
	compare_init(&d->c, &o);
	intern_init(&d->stacks);
	d->fl = fl;
}

void
cmpdraw_release(struct cmpdraw *d)
{
	int k;

	for (k = 0; k < 2; k++) {
		free(d->incl[k]);
		free(d->own[k]);
		free(d->rowof[k]);
		if (d->rows_owned[k])
			free(d->rows[k]);
	}
	free(d->moved);
	free(d->ws);
	free(d->title);
	free(d->subtitle);
	intern_release(&d->stacks);
	compare_release(&d->c);
	memset(d, 0, sizeof(*d));
}

int
cmpdraw_read_runs(struct cmpdraw *d, char **runs[2])
{
	return compare_read_runs(&d->c, runs);
}

/* rowof[k]: each function's row in rows[k]. */
static void
index_rows(struct cmpdraw *d, int k)
{
	const struct compare *c = &d->c;
	size_t i;

	d->rowof[k] = xmalloc((c->funcs.n ? c->funcs.n : 1) * sizeof(size_t));
	for (i = 0; i < c->funcs.n; i++)
		d->rowof[k][i] = SIZE_MAX;
	for (i = 1; i < d->nrows[k]; i++) {
		const struct compare_row *r = &d->rows[k][i];
		const struct intern_entry *e = intern_find(
		    (struct intern *)&c->funcs, r->name, r->len);

		if (e != NULL)
			d->rowof[k][e - c->funcs.ents] = i;
	}
}

/* The row of node's function in rows[k] ([all] for the root), or NULL. */
static const struct compare_row *
node_row(const struct cmpdraw *d, int k, uint32_t node)
{
	const struct intern_entry *e;
	const char *name;
	size_t len, i;

	if (node == 0)
		return &d->rows[k][0];
	name = flame_name(d->fl, node, &len);
	e = intern_find((struct intern *)&d->c.funcs, name,
	    compare_name_len(name, len));
	if (e == NULL || (i = d->rowof[k][e - d->c.funcs.ents]) == SIZE_MAX)
		return NULL;
	return &d->rows[k][i];
}

/*
 * The verdict a node is drawn with (*delta: its own change, its total,
 * or self with opts.self; the root's whole). A frame that moved by
 * min_abs and more is drawn slower or faster as it moved when its own
 * change is a discovery among the frames (FRAME_FOUND: work that moved
 * between callers colours both frames, its function's total the same),
 * or when its interval leaves out 0 (FRAME_MOVED) and its function's
 * verdict goes that way. Else same.
 */
static enum compare_verdict
node_verdict(const struct cmpdraw *d, uint32_t node, double *delta)
{
	int k = d->c.opts.self && node != 0;
	const struct compare_row *r = node_row(d, d->c.opts.self, node);
	double *const *v = k ? d->own : d->incl;
	enum compare_verdict way;

	*delta = v[1][node] - v[0][node];
	if (d->moved == NULL || d->moved[node] == 0 ||
	    fabs(*delta) < d->c.min_abs || *delta == 0)
		return COMPARE_SAME;
	way = *delta > 0 ? COMPARE_SLOWER : COMPARE_FASTER;
	if (d->moved[node] == FRAME_FOUND)
		return way;
	return r != NULL && r->verdict == way ? way : COMPARE_SAME;
}

/* v with one decimal (two for percent), never "-0.0". */
static void
put_v(struct buf *b, const struct cmpdraw *d, double v)
{
	int prec = d->c.unit == COMPARE_PERCENT ? 2 : 1;

	if (fabs(v) < 0.5 * pow(10, -prec))
		v = 0;
	buf_addf(b, "%.*f", prec, v);
}

/* What the means are of: "a run", "a unit" of work, "of the run". */
static const char *
per(const struct cmpdraw *d)
{
	if (d->c.opts.norm == COMPARE_SHARE)
		return "of the run";
	return compare_per_unit(&d->c) ? "a unit" : "a run";
}

/* "B -> A UNIT a run, change C UNIT, 95% interval L to H: VERDICT" */
static void
put_row(struct buf *b, const struct cmpdraw *d, const struct compare_row *r)
{
	const char *u = compare_unit_name(d->c.unit);

	if (r == NULL) {
		buf_addf(b, "0 -> 0 %s: same", u);
		return;
	}
	put_v(b, d, r->before);
	BUF_ADDL(b, " -> ");
	put_v(b, d, r->after);
	buf_addf(b, " %s %s, change ", u, per(d));
	put_v(b, d, r->change);
	buf_addf(b, " %s, 95%% interval ", u);
	put_v(b, d, r->low);
	BUF_ADDL(b, " to ");
	put_v(b, d, r->high);
	buf_addf(b, ": %s", compare_verdict_word(&d->c, r->verdict));
}

/* svg_write's hook: a node's tooltip after its name, and its colour. */
static void
frame_info(void *arg, const struct flame *fl, uint32_t node, struct buf *b,
    char color[PALETTE_COLORLEN])
{
	const struct cmpdraw *d = arg;
	const struct flame_node *n = &fl->nodes[node];
	double w = n->etime - n->stime, all = fl->nodes[0].etime -
	    fl->nodes[0].stime, delta, s;
	enum compare_verdict v = node_verdict(d, node, &delta);
	const char *u = compare_unit_name(d->c.unit);
	struct buf t = { 0 };

	BUF_ADDL(&t, " (");
	put_v(&t, d, w);
	buf_addf(&t, " %s wide, %.2f%%; ", u, all > 0 ? 100 * w / all : 0);
	if (node == 0) {
		BUF_ADDL(&t, "whole run ");
		put_row(&t, d, &d->rows[0][0]);
	} else {
		BUF_ADDL(&t, "here ");
		put_v(&t, d, d->incl[0][node]);
		BUF_ADDL(&t, " -> ");
		put_v(&t, d, d->incl[1][node]);
		buf_addf(&t, " %s %s, self ", u, per(d));
		put_v(&t, d, d->own[0][node]);
		BUF_ADDL(&t, " -> ");
		put_v(&t, d, d->own[1][node]);
		buf_addf(&t, " %s; the function in all its frames: total ", u);
		put_row(&t, d, node_row(d, 0, node));
		BUF_ADDL(&t, "; self ");
		put_row(&t, d, node_row(d, 1, node));
	}
	BUF_ADDL(&t, ")");
	xml_escape(b, t.p, t.len);
	buf_release(&t);
	if (v == COMPARE_SAME) {
		strcpy(color, GREY);
		return;
	}
	s = fmin(1, fabs(delta) / d->maxd);
	palette_change(s, v == COMPARE_SLOWER, d->negate, color);
}

/*
 * The frames whose own change is beyond its noise (d->moved): per run,
 * each node's value (its total, or its self time with opts.self); per
 * side, their mean and variance, never below the counting noise (a
 * value v of a run whose samples are u each varies as v u at least);
 * Welch's 95% interval of the change (profile/stats.h). A frame whose
 * interval leaves out 0 is FRAME_MOVED, a gate its function's verdict
 * opens; the frames that could move by min_abs (at least that before or
 * after) are a family of their own, their p-values adjusted by
 * Benjamini-Hochberg at the comparison's q, and a discovery among them
 * is FRAME_FOUND, coloured whatever its function's total did.
 */
static void
frames_tested(struct cmpdraw *d, const size_t *lstack, size_t nl)
{
	const struct compare *c = &d->c;
	size_t nn = d->fl->nnodes, nr = c->nruns, i, j, m = 0, *snode, *fam;
	double *v = xcalloc(nn * nr + 1, sizeof(double));
	double *p = xcalloc(nn + 1, sizeof(double));

	snode = xmalloc((d->stacks.n + 1) * sizeof(size_t));
	fam = xmalloc((nn + 1) * sizeof(size_t));
	for (i = 0; i < d->stacks.n; i++)
		snode[i] = SIZE_MAX;
	for (i = 0; i < nl && d->fl->ends != NULL; i++)
		snode[lstack[i]] = d->fl->ends[i];
	for (i = 0; i < d->nws; i++)
		if (snode[d->ws[i].stack] != SIZE_MAX)
			v[snode[d->ws[i].stack] * nr + d->ws[i].run] +=
			    d->ws[i].w / c->runs[d->ws[i].run].scale;
	/* totals, but for self time; the root's is the whole run's */
	for (i = nn; i-- > 1; )
		for (j = 0; j < nr; j++)
			v[(c->opts.self ? 0 : d->fl->nodes[i].parent) * nr + j] +=
			    v[i * nr + j];
	d->moved = xcalloc(nn + 1, 1);
	for (i = 0; i < nn; i++) {
		struct stats_side sd[2];
		struct stats_diff df;
		int k;

		for (k = 0; k < 2; k++)
			compare_side(c, k, v + i * nr, NULL, &sd[k]);
		stats_welch(&sd[0], &sd[1], 0.95, &df);
		d->moved[i] = df.low > 0 || df.high < 0 ? FRAME_MOVED : 0;
		/* the root is [all]'s: its row is tested alone */
		if (i > 0 && fmax(sd[0].mean, sd[1].mean) >= c->min_abs) {
			fam[m] = i;
			p[m++] = df.p;
		}
	}
	stats_bh(p, m, p);
	for (i = 0; i < m; i++)
		if (p[i] <= c->opts.q)
			d->moved[fam[i]] = FRAME_FOUND;
	free(v);
	free(p);
	free(fam);
	free(snode);
}

/*
 * The flame: each stack at the larger of its means per run before and
 * after; and per node those means, its own (self) and its total.
 */
static void
build(struct cmpdraw *d)
{
	const struct compare *c = &d->c;
	double *mean = xcalloc(2 * (d->stacks.n + 1), sizeof(double));
	size_t *lstack = xmalloc((d->stacks.n + 1) * sizeof(size_t));
	size_t i, nl = 0, nn;
	int k;

	for (i = 0; i < d->nws; i++) {
		const struct compare_run *r = &c->runs[d->ws[i].run];

		mean[2 * d->ws[i].stack + r->side] += d->ws[i].w / r->scale /
		    c->nside[r->side];
	}
	for (i = 0; i < d->stacks.n; i++) {
		const struct intern_entry *e = &d->stacks.ents[i];
		double w = fmax(mean[2 * i], mean[2 * i + 1]);

		if (!(w > 0) || e->len == 0)
			continue;
		flame_add_weight(d->fl, e->key, e->len, w);
		lstack[nl++] = i;
	}
	flame_build(d->fl);
	nn = d->fl->nnodes ? d->fl->nnodes : 1;
	for (k = 0; k < 2; k++) {
		d->incl[k] = xcalloc(nn, sizeof(double));
		d->own[k] = xcalloc(nn, sizeof(double));
		for (i = 0; i < nl && d->fl->ends != NULL; i++)
			d->own[k][d->fl->ends[i]] += mean[2 * lstack[i] + k];
		memcpy(d->incl[k], d->own[k], nn * sizeof(double));
		for (i = d->fl->nnodes; i-- > 1; )
			d->incl[k][d->fl->nodes[i].parent] += d->incl[k][i];
	}
	frames_tested(d, lstack, nl);
	free(mean);
	free(lstack);
}

/* The title and subtitle, unless so gave them. */
static void
titles(struct cmpdraw *d, struct svg_opts *so)
{
	const struct compare *c = &d->c;
	const struct compare_row *all = &d->rows[0][0];
	struct buf b = { 0 };

	if (so->title == NULL) {
		buf_addf(&b, "Comparison of %zu run%s before, %zu after: the "
		    "whole run %s, ", c->nside[0], c->nside[0] == 1 ? "" : "s",
		    c->nside[1], all->verdict == COMPARE_SAME ? "the same" :
		    compare_verdict_word(c, all->verdict));
		put_v(&b, d, all->before);
		BUF_ADDL(&b, " -> ");
		put_v(&b, d, all->after);
		buf_addf(&b, " %s %s", compare_unit_name(c->unit), per(d));
		if (c->counting_only)
			buf_addf(&b, " (from one run %s: sampling noise and %g%% "
			    "for the noise between runs)", c->nside[0] == 1 &&
			    c->nside[1] == 1 ? "a side" : c->nside[0] == 1 ?
			    "before" : "after", 100 * COMPARE_RUN_CV);
		so->title = d->title = buf_detach(&b, NULL);
	}
	if (so->subtitle == NULL) {
		buf_reset(&b);
		buf_addf(&b, "%s %s%s; red %s, blue %s, grey the "
		    "same: %s 95%% intervals, Benjamini-Hochberg at q %g, "
		    "a change of %.3g %s at least", c->opts.self ? "self" :
		    "total", c->heap == STREAM_EV_OTHER ? "time" :
		    compare_unit_name(c->unit),
		    c->opts.norm == COMPARE_SHARE ? " as a share" :
		    compare_per_unit(c) ? " per unit of work" : " per run",
		    compare_verdict_word(c, COMPARE_SLOWER),
		    compare_verdict_word(c, COMPARE_FASTER),
		    c->prior.rows > 0 ? "moderated" : "Welch",
		    c->opts.q, c->min_abs, compare_unit_name(c->unit));
		if (c->apart > 0) {
			BUF_ADDL(&b, "; the sides recorded apart, ");
			compare_say_gap(&b, c->apart);
			BUF_ADDL(&b, " between them, not in turns");
		}
		so->subtitle = d->subtitle = buf_detach(&b, NULL);
	}
	buf_release(&b);
}

int
cmpdraw_finish(struct cmpdraw *d, struct svg_opts *so)
{
	struct compare *c = &d->c;
	int self = c->opts.self, k;
	uint32_t i;
	double delta;

	if (compare_finish(c) != 0)
		return 2;
	d->rows[self] = c->rows;
	d->nrows[self] = c->nrows;
	d->nrows[!self] = compare_rows(c, !self, &d->rows[!self]);
	d->rows_owned[!self] = 1;
	for (k = 0; k < 2; k++)
		index_rows(d, k);
	build(d);
	d->negate = so->negate;
	for (i = 0; i < d->fl->nnodes; i++)
		if (node_verdict(d, i, &delta) != COMPARE_SAME &&
		    fabs(delta) > d->maxd)
			d->maxd = fabs(delta);
	so->frame_info = frame_info;
	so->frame_info_arg = d;
	so->countname = compare_unit_name(c->unit);
	so->timens = 0;
	titles(d, so);
	return 0;
}
