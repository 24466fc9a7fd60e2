#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "svgmap.h"
#include "xalloc.h"

void
svgmap_init(struct svgmap *m)
{
	memset(m, 0, sizeof(*m));
}

void
svgmap_release(struct svgmap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++) {
		free(m->slots[i].key);
		free(m->slots[i].val);
	}
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

/* Returns the slot holding key, or the free slot where it belongs. */
static struct svgmap_entry *
find(const struct svgmap *m, const char *key, size_t klen, uint64_t h)
{
	size_t i = h & (m->cap - 1);

	for (;;) {
		struct svgmap_entry *e = &m->slots[i];

		if (e->key == NULL || (e->hash == h && e->klen == klen &&
		    memcmp(e->key, key, klen) == 0))
			return e;
		i = (i + 1) & (m->cap - 1);
	}
}

static void
rehash(struct svgmap *m)
{
	struct svgmap_entry *old = m->slots;
	size_t oldcap = m->cap, i;

	m->cap = oldcap ? oldcap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (i = 0; i < oldcap; i++)
		if (old[i].key != NULL)
			*find(m, old[i].key, old[i].klen, old[i].hash) = old[i];
	free(old);
}

void
svgmap_put(struct svgmap *m, const char *key, size_t klen, const char *val,
    size_t vlen)
{
	uint64_t h = XXH3_64bits(key, klen);
	struct svgmap_entry *e;

	if ((m->count + 1) * 2 > m->cap)
		rehash(m);
	e = find(m, key, klen, h);
	if (e->key == NULL) {
		e->key = xmemdup0(key, klen);
		e->klen = klen;
		e->hash = h;
		m->count++;
	} else
		free(e->val);
	e->val = xmemdup0(val, vlen);
	e->vlen = vlen;
}

const char *
svgmap_get(const struct svgmap *m, const char *key, size_t klen, size_t *vlen)
{
	struct svgmap_entry *e;

	if (m->count == 0)
		return NULL;
	e = find(m, key, klen, XXH3_64bits(key, klen));
	if (e->key == NULL)
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
	size_t i, k = 0;

	for (i = 0; i < m->cap; i++)
		if (m->slots[i].key != NULL)
			v[k++] = &m->slots[i];
	if (k > 1)
		qsort(v, k, sizeof(*v), cmpentry);
	*n = k;
	return v;
}
