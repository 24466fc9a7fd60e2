/*
 * maptab: a process's mappings in shared chunks, copied on write.
 */
#include <stdlib.h>
#include <string.h>

#include "base/upper.h"
#include "base/xalloc.h"
#include "record/maptab.h"

/* Mappings sorted by start, all below the next chunk's. */
struct mapchunk {
	unsigned	 refs;		/* tables holding it */
	unsigned	 n, cap;
	struct mapping	 v[];
};

struct maptab_body {
	unsigned	 refs;		/* tables holding it */
	size_t		 n;		/* mappings in all */
	struct mapchunk	**c;		/* owned references, none empty */
	size_t		 nc, cap;
};

/* Where a mapping is: chunk c, index i in it. */
struct pos {
	size_t		 c, i;
};

void
maptab_init(struct maptab *t)
{
	t->b = NULL;
}

static void
chunk_drop(struct mapchunk *k)
{
	if (--k->refs == 0)
		free(k);
}

void
maptab_release(struct maptab *t)
{
	struct maptab_body *b = t->b;
	size_t i;

	t->b = NULL;
	if (b == NULL || --b->refs > 0)
		return;
	for (i = 0; i < b->nc; i++)
		chunk_drop(b->c[i]);
	free(b->c);
	free(b);
}

void
maptab_share(struct maptab *to, const struct maptab *from)
{
	struct maptab_body *b = from->b;

	if (b)
		b->refs++;
	maptab_release(to);
	to->b = b;
}

size_t
maptab_count(const struct maptab *t)
{
	return t->b ? t->b->n : 0;
}

static struct mapchunk *
chunk_new(unsigned cap)
{
	struct mapchunk *k;

	k = xmalloc(sizeof(*k) + cap * sizeof(k->v[0]));
	k->refs = 1;
	k->n = 0;
	k->cap = cap;
	return k;
}

/* The body of t, t's alone: a shared one copied (its chunks shared). */
static struct maptab_body *
own_body(struct maptab *t)
{
	struct maptab_body *b = t->b, *nb;
	size_t i;

	if (b != NULL && b->refs == 1)
		return b;
	nb = xcalloc(1, sizeof(*nb));
	nb->refs = 1;
	if (b != NULL) {
		nb->n = b->n;
		nb->nc = nb->cap = b->nc;
		nb->c = xmalloc((b->nc ? b->nc : 1) * sizeof(*nb->c));
		for (i = 0; i < b->nc; i++) {
			nb->c[i] = b->c[i];
			nb->c[i]->refs++;
		}
		b->refs--;
	}
	t->b = nb;
	return nb;
}

/* Chunk ci of b, b's alone, with room for want mappings (<= the most). */
static struct mapchunk *
own_chunk(struct maptab_body *b, size_t ci, unsigned want)
{
	struct mapchunk *k = b->c[ci], *nk;
	unsigned cap = k->cap;

	if (k->refs == 1 && want <= cap)
		return k;
	while (cap < want)
		cap *= 2;
	if (cap > MAPTAB_CHUNK)
		cap = MAPTAB_CHUNK;
	if (k->refs == 1) {
		k = xrealloc(k, sizeof(*k) + cap * sizeof(k->v[0]));
		k->cap = cap;
		return b->c[ci] = k;
	}
	nk = chunk_new(cap);
	nk->n = k->n;
	memcpy(nk->v, k->v, k->n * sizeof(k->v[0]));
	chunk_drop(k);
	return b->c[ci] = nk;
}

/* Puts chunk k at index ci of b's list. */
static void
chunk_insert(struct maptab_body *b, size_t ci, struct mapchunk *k)
{
	GROW(b->c, b->nc + 1, b->cap);
	memmove(&b->c[ci + 1], &b->c[ci], (b->nc - ci) * sizeof(*b->c));
	b->c[ci] = k;
	b->nc++;
}

/*
 * The first mapping of b that ends above addr (the only one that may
 * hold it, as they do not overlap): 0 when there is none.
 */
static int
first_above(const struct maptab_body *b, uint64_t addr, struct pos *p)
{
	size_t lo = 0, hi = b ? b->nc : 0;
	const struct mapchunk *k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		k = b->c[mid];
		if (k->v[k->n - 1].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (b == NULL || lo == b->nc)
		return 0;
	k = b->c[lo];
	p->c = lo;
	p->i = UPPER(k->v, k->n, addr, end);
	return 1;
}

struct mapping *
maptab_find(const struct maptab *t, uint64_t addr)
{
	struct pos p;
	struct mapping *m;

	if (!first_above(t->b, addr, &p))
		return NULL;
	m = &t->b->c[p.c]->v[p.i];
	return m->start <= addr ? m : NULL;
}

/* Removes the mapping at p from b (owned). */
static void
remove_at(struct maptab_body *b, struct pos p)
{
	struct mapchunk *k = own_chunk(b, p.c, 0);

	memmove(&k->v[p.i], &k->v[p.i + 1], (k->n - p.i - 1) *
	    sizeof(k->v[0]));
	k->n--;
	b->n--;
	if (k->n == 0) {
		chunk_drop(k);
		memmove(&b->c[p.c], &b->c[p.c + 1], (b->nc - p.c - 1) *
		    sizeof(*b->c));
		b->nc--;
	}
}

/* Inserts m, which overlaps nothing, into b (owned). */
static void
insert(struct maptab_body *b, const struct mapping *m)
{
	struct mapchunk *k, *half;
	size_t lo = 0, hi = b->nc, ci, i;

	/* the last chunk that starts at or below m, else the first */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->c[mid]->v[0].start <= m->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (b->nc == 0) {
		chunk_insert(b, 0, chunk_new(8));
		lo = 1;
	}
	ci = lo ? lo - 1 : 0;
	k = b->c[ci];
	if (k->n == MAPTAB_CHUNK) {
		/* full: its upper half becomes a chunk of its own */
		half = chunk_new(MAPTAB_CHUNK);
		half->n = MAPTAB_CHUNK / 2;
		memcpy(half->v, k->v + MAPTAB_CHUNK / 2, half->n *
		    sizeof(k->v[0]));
		k = own_chunk(b, ci, 0);
		k->n = MAPTAB_CHUNK / 2;
		chunk_insert(b, ci + 1, half);
		if (m->start >= half->v[0].start)
			ci++;
	}
	k = own_chunk(b, ci, b->c[ci]->n + 1);
	i = UPPER(k->v, k->n, m->start, start);
	memmove(&k->v[i + 1], &k->v[i], (k->n - i) * sizeof(k->v[0]));
	k->v[i] = *m;
	k->n++;
	b->n++;
}

void
maptab_add(struct maptab *t, const struct mapping *m)
{
	struct maptab_body *b;
	struct mapping *o;
	struct pos p;

	if (m->end <= m->start)
		return;
	b = own_body(t);
	/* Cut away whatever m overlaps, one mapping at a time. */
	while (first_above(b, m->start, &p)) {
		o = &b->c[p.c]->v[p.i];
		if (o->start >= m->end)
			break;
		if (o->start >= m->start && o->end <= m->end) {
			remove_at(b, p);
			continue;
		}
		o = &own_chunk(b, p.c, 0)->v[p.i];
		if (o->start < m->start && o->end > m->end) {
			/* split in two around m */
			struct mapping tail = *o;

			tail.pgoff += m->end - o->start;
			tail.start = m->end;
			o->end = m->start;
			insert(b, &tail);
			break;
		}
		if (o->start < m->start) {
			o->end = m->start;
			continue;
		}
		o->pgoff += m->end - o->start;
		o->start = m->end;
		break;
	}
	insert(b, m);
}
