/* perfqueue: perf records held and handed back in time order (perfqueue.h). */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "perf/perfqueue.h"

/*
 * The entries q[0..n) are always in the order they were added (their
 * seq's, their bytes' in the arena): a flush takes out what it hands
 * back and keeps the rest in that order.
 */

void
perfqueue_init(struct perfqueue *pq, size_t max)
{
	memset(pq, 0, sizeof(*pq));
	pq->max = max;
}

void
perfqueue_release(struct perfqueue *pq)
{
	free(pq->q);
	free(pq->arena);
	free(pq->s);
	free(pq->t);
	memset(pq, 0, sizeof(*pq));
}

int
perfqueue_full(const struct perfqueue *pq, uint32_t len)
{
	return pq->max && pq->n > 0 &&
	    pq->alen + len + (pq->n + 1) * sizeof(*pq->q) > pq->max;
}

/* Moves the records held to the front of the arena, in their order. */
static void
compact(struct perfqueue *pq)
{
	size_t i, at = 0;

	for (i = 0; i < pq->n; i++) {
		if (pq->q[i].at != at)
			memmove(pq->arena + at, pq->arena + pq->q[i].at,
			    pq->q[i].len);
		pq->q[i].at = at;
		at += pq->q[i].len;
	}
	pq->aend = at;
}

void
perfqueue_add(struct perfqueue *pq, const void *rec, uint32_t len,
    uint64_t time, uint64_t off, int32_t tag)
{
	struct perfqueue_rec *r;

	if (pq->aend + len > pq->acap) {
		if (pq->aend > pq->alen)
			compact(pq);
		GROW(pq->arena, pq->aend + len, pq->acap);
	}
	if (pq->n + 1 > pq->cap)
		GROW(pq->q, pq->n + 1, pq->cap);
	r = &pq->q[pq->n++];
	r->time = time;
	r->seq = pq->seq++;
	r->off = off;
	r->at = pq->aend;
	r->len = len;
	r->tag = tag;
	memcpy(pq->arena + pq->aend, rec, len);
	pq->aend += len;
	pq->alen += len;
}

/* The end of the run of a[i..n) in time order. */
static size_t
run_end(const struct perfqueue_rec *a, size_t i, size_t n)
{
	for (i++; i < n && a[i - 1].time <= a[i].time; i++)
		;
	return i;
}

/* Merges the runs x[0..nx) and y[0..ny) into d, x's first on ties. */
static void
merge(const struct perfqueue_rec *x, size_t nx, const struct perfqueue_rec *y,
    size_t ny, struct perfqueue_rec *d)
{
	size_t i = 0, j = 0;

	while (i < nx && j < ny)
		*d++ = y[j].time < x[i].time ? y[j++] : x[i++];
	memcpy(d, x + i, (nx - i) * sizeof(*d));
	memcpy(d + (nx - i), y + j, (ny - j) * sizeof(*d));
}

/*
 * Sorts a[0..n), in the order they were added, by time, stably (so by
 * time and seq): runs are merged in pairs until one is left, a few
 * passes for records that come as one run per CPU. Returns a or t,
 * whichever holds the result.
 */
static struct perfqueue_rec *
sort_runs(struct perfqueue_rec *a, struct perfqueue_rec *t, size_t n)
{
	struct perfqueue_rec *x;
	size_t i, j, k;

	if (n < 2)
		return a;
	for (;;) {
		for (i = 0; i < n; i = k) {
			if ((j = run_end(a, i, n)) == n) {
				if (i == 0)
					return a;
				memcpy(t + i, a + i, (n - i) * sizeof(*t));
				break;
			}
			k = run_end(a, j, n);
			merge(a + i, j - i, a + j, k - j, t + i);
		}
		x = a;
		a = t;
		t = x;
	}
}

void
perfqueue_flush(struct perfqueue *pq, uint64_t limit, int half,
    perfqueue_fn *fn, void *arg)
{
	struct perfqueue_rec *s, cut = { 0 };
	size_t i, m = 0, k = 0;

	if (pq->n == 0)
		return;
	GROW(pq->s, pq->n, pq->scap);
	GROW(pq->t, pq->n, pq->tcap);
	if (half) {
		memcpy(pq->s, pq->q, pq->n * sizeof(*pq->s));
		s = sort_runs(pq->s, pq->t, pq->n);
		m = (pq->n + 1) / 2;
		if (m < pq->n)
			cut = s[m];
	} else {
		for (i = 0; i < pq->n; i++)
			if (pq->q[i].time <= limit)
				pq->s[m++] = pq->q[i];
		s = sort_runs(pq->s, pq->t, m);
	}
	for (i = 0; i < m; i++)
		if (fn)
			fn(arg, pq->arena + s[i].at, &s[i]);
	if (m == pq->n) {
		pq->n = 0;
		pq->alen = 0;
		pq->aend = 0;
		return;
	}
	/* what is kept stays in the order it came; its bytes, in place */
	pq->alen = 0;
	for (i = 0; i < pq->n; i++) {
		if (half ? pq->q[i].time < cut.time || (pq->q[i].time ==
		    cut.time && pq->q[i].seq < cut.seq) :
		    pq->q[i].time <= limit)
			continue;
		pq->alen += pq->q[i].len;
		pq->q[k++] = pq->q[i];
	}
	pq->n = k;
}
