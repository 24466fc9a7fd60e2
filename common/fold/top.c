#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "base/xalloc.h"
#include "fold/top.h"
#include "stream/stream.h"

/* One function's figures for fold_top. */
struct topfn {
	double		 self, total;
	size_t		 stamp;		/* the last stack that counted it, + 1 */
};

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

int
fold_top(struct fold *f, FILE *out, size_t n)
{
	struct stacktab names;
	struct stacktab_entry **v = stacktab_sorted(&f->tab);
	struct topfn *fn = NULL;
	size_t fncap = 0, i, *order;
	double all = 0, scale = 1;
	char self_h[16] = "self", total_h[16] = "total";
	int prec = 0;

	fold_settle(f);
	stacktab_init(&names);
	for (i = 0; i < f->tab.n; i++) {
		const struct stacktab_entry *e = v[i];
		const char *p = e->key, *end = e->key + e->len, *semi;
		double w = (double)e->u[0] + e->d[0];

		/* Off-CPU time is the blocking function's own time. */
		if (str_ends(p, end - p, ";" STREAM_OFFCPU_FRAME))
			end -= sizeof(STREAM_OFFCPU_FRAME);
		struct stacktab_entry *ne = NULL;
		size_t k;
		int first = 1;

		all += w;
		for (; p <= end; p = semi + 1) {
			semi = memchr(p, ';', end - p);
			if (semi == NULL)
				semi = end;
			if (first && !f->opts.no_comm && semi != end) {
				first = 0;
				continue;	/* the process name */
			}
			first = 0;
			ne = stacktab_get(&names, p, semi - p);
			k = ne - names.ents;
			if (k >= fncap) {
				size_t old = fncap;

				GROW(fn, k + 1, fncap);
				memset(fn + old, 0, (fncap - old) * sizeof(*fn));
			}
			if (fn[k].stamp != i + 1) {
				fn[k].stamp = i + 1;
				fn[k].total += w;
			}
			if (semi == end)
				fn[k].self += w;
		}
	}
	order = xmalloc((names.n + 1) * sizeof(*order));
	for (i = 0; i < names.n; i++)
		order[i] = i;
	qsort_r(order, names.n, sizeof(*order), cmp_top, fn);
	if (f->timed) {
		/* Time in ns: shown in ms, or in s past 100 s. */
		double div = all >= 1e11 ? 1e9 : 1e6;
		const char *u = all >= 1e11 ? "s" : "ms";

		fprintf(out, "%.3f %s", all / div, u);
		snprintf(self_h, sizeof(self_h), "self %s", u);
		snprintf(total_h, sizeof(total_h), "total %s", u);
		scale = div;
		prec = 3;
	} else
		fprintf(out, "%.0f samples", all);
	fprintf(out, "%s%s%s%s%s%s, %zu functions\n",
	    f->event ? " of '" : "", f->event ? f->event : "",
	    f->event ? "'" : "", f->event2 ? " and '" : "",
	    f->event2 ? f->event2 : "", f->event2 ? "'" : "", names.n);
	fprintf(out, "%7s %10s %7s %10s  %s\n", "self%", self_h, "total%",
	    total_h, "function");
	for (i = 0; i < names.n && i < n; i++) {
		const struct stacktab_entry *ne = &names.ents[order[i]];
		const struct topfn *t = &fn[order[i]];

		fprintf(out, "%6.2f%% %10.*f %6.2f%% %10.*f  %.*s\n",
		    all > 0 ? 100 * t->self / all : 0, prec, t->self / scale,
		    all > 0 ? 100 * t->total / all : 0, prec, t->total / scale,
		    (int)ne->len, ne->key);
	}
	free(order);
	free(fn);
	free(v);
	stacktab_release(&names);
	return ferror(out) ? -1 : 0;
}
