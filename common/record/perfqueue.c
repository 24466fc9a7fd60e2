/* perfqueue: perf records held and handed back in time order (perfqueue.h). */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "record/perfqueue.h"

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
	memset(pq, 0, sizeof(*pq));
}

int
perfqueue_full(const struct perfqueue *pq, uint32_t len)
{
	return pq->max && pq->n > 0 &&
	    pq->alen + len + (pq->n + 1) * sizeof(*pq->q) > pq->max;
}

void
perfqueue_add(struct perfqueue *pq, const void *rec, uint32_t len,
    uint64_t time, uint64_t off, int32_t tag)
{
	struct perfqueue_rec *r;

	if (pq->alen + len > pq->acap)
		GROW(pq->arena, pq->alen + len, pq->acap);
	if (pq->n + 1 > pq->cap)
		GROW(pq->q, pq->n + 1, pq->cap);
	r = &pq->q[pq->n++];
	r->time = time;
	r->seq = pq->seq++;
	r->off = off;
	r->at = pq->alen;
	r->len = len;
	r->tag = tag;
	memcpy(pq->arena + pq->alen, rec, len);
	pq->alen += len;
}

static int
rec_cmp(const void *a, const void *b)
{
	const struct perfqueue_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
rec_at_cmp(const void *a, const void *b)
{
	const struct perfqueue_rec *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* Whether q[0..n) is in time order already (one CPU, or few records). */
static int
sorted(const struct perfqueue_rec *q, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (rec_cmp(&q[i - 1], &q[i]) > 0)
			return 0;
	return 1;
}

/*
 * What is kept moves to the front of the arena in place (no second
 * arena: the bound is the memory's).
 */
void
perfqueue_flush(struct perfqueue *pq, uint64_t limit, int half,
    perfqueue_fn *fn, void *arg)
{
	size_t i, n, alen = 0;

	if (pq->n == 0)
		return;
	if (!sorted(pq->q, pq->n))
		qsort(pq->q, pq->n, sizeof(*pq->q), rec_cmp);
	for (n = 0; n < pq->n && (half ? n < (pq->n + 1) / 2 :
	    pq->q[n].time <= limit); n++)
		if (fn)
			fn(arg, pq->arena + pq->q[n].at, &pq->q[n]);
	if (n == pq->n) {
		pq->n = 0;
		pq->alen = 0;
		return;
	}
	memmove(pq->q, pq->q + n, (pq->n - n) * sizeof(*pq->q));
	pq->n -= n;
	/* in the arena's order, each record moves down, never over another */
	qsort(pq->q, pq->n, sizeof(*pq->q), rec_at_cmp);
	for (i = 0; i < pq->n; i++) {
		if (pq->q[i].at != alen)
			memmove(pq->arena + alen, pq->arena + pq->q[i].at,
			    pq->q[i].len);
		pq->q[i].at = alen;
		alen += pq->q[i].len;
	}
	pq->alen = alen;
}
