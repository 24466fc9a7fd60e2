#include <stdlib.h>
#include <string.h>

#include "record/offcpu.h"
#include "base/xalloc.h"

struct offcpu_wait {
	pid_t		 tid;
	int		 held;		/* a sample waits for its switch in */
	int		 preempt;
	uint64_t	 time;		/* when it left the CPU */
	uint64_t	 asleep;	/* offcpu_asleep's time, until its switch in */
	uint64_t	 owed;		/* that wait, for its next switch out */
	unsigned char	*rec;		/* owned: the sample, while held */
	size_t		 cap;		/* rec's size: kept for the next one */
};

void
offcpu_init(struct offcpu *oc, int count_preempted)
{
	memset(oc, 0, sizeof(*oc));
	hashtab_init(&oc->idx, 32);
	oc->count_preempted = count_preempted;
}

void
offcpu_release(struct offcpu *oc)
{
	size_t i;

	for (i = 0; i < oc->n; i++)
		free(oc->tab[i].rec);
	free(oc->tab);
	hashtab_release(&oc->idx);
	memset(oc, 0, sizeof(*oc));
}

/*
 * Returns tid's entry, or NULL; p is left where tid belongs, for
 * slot_add().
 */
static struct offcpu_wait *
slot(struct offcpu *oc, pid_t tid, struct hashtab_probe *p)
{
	uint32_t i;

	hashtab_probe(&oc->idx, hashtab_int((uint32_t)tid), p);
	while ((i = hashtab_next(&oc->idx, p)) != HASHTAB_NONE)
		if (oc->tab[i].tid == tid)
			return &oc->tab[i];
	return NULL;
}

/* Returns tid's entry, adding it when it is new. */
static struct offcpu_wait *
slot_add(struct offcpu *oc, pid_t tid)
{
	struct hashtab_probe p;
	struct offcpu_wait *w;

	if ((w = slot(oc, tid, &p)) != NULL)
		return w;
	GROW(oc->tab, oc->n + 1, oc->cap);
	w = &oc->tab[oc->n];
	memset(w, 0, sizeof(*w));
	w->tid = tid;
	hashtab_add(&oc->idx, &p, oc->n++);
	return w;
}

void
offcpu_asleep(struct offcpu *oc, pid_t tid, uint64_t time)
{
	struct offcpu_wait *w;

	if (tid <= 0)
		return;
	w = slot_add(oc, tid);
	if (!w->held)
		w->asleep = time;
}

uint64_t
offcpu_block(struct offcpu *oc, pid_t tid, uint64_t time,
    const struct perf_event_header *sample)
{
	struct offcpu_wait *w;
	uint64_t owed;

	if (tid <= 0)
		return 0;
	w = slot_add(oc, tid);
	/* Switched out with no switch in since offcpu_asleep: it ran then. */
	owed = w->owed;
	w->owed = w->asleep = 0;
	if (w->cap < sample->size) {
		free(w->rec);
		w->rec = xmalloc(sample->size);
		w->cap = sample->size;
	}
	memcpy(w->rec, sample, sample->size);
	w->held = 1;
	w->preempt = 0;
	w->time = time;
	return owed;
}

void
offcpu_preempted(struct offcpu *oc, pid_t tid)
{
	struct hashtab_probe p;
	struct offcpu_wait *w;

	if (tid <= 0)
		return;
	if ((w = slot(oc, tid, &p)) != NULL && w->held)
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
	struct hashtab_probe p;
	struct offcpu_wait *w;

	if (tid <= 0)
		return NULL;
	w = slot(oc, tid, &p);
	if (w != NULL && !w->held && w->asleep != 0) {
		/* The wait in progress at offcpu_asleep ends: owed. */
		w->owed = time > w->asleep ? time - w->asleep : 0;
		w->asleep = 0;
		return NULL;
	}
	if (w == NULL || !w->held) {
		oc->unmatched++;
		return NULL;
	}
	return take(oc, w, time, ns);
}

void
offcpu_forget(struct offcpu *oc, pid_t tid)
{
	struct hashtab_probe p;
	struct offcpu_wait *w;

	if (tid <= 0 || (w = slot(oc, tid, &p)) == NULL)
		return;
	free(w->rec);
	w->rec = NULL;
	w->cap = 0;
	w->held = 0;
	w->asleep = w->owed = 0;
}

void
offcpu_drop(struct offcpu *oc)
{
	size_t i;

	for (i = 0; i < oc->n; i++)
		if (oc->tab[i].held) {
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
	for (i = 0; i < oc->n; i++)
		if (oc->tab[i].held)
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
