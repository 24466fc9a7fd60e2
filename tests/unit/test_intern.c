/* Unit tests of the intern table (stream/intern): interning, growth, lookups,
 * the sorted view and the count's format. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/intern.h"
#include "unit.h"

/* CHECK for two sizes, saying both when they differ. */
#define CHECK_N(got, want, what) do {					\
	size_t g_ = (got), w_ = (want);					\
	if (g_ != w_)							\
		printf("#   got %zu, want %zu\n", g_, w_);		\
	CHECK(g_ == w_, what);						\
} while (0)

/* The entry's index: its id in the table. */
static size_t
id(const struct intern *t, const struct intern_entry *e)
{
	return e != NULL ? (size_t)(e - t->ents) : (size_t)-1;
}

static void
test_intern(void)
{
	struct intern t;
	size_t a, b;

	intern_init(&t);
	a = id(&t, intern_get(&t, "main;f;g", 8));
	b = id(&t, intern_get(&t, "main;f;g", 8));
	CHECK_N(b, a, "the same stack twice: one id");
	CHECK_N(t.n, 1, "the same stack twice: one entry");
	b = id(&t, intern_get(&t, "main;f", 6));
	CHECK_N(b, 1, "a prefix is another stack");
	b = id(&t, intern_get(&t, "main;f\0g", 8));
	CHECK_N(b, 2, "a NUL byte is part of the key");
	CHECK_N(id(&t, intern_find(&t, "main;f;g", 8)), a, "find: the stack got first");
	CHECK(intern_find(&t, "main", 4) == NULL, "find: no entry for a stack never got");
	CHECK_N(t.n, 3, "find adds nothing");
	CHECK(t.ents[0].u[0] == 0 && t.ents[0].u[1] == 0 && t.ents[0].d[0] == 0 &&
	    !t.ents[0].decimal, "a new entry's counts are zero");
	intern_release(&t);
}

static void
test_growth(void)
{
	enum { N = 100000, UNIQUE = 40000 };
	struct intern t;
	struct intern_entry *e;
	char key[64];
	size_t i, first_bad = (size_t)-1, len;

	intern_init(&t);
	/* Past the index's first size and many arena blocks' worth. */
	for (i = 0; i < N; i++) {
		len = snprintf(key, sizeof(key), "main;work;leaf_%zu", i % UNIQUE);
		e = intern_get(&t, key, len);
		e->u[0]++;
		if (i < UNIQUE)
			e->u[1] = i;
	}
	CHECK_N(t.n, UNIQUE, "40000 unique stacks of 100000");
	for (i = 0; i < UNIQUE && first_bad == (size_t)-1; i++) {
		len = snprintf(key, sizeof(key), "main;work;leaf_%zu", i);
		e = intern_find(&t, key, len);
		if (e == NULL || id(&t, e) != i || e->u[1] != i ||
		    e->u[0] != (i < N % UNIQUE ? 3u : 2u) || e->len != len ||
		    memcmp(e->key, key, len) != 0)
			first_bad = i;
	}
	if (first_bad != (size_t)-1)
		printf("#   stack %zu: got id %zu, want %zu\n", first_bad,
		    id(&t, intern_find(&t, key, len)), first_bad);
	CHECK(first_bad == (size_t)-1,
	    "after growth every stack is found, with its id, key and counts");
	len = snprintf(key, sizeof(key), "main;work;leaf_%d", UNIQUE);
	CHECK(intern_find(&t, key, len) == NULL, "after growth a new stack is not found");

	/* A key longer than an arena block gets a block of its own. */
	{
		size_t big = 3 * 1024 * 1024;
		char *k = malloc(big);

		memset(k, 'f', big);
		e = intern_get(&t, k, big);
		CHECK_N(id(&t, e), UNIQUE, "a 3 MB stack is interned");
		CHECK(intern_find(&t, k, big) == e && memcmp(e->key, k, big) == 0,
		    "a 3 MB stack is found");
		free(k);
	}
	len = snprintf(key, sizeof(key), "main;work;leaf_%d", 7);
	CHECK_N(id(&t, intern_find(&t, key, len)), 7, "older stacks are still found");
	intern_release(&t);
}

static void
test_sorted(void)
{
	struct intern t;
	struct intern_entry **v;
	char key[32];
	int i, ok = 1;

	intern_init(&t);
	for (i = 0; i < 100000; i++) {
		snprintf(key, sizeof(key), "s;%d", i % 5000);
		intern_get(&t, key, strlen(key))->u[0]++;
	}
	CHECK_N(t.n, 5000, "unique keys");
	v = intern_sorted(&t);
	for (i = 0; i < (int)t.n; i++)
		if (v[i]->u[0] != 20)
			ok = 0;
	CHECK(ok, "counts summed per key");
	CHECK(v[0]->len == 3 && memcmp(v[0]->key, "s;0", 3) == 0 &&
	    v[1]->len == 3 && memcmp(v[1]->key, "s;1", 3) == 0 &&
	    v[2]->len == 4 && memcmp(v[2]->key, "s;10", 4) == 0, "sorted bytewise, prefix first");
	free(v);
	intern_release(&t);
}

static void
test_fmt(void)
{
	struct intern t;
	struct intern_entry *e;
	char b[64];

	intern_init(&t);
	e = intern_get(&t, "a", 1);
	e->u[0] = UINT64_MAX;
	intern_fmt_count(e, 0, b, sizeof(b));
	CHECK_STR(b, "18446744073709551615", "an integer count, to 2^64-1");
	e->u[1] = 2;
	e->d[1] = 0.5;
	e->decimal = 1;
	intern_fmt_count(e, 1, b, sizeof(b));
	CHECK_STR(b, "2.5", "a decimal count: integer and fraction summed");
	intern_release(&t);
}

int
main(void)
{
	test_intern();
	test_growth();
	test_sorted();
	test_fmt();
	return unit_done();
}
