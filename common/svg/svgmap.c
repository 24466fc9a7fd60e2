#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "svg/svgmap.h"
#include "base/xalloc.h"

void
svgmap_init(struct svgmap *m)
{
	memset(m, 0, sizeof(*m));
	hashtab_init(&m->index, 0);
}

void
svgmap_release(struct svgmap *m)
{
	size_t i;

	for (i = 0; i < m->count; i++) {
		free(m->ents[i].key);
		free(m->ents[i].val);
	}
	free(m->ents);
	hashtab_release(&m->index);
	memset(m, 0, sizeof(*m));
}

/* Returns the entry holding key, or NULL with p on its free slot. */
static struct svgmap_entry *
find(const struct svgmap *m, const char *key, size_t klen,
    struct hashtab_probe *p)
{
	struct svgmap_entry *e;
	uint32_t i;

	hashtab_probe(&m->index, XXH3_64bits(key, klen), p);
	while ((i = hashtab_next(&m->index, p)) != HASHTAB_NONE) {
		e = &m->ents[i];
		if (e->klen == klen && memcmp(e->key, key, klen) == 0)
			return e;
	}
	return NULL;
}

void
svgmap_put(struct svgmap *m, const char *key, size_t klen, const char *val,
    size_t vlen)
{
	struct hashtab_probe p;
	struct svgmap_entry *e;

	if ((e = find(m, key, klen, &p)) == NULL) {
		hashtab_add(&m->index, &p, m->count);
		GROW(m->ents, m->count + 1, m->cap);
		e = &m->ents[m->count++];
		e->key = xmemdup0(key, klen);
		e->klen = klen;
	} else
		free(e->val);
	e->val = xmemdup0(val, vlen);
	e->vlen = vlen;
}

const char *
svgmap_get(const struct svgmap *m, const char *key, size_t klen, size_t *vlen)
{
	struct hashtab_probe p;
	struct svgmap_entry *e;

	if (m->count == 0 || (e = find(m, key, klen, &p)) == NULL)
		return NULL;
	if (vlen != NULL)
		*vlen = e->vlen;
	return e->val;
}

static int
cmpentry(const void *a, const void *b)
{
	const struct svgmap_entry *x = *(struct svgmap_entry *const *)a;
	const struct svgmap_entry *y = *(struct svgmap_entry *const *)b;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c = memcmp(x->key, y->key, n);

	if (c != 0)
		return c;
	return (x->klen > y->klen) - (x->klen < y->klen);
}

struct svgmap_entry **
svgmap_sorted(const struct svgmap *m, size_t *n)
{
	struct svgmap_entry **v = xcalloc(m->count + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < m->count; i++)
		v[i] = &m->ents[i];
	if (m->count > 1)
		qsort(v, m->count, sizeof(*v), cmpentry);
	*n = m->count;
	return v;
}
