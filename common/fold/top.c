#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "base/xalloc.h"
#include "fold/top.h"
#include "profile/own.h"
#include "stream/stream.h"
#define TOP_OWN_SHOWN	4	/* crates named in the own table's title */

/* One function's figures. */
struct topfn {
	double		 self, total;
	size_t		 stamp;		/* the last stack that counted it, + 1 */
};

/* A table of functions: their names and figures, by the same index. */
struct toptab {
	struct intern	 names;
	struct topfn	*fn;
	size_t		 cap;
};

/* One frame of the stack being counted. */
struct topframe {
	const char	*p;
	size_t		 len;		/* without the inline mark */
	int		 inlined;	/* it had the mark (own mode only) */
};

static void
toptab_init(struct toptab *t)
{
	memset(t, 0, sizeof(*t));
	intern_init(&t->names);
}

static void
toptab_release(struct toptab *t)
{
	intern_release(&t->names);
	free(t->fn);
}

/*
 * Counts w in the total of the function name[0..len) for the stack
 * numbered stamp (once per stack, for recursion), and in its self when
 * self is set.
 */
static void
toptab_add(struct toptab *t, const char *name, size_t len, size_t stamp,
    double w, int self)
{
	struct intern_entry *ne = intern_get(&t->names, name, len);
	size_t k = ne - t->names.ents;

	if (k >= t->cap) {
		size_t old = t->cap;

		GROW(t->fn, k + 1, t->cap);
		memset(t->fn + old, 0, (t->cap - old) * sizeof(*t->fn));
	}
	if (t->fn[k].stamp != stamp) {
		t->fn[k].stamp = stamp;
		t->fn[k].total += w;
	}
	if (self)
		t->fn[k].self += w;
}

static int
cmp_top(const void *a, const void *b, void *arg)
{
	const struct topfn *fn = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (fn[x].self != fn[y].self)
		return fn[x].self < fn[y].self ? 1 : -1;
	if (fn[x].total != fn[y].total)
		return fn[x].total < fn[y].total ? 1 : -1;
	return (x > y) - (x < y);
}

/* How the figures are shown: their unit, scale and precision. */
struct topfmt {
	double		 all, scale;
	int		 prec;
	char		 self_h[16], total_h[16];
};

/* Writes t's n first functions by self, then total, under a header line. */
static void
toptab_write(struct toptab *t, FILE *out, size_t n, const struct topfmt *m)
{
	size_t i, *order = xmalloc((t->names.n + 1) * sizeof(*order));

	for (i = 0; i < t->names.n; i++)
		order[i] = i;
	qsort_r(order, t->names.n, sizeof(*order), cmp_top, t->fn);
	fprintf(out, "%7s %10s %7s %10s  %s\n", "self%", m->self_h, "total%",
	    m->total_h, "function");
	for (i = 0; i < t->names.n && i < n; i++) {
		const struct intern_entry *ne = &t->names.ents[order[i]];
		const struct topfn *fn = &t->fn[order[i]];

		fprintf(out, "%6.2f%% %10.*f %6.2f%% %10.*f  %.*s\n",
		    m->all > 0 ? 100 * fn->self / m->all : 0, m->prec,
		    fn->self / m->scale,
		    m->all > 0 ? 100 * fn->total / m->all : 0, m->prec,
		    fn->total / m->scale, (int)ne->len, ne->key);
	}
	free(order);
}

static int
is_own(const struct fold *f, const struct topframe *fr)
{
	return own_any(fr->p, fr->len, f->opts.own, f->opts.nown);
}

/*
 * Counts the stack's own functions, fr[0..n) root first: each in its
 * total, and in its self the innermost own function among the leaf and
 * the frames it is inlined into, down to the nearest frame that is not
 * inlined, which holds them all.
 */
static void
own_count(struct fold *f, struct toptab *t, const struct topframe *fr,
    size_t n, size_t stamp, double w)
{
	size_t holder = n - 1, k, owner = n;

	while (holder > 0 && fr[holder].inlined)
		holder--;
	for (k = n; k-- > holder; )
		if (is_own(f, &fr[k])) {
			owner = k;
			break;
		}
	for (k = 0; k < n; k++)
		if (is_own(f, &fr[k]))
			toptab_add(t, fr[k].p, fr[k].len, stamp, w, k == owner);
}

/*
 * A heap profile's figures: bytes in B, KiB, MiB or GiB as the whole
 * needs, or allocations; the whole written first.
 */
static void
top_alloc_unit(struct topfmt *m, enum stream_ev a, FILE *out)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
	size_t i = 0;

	if (!stream_ev_bytes(a)) {
		fprintf(out, "%.0f allocations", m->all);
		snprintf(m->self_h, sizeof(m->self_h), "self");
		snprintf(m->total_h, sizeof(m->total_h), "total");
		return;
	}
	while (i < 3 && m->all >= 1024 * m->scale)
		m->scale *= 1024, i++;
	m->prec = i > 0 ? 2 : 0;
	fprintf(out, "%.*f %s", m->prec, m->all / m->scale, units[i]);
	snprintf(m->self_h, sizeof(m->self_h), "self %s", units[i]);
	snprintf(m->total_h, sizeof(m->total_h), "total %s", units[i]);
}

int
fold_top(struct fold *f, FILE *out, size_t n)
{
	struct toptab leaves, own;
	struct intern_entry **v = intern_sorted(&f->tab);
	struct topframe *fr = NULL;
	struct topfmt m;
	size_t frcap = 0, nfr, i;
	int strip = f->opts.nown > 0, offcpu = 0;
	enum stream_ev alloc = STREAM_EV_OTHER, a;

	fold_settle(f);
	toptab_init(&leaves);
	toptab_init(&own);
	memset(&m, 0, sizeof(m));
	for (i = 0; i < f->tab.n; i++) {
		const struct intern_entry *e = v[i];
		const char *p = e->key, *end = e->key + e->len, *semi;
		double w = (double)e->u[0] + e->d[0];
		int first = 1;

		/* Off-CPU time is the blocking function's own time. */
		if (str_ends(p, end - p, ";" STREAM_OFFCPU_FRAME)) {
			end -= sizeof(STREAM_OFFCPU_FRAME);
			offcpu = 1;
		}
		/* A heap profile's leaf, "[alloc-bytes]": what the counts are. */
		if ((semi = memrchr(p, ';', end - p)) != NULL &&
		    (a = stream_ev_frame(semi + 1, end - semi - 1)) !=
		    STREAM_EV_OTHER) {
			end = semi;
			alloc = a;
		}
		m.all += w;
		for (nfr = 0; p <= end; p = semi + 1) {
			semi = memchr(p, ';', end - p);
			if (semi == NULL)
				semi = end;
			if (first && !f->opts.no_comm && semi != end) {
				first = 0;
				continue;	/* the process name */
			}
			first = 0;
			GROW(fr, nfr + 1, frcap);
			fr[nfr].p = p;
			fr[nfr].len = semi - p;
			fr[nfr].inlined = strip &&
			    str_ends(p, semi - p, OWN_INLINE_MARK);
			if (fr[nfr].inlined)
				fr[nfr].len -= sizeof(OWN_INLINE_MARK) - 1;
			toptab_add(&leaves, fr[nfr].p, fr[nfr].len, i + 1, w,
			    semi == end);
			nfr++;
		}
		if (strip && nfr > 0)
			own_count(f, &own, fr, nfr, i + 1, w);
	}
	m.scale = 1;
	snprintf(m.self_h, sizeof(m.self_h), "self");
	snprintf(m.total_h, sizeof(m.total_h), "total");
	/*
	 * Time in ns: from a timed stream, or folded stacks that hold the
	 * off-CPU frame (as fgsvg reads them), shown in ms, or in s past
	 * 100 s.
	 */
	if (f->timed || offcpu) {
		double div = m.all >= 1e11 ? 1e9 : 1e6;
		const char *u = m.all >= 1e11 ? "s" : "ms";

		fprintf(out, "%.3f %s", m.all / div, u);
		snprintf(m.self_h, sizeof(m.self_h), "self %s", u);
		snprintf(m.total_h, sizeof(m.total_h), "total %s", u);
		m.scale = div;
		m.prec = 3;
	} else if (alloc != STREAM_EV_OTHER)
		top_alloc_unit(&m, alloc, out);
	else
		fprintf(out, "%.0f samples", m.all);
	fprintf(out, "%s%s%s%s%s%s, %zu functions\n",
	    f->event ? " of '" : "", f->event ? f->event : "",
	    f->event ? "'" : "", f->event2 ? " and '" : "",
	    f->event2 ? f->event2 : "", f->event2 ? "'" : "",
	    leaves.names.n);
	if (strip) {
		fprintf(out, "the functions of ");
		for (i = 0; i < f->opts.nown && i < TOP_OWN_SHOWN; i++)
			fprintf(out, "%s%s", i > 0 ? ", " : "", f->opts.own[i]);
		if (f->opts.nown > TOP_OWN_SHOWN)
			fprintf(out, " and %zu more crates",
			    f->opts.nown - TOP_OWN_SHOWN);
		if (own.names.n == 0)
			fprintf(out, ": none in the stacks\n");
		else {
			fprintf(out, ", each with its inlined callees:\n");
			toptab_write(&own, out, n, &m);
		}
		fprintf(out, "the widest leaf functions:\n");
	}
	toptab_write(&leaves, out, n, &m);
	free(fr);
	free(v);
	toptab_release(&leaves);
	toptab_release(&own);
	return ferror(out) ? -1 : 0;
}
