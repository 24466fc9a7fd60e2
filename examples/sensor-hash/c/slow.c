/*
 * sensor-hash, slow version: a generic hash map (keys behind pointers,
 * hash and compare through function pointers, one malloc per entry) for
 * a key space of eight.
 */
#include <stdlib.h>
#include <string.h>

#include "sensors.h"

struct hash_entry {
	int key;
	struct stats value;
	struct hash_entry *next;
};

static size_t
int_hash(const void *key)
{
	const unsigned char *p = key;
	size_t h = 14695981039346656037ULL;

	for (size_t k = 0; k < sizeof(int); k++)
		h = (h ^ p[k]) * 1099511628211ULL;
	return h;
}

static int
int_equal(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(int)) == 0;
}

void
sensors_slow_init(struct sensors_slow *s)
{
	s->nbuckets = 16;
	s->buckets = calloc(s->nbuckets, sizeof(*s->buckets));
	if (s->buckets == NULL)
		abort();
	s->hash = int_hash;
	s->equal = int_equal;
	s->rejected = 0;
}

void
sensors_slow_release(struct sensors_slow *s)
{
	for (size_t b = 0; b < s->nbuckets; b++)
		for (struct hash_entry *e = s->buckets[b], *next; e; e = next) {
			next = e->next;
			free(e);
		}
	free(s->buckets);
}

/* Returns the entry for key, creating it when create is set, or NULL. */
__attribute__((noinline)) static struct hash_entry *
lookup(const struct sensors_slow *s, int key, int create)
{
	struct hash_entry **slot = &s->buckets[s->hash(&key) % s->nbuckets];

	for (struct hash_entry *e = *slot; e; e = e->next)
		if (s->equal(&e->key, &key))
			return e;
	if (!create)
		return NULL;
	struct hash_entry *e = calloc(1, sizeof(*e));
	if (e == NULL)
		abort();
	e->key = key;
	e->next = *slot;
	*slot = e;
	return e;
}

int
sensors_slow_add(struct sensors_slow *s, int id, int value)
{
	struct hash_entry *e;

	if (id < 0 || id >= NSENSORS) {
		s->rejected++;
		return -1;
	}
	e = lookup(s, id, 1);
	if (e->value.count == 0 || value < e->value.min)
		e->value.min = value;
	if (e->value.count == 0 || value > e->value.max)
		e->value.max = value;
	e->value.count++;
	e->value.sum += value;
	return 0;
}

int
sensors_slow_get(const struct sensors_slow *s, int id, struct stats *out)
{
	const struct hash_entry *e;

	if (id < 0 || id >= NSENSORS)
		return -1;
	e = lookup(s, id, 0);
	if (e)
		*out = e->value;
	else
		memset(out, 0, sizeof(*out));
	return 0;
}
