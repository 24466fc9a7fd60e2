/*
 * Unit tests for lock-wait: the slow and the fixed version must leave the
 * same tally, from one thread and from several at once. Prints TAP; exits
 * 1 on failure.
 */
#include <pthread.h>
#include <stdio.h>

#include "tally.h"

static int n_test, n_fail;

static void
ok(int cond, const char *what)
{
	n_test++;
	if (!cond)
		n_fail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n_test, what);
}

struct job {
	struct tally	*t;
	void		(*add)(struct tally *, uint64_t);
	uint64_t	 first, n;
};

static void *
run(void *arg)
{
	struct job *j = arg;

	for (uint64_t k = 0; k < j->n; k++)
		j->add(j->t, j->first + k);
	return NULL;
}

/* Adds items [0, threads * n) from threads threads into a fresh *t. */
static void
fill(struct tally *t, void (*add)(struct tally *, uint64_t), int threads,
    uint64_t n)
{
	pthread_t th[8];
	struct job j[8];

	pthread_mutex_init(&t->lock, NULL);
	t->count = t->sum = t->squares = 0;
	for (int i = 0; i < threads; i++) {
		j[i] = (struct job){ t, add, (uint64_t)i * n, n };
		pthread_create(&th[i], NULL, run, &j[i]);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
}

static int
same(const struct tally *a, const struct tally *b)
{
	return a->count == b->count && a->sum == b->sum &&
	    a->squares == b->squares;
}

int
main(void)
{
	struct tally s, f, one;

	ok(item_digest(1) != item_digest(2), "digests differ for different items");
	ok(item_digest(7) == item_digest(7), "a digest is deterministic");
	fill(&s, tally_add_slow, 1, 20);
	fill(&f, tally_add_fast, 1, 20);
	ok(same(&s, &f) && s.count == 20, "one thread: the same tally");
	fill(&s, tally_add_slow, 4, 50);
	fill(&f, tally_add_fast, 4, 50);
	ok(same(&s, &f) && f.count == 200, "four threads: the same tally");
	fill(&one, tally_add_fast, 1, 200);
	ok(same(&one, &f), "and the same as one thread adding them all");
	printf("1..%d\n", n_test);
	return n_fail != 0;
}
