#include <stdlib.h>
#include <string.h>

#include "record/stitch.h"
#include "base/xalloc.h"

struct kept {
	uint64_t	*pcs;		/* owned: cap pcs, then cap stack pointers */
	size_t		 n, cap;
};

struct stitch_stack {
	pid_t		 pid;
	pid_t		 tid;		/* 0: empty */
	struct kept	 k[STITCH_KEEP];	/* the last complete stacks */
	unsigned	 next;		/* the oldest, replaced next */
};

static struct stitch_stack *
slot(struct stitch *st, pid_t tid)
{
	return &st->slots[(uint32_t)tid % STITCH_SLOTS];
}

void
stitch_init(struct stitch *st)
{
	memset(st, 0, sizeof(*st));
	st->slots = xcalloc(STITCH_SLOTS, sizeof(*st->slots));
}

void
stitch_release(struct stitch *st)
{
	size_t i, j;

	if (st->slots)
		for (i = 0; i < STITCH_SLOTS; i++)
			for (j = 0; j < STITCH_KEEP; j++)
				free(st->slots[i].k[j].pcs);
	free(st->slots);
	memset(st, 0, sizeof(*st));
}

void
stitch_save(struct stitch *st, pid_t pid, pid_t tid, const uint64_t *pcs,
    const uint64_t *sps, size_t n)
{
	struct stitch_stack *s = slot(st, tid);
	struct kept *k;
	size_t j;

	if (tid <= 0 || n == 0)
		return;
	if (s->tid != tid) {
		for (j = 0; j < STITCH_KEEP; j++)
			s->k[j].n = 0;
		s->pid = pid;
		s->tid = tid;
		s->next = 0;
	}
	k = &s->k[s->next];
	s->next = (s->next + 1) % STITCH_KEEP;
	if (k->cap < n) {
		free(k->pcs);
		k->pcs = xmalloc(2 * n * sizeof(*k->pcs));
		k->cap = n;
	}
	memcpy(k->pcs, pcs, n * sizeof(*pcs));
	memcpy(k->pcs + k->cap, sps, n * sizeof(*sps));
	k->n = n;
}

/* Where frame (pc, sp) is in k, or k->n when it is not. */
static size_t
kept_find(const struct kept *k, uint64_t pc, uint64_t sp)
{
	const uint64_t *ksps = k->pcs + k->cap;
	size_t j;

	for (j = 0; j < k->n; j++)
		if (ksps[j] == sp && k->pcs[j] == pc)
			return j;
	return k->n;
}

size_t
stitch_complete(struct stitch *st, pid_t tid, uint64_t *pcs, uint64_t *sps,
    size_t n, size_t max)
{
	struct stitch_stack *s = slot(st, tid);
	const struct kept *k;
	size_t i, j, more;

	if (n == 0 || tid <= 0 || s->tid != tid)
		return n;
	/* The most recent stack that holds the frame first. */
	for (i = 1; i <= STITCH_KEEP; i++) {
		k = &s->k[(s->next + STITCH_KEEP - i) % STITCH_KEEP];
		j = kept_find(k, pcs[n - 1], sps[n - 1]);
		if (j == k->n)
			continue;
		more = k->n - j - 1;
		if (more == 0 || n + more > max)
			return n;
		memcpy(pcs + n, k->pcs + j + 1, more * sizeof(*pcs));
		memcpy(sps + n, k->pcs + k->cap + j + 1, more * sizeof(*sps));
		st->stitched++;
		return n + more;
	}
	return n;
}

void
stitch_forget(struct stitch *st, pid_t pid, pid_t tid)
{
	size_t i;

	if (tid > 0) {
		if (slot(st, tid)->tid == tid)
			slot(st, tid)->tid = 0;
		return;
	}
	for (i = 0; i < STITCH_SLOTS; i++)
		if (st->slots[i].pid == pid)
			st->slots[i].tid = 0;
}
