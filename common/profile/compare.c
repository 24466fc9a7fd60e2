#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/cmdfile.h"
#include "base/num.h"
#include "base/share.h"
#include "base/str.h"
#include "base/lineread.h"
#include "base/xalloc.h"
#include "profile/cmpbins.h"
#include "profile/compare.h"
#include "profile/fold.h"
#include "profile/own.h"
#include "profile/stats.h"
#include "stream/sniff.h"
#include "stream/stream.h"

#define ALL_NAME	"[all]"
#define LEVEL		0.95	/* of the intervals */
#define NORM_MIN	20	/* samples a function needs in every run to
				   tell the median of ratios */
#define DRIFT_MIN	3	/* a drift said: min_abs times this */

void
compare_init(struct compare *c, const struct compare_opts *opts)
{
	memset(c, 0, sizeof(*c));
	c->opts = *opts;
	intern_init(&c->funcs);
	intern_init(&c->wholes);
	intern_init(&c->cuts);
}

void
compare_release(struct compare *c)
{
	size_t i;

	for (i = 0; i < c->nruns; i++) {
		free(c->runs[i].name);
		free(c->runs[i].ids);
		free(c->runs[i].vals);
		free(c->runs[i].cuts);
	}
	free(c->runs);
	intern_release(&c->funcs);
	intern_release(&c->wholes);
	intern_release(&c->cuts);
	free(c->seq);
	free(c->hidden);
	free(c->event);
	free(c->stamp);
	free(c->sqp);
	free(c->cur);
	free(c->curseen);
	free(c->fbin);
	cmpbins_release(&c->bins);
	free(c->touched);
	free(c->rows);
	free(c->method);
	memset(c, 0, sizeof(*c));
}

/* Whether s[0..len) ends in ".word", the dot at s[at]; 0 or the dot's place. */
static size_t
ends_word(const char *s, size_t len, const char *word)
{
	size_t wl = strlen(word);

	if (len < wl + 2 || s[len - wl - 1] != '.' ||
	    memcmp(s + len - wl, word, wl) != 0)
		return 0;
	return len - wl - 1;
}

/*
 * The compilers' clone suffixes: GCC's and clang's, each with ".N" when
 * numbered says so ("cold" takes one or none).
 */
static const struct clone_word {
	const char	*word;
	int		 numbered;	/* 1: ".N" follows; 2: it may */
} clones[] = {
	{ "constprop", 1 }, { "isra", 1 }, { "part", 1 }, { "cold", 2 },
	{ "lto_priv", 1 }, { "llvm", 1 }, { "localalias", 0 },
	{ "specialized", 1 }, { "clone", 1 }, { NULL, 0 }
};

/*
 * s[0..len) without one clone suffix at its end: the new length, or len
 * when it ends in none.
 */
static size_t
strip_clone(const char *s, size_t len)
{
	size_t m, at;
	int i;

	/* ".N", N digits, or none */
	for (m = len; m > 0 && s[m - 1] >= '0' && s[m - 1] <= '9'; m--)
		;
	for (i = 0; clones[i].word != NULL; i++) {
		if (m < len && m > 1 && s[m - 1] == '.' && clones[i].numbered &&
		    (at = ends_word(s, m - 1, clones[i].word)) > 0)
			return at;
		if (clones[i].numbered != 1 &&
		    (at = ends_word(s, len, clones[i].word)) > 0)
			return at;
	}
	return len;
}

size_t
compare_name_len(const char *s, size_t len)
{
	size_t n;

	/* GCC's demangled form: "f(int) [clone .constprop.0]" */
	while (len > 9 && s[len - 1] == ']') {
		const char *open = memmem(s, len, " [clone .", 9);

		if (open == NULL || open == s)
			break;
		len = open - s;
	}
	/* ".constprop.0", ".isra.0.part.1", ... on a name with no dot */
	for (n = len; strip_clone(s, n) < n; n = strip_clone(s, n))
		;
	return n < len && memchr(s, '.', n) == NULL ? n : len;
}

/*
 * The run being read's values of function id, in c->cur (dense while a
 * run is read; run_settle keeps the functions it touched, sparse).
 */
static struct compare_val *
cur_val(struct compare *c, size_t id)
{
	if (id >= c->curcap) {
		size_t old = c->curcap;

		GROW(c->cur, id + 1, c->curcap);
		memset(c->cur + old, 0, (c->curcap - old) * sizeof(*c->cur));
		c->curseen = xrealloc(c->curseen, c->curcap);
		memset(c->curseen + old, 0, c->curcap - old);
	}
	if (!c->curseen[id]) {
		c->curseen[id] = 1;
		GROW(c->touched, c->ntouched + 1, c->touchcap);
		c->touched[c->ntouched++] = (uint32_t)id;
	}
	return &c->cur[id];
}

static int
by_id(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/*
 * The run's values, from c->cur: its functions' ids in order and their
 * values, only those it has (a run of 2 functions beside one of 40,000
 * keeps 2); c->cur made zero again for the next run.
 */
static void
run_settle(struct compare *c, struct compare_run *r)
{
	size_t k;

	if (c->ntouched > 1)	/* an empty run has no array at all */
		qsort(c->touched, c->ntouched, sizeof(uint32_t), by_id);
	r->ids = xcalloc(c->ntouched + 1, sizeof(uint32_t));
	r->vals = xcalloc(c->ntouched + 1, sizeof(*r->vals));
	for (k = 0; k < c->ntouched; k++) {
		uint32_t id = c->touched[k];

		r->ids[k] = id;
		r->vals[k] = c->cur[id];
		if (c->binning && id < c->fbincap) {
			double *x = c->fbin + id * 2 * CMPBINS_N;

			r->vals[k].wincl = cmpbins_var(&c->bins, x, c->wbin);
			r->vals[k].wself = cmpbins_var(&c->bins, x + CMPBINS_N,
			    c->wbin);
			memset(x, 0, 2 * CMPBINS_N * sizeof(double));
		}
		memset(&c->cur[id], 0, sizeof(c->cur[id]));
		c->curseen[id] = 0;
	}
	r->nv = c->ntouched;
	c->ntouched = 0;
	cmpbins_release(&c->bins);
	c->binning = 0;
}

/*
 * Run r's values of function id, or NULL when it has none. Found from
 * the place last found (a scan in order of ids finds each at once),
 * else by halves.
 */
static const struct compare_val *
run_val(const struct compare_run *r, size_t id)
{
	struct compare_run *w = (struct compare_run *)r;
	size_t lo = 0, hi = r->nv, h = r->hint;

	if (h < r->nv && r->ids[h] == id)
		return &r->vals[h];
	if (h + 1 < r->nv && r->ids[h + 1] == id) {
		w->hint = h + 1;
		return &r->vals[h + 1];
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nv && r->ids[lo] == id) {
		w->hint = lo;
		return &r->vals[lo];
	}
	return NULL;
}

/* The id of the function named s[0..len), clones folded: new ones 0. */
static size_t
func_id(struct compare *c, const char *s, size_t len)
{
	struct intern_entry *e;
	size_t id;

	len = compare_name_len(s, len);
	e = intern_get(&c->funcs, s, len);
	id = (size_t)(e - c->funcs.ents);
	if (c->funcs.n > c->stampcap) {
		size_t old = c->stampcap;

		GROW(c->stamp, c->funcs.n, c->stampcap);
		memset(c->stamp + old, 0, (c->stampcap - old) * sizeof(size_t));
	}
	return id;
}

/*
 * Adds a stack's time bins sb (NULL: none) to function id's, of its
 * total (self 0) or self time, in c->fbin; and once a stack, for the
 * whole run, in c->wbin (id SIZE_MAX).
 */
static void
bins_add(struct compare *c, size_t id, int self, const double *sb)
{
	double *x;
	size_t k;

	if (sb == NULL)
		return;
	if (id == SIZE_MAX)
		x = c->wbin;
	else {
		if (id >= c->fbincap) {
			size_t old = c->fbincap, cap = old ? old : 64;

			while (cap <= id)
				cap *= 2;
			c->fbin = xrealloc(c->fbin, cap * 2 * CMPBINS_N *
			    sizeof(double));
			memset(c->fbin + old * 2 * CMPBINS_N, 0, (cap - old) *
			    2 * CMPBINS_N * sizeof(double));
			c->fbincap = cap;
		}
		x = c->fbin + (id * 2 + self) * CMPBINS_N;
	}
	for (k = 0; k < CMPBINS_N; k++)
		x[k] += sb[k];
}

/* Whether the stack key[0..len) has a frame STREAM_TRUNCATED: cut short. */
static int
is_cut(const char *key, size_t len)
{
	static const char mark[] = STREAM_TRUNCATED;
	const size_t ml = sizeof(mark) - 1;
	const char *p = key, *end = key + len;

	while ((p = memmem(p, end - p, mark, ml)) != NULL) {
		if ((p == key || p[-1] == ';') && (p + ml == end || p[ml] == ';'))
			return 1;
		p++;
	}
	return 0;
}

/*
 * Keeps the function ids of a stack, c->seq[0 .. nseq), root first: a
 * whole stack in c->wholes, once for all runs; the part of a cut stack
 * below the cut (its first COMPARE_CUT_MATCH functions) in c->cuts, with
 * its weight w in the run's list.
 */
static void
keep_seq(struct compare *c, struct compare_run *r, size_t nseq, int cut,
    double w)
{
	struct intern_entry *e;

	if (nseq == 0)
		return;
	if (!cut) {
		intern_get(&c->wholes, (const char *)c->seq,
		    nseq * sizeof(uint32_t));
		return;
	}
	if (nseq > COMPARE_CUT_MATCH)
		nseq = COMPARE_CUT_MATCH;
	e = intern_get(&c->cuts, (const char *)c->seq,
	    nseq * sizeof(uint32_t));
	GROW(r->cuts, r->ncuts + 1, r->cutcap);
	r->cuts[r->ncuts].cut = (size_t)(e - c->cuts.ents);
	r->cuts[r->ncuts++].w = w;
}

/*
 * Adds one unique stack's weight w (cnt samples) to the run: to each
 * function on it once (its total), and to its leaf (its self time); when
 * the stack is cut short, to its functions' cut time. Its functions go
 * to keep_seq. Returns how many of its frames have a name (not "[dso]",
 * a frame with no symbol).
 */
static size_t
add_stack(struct compare *c, struct compare_run *r, size_t stackno,
    const char *key, size_t len, double w, double cnt, double sq,
    const double *sb)
{
	const char *p = key, *end = key + len, *semi;
	size_t id = 0, named = 0, owner = SIZE_MAX, nseq = 0, n;
	int any = 0, cut = is_cut(key, len), inl;

	if (cut) {
		r->cut += w;
		r->cut_samples += cnt;
	}
	while (p < end) {
		semi = memchr(p, ';', end - p);
		if (semi == NULL)
			semi = end;
		if (semi > p) {
			/* marked only with own crates: see compare_read */
			n = semi - p;
			inl = c->opts.nown > 0 && str_ends(p, n, OWN_INLINE_MARK);
			if (inl)
				n -= sizeof(OWN_INLINE_MARK) - 1;
			id = func_id(c, p, n);
			/* the innermost own function of the leaf's inlined group */
			if (!inl)
				owner = SIZE_MAX;
			if (c->opts.nown > 0 && own_any(p, n, c->opts.own,
			    c->opts.nown))
				owner = id;
			if (c->stamp[id] != stackno + 1) {
				struct compare_val *v = cur_val(c, id);

				c->stamp[id] = stackno + 1;
				v->incl += w;
				v->sqincl += sq;
				bins_add(c, id, 0, sb);
				if (cut)
					v->cutin += w;
			}
			/* a cut stack's part below the cut, or a whole stack */
			if (cut && str_is(p, semi - p, STREAM_TRUNCATED))
				nseq = 0;
			else {
				GROW(c->seq, nseq + 1, c->seqcap);
				c->seq[nseq++] = (uint32_t)id;
			}
			named += *p != '[';
			any = 1;
		}
		p = semi + 1;
	}
	/* a stack of no frame (";", from a hand-made file) is in the whole */
	if (any) {
		struct compare_val *v = cur_val(c, owner != SIZE_MAX ?
		    owner : id);

		v->self += w;
		v->sqself += sq;
		bins_add(c, owner != SIZE_MAX ? owner : id, 1, sb);
	}
	keep_seq(c, r, nseq, cut, w);
	return named;
}

/* The unit of the runs' counts: ms, samples, bytes or allocations. */
static enum compare_unit
base_unit(const struct compare *c)
{
	if (c->timed)
		return COMPARE_MS;
	if (c->heap == STREAM_EV_OTHER)
		return COMPARE_SAMPLES;
	return stream_ev_bytes(c->heap) ? COMPARE_BYTES : COMPARE_ALLOCS;
}

/*
 * The run's event: "" for folded stacks. Says the first run of another
 * event and returns 2; else 0.
 */
static int
same_event(struct compare *c, const char *name, const char *event, int timed,
    enum stream_ev heap)
{
	if (c->event == NULL) {
		c->event = xstrdup(event);
		c->event_run = c->runs[c->nruns - 1].name;
		c->timed = timed;
		c->heap = heap;
		c->unit = base_unit(c);
		return 0;
	}
	if (strcmp(c->event, event) == 0)
		return 0;
	warnx("'%s' %s%s%s, and '%s' %s%s%s: %s", name,
	    *event ? "records '" : "is folded stacks", event, *event ? "'" : "",
	    c->event_run, *c->event ? "records '" : "is folded stacks",
	    c->event, *c->event ? "'" : "", !*event || !*c->event ?
	    "compare streams with streams, folded stacks with folded stacks" :
	    strstr(event, " and ") != NULL || strstr(c->event, " and ") != NULL ?
	    "record both sides alike (fgrecord --wall for both, or for "
	    "neither), or compare one event of them (--event-filter=EVENT)" :
	    "compare runs of one event (choose it with --event-filter=EVENT)");
	return 2;
}

/*
 * The run's event, made: "" for folded stacks; for on- and off-CPU time
 * folded together (fgrecord --wall, unless --event-filter chose one),
 * both, the clock first ("cpu-clock and offcpu-time"), whichever a run's
 * first sample was, or when its header says both and only the clock's
 * samples came.
 */
static char *
run_event(const struct compare *c, const struct fold *f, int folded)
{
	int off;

	if (folded)
		return xstrdup("");
	if (f->event == NULL)
		return xstrdup("no event named");
	off = stream_event_is(f->event, strlen(f->event), STREAM_OFFCPU_EVENT);
	if (f->event2 != NULL)
		return xasprintf("%s and %s", off ? f->event2 : f->event,
		    off ? f->event : f->event2);
	if (c->opts.event == NULL && !off && f->hdr_offcpu && f->hdr_other)
		return xasprintf("%s and %s", f->event, STREAM_OFFCPU_EVENT);
	return xstrdup(f->event);
}

/*
 * fold's hook: each sample's period squared, summed per stack in
 * c->sqp (ns squared): the variance of a sum of weighted samples.
 */
static void
on_sample(void *arg, const struct fold_sample *fs)
{
	struct compare *c = arg;
	double p = (double)fs->period;

	if (fs->stack >= c->sqpcap) {
		size_t old = c->sqpcap;

		GROW(c->sqp, fs->stack + 1, c->sqpcap);
		memset(c->sqp + old, 0, (c->sqpcap - old) * sizeof(double));
	}
	c->sqp[fs->stack] += p * p;
	if (c->binning && fs->has_time)
		cmpbins_add(&c->bins, fs->stack, fs->time, p);
}

int
compare_read(struct compare *c, int side, int fd, const char *name)
{
	/* own crates: fold marks the inlined frames (OWN_INLINE_MARK) */
	struct fold_opts fo = { .no_comm = 1, .event = c->opts.event,
	    .own = (char **)c->opts.own, .nown = c->opts.nown,
	    .on_sample = on_sample, .on_sample_arg = c };
	struct compare_run *r;
	struct fold f;
	struct lineread lr;
	const char *p;
	char *ev;
	size_t n, i, named = 0;
	int folded, rv, timed;

	GROW(c->runs, c->nruns + 1, c->runcap);
	r = &c->runs[c->nruns++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->side = side;
	r->scale = 1;
	c->nside[side]++;
	/* time bins for a side's first run: it may be its only one */
	c->binning = c->nside[side] == 1;
	cmpbins_init(&c->bins);
	memset(c->wbin, 0, sizeof(c->wbin));

	/* A heap profile: the event chosen, and no "[EVENT]" leaf. */
	fo.alloc_objects = c->opts.alloc_objects;
	fo.alloc_inuse = c->opts.alloc_inuse;
	fo.no_leaf = 1;
	fold_init(&f, &fo);
	lineread_init(&lr, fd, name);
	n = lineread_peek(&lr, SNIFF_BLOCK, &p);
	folded = n > 0 && sniff(p, n, SNIFF_FOLDED, NULL) == SNIFF_TEXT;
	rv = folded ? fold_folded_lines(&f, &lr, 0) :
	    fold_lines(&f, &lr, "fgfold");
	lineread_release(&lr);
	if (rv != 0) {
		if (rv != SNIFF_REFUSED)
			warnx("'%s': a run with a bad line, or cut short, is no "
			    "run to compare: record it again, or leave it out",
			    name);
		fold_release(&f);
		return 2;
	}
	timed = !folded && (f.timed || (f.event != NULL &&
	    stream_event_is_clock(f.event, strlen(f.event))));
	for (i = 0; i < f.tab.n; i++) {
		const struct intern_entry *e = &f.tab.ents[i];
		double cnt = (double)e->u[0] + e->d[0];
		double w = timed ? (double)e->u[1] / 1e6 : cnt;
		double sq = timed && i < c->sqpcap ? c->sqp[i] / 1e12 : cnt;

		double sbv[CMPBINS_N], *sb = c->binning &&
		    cmpbins_stack(&c->bins, i, timed, sbv) == 0 ? sbv : NULL;

		r->samples += cnt;
		r->whole += w;
		r->sqwhole += sq;
		named += add_stack(c, r, i, e->key, e->len, w, cnt, sq, sb);
		bins_add(c, SIZE_MAX, 0, sb);
		if (c->opts.on_stack != NULL)
			c->opts.on_stack(c->opts.on_stack_arg, c->nruns - 1,
			    e->key, e->len, w);
	}
	run_settle(c, r);
	/* The stamps and squares are of this run's stacks only. */
	if (c->stampcap > 0)
		memset(c->stamp, 0, c->stampcap * sizeof(size_t));
	if (c->sqpcap > 0)
		memset(c->sqp, 0, c->sqpcap * sizeof(double));
	/* before its event: an empty run has none to tell */
	if (!(r->samples > 0) || !(r->whole > 0)) {
		warnx("'%s': no sample in this run: record it again, or leave "
		    "it out", name);
		fold_release(&f);
		return 2;
	}
	ev = run_event(c, &f, folded);
	r->start_ns = f.start_ns;
	r->has_start = f.has_start;
	rv = same_event(c, name, ev, timed, folded ? STREAM_EV_OTHER :
	    f.alloc);
	free(ev);
	fold_release(&f);
	if (rv != 0)
		return rv;
	if (named == 0)
		warnx("'%s': no frame has a name: symbolize it first (fgsym)",
		    name);
	return 0;
}

int
compare_read_runs(struct compare *c, char **runs[2])
{
	const char *name;
	char **p;
	int side, fd, r;

	for (side = 0; side < 2; side++)
		for (p = runs[side]; *p != NULL; p++) {
			if ((fd = cmdfile_open(*p, &name)) == -1)
				return 2;
			r = compare_read(c, side, fd, name);
			cmdfile_close(fd);
			if (r != 0)
				return 2;
		}
	return 0;
}

static double
run_value(const struct compare *c, const struct compare_run *r, size_t id)
{
	const struct compare_val *v;

	if (id == SIZE_MAX)
		return r->whole / r->scale;
	if ((v = run_val(r, id)) == NULL)
		return 0;
	return (c->opts.self ? v->self : v->incl) / r->scale;
}

/*
 * The median-of-ratios scales (as count-data methods size their
 * samples): each function with NORM_MIN samples of self time in every
 * run has a typical time, the geometric mean over the runs; a run's
 * scale is the median of its functions' ratios to theirs, most functions
 * having not changed. The before runs' scales are then made 1 on
 * (geometric) average. Returns how many functions told it, or 0 when
 * fewer than 3 could (the scales left 1).
 */
static size_t
median_scales(struct compare *c)
{
	size_t nf = c->funcs.n, f, j, nuse = 0;
	double *ratio = xcalloc(nf, sizeof(double)), *logg, gb = 0;
	char *use = xcalloc(nf, 1);

	logg = xcalloc(nf, sizeof(double));
	for (f = 0; f < nf; f++) {
		use[f] = 1;
		for (j = 0; j < c->nruns && use[f]; j++) {
			const struct compare_run *r = &c->runs[j];
			const struct compare_val *v = run_val(r, f);
			double per = r->whole / r->samples;

			if (v == NULL || v->self / per < NORM_MIN)
				use[f] = 0;
			else
				logg[f] += log(v->self) / c->nruns;
		}
		nuse += use[f];
	}
	if (nuse >= 3) {
		for (j = 0; j < c->nruns; j++) {
			struct compare_run *r = &c->runs[j];
			size_t k = 0;

			for (f = 0; f < nf; f++)
				if (use[f])
					ratio[k++] = run_val(r, f)->self /
					    exp(logg[f]);
			r->scale = stats_median(ratio, k);
			if (r->side == 0)
				gb += log(r->scale) / c->nside[0];
		}
		for (j = 0; j < c->nruns; j++)
			c->runs[j].scale /= exp(gb);
	} else
		nuse = 0;
	free(ratio);
	free(logg);
	free(use);
	return nuse;
}

/* The sum of run r's samples' weights squared in row id (SIZE_MAX: [all]). */
static double
run_sq(const struct compare *c, const struct compare_run *r, size_t id)
{
	const struct compare_val *v;

	if (id == SIZE_MAX)
		return r->sqwhole / (r->scale * r->scale);
	if ((v = run_val(r, id)) == NULL)
		return 0;
	return (c->opts.self ? fmax(v->sqself, v->wself) :
	    fmax(v->sqincl, v->wincl)) / (r->scale * r->scale);
}

/*
 * One side of a row, from v[j], the value of run j. With two runs or
 * more its variance is the runs' own: where the ticks fell is part of
 * what moves a run's value, and the runs hold it. It is not floored at a
 * binomial count's, c (1 - c/n): a sampler that ticks every period of
 * the event's time is far steadier than that (a function of a fixed 50
 * ms of CPU time gets 50 samples of cpu-clock at 1 kHz in every run, give
 * or take one, where a binomial count would move by 7), and that floor
 * hid a change of 20% in such a function (bench/compare.sh). The floor
 * is one sample a run: no count is known closer, and runs that agree to
 * the sample leave no spread to divide by. With one run, nothing tells
 * the noise between runs: the variance is the counting noise of its
 * weighted samples, the sum of their weights squared (sq[j]; NULL: v[j]
 * times the run's mean weight), plus the run-to-run noise measured here
 * (COMPARE_RUN_CV): the same work's time moves between runs by that
 * part of it, and one run cannot show it.
 */
void
compare_side(const struct compare *c, int side, const double *v,
    const double *sq, struct stats_side *s)
{
	double sum = 0, ss = 0, floor = 0, unit;
	size_t j;

	s->n = c->nside[side];
	for (j = 0; j < c->nruns; j++) {
		const struct compare_run *r = &c->runs[j];

		if (r->side != side)
			continue;
		sum += v[j];
		unit = r->whole / r->scale / r->samples;
		if (s->n >= 2)
			floor += unit * unit;
		else
			floor += (sq != NULL ? sq[j] : v[j] * unit) +
			    COMPARE_RUN_CV * COMPARE_RUN_CV * v[j] * v[j];
	}
	s->mean = sum / s->n;
	floor /= s->n;
	for (j = 0; j < c->nruns; j++)
		if (c->runs[j].side == side)
			ss += (v[j] - s->mean) * (v[j] - s->mean);
	if (s->n >= 2) {
		s->var = ss / (s->n - 1);
		s->df = s->n - 1;
	} else {
		s->var = 0;
		s->df = INFINITY;
	}
	if (s->var < floor)
		s->var = floor;
}

/* compare_side of the row of function id (SIZE_MAX: [all]). */
static void
side_stats(const struct compare *c, int side, size_t id, struct stats_side *s)
{
	double small[64] = { 0 }, *v = c->nruns <= 32 ? small :
	    xmalloc(2 * c->nruns * sizeof(double)), *sq = v + c->nruns;
	size_t j;

	for (j = 0; j < c->nruns; j++) {
		int mine = c->runs[j].side == side;

		v[j] = mine ? run_value(c, &c->runs[j], id) : 0;
		sq[j] = mine ? run_sq(c, &c->runs[j], id) : 0;
	}
	compare_side(c, side, v, sq, s);
	if (v != small)
		free(v);
}

/* Whether function id has every run's whole time (main, _start). */
static int
is_whole(const struct compare *c, size_t id)
{
	size_t j;

	for (j = 0; j < c->nruns; j++) {
		double w = run_value(c, &c->runs[j], SIZE_MAX);

		if (fabs(run_value(c, &c->runs[j], id) - w) > 1e-9 * w)
			return 0;
	}
	return 1;
}

/*
 * A row's sides, its change tested with Welch's interval (the runs'
 * pooled variance kept for a moderated test: rows_make). A row that
 * cannot change by min_abs (under it before and after; [all] sets
 * min_abs, and is made first) is same whatever its test: its interval
 * takes the fewest degrees of freedom Welch's can have, the smaller
 * side's runs less one, so that its t quantile is one of a few
 * remembered, not one a row (thousands of rows of small functions).
 */
static void
row_fill(const struct compare *c, size_t id, struct compare_row *row)
{
	struct stats_side b, a;
	struct stats_diff d;

	side_stats(c, 0, id, &b);
	side_stats(c, 1, id, &a);
	stats_welch_se(&b, &a, &d);
	if (id != SIZE_MAX && fmax(b.mean, a.mean) < c->min_abs)
		d.df = fmin(b.df, a.df);
	stats_interval(LEVEL, &d, (struct stats_tq *)&c->tq);
	row->before = b.mean;
	row->after = a.mean;
	row->change = d.diff;
	row->low = d.low;
	row->high = d.high;
	row->p = d.p;
	row->df = d.df;
	row->s2df = b.n >= 2 && a.n >= 2 ? b.n + a.n - 2 : 0;
	row->s2 = row->s2df > 0 ? ((b.n - 1) * b.var + (a.n - 1) * a.var) /
	    row->s2df : 0;
	row->hidden = id != SIZE_MAX && c->hidden != NULL && !c->opts.self ?
	    c->hidden[id] : 0;
	row->whole = id != SIZE_MAX && is_whole(c, id);
	if (id == SIZE_MAX) {
		row->name = ALL_NAME;
		row->len = sizeof(ALL_NAME) - 1;
	} else {
		row->name = c->funcs.ents[id].key;
		row->len = c->funcs.ents[id].len;
	}
}

/* Whether the row is called slower or faster. */
static int
called(const struct compare_row *r)
{
	return r->verdict == COMPARE_SLOWER || r->verdict == COMPARE_FASTER;
}

/* Whether the row's total may leave out cut stacks worth a change. */
static int
row_cut(const struct compare *c, const struct compare_row *r)
{
	return r->hidden > 0 && r->hidden >= c->opts.min_change;
}

/*
 * The order of the rows after [all]: the changes called first, the
 * biggest first; then the rest, the biggest time first; then by name.
 */
static int
row_order(const void *x, const void *y)
{
	const struct compare_row *a = x, *b = y;
	int ca = called(a), cb = called(b);
	double ka, kb;
	size_t n = a->len < b->len ? a->len : b->len;
	int r;

	if (ca != cb)
		return cb - ca;
	ka = ca ? fabs(a->change) : fmax(a->before, a->after);
	kb = cb ? fabs(b->change) : fmax(b->before, b->after);
	if (ka != kb)
		return ka < kb ? 1 : -1;
	if ((r = memcmp(a->name, b->name, n)) != 0)
		return r;
	return (a->len > b->len) - (a->len < b->len);
}

/* Whether row r can change by min_abs, and is measured: in the family. */
static int
in_family(const struct compare *c, const struct compare_row *r)
{
	return fmax(r->before, r->after) >= c->min_abs && !row_cut(c, r);
}

/* Whether row r may be a point of prior_fit: in the family, with spread. */
static int
prior_row(const struct compare *c, const struct compare_row *r)
{
	return in_family(c, r) && !r->whole && r->s2 > 0 &&
	    r->before + r->after > 0;
}

/* Rows by their values, so that rows of the same values are together. */
static int
by_values(const void *x, const void *y)
{
	const struct compare_row *a = *(const struct compare_row *const *)x;
	const struct compare_row *b = *(const struct compare_row *const *)y;

	if (a->before != b->before)
		return a->before < b->before ? -1 : 1;
	if (a->after != b->after)
		return a->after < b->after ? -1 : 1;
	if (a->s2 != b->s2)
		return a->s2 < b->s2 ? -1 : 1;
	return 0;
}

/*
 * The points of prior_fit into *pts (made; the caller frees it): the
 * function rows in the family, with spread, not [all]'s own values, and
 * one of each set of rows of the same values (a caller that holds all
 * its callee's time tells no more of the noise). Returns how many.
 */
static size_t
prior_points(const struct compare *c, const struct compare_row *rows,
    size_t nrows, const struct compare_row ***pts)
{
	const struct compare_row **p = xcalloc(nrows + 1, sizeof(*p));
	size_t i, n = 0, m = 0;

	for (i = 1; i < nrows; i++)
		if (prior_row(c, &rows[i]))
			p[n++] = &rows[i];
	qsort(p, n, sizeof(*p), by_values);
	for (i = 0; i < n; i++)
		if (m == 0 || by_values(&p[m - 1], &p[i]) != 0)
			p[m++] = p[i];
	*pts = p;
	return m;
}

/* The 3 by 3 determinant of the rows a, b, c. */
static double
det3(const double *a, const double *b, const double *c)
{
	return a[0] * (b[1] * c[2] - b[2] * c[1]) -
	    a[1] * (b[0] * c[2] - b[2] * c[0]) +
	    a[2] * (b[0] * c[1] - b[1] * c[0]);
}

/*
 * The least-squares curve z = k[0] + k[1] x + k[2] x^2 through the
 * points, from the sums s[p] of x^p (p 0 to 4) and t[p] of z x^p (0 to
 * 2): a line (k[2] 0) when fewer than COMPARE_PRIOR_CURVE points, or
 * when their x do not tell a curve.
 */
static void
curve_fit(const double *s, const double *t, double *k)
{
	double m0[3] = { s[0], s[1], s[2] }, m1[3] = { s[1], s[2], s[3] };
	double m2[3] = { s[2], s[3], s[4] }, d, v[3];
	int i;

	k[0] = k[1] = k[2] = 0;
	d = det3(m0, m1, m2);
	if (s[0] >= COMPARE_PRIOR_CURVE && fabs(d) > 1e-9 * s[0] * s[4] * s[4]) {
		for (i = 0; i < 3; i++) {
			double a0[3] = { s[0], s[1], s[2] };
			double a1[3] = { s[1], s[2], s[3] };
			double a2[3] = { s[2], s[3], s[4] };

			a0[i] = t[0];
			a1[i] = t[1];
			a2[i] = t[2];
			v[i] = det3(a0, a1, a2) / d;
		}
		memcpy(k, v, sizeof(v));
		return;
	}
	d = s[0] * s[2] - s[1] * s[1];
	k[1] = d > 0 ? (s[0] * t[1] - s[1] * t[0]) / d : 0;
	k[0] = (t[0] - k[1] * s[1]) / s[0];
}

/*
 * The prior of the function rows' variances, a moderated t's (Smyth's
 * empirical Bayes, as limma-trend has it): the log of each row's pooled
 * variance over the runs, its bias for d = n_b + n_a - 2 degrees of
 * freedom taken off (psi(d/2) - log(d/2)), is fitted by a curve over the
 * log of the row's mean (the variance of a function's time grows with
 * its size: as its count for the counting noise, as its square for a
 * machine's speed); the spread of the rows about that curve beyond what
 * d degrees of freedom give (psi'(d/2)) is the spread of the true
 * variances, which tells the prior's degrees of freedom d0 (psi'(d0/2)
 * is it; none: infinite), at most COMPARE_PRIOR_DF times d, so that a
 * function whose variance the curve misjudges keeps a part of its own.
 * Returns 0 when fewer than COMPARE_PRIOR_ROWS rows tell it (a side has
 * one run, or few functions): the rows keep Welch's test.
 */
static int
prior_fit(const struct compare *c, const struct compare_row *rows,
    size_t nrows, struct compare_prior *pr)
{
	double s[5] = { 0 }, t[3] = { 0 }, rss = 0, d, off, v, x, z;
	const struct compare_row **pts;
	size_t i, m;
	int p;

	memset(pr, 0, sizeof(*pr));
	d = nrows > 0 ? rows[0].s2df : 0;
	if (!(d > 0))
		return 0;
	off = stats_digamma(d / 2) - log(d / 2);
	m = prior_points(c, rows, nrows, &pts);
	for (i = 0; i < m; i++) {
		x = log((pts[i]->before + pts[i]->after) / 2);
		z = log(pts[i]->s2) - off;
		for (p = 0; p < 5; p++) {
			s[p] += pow(x, p);
			if (p < 3)
				t[p] += z * pow(x, p);
		}
	}
	if (m < COMPARE_PRIOR_ROWS) {
		free(pts);
		return 0;
	}
	curve_fit(s, t, pr->k);
	for (i = 0; i < m; i++) {
		x = log((pts[i]->before + pts[i]->after) / 2);
		z = log(pts[i]->s2) - off;
		v = z - pr->k[0] - pr->k[1] * x - pr->k[2] * x * x;
		rss += v * v;
	}
	free(pts);
	v = rss / (m - (pr->k[2] != 0 ? 3 : 2)) - stats_trigamma(d / 2);
	pr->d0 = COMPARE_PRIOR_DF * d;
	if (v > 0 && 2 * stats_trigamma_inv(v) < pr->d0)
		pr->d0 = 2 * stats_trigamma_inv(v);
	/* the curve is of E log s2; the prior's scale is of s2 */
	pr->k[0] += stats_digamma(pr->d0 / 2) - log(pr->d0 / 2);
	pr->d = d;
	pr->rows = m;
	return 1;
}

/* Row r tested again with its variance moderated by the prior. */
static void
row_moderate(const struct compare *c, const struct compare_prior *pr,
    struct compare_row *r)
{
	struct stats_side b = { .mean = r->before, .n = c->nside[0] };
	struct stats_side a = { .mean = r->after, .n = c->nside[1] };
	struct stats_diff d;
	double m = (r->before + r->after) / 2, s0;

	if (!(m > 0))
		return;
	s0 = exp(pr->k[0] + pr->k[1] * log(m) + pr->k[2] * log(m) * log(m));
	stats_pooled(&b, &a, (pr->d0 * s0 + pr->d * r->s2) / (pr->d0 + pr->d),
	    pr->d0 + pr->d, LEVEL, &d, (struct stats_tq *)&c->tq);
	r->low = d.low;
	r->high = d.high;
	r->p = d.p;
	r->df = d.df;
}

/*
 * The rows of c->opts.self's kind into *rowsp (made; the caller frees
 * it), [all] first, then the functions with time before or after, the
 * verdicts set and sorted; *tested gets the size of the family. Returns
 * how many rows. [all] is tested alone, at q, outside the family (the
 * functions' number does not move it); the functions' tests are
 * moderated (prior_fit, c->prior) when the runs tell a prior.
 */
static size_t
rows_make(struct compare *c, struct compare_row **rowsp, size_t *tested)
{
	size_t nf = c->funcs.n, id, i, n, nrows = 0;
	struct compare_row *rows = xcalloc(nf + 1, sizeof(*rows));
	double *p;

	row_fill(c, SIZE_MAX, &rows[nrows++]);
	c->whole_before = rows[0].before;
	c->min_abs = c->opts.min_change / 100 * c->whole_before;
	for (id = 0; id < nf; id++) {
		struct compare_row *row = &rows[nrows];

		row_fill(c, id, row);
		if (row->before > 0 || row->after > 0)
			nrows++;
	}
	if (prior_fit(c, rows, nrows, &c->prior))
		for (i = 1; i < nrows; i++)
			row_moderate(c, &c->prior, &rows[i]);
	/* a function on every sample is the whole run: [all]'s test */
	for (i = 1; i < nrows; i++)
		if (rows[i].whole) {
			rows[i].low = rows[0].low;
			rows[i].high = rows[0].high;
			rows[i].p = rows[0].p;
			rows[i].df = rows[0].df;
		}
	/*
	 * The family: the rows that could change by min_abs. A row under it
	 * before and after (never negative) cannot, and is same whatever
	 * its p-value: testing it would only make the others' bar higher.
	 */
	p = xcalloc(nrows, sizeof(double));
	for (i = 1, n = 0; i < nrows; i++)
		if (in_family(c, &rows[i]) && !rows[i].whole)
			p[n++] = rows[i].p;
	stats_bh(p, n, p);
	for (i = 0, n = 0; i < nrows; i++) {
		struct compare_row *row = &rows[i];

		row->q = 1;
		if (row_cut(c, row)) {
			row->verdict = COMPARE_UNMEASURED;
			continue;
		}
		if (fmax(row->before, row->after) < c->min_abs)
			continue;
		row->q = i == 0 || row->whole ? row->p : p[n++];
		if (row->q <= c->opts.q && fabs(row->change) >= c->min_abs &&
		    row->change != 0)
			row->verdict = row->change > 0 ? COMPARE_SLOWER :
			    COMPARE_FASTER;
	}
	*tested = n;
	free(p);
	qsort(rows + 1, nrows - 1, sizeof(*rows), row_order);
	*rowsp = rows;
	return nrows;
}

size_t
compare_rows(struct compare *c, int self, struct compare_row **rows)
{
	int keep = c->opts.self;
	size_t tested, n;

	c->opts.self = self;
	n = rows_make(c, rows, &tested);
	c->opts.self = keep;
	return n;
}

int
compare_per_unit(const struct compare *c)
{
	return c->opts.per > 0 || c->opts.npers > 0;
}

/* Run j's units of work: --per=FILE's count, or --per=N. */
static double
run_per(const struct compare *c, size_t j)
{
	return c->opts.npers > 0 ? c->opts.pers[j] : c->opts.per;
}

int
compare_per_read(int fd, const char *name, double **v, size_t *n)
{
	struct lineread lr;
	char *line, *s;
	ssize_t len;
	size_t cap = 0;
	double x;
	int rv = 0;

	*v = NULL;
	*n = 0;
	lineread_init(&lr, fd, name);
	while (rv == 0 && (len = lineread_next(&lr, &line)) >= 0) {
		s = xmemdup0(line, (size_t)len);
		if (num_real(s, 1e-9, 1e18, &x) != 0) {
			warnx("%s:%lu: '%s' is no count of work: give a "
			    "positive number a line, a run each, the runs "
			    "before then after, in the order given", name,
			    lr.lineno, s);
			rv = 2;
		} else {
			GROW(*v, *n + 1, cap);
			(*v)[(*n)++] = x;
		}
		free(s);
	}
	if (rv == 0 && lr.error) {
		cmdfile_read_failed(name, lr.error);
		rv = 2;
	} else if (rv == 0 && *n == 0) {
		warnx("%s:1: no count of work: give a positive number a line, "
		    "a run each, the runs before then after, in the order "
		    "given", name);
		rv = 2;
	}
	lineread_release(&lr);
	if (rv != 0) {
		free(*v);
		*v = NULL;
		*n = 0;
	}
	return rv;
}

int
compare_per_option(struct compare_opts *o, const char *arg, double **pers)
{
	int fd, rv;

	if (num_real(arg, 1e-9, 1e18, &o->per) == 0) {
		o->pers = NULL;	/* the last --per counts */
		o->npers = 0;
		return 0;
	}
	if ((fd = open(arg, O_RDONLY | O_CLOEXEC)) == -1) {
		warnx("--per: '%s' is neither a positive number nor a file of "
		    "counts of work, one a run (%s)", arg, strerror(errno));
		return 2;
	}
	free(*pers);
	rv = compare_per_read(fd, arg, pers, &o->npers);
	close(fd);
	o->pers = *pers;
	o->per_name = arg;
	o->per = 0;
	return rv;
}

/* Whether function id is in a run of each side. */
static int
in_both(const struct compare *c, size_t id)
{
	int seen[2] = { 0, 0 };
	size_t j;

	for (j = 0; j < c->nruns; j++) {
		const struct compare_val *v = run_val(&c->runs[j], id);

		if (v != NULL && v->incl > 0)
			seen[c->runs[j].side] = 1;
	}
	return seen[0] && seen[1];
}

/*
 * c->measured: the row of the whole run with each run's time as it was
 * measured, per unit of work with --per, before any --normalize; tested
 * alone, as the gate reads it: slower or faster when its p-value is at
 * most opts.q and its change at least opts.min_change percent of it.
 */
static void
measure_all(struct compare *c)
{
	struct compare_row *m = &c->measured;
	double *keep = xcalloc(c->nruns + 1, sizeof(double));
	size_t j;

	for (j = 0; j < c->nruns; j++) {
		keep[j] = c->runs[j].scale;
		c->runs[j].scale = compare_per_unit(c) ? run_per(c, j) : 1;
	}
	row_fill(c, SIZE_MAX, m);
	for (j = 0; j < c->nruns; j++)
		c->runs[j].scale = keep[j];
	free(keep);
	m->q = m->p;
	m->verdict = COMPARE_SAME;
	if (m->p <= c->opts.q && m->change != 0 &&
	    fabs(m->change) >= c->opts.min_change / 100 * m->before)
		m->verdict = m->change > 0 ? COMPARE_SLOWER : COMPARE_FASTER;
	c->measured_unit = base_unit(c);
}

/* Says the runs' names, the first two and how many more, into b. */
static void
side_names(const struct compare *c, int side, struct buf *b)
{
	size_t j, k = 0;

	for (j = 0; j < c->nruns; j++) {
		if (c->runs[j].side != side)
			continue;
		if (k < 2)
			buf_addf(b, "%s'%s'", k ? ", " : "", c->runs[j].name);
		k++;
	}
	if (k > 2)
		buf_addf(b, " and %zu more", k - 2);
}

static const char *const unit_name[] = {
	"ms", "samples", "%", "bytes", "allocations"
};

const char *
compare_verdict_name(enum compare_verdict v)
{
	static const char *const names[] = {
		"same", "slower", "faster", "unmeasured"
	};

	return names[v];
}

const char *
compare_verdict_word(const struct compare *c, enum compare_verdict v)
{
	if (c->heap == STREAM_EV_OTHER ||
	    (v != COMPARE_SLOWER && v != COMPARE_FASTER))
		return compare_verdict_name(v);
	if (v == COMPARE_SLOWER)
		return "more";
	return stream_ev_bytes(c->heap) ? "less" : "fewer";
}

const char *
compare_unit_name(enum compare_unit u)
{
	return unit_name[u];
}

/*
 * A drift within one side: its runs' whole time, in the order given,
 * trends (p under 0.01) by DRIFT_MIN times min_abs or more from the
 * first to the last. Said, and kept in c->drift[side]. A smaller trend
 * is common (the runs' start-up costs move with the machine's load: 2%
 * of 0.2 s runs of tests/record/weights.c, seen in one A/A split in
 * ten), and Welch's variance holds it already.
 */
static void
find_drift(struct compare *c, int side)
{
	double *y = xcalloc(c->nside[side], sizeof(double));
	const char *first = NULL, *last = NULL;
	struct stats_trend t;
	size_t j, n = 0;

	for (j = 0; j < c->nruns; j++) {
		const struct compare_run *r = &c->runs[j];

		if (r->side != side)
			continue;
		y[n++] = run_value(c, r, SIZE_MAX);
		if (first == NULL)
			first = r->name;
		last = r->name;
	}
	stats_trend(y, n, &t);
	free(y);
	if (t.p >= 0.01 || fabs(t.slope) * (n - 1) < DRIFT_MIN * c->min_abs)
		return;
	c->drift[side] = t.slope * (n - 1);
	warnx("the runs %s drift: their whole time moves by %+.3g %s from "
	    "the first ('%s') to the last ('%s'), more than their noise; "
	    "record before and after in turns, or try --normalize=median",
	    side ? "after" : "before", c->drift[side], unit_name[c->unit],
	    first, last);
}

void
compare_say_gap(struct buf *b, double s)
{
	if (s < 60)
		buf_addf(b, "%.3g s", s);
	else if (s < 3600)
		buf_addf(b, "%d min %d s", (int)(s / 60), (int)fmod(s, 60));
	else
		buf_addf(b, "%d h %d min", (int)(s / 3600),
		    (int)fmod(s / 60, 60));
}

/*
 * The sides recorded apart (compare.h, COMPARE_APART_ONE): said, and
 * kept in c->apart. Nothing when a run has no "# start".
 */
static void
find_apart(struct compare *c)
{
	const struct compare_run *first[2] = { NULL, NULL };
	const struct compare_run *last[2] = { NULL, NULL }, *e, *l;
	struct buf b = { 0 };
	size_t j;
	int k, s;

	for (j = 0; j < c->nruns; j++) {
		const struct compare_run *r = &c->runs[j];

		if (!r->has_start)
			return;
		s = r->side;
		if (first[s] == NULL || r->start_ns < first[s]->start_ns)
			first[s] = r;
		if (last[s] == NULL || r->start_ns > last[s]->start_ns)
			last[s] = r;
	}
	if (first[0] == NULL || first[1] == NULL)
		return;
	/* k: the side recorded first, all of it */
	if (last[0]->start_ns < first[1]->start_ns)
		k = 0;
	else if (last[1]->start_ns < first[0]->start_ns)
		k = 1;
	else
		return;
	e = last[k];
	l = first[!k];
	c->apart = (double)(l->start_ns - e->start_ns) / 1e9;
	if (c->nruns == 2 && c->apart < COMPARE_APART_ONE) {
		c->apart = 0;
		return;
	}
	compare_say_gap(&b, c->apart);
	warnx("the runs before and after were recorded apart, not in turns: "
	    "the first %s ('%s') started %.*s after the last %s ('%s'); a "
	    "machine that changed between them moves every row alike: "
	    "record them in turns", k ? "before" : "after", l->name,
	    (int)b.len, b.p, k ? "after" : "before", e->name);
	buf_release(&b);
}

/* c->method: what was compared and how, in one line. */
static void
say_method(struct compare *c, size_t nnorm)
{
	struct buf b = { 0 };

	buf_addf(&b, "%zu run%s before, %zu after", c->nside[0],
	    c->nside[0] == 1 ? "" : "s", c->nside[1]);
	if (*c->event)
		buf_addf(&b, " of %s", c->event);
	buf_addf(&b, ": %s %s", c->opts.self ? "self" : "total",
	    c->heap == STREAM_EV_OTHER ? "time" : unit_name[c->unit]);
	if (c->opts.norm == COMPARE_SHARE)
		buf_addf(&b, " as a share of the run's");
	else if (c->opts.npers > 0)
		buf_addf(&b, " per unit of work (each run's, from '%s')",
		    c->opts.per_name);
	else if (c->opts.per > 0)
		buf_addf(&b, " per unit of work (%g a run)", c->opts.per);
	else
		buf_addf(&b, " per run");
	buf_addf(&b, ", in %s", unit_name[c->unit]);
	if (c->opts.norm == COMPARE_MEDIAN && nnorm > 0)
		buf_addf(&b, ", each run scaled by the median of ratios of "
		    "%zu functions", nnorm);
	if (c->counting_only)
		buf_addf(&b, "; from one run %s: the intervals hold the samples' "
		    "noise and %g%% of a function's time for the noise between "
		    "runs, which one run cannot measure: record 5 runs a side",
		    c->nside[0] == 1 && c->nside[1] == 1 ? "a side" :
		    c->nside[0] == 1 ? "before" : "after", 100 * COMPARE_RUN_CV);
	else if (c->prior.rows > 0)
		buf_addf(&b, "; 95%% intervals of a moderated t over the runs "
		    "(each function's variance shrunk toward their trend over "
		    "the %zu functions' sizes, %.3g degrees of freedom added to "
		    "its %g)", c->prior.rows, c->prior.d0, c->prior.d);
	else
		buf_addf(&b, "; Welch 95%% intervals over the runs");
	buf_addf(&b, "; [all] tested alone; Benjamini-Hochberg at q %g over "
	    "the %zu function rows that could change by %.3g %s (%g%% of the "
	    "whole); a smaller change is same", c->opts.q, c->tested,
	    c->min_abs, unit_name[c->unit], c->opts.min_change);
	c->method = buf_detach(&b, NULL);
	buf_release(&b);
}

/*
 * The runs with COMPARE_CUT_SAY percent of their samples cut or more:
 * over[j] set for run j. Returns how many.
 */
static size_t
runs_cut(const struct compare *c, char *over)
{
	size_t j, n = 0;

	for (j = 0; j < c->nruns; j++) {
		const struct compare_run *r = &c->runs[j];

		over[j] = 100 * r->cut_samples >= COMPARE_CUT_SAY * r->samples;
		n += over[j];
	}
	return n;
}

/* The function id at place i of a kept stack's key (any alignment). */
static size_t
seq_at(const char *key, size_t i)
{
	uint32_t id;

	memcpy(&id, key + i * sizeof(id), sizeof(id));
	return id;
}

/*
 * Where each function is in the whole stacks: the pairs (stack, place)
 * of function f are occ[2 * start[f] .. 2 * start[f + 1]). Both are
 * made; the caller frees them.
 */
static void
places(const struct compare *c, size_t **startp, size_t **occp)
{
	size_t nf = c->funcs.n, i, k, f, n = 0;
	size_t *start = xcalloc(nf + 2, sizeof(size_t)), *occ;

	for (i = 0; i < c->wholes.n; i++)
		for (k = 0; k < c->wholes.ents[i].len / sizeof(uint32_t); k++) {
			start[seq_at(c->wholes.ents[i].key, k) + 2]++;
			n++;
		}
	for (f = 0; f < nf; f++)
		start[f + 2] += start[f + 1];
	occ = xcalloc(2 * n + 2, sizeof(size_t));
	/* start[f + 1] is where f's places go, then where they end */
	for (i = 0; i < c->wholes.n; i++)
		for (k = 0; k < c->wholes.ents[i].len / sizeof(uint32_t); k++) {
			f = seq_at(c->wholes.ents[i].key, k);
			occ[2 * start[f + 1]] = i;
			occ[2 * start[f + 1]++ + 1] = k;
		}
	*startp = start;
	*occp = occ;
}

/*
 * How many functions of the cut part t match the whole stack s from its
 * place at on.
 */
static size_t
match(const struct intern_entry *t, const struct intern_entry *s,
    size_t at)
{
	size_t nt = t->len / sizeof(uint32_t), ns = s->len / sizeof(uint32_t);
	size_t k;

	for (k = 0; k < nt && at + k < ns; k++)
		if (seq_at(t->key, k) != seq_at(s->key, at + k))
			break;
	return k;
}

/*
 * The callers of the cut part t, into anc (their number returned; stamp
 * marks them with mark): the functions above it in the whole stacks that
 * hold the longest beginning of it, or, when none holds its first, those
 * of root (the functions on COMPARE_CUT_ROOT percent of the whole
 * stacks' time, nroot of them).
 */
static size_t
callers(const struct compare *c, const struct intern_entry *t,
    const size_t *start, const size_t *occ, const size_t *root, size_t nroot,
    size_t *stamp, size_t mark, size_t *anc)
{
	size_t h = seq_at(t->key, 0), i, k, m, best = 0, n = 0;

	if (start[h] == start[h + 1]) {
		for (k = 0; k < nroot; k++)
			if (stamp[root[k]] != mark) {
				stamp[root[k]] = mark;
				anc[n++] = root[k];
			}
		return n;
	}
	for (i = start[h]; i < start[h + 1]; i++)
		if ((m = match(t, &c->wholes.ents[occ[2 * i]], occ[2 * i + 1])) > best)
			best = m;
	for (i = start[h]; i < start[h + 1]; i++) {
		const struct intern_entry *s = &c->wholes.ents[occ[2 * i]];

		if (match(t, s, occ[2 * i + 1]) != best)
			continue;
		for (k = 0; k < occ[2 * i + 1]; k++) {
			size_t f = seq_at(s->key, k);

			if (stamp[f] != mark) {
				stamp[f] = mark;
				anc[n++] = f;
			}
		}
	}
	return n;
}

/*
 * c->hidden and c->cut: for each function, the most of a run's whole
 * time, in percent, that cut stacks below it weigh, over the runs with
 * COMPARE_CUT_SAY percent of their samples cut or more in which no cut
 * stack holds it. A cut stack is below the functions above its part
 * below the cut in the whole stacks (of any run) that hold the longest
 * beginning of that part; when no whole stack holds its first function,
 * below the functions on COMPARE_CUT_ROOT percent of the whole stacks'
 * time or more. Nothing when no run is cut that much.
 */
static void
find_cut(struct compare *c)
{
	size_t nf = c->funcs.n, nc = c->cuts.n, i, j, k, n, f, nroot = 0;
	size_t *start, *occ, *stamp, *anc, *root;
	double *whole, wholeall = 0, *hid, *cw;
	char *over = xcalloc(c->nruns + 1, 1);

	for (j = 0; j < c->nruns; j++) {
		c->cut[c->runs[j].side] += c->runs[j].cut_samples;
		c->samples[c->runs[j].side] += c->runs[j].samples;
	}
	if (runs_cut(c, over) == 0) {
		free(over);
		return;
	}
	places(c, &start, &occ);
	/* each function's time on whole stacks, over all runs: the root */
	whole = xcalloc(nf, sizeof(double));
	for (j = 0; j < c->nruns; j++) {
		const struct compare_run *r = &c->runs[j];

		for (k = 0; k < r->nv; k++)
			whole[r->ids[k]] += r->vals[k].incl - r->vals[k].cutin;
		wholeall += r->whole - r->cut;
	}
	root = xcalloc(nf + 1, sizeof(size_t));
	for (f = 0; f < nf; f++)
		if (wholeall > 0 && whole[f] >= COMPARE_CUT_ROOT / 100 * wholeall)
			root[nroot++] = f;
	/* each cut part's weight in each run cut enough */
	cw = xcalloc(c->nruns * nc + 1, sizeof(double));
	for (j = 0; j < c->nruns; j++)
		for (k = 0; over[j] && k < c->runs[j].ncuts; k++)
			cw[j * nc + c->runs[j].cuts[k].cut] += c->runs[j].cuts[k].w;
	hid = xcalloc(c->nruns * nf + 1, sizeof(double));
	stamp = xcalloc(nf + 1, sizeof(size_t));
	anc = xcalloc(nf + 1, sizeof(size_t));
	for (i = 0; i < nc; i++) {
		for (j = 0; j < c->nruns && !(cw[j * nc + i] > 0); j++)
			;
		if (j == c->nruns)
			continue;
		n = callers(c, &c->cuts.ents[i], start, occ, root, nroot, stamp,
		    i + 1, anc);
		for (j = 0; j < c->nruns; j++)
			for (k = 0; cw[j * nc + i] > 0 && k < n; k++)
				hid[j * nf + anc[k]] += cw[j * nc + i];
	}
	c->hidden = xcalloc(nf + 1, sizeof(double));
	for (j = 0; j < c->nruns; j++) {
		const struct compare_run *r = &c->runs[j];

		for (f = 0; over[j] && f < nf; f++) {
			double pct = 100 * hid[j * nf + f] / r->whole;

			const struct compare_val *v = run_val(r, f);

			if (!(v != NULL && v->cutin > 0) && pct > c->hidden[f])
				c->hidden[f] = pct;
		}
	}
	free(whole);
	free(root);
	free(cw);
	free(hid);
	free(stamp);
	free(anc);
	free(start);
	free(occ);
	free(over);
}

/*
 * Names the n unmeasured rows into b: the three shortest names (main
 * before __libc_start_call_main), in the table's order, and how many
 * more.
 */
static void
say_shortest(const struct compare *c, struct buf *b, size_t n)
{
	char *pick = xcalloc(c->nrows + 1, 1);
	size_t i, k, best, at = 0;

	for (k = 0; k < 3 && k < n; k++) {
		for (i = 1, best = 0; i < c->nrows; i++)
			if (c->rows[i].verdict == COMPARE_UNMEASURED && !pick[i] &&
			    (best == 0 || c->rows[i].len < c->rows[best].len))
				best = i;
		pick[best] = 1;
	}
	for (i = 1; i < c->nrows; i++)
		if (pick[i])
			buf_addf(b, "%s%.*s", at++ ? ", " : "",
			    (int)c->rows[i].len, c->rows[i].name);
	if (n > 3)
		buf_addf(b, " and %zu more", n - 3);
	free(pick);
}

/*
 * Says the share of cut stacks of each side, when a run has
 * COMPARE_CUT_SAY percent of them or more, and the rows it leaves
 * unmeasured: the first three by name.
 */
static void
say_cut(const struct compare *c)
{
	struct buf b = { 0 };
	char pct[2][SHARE_SIZE];
	size_t i, n = 0;

	if (c->hidden == NULL)
		return;
	for (i = 1; i < c->nrows; i++)
		if (c->rows[i].verdict == COMPARE_UNMEASURED)
			n++;
	if (c->opts.self)
		BUF_ADDL(&b, "self time is the leaf's, below the cut, and is "
		    "measured");
	else if (n == 0)
		BUF_ADDL(&b, "no function's total is known to leave them out");
	else {
		buf_addf(&b, "the total%s of %zu function%s above the cut "
		    "leave%s them out, and %s called unmeasured: ",
		    n == 1 ? "" : "s", n, n == 1 ? "" : "s", n == 1 ? "s" : "",
		    n == 1 ? "is" : "are");
		say_shortest(c, &b, n);
	}
	for (i = 0; i < 2; i++)
		share(pct[i], (uint64_t)llround(c->cut[i]),
		    (uint64_t)llround(c->samples[i]));
	warnx("%s%% of the samples before and %s%% after end in %s (the "
	    "recorder could not unwind them to their first frame): %.*s; "
	    "fgrecord's summary (without -q) says why", pct[0], pct[1],
	    STREAM_TRUNCATED, (int)b.len, b.p);
	buf_release(&b);
}

int
compare_finish(struct compare *c)
{
	size_t nf = c->funcs.n, id, i, nnorm = 0;
	struct buf bb = { 0 }, ba = { 0 };

	for (id = 0; id < nf && !in_both(c, id); id++)
		;
	if (id == nf) {
		side_names(c, 0, &bb);
		side_names(c, 1, &ba);
		warnx("no function of the runs before (%.*s) is in the runs "
		    "after (%.*s): compare runs of one program", (int)bb.len,
		    bb.p, (int)ba.len, ba.p);
		buf_release(&bb);
		buf_release(&ba);
		return 2;
	}
	if (c->opts.npers > 0 && c->opts.npers != c->nruns) {
		warnx("--per: '%s' has %zu count%s of work, for %zu runs: "
		    "give one a line, a run each, the runs before then after, "
		    "in the order given", c->opts.per_name, c->opts.npers,
		    c->opts.npers == 1 ? "" : "s", c->nruns);
		return 2;
	}
	for (i = 0; i < c->nruns; i++) {
		struct compare_run *r = &c->runs[i];

		if (c->opts.norm == COMPARE_SHARE)
			r->scale = r->whole / 100;
		else if (c->opts.per > 0 || c->opts.npers > 0)
			r->scale = run_per(c, i);
	}
	if (c->opts.norm == COMPARE_SHARE)
		c->unit = COMPARE_PERCENT;
	if (c->opts.norm == COMPARE_MEDIAN) {
		nnorm = median_scales(c);
		if (nnorm == 0)
			warnx("fewer than 3 functions have %d samples in every "
			    "run: no median of ratios to scale the runs by; "
			    "compared the time as it is", NORM_MIN);
		else if (compare_per_unit(c))
			for (i = 0; i < c->nruns; i++)
				c->runs[i].scale *= run_per(c, i);
	}
	c->counting_only = c->nside[0] < 2 || c->nside[1] < 2;
	measure_all(c);
	find_cut(c);

	c->nrows = rows_make(c, &c->rows, &c->tested);
	say_method(c, nnorm);
	warnx("%s", c->method);
	say_cut(c);
	find_drift(c, 0);
	find_drift(c, 1);
	find_apart(c);
	return 0;
}

/* How a row over the bar ranks to be named: 2 own, 1 a function, 0 else. */
static int
rank(const struct compare *c, const struct compare_row *r)
{
	if (own_any(r->name, r->len, c->opts.own, c->opts.nown))
		return 2;
	/* [all], [truncated], [unknown]: no function */
	return r->len > 0 && r->name[0] != '[';
}

/*
 * Whether row r, over the bar, is named before w: the own crates' first,
 * then functions, then the one whose change is the larger and the larger
 * part of its time: the change times its share of the function's time
 * (main's change is every function's, a small part of its time, so the
 * function below it that changed as much comes first; a small helper
 * that doubled, by noise or for real, changed too little to come before
 * the function that did the work), then the larger change.
 */
static int
better(const struct compare *c, const struct compare_row *r,
    const struct compare_row *w)
{
	int or = rank(c, r), ow = rank(c, w);
	double fr = r->change * (r->change / fmax(r->before, r->after));
	double fw = w->change * (w->change / fmax(w->before, w->after));

	if (or != ow)
		return or > ow;
	if (fr != fw)
		return fr > fw;
	return r->change > w->change;
}

/*
 * The function rows slower by more than bar (in the table's unit): how
 * many, *wp the one to name (NULL: none).
 */
static size_t
slower_functions(const struct compare *c, double bar,
    const struct compare_row **wp)
{
	const struct compare_row *w = NULL;
	size_t i, n = 0;

	for (i = 1; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];

		if (r->verdict != COMPARE_SLOWER || !(r->change > bar))
			continue;
		n++;
		if (w == NULL || better(c, r, w))
			w = r;
	}
	*wp = w;
	return n;
}

size_t
compare_fails(const struct compare *c, double pct, enum compare_gate gate,
    const struct compare_row **worst)
{
	const struct compare_row *m = &c->measured, *w = NULL;
	size_t n = 0;
	int whole;

	whole = m->verdict == COMPARE_SLOWER &&
	    m->change > pct / 100 * m->before;
	if (gate == COMPARE_GATE_FUNCTIONS && m->verdict == COMPARE_SLOWER)
		n = slower_functions(c, pct / 100 * c->whole_before, &w);
	if (whole) {
		n++;
		if (w == NULL)
			w = m;
	}
	if (worst != NULL)
		*worst = w;
	return n;
}

const struct compare_row *
compare_culprit(const struct compare *c)
{
	const struct compare_row *w;

	slower_functions(c, 0, &w);
	return w;
}
