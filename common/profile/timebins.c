#include <stdlib.h>
#include <string.h>

#include "base/hashtab.h"
#include "base/xalloc.h"
#include "profile/timebins.h"

void
timebins_init(struct timebins *tb)
{
	memset(tb, 0, sizeof(*tb));
	hashtab_init(&tb->tindex, 64);
	hashtab_init(&tb->cindex, TIMEBINS_CELLS);
	memset(tb->last, 0xff, sizeof(tb->last));
	tb->cap = TIMEBINS_CELLS;
	tb->tmin = UINT64_MAX;
}

void
timebins_release(struct timebins *tb)
{
	size_t i;

	for (i = 0; i < tb->nthreads; i++)
		free(tb->threads[i].comm);
	free(tb->threads);
	free(tb->clamped.name);
	free(tb->overlap.name);
	free(tb->cells);
	free(tb->waits);
	hashtab_release(&tb->tindex);
	hashtab_release(&tb->cindex);
	memset(tb, 0, sizeof(*tb));
}

/* The thread of pid and tid, added when new; its COMM is the last seen. */
static uint32_t
thread_of(struct timebins *tb, const struct fold_sample *s)
{
	struct hashtab_probe p;
	struct timebins_thread *t;
	uint32_t i;

	hashtab_probe(&tb->tindex, hashtab_int(s->pid * 0x9e3779b97f4a7c15ULL ^
	    s->tid), &p);
	while ((i = hashtab_next(&tb->tindex, &p)) != HASHTAB_NONE)
		if (tb->threads[i].pid == s->pid && tb->threads[i].tid == s->tid)
			break;
	if (i == HASHTAB_NONE) {
		i = (uint32_t)tb->nthreads;
		GROW(tb->threads, tb->nthreads + 1, tb->threadcap);
		t = &tb->threads[tb->nthreads++];
		memset(t, 0, sizeof(*t));
		t->pid = s->pid;
		t->tid = s->tid;
		hashtab_add(&tb->tindex, &p, i);
	}
	t = &tb->threads[i];
	if (t->comm == NULL || strlen(t->comm) != s->commlen ||
	    memcmp(t->comm, s->comm, s->commlen) != 0) {
		free(t->comm);
		t->comm = xmemdup0(s->comm, s->commlen);
	}
	return i;
}

static uint64_t
cell_hash(uint64_t fbin, size_t stack, uint32_t thread, int off)
{
	return hashtab_int(fbin * 0x9e3779b97f4a7c15ULL ^
	    (uint64_t)stack * 0xc2b2ae3d27d4eb4fULL ^
	    ((uint64_t)thread << 1 | (uint64_t)off));
}

/* Adds w to the cell of fbin, stack, thread and side, made when new. */
static void
cell_add(struct timebins *tb, uint64_t fbin, size_t stack, uint32_t thread,
    int off, uint64_t w0, uint64_t w1)
{
	struct hashtab_probe p;
	struct timebins_cell *c;
	uint32_t i;

	/* samples come in time order: most go to their stack's last cell */
	uint32_t *last = &tb->last[(stack * 31 + thread * 2 + (size_t)off) &
	    (TIMEBINS_LAST - 1)];

	if (*last < tb->ncells) {
		c = &tb->cells[*last];
		if (c->fbin == fbin && c->stack == stack &&
		    c->thread == thread && c->off == (uint32_t)off) {
			c->w[0] += w0;
			c->w[1] += w1;
			return;
		}
	}
	hashtab_probe(&tb->cindex, cell_hash(fbin, stack, thread, off), &p);
	while ((i = hashtab_next(&tb->cindex, &p)) != HASHTAB_NONE) {
		c = &tb->cells[i];
		if (c->fbin == fbin && c->stack == stack &&
		    c->thread == thread && c->off == (uint32_t)off)
			break;
	}
	if (i == HASHTAB_NONE) {
		i = (uint32_t)tb->ncells;
		GROW(tb->cells, tb->ncells + 1, tb->cellcap);
		c = &tb->cells[tb->ncells++];
		c->fbin = fbin;
		c->stack = stack;
		c->thread = thread;
		c->off = (uint32_t)off;
		c->w[0] = c->w[1] = 0;
		hashtab_add(&tb->cindex, &p, i);
	}
	c = &tb->cells[i];
	c->w[0] += w0;
	c->w[1] += w1;
	*last = i;
}

/*
 * Fine bins 2^k times as wide: the cells of each group merged into one, in
 * place (the cells kept move down over those merged), the index made
 * again.
 */
static void
coarsen(struct timebins *tb, int k)
{
	size_t i, n = tb->ncells;

	tb->shift += k;
	tb->ncells = 0;
	memset(tb->last, 0xff, sizeof(tb->last));
	hashtab_release(&tb->cindex);
	hashtab_init(&tb->cindex, n);
	for (i = 0; i < n; i++) {
		struct timebins_cell c = tb->cells[i];

		cell_add(tb, c.fbin >> k, c.stack, c.thread, (int)c.off,
		    c.w[0], c.w[1]);
	}
}

/*
 * Past the cap, the fine bins are made wider, at once, as wide as they
 * can be while the run so far spans at least 2 * TIMEBINS_FINE_MIN of
 * them; when that cannot bring the cells under the cap (many stacks in
 * each bin), the cap doubles.
 */
static void
bound(struct timebins *tb)
{
	uint64_t span = tb->tmax - tb->tmin;
	int k = 0;

	if (tb->ncells <= tb->cap)
		return;
	while ((span >> (tb->shift + k + 1)) >= 2 * TIMEBINS_FINE_MIN)
		k++;
	if (k > 0)
		coarsen(tb, k);
	if (tb->ncells > tb->cap)
		tb->cap = tb->ncells * 2;
}

/*
 * A wait over the fine bins it spans, each bin its share of the time.
 * The fine bins are first made wide enough that the run so far spans at
 * most TIMEBINS_SPREAD of them: a thread's waits, which do not overlap,
 * then make about that many cells at most, however long each is. A wait
 * over more than TIMEBINS_LONG of them is kept exact instead (its 40
 * bytes, not a cell per bin: many threads each waiting long make no
 * more cells than waits); a thread has at most TIMEBINS_SPREAD /
 * TIMEBINS_LONG such waits.
 */
static void
spread_fine(struct timebins *tb, const struct timebins_wait *w)
{
	uint64_t end = w->time + w->period, b, from, to;

	while (((tb->tmax - tb->tmin) >> tb->shift) >= TIMEBINS_SPREAD)
		coarsen(tb, 1);
	if (((end - 1) >> tb->shift) - (w->time >> tb->shift) >= TIMEBINS_LONG) {
		GROW(tb->waits, tb->nwaits + 1, tb->waitcap);
		tb->waits[tb->nwaits++] = *w;
		return;
	}
	for (b = w->time >> tb->shift; b <= (end - 1) >> tb->shift; b++) {
		from = b << tb->shift;
		if (from < w->time)
			from = w->time;
		to = (b + 1) << tb->shift;
		if (to > end || to == 0)
			to = end;
		cell_add(tb, b, w->stack, w->thread, 1,
		    from == w->time ? w->count : 0, to - from);
	}
}

/*
 * Too many waits kept exact: from now on they go to the fine bins, but
 * for the long ones.
 */
static void
spread_all(struct timebins *tb)
{
	struct timebins_wait *v = tb->waits;
	size_t i, n = tb->nwaits;

	tb->spread = 1;
	tb->waits = NULL;
	tb->nwaits = tb->waitcap = 0;
	for (i = 0; i < n; i++)
		spread_fine(tb, &v[i]);
	free(v);
}

/* Counts one bad sample of a kind, keeping the first's place. */
static void
bad_add(struct timebins_bad *b, const struct fold_sample *s)
{
	if (b->n++ == 0) {
		b->name = xstrdup(s->name != NULL ? s->name : "<stdin>");
		b->line = s->line;
	}
}

void
timebins_add(struct timebins *tb, const struct fold_sample *s)
{
	struct timebins_thread *t;
	uint32_t th;
	uint64_t end, period = s->period;
	int spread;

	if (tb->finished)
		abort();	/* a caller's mistake: the index is gone */
	if (!s->has_time) {
		tb->untimed++;
		return;
	}
	th = thread_of(tb, s);
	t = &tb->threads[th];
	t->n++;
	if (s->offcpu) {
		t->off[0] += s->count;
		t->off[1] += s->period;
	} else {
		t->on[0] += s->count;
		t->on[1] += s->period;
	}
	/* an off-CPU sample's time is when the wait began; it ends by
	   2^64-1 ns, whatever its period says */
	if (s->offcpu && period > UINT64_MAX - s->time) {
		period = UINT64_MAX - s->time;
		bad_add(&tb->clamped, s);
	}
	end = s->time + (s->offcpu && period > 0 ? period - 1 : 0);
	/* a thread's waits span the run once: one that began before an
	   earlier one ended is weighed where it began (times are written
	   in microseconds: a microsecond's overlap is none) */
	spread = s->offcpu && period > 1;
	if (spread && t->wait_end > 1000 && s->time < t->wait_end - 1000) {
		spread = 0;
		end = s->time;
		bad_add(&tb->overlap, s);
	} else if (spread)
		t->wait_end = end;
	if (s->time < tb->tmin)
		tb->tmin = s->time;
	if (end > tb->tmax)
		tb->tmax = end;
	tb->samples++;
	if (spread) {
		struct timebins_wait w = { .time = s->time, .period = period,
		    .stack = s->stack, .thread = th, .count = s->count };

		if (tb->spread)
			spread_fine(tb, &w);
		else {
			GROW(tb->waits, tb->nwaits + 1, tb->waitcap);
			tb->waits[tb->nwaits++] = w;
			if (tb->nwaits >= TIMEBINS_WAITS)
				spread_all(tb);
		}
	} else
		cell_add(tb, s->time >> tb->shift, s->stack, th, s->offcpu != 0,
		    s->count, period);
	bound(tb);
}

void
timebins_finish(struct timebins *tb)
{
	hashtab_release(&tb->cindex);
	hashtab_init(&tb->cindex, 1);
	tb->finished = 1;
}

void
timebins_on_sample(void *arg, const struct fold_sample *s)
{
	timebins_add(arg, s);
}

/* The drawn bins of r for at most nb bins over the run. */
static void
range_of(const struct timebins *tb, int nb, struct timebins_range *r)
{
	uint64_t fw = (uint64_t)1 << tb->shift, bw;
	size_t i;

	bw = (tb->tmax - tb->tmin) / (uint64_t)nb + 1;
	/* whole fine bins, from the first sample's */
	r->bw = (bw + fw - 1) / fw * fw;
	r->t0 = tb->tmin / fw * fw;
	r->nb = (int)((tb->tmax - r->t0) / r->bw) + 1;
	r->pieces = tb->samples;
	for (i = 0; i < tb->nwaits; i++) {
		const struct timebins_wait *w = &tb->waits[i];

		r->pieces += (w->time + w->period - 1 - r->t0) / r->bw -
		    (w->time - r->t0) / r->bw;
	}
}

int
timebins_range(const struct timebins *tb, int bins, int minbins,
    struct timebins_range *r)
{
	uint64_t busiest = 0;
	size_t i;
	int nb = bins;

	if (tb->samples == 0)
		return -1;
	for (i = 0; i < tb->nthreads; i++)
		if (tb->threads[i].n > busiest)
			busiest = tb->threads[i].n;
	/* bins of 8 samples or more of the busiest thread: a bar is no noise */
	if (busiest / 8 < (uint64_t)nb)
		nb = busiest / 8 < (uint64_t)minbins ? minbins : (int)(busiest / 8);
	range_of(tb, nb, r);
	r->fewer = 0;
	/* the waits' pieces within bounds: fewer, wider bins */
	while (r->pieces - tb->samples + tb->nwaits > TIMEBINS_PIECES &&
	    nb > minbins) {
		nb = nb / 2 > minbins ? nb / 2 : minbins;
		range_of(tb, nb, r);
		r->fewer = 1;
	}
	return 0;
}

/* A wait kept exact, over the drawn bins it spans. */
static void
spread_drawn(const struct timebins_wait *w, const struct timebins_range *r,
    void (*fn)(void *, uint32_t, size_t, uint32_t, int, const uint64_t *),
    void *arg)
{
	uint64_t b = (w->time - r->t0) / r->bw;
	uint64_t last = (w->time + w->period - 1 - r->t0) / r->bw;
	uint64_t v[2] = { w->count, 0 }, from;

	v[1] = last > b ? r->t0 + (b + 1) * r->bw - w->time : w->period;
	fn(arg, w->thread, w->stack, (uint32_t)b, 1, v);
	for (b++; b <= last; b++) {
		from = r->t0 + b * r->bw;
		v[1] = b == last ? w->time + w->period - from : r->bw;
		fn(arg, w->thread, w->stack, (uint32_t)b, 1, v);
	}
}

void
timebins_each(const struct timebins *tb, const struct timebins_range *r,
    void (*fn)(void *arg, uint32_t thread, size_t stack, uint32_t bin,
    int off, const uint64_t w[2]), void *arg)
{
	size_t i;

	for (i = 0; i < tb->ncells; i++) {
		const struct timebins_cell *c = &tb->cells[i];

		fn(arg, c->thread, c->stack, (uint32_t)(((c->fbin << tb->shift) -
		    r->t0) / r->bw), (int)c->off, c->w);
	}
	for (i = 0; i < tb->nwaits; i++)
		spread_drawn(&tb->waits[i], r, fn, arg);
}
