#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "stream/intern.h"
#include "base/xalloc.h"

#define ARENA_BLOCK	(1024 * 1024)

void
intern_init(struct intern *t)
{
	memset(t, 0, sizeof(*t));
	hashtab_init(&t->index, 768);
}

void
intern_release(struct intern *t)
{
	size_t i;

	for (i = 0; i < t->nblocks; i++)
		free(t->blocks[i]);
	free(t->blocks);
	free(t->ents);
	hashtab_release(&t->index);
	memset(t, 0, sizeof(*t));
}

static char *
arena_copy(struct intern *t, const char *s, size_t len)
{
	char *p;

	if (t->arena == NULL || t->arena_cap - t->arena_used < len) {
		size_t sz = len > ARENA_BLOCK ? len : ARENA_BLOCK;

		t->arena = xmalloc(sz);
		t->arena_cap = sz;
		t->arena_used = 0;
		GROW(t->blocks, t->nblocks + 1, t->blockcap);
		t->blocks[t->nblocks++] = t->arena;
	}
	p = t->arena + t->arena_used;
	memcpy(p, s, len);
	t->arena_used += len;
	return p;
}

/* Returns the entry for key, or NULL, leaving p on its free slot. */
static struct intern_entry *
probe(struct intern *t, const char *key, size_t len, uint64_t h,
    struct hashtab_probe *p)
{
	struct intern_entry *e;
	uint32_t i;

	hashtab_probe(&t->index, h, p);
	while ((i = hashtab_next(&t->index, p)) != HASHTAB_NONE) {
		e = &t->ents[i];
		if (e->len == len && memcmp(e->key, key, len) == 0)
			return e;
	}
	return NULL;
}

struct intern_entry *
intern_get(struct intern *t, const char *key, size_t len)
{
	struct hashtab_probe p;
	struct intern_entry *e;

	if ((e = probe(t, key, len, XXH3_64bits(key, len), &p)) != NULL)
		return e;
	hashtab_add(&t->index, &p, t->n);
	GROW(t->ents, t->n + 1, t->cap);
	e = &t->ents[t->n++];
	memset(e, 0, sizeof(*e));
	e->key = arena_copy(t, key, len);
	e->len = len;
	return e;
}

struct intern_entry *
intern_find(struct intern *t, const char *key, size_t len)
{
	struct hashtab_probe p;

	return probe(t, key, len, XXH3_64bits(key, len), &p);
}

static int
cmp_entry(const void *a, const void *b)
{
	const struct intern_entry *x = *(const struct intern_entry **)a;
	const struct intern_entry *y = *(const struct intern_entry **)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);

	if (c != 0)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

struct intern_entry **
intern_sorted(struct intern *t)
{
	struct intern_entry **v = xmalloc((t->n + 1) * sizeof(*v));
	size_t i;

	for (i = 0; i < t->n; i++)
		v[i] = &t->ents[i];
	if (t->n > 1)
		qsort(v, t->n, sizeof(*v), cmp_entry);
	return v;
}

int
intern_fmt_count(const struct intern_entry *e, int i, char *buf,
    size_t bufsz)
{
	if (!e->decimal)
		return snprintf(buf, bufsz, "%llu", (unsigned long long)e->u[i]);
	/* Enough digits to round-trip ordinary decimals, no trailing zeros. */
	return snprintf(buf, bufsz, "%.10g", (double)e->u[i] + e->d[i]);
}
