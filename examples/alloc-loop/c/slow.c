/* alloc-loop, slow version: a hash map built and freed on every call. */
#include <stdlib.h>

#include "pairsum.h"

struct node {
	int32_t key;
	long index;
	struct node *next;
};

struct map {
	struct node **buckets;
	size_t mask;
};

static void *
xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL)
		abort();
	return p;
}

static size_t
hash(int32_t key)
{
	uint64_t h = (uint32_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32);
}

static void
map_init(struct map *m, size_t n)
{
	size_t size = 8;

	while (size < 2 * n)
		size *= 2;
	m->buckets = calloc(size, sizeof(*m->buckets));
	if (m->buckets == NULL)
		abort();
	m->mask = size - 1;
}

/* Returns the index stored for key, or -1. */
static long
map_get(const struct map *m, int32_t key)
{
	for (struct node *e = m->buckets[hash(key) & m->mask]; e; e = e->next)
		if (e->key == key)
			return e->index;
	return -1;
}

/* Stores key -> index unless key is already there (the first index wins). */
__attribute__((noinline)) static void
map_insert(struct map *m, int32_t key, long index)
{
	struct node **slot = &m->buckets[hash(key) & m->mask];
	struct node *e;

	for (e = *slot; e; e = e->next)
		if (e->key == key)
			return;
	e = xmalloc(sizeof(*e));
	e->key = key;
	e->index = index;
	e->next = *slot;
	*slot = e;
}

__attribute__((noinline)) static void
map_free(struct map *m)
{
	for (size_t b = 0; b <= m->mask; b++) {
		struct node *e = m->buckets[b];

		while (e) {
			struct node *next = e->next;

			free(e);
			e = next;
		}
	}
	free(m->buckets);
}

struct pair
find_pair_slow(const int32_t *v, size_t n, int64_t target)
{
	struct pair p = { -1, -1 };
	struct map m;

	map_init(&m, n);
	for (size_t j = 0; j < n; j++) {
		int64_t want = target - v[j];

		if (want >= INT32_MIN && want <= INT32_MAX) {
			long i = map_get(&m, (int32_t)want);

			if (i >= 0) {
				p.i = i;
				p.j = (long)j;
				break;
			}
		}
		map_insert(&m, v[j], (long)j);
	}
	map_free(&m);
	return p;
}
