#include <stdlib.h>
#include <string.h>

#include "offcpu.h"
#include "xalloc.h"

struct offcpu_wait {
	pid_t		 tid;		/* 0: empty slot */
	int		 held;		/* a sample waits for its switch in */
	int		 preempt;
	uint64_t	 time;		/* when it left the CPU */
	unsigned char	*rec;		/* owned: the sample, while held */
	size_t		 cap;		/* rec's size: kept for the next one */
};

void
offcpu_init(struct offcpu *oc, int count_preempted)
{
	memset(oc, 0, sizeof(*oc));
	oc->cap = 64;
	oc->tab = xcalloc(oc->cap, sizeof(*oc->tab));
	oc->count_preempted = count_preempted;
}

void
offcpu_release(struct offcpu *oc)
{
	size_t i;

	for (i = 0; i < oc->cap; i++)
		free(oc->tab[i].rec);
	free(oc->tab);
	memset(oc, 0, sizeof(*oc));
}

static struct offcpu_wait *
slot(struct offcpu_wait *tab, size_t cap, pid_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (cap - 1);

	while (tab[i].tid != 0 && tab[i].tid != tid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Returns tid's slot, adding it (and growing the table) when it is new. */
static struct offcpu_wait *
slot_add(struct offcpu *oc, pid_t tid)
{
	struct offcpu_wait *w;

	if ((oc->n + 1) * 2 > oc->cap) {
		struct offcpu_wait *old = oc->tab;
		size_t i, oldcap = oc->cap;

		oc->cap *= 2;
		oc->tab = xcalloc(oc->cap, sizeof(*oc->tab));
		for (i = 0; i < oldcap; i++)
			if (old[i].tid)
				*slot(oc->tab, oc->cap, old[i].tid) = old[i];
		free(old);
	}
	w = slot(oc->tab, oc->cap, tid);
	if (w->tid == 0) {
		w->tid = tid;
		oc->n++;
	}
	return w;
}

void
offcpu_block(struct offcpu *oc, pid_t tid, uint64_t time,
    const struct perf_event_header *sample)
{
	struct offcpu_wait *w;

	if (tid <= 0)
		return;
	w = slot_add(oc, tid);
	if (w->cap < sample->size) {
		free(w->rec);
		w->rec = xmalloc(sample->size);
		w->cap = sample->size;
	}
	memcpy(w->rec, sample, sample->size);
	w->held = 1;
	w->preempt = 0;
	w->time = time;
}

void
offcpu_preempted(struct offcpu *oc, pid_t tid)
{
	struct offcpu_wait *w;

	if (tid <= 0)
		return;
	w = slot(oc->tab, oc->cap, tid);
	if (w->tid == tid && w->held)
		w->preempt = 1;
}

/*
 * Lets go of w's sample; returns it when it counts. It stays in w's
 * buffer, borrowed until the thread's next switch out.
 */
static const struct perf_event_header *
take(struct offcpu *oc, struct offcpu_wait *w, uint64_t time, uint64_t *ns)
{
	w->held = 0;
	if (w->preempt)
		oc->preempted++;
	if (w->preempt && !oc->count_preempted)
		return NULL;
	*ns = time > w->time ? time - w->time : 0;
	return (const void *)w->rec;
}

const struct perf_event_header *
offcpu_wake(struct offcpu *oc, pid_t tid, uint64_t time, uint64_t *ns)
{
	struct offcpu_wait *w;

	if (tid <= 0)
		return NULL;
	w = slot(oc->tab, oc->cap, tid);
	if (w->tid != tid || !w->held) {
		oc->unmatched++;
		return NULL;
	}
	return take(oc, w, time, ns);
}

void
offcpu_forget(struct offcpu *oc, pid_t tid)
{
	struct offcpu_wait *w;

	if (tid <= 0)
		return;
	w = slot(oc->tab, oc->cap, tid);
	if (w->tid != tid)
		return;
	free(w->rec);
	w->rec = NULL;
	w->cap = 0;
	w->held = 0;
}

void
offcpu_drop(struct offcpu *oc)
{
	size_t i;

	for (i = 0; i < oc->cap; i++)
		if (oc->tab[i].tid && oc->tab[i].held) {
			oc->tab[i].held = 0;
			oc->dropped++;
		}
}

static int
wait_cmp(const void *a, const void *b)
{
	const struct offcpu_wait *x = *(struct offcpu_wait *const *)a;
	const struct offcpu_wait *y = *(struct offcpu_wait *const *)b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

void
offcpu_flush(struct offcpu *oc, uint64_t end,
    void (*fn)(void *, const struct perf_event_header *, uint64_t), void *arg)
{
	struct offcpu_wait **held;
	size_t i, n = 0;

	held = xmalloc((oc->n ? oc->n : 1) * sizeof(*held));
	for (i = 0; i < oc->cap; i++)
		if (oc->tab[i].tid && oc->tab[i].held)
			held[n++] = &oc->tab[i];
	qsort(held, n, sizeof(*held), wait_cmp);
	for (i = 0; i < n; i++) {
		uint64_t ns;
		const struct perf_event_header *h = take(oc, held[i], end, &ns);

		if (h)
			fn(arg, h, ns);
	}
	free(held);
}
