#include <stdlib.h>
#include <string.h>

#include "stitch.h"
#include "xalloc.h"

struct stitch_stack {
	pid_t		 pid;
	pid_t		 tid;		/* 0: empty */
	uint64_t	*pcs;		/* owned: cap pcs, then cap stack pointers */
	size_t		 n, cap;
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
	size_t i;

	if (st->slots)
		for (i = 0; i < STITCH_SLOTS; i++)
			free(st->slots[i].pcs);
	free(st->slots);
	memset(st, 0, sizeof(*st));
}

void
stitch_save(struct stitch *st, pid_t pid, pid_t tid, const uint64_t *pcs,
    const uint64_t *sps, size_t n)
{
	struct stitch_stack *s = slot(st, tid);

	if (tid <= 0 || n == 0)
		return;
	if (s->cap < n) {
		free(s->pcs);
		s->pcs = xmalloc(2 * n * sizeof(*s->pcs));
		s->cap = n;
	}
	memcpy(s->pcs, pcs, n * sizeof(*pcs));
	memcpy(s->pcs + s->cap, sps, n * sizeof(*sps));
	s->pid = pid;
	s->tid = tid;
	s->n = n;
}

size_t
stitch_complete(struct stitch *st, pid_t tid, uint64_t *pcs, uint64_t *sps,
    size_t n, size_t max)
{
	struct stitch_stack *s = slot(st, tid);
	const uint64_t *kpcs = s->pcs, *ksps = s->pcs + s->cap;
	size_t j, more;

	if (n == 0 || tid <= 0 || s->tid != tid)
		return n;
	for (j = 0; j < s->n; j++) {
		if (ksps[j] != sps[n - 1] || kpcs[j] != pcs[n - 1])
			continue;
		more = s->n - j - 1;
		if (more == 0 || n + more > max)
			return n;
		memcpy(pcs + n, kpcs + j + 1, more * sizeof(*pcs));
		memcpy(sps + n, ksps + j + 1, more * sizeof(*sps));
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
