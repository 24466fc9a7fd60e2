/*
 * test_maptab: a process's mapping table against a model (one entry per
 * page: which file, at which offset), through thousands of mmaps in a
 * random order that split, cut and replace each other across chunks, and
 * forks whose tables then change on both sides independently.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/maptab.h"
#include "unit.h"

#define PAGES	6000
#define PAGE	0x1000

struct model {
	uintptr_t	 file[PAGES];	/* 0: nothing mapped */
	uint64_t	 off[PAGES];
};

static uint64_t rng = 88172645463325252ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void
both_add(struct maptab *t, struct model *md, unsigned page, unsigned n,
    uintptr_t file)
{
	struct mapping m;
	unsigned i;

	m.start = 0x10000 + (uint64_t)page * PAGE;
	m.end = m.start + (uint64_t)n * PAGE;
	m.pgoff = (uint64_t)file * 0x100000;
	m.file = (struct mapfile *)file;
	maptab_add(t, &m);
	for (i = page; i < page + n && i < PAGES; i++) {
		md->file[i] = file;
		md->off[i] = m.pgoff + (uint64_t)(i - page) * PAGE;
	}
}

/* Whether every page (and a byte inside it) finds what the model says. */
static int
same(const struct maptab *t, const struct model *md)
{
	unsigned i;

	for (i = 0; i < PAGES; i++) {
		uint64_t a = 0x10000 + (uint64_t)i * PAGE + (i % 7) * 0x100;
		struct mapping *m = maptab_find(t, a);

		if (md->file[i] == 0) {
			if (m != NULL)
				return 0;
			continue;
		}
		if (m == NULL || (uintptr_t)m->file != md->file[i] ||
		    m->pgoff + (a & ~(uint64_t)(PAGE - 1)) - m->start !=
		    md->off[i])
			return 0;
	}
	return maptab_find(t, 0x10000 - 1) == NULL &&
	    maptab_find(t, 0x10000 + (uint64_t)PAGES * PAGE) == NULL;
}

static void
test_random(void)
{
	static struct model ma, mb;
	struct maptab a, b;
	unsigned i, ok = 1;
	uintptr_t file = 1;

	maptab_init(&a);
	maptab_init(&b);
	CHECK(maptab_find(&a, 0x10000) == NULL && maptab_count(&a) == 0,
	    "an empty table finds nothing");
	/* single pages in a shuffled order: chunks fill and split */
	for (i = 0; i < PAGES / 2; i++)
		both_add(&a, &ma, (i * 1031) % (PAGES / 2) * 2, 1, file++);
	CHECK(maptab_count(&a) == PAGES / 2 && same(&a, &ma),
	    "3000 mappings added out of order are all found");
	for (i = 0; i < 3000 && ok; i++) {
		unsigned n = 1 + rnd(i % 10 == 0 ? 700 : 20);

		both_add(&a, &ma, rnd(PAGES - n), n, file++);
		if (i % 97 == 0)
			ok = same(&a, &ma);
	}
	CHECK(ok && same(&a, &ma), "mappings that cut, split and replace "
	    "others across chunks match the model");

	maptab_share(&b, &a);
	mb = ma;
	CHECK(same(&b, &mb), "a shared table holds the same mappings");
	for (i = 0; i < 500 && ok; i++) {
		unsigned n = 1 + rnd(40);

		both_add(i % 2 ? &a : &b, i % 2 ? &ma : &mb, rnd(PAGES - n), n,
		    file++);
		if (i % 50 == 0)
			ok = same(&a, &ma) && same(&b, &mb);
	}
	CHECK(ok && same(&a, &ma) && same(&b, &mb),
	    "after a fork each side's changes are its own");
	maptab_release(&a);
	CHECK(same(&b, &mb), "the child's table outlives the parent's");
	maptab_share(&a, &b);
	maptab_release(&b);
	maptab_release(&b);
	CHECK(same(&a, &mb) && maptab_count(&b) == 0,
	    "a released table is empty, and releasing it again does nothing");
	maptab_release(&a);
}

static void
test_edges(void)
{
	struct maptab t;
	struct mapping m = { 0x1000, 0x1000, 0, NULL }, *mp;

	maptab_init(&t);
	maptab_add(&t, &m);
	CHECK(maptab_count(&t) == 0, "an empty mapping adds nothing");
	m.end = UINT64_MAX;
	maptab_add(&t, &m);
	m.start = 0x5000;
	m.end = 0x6000;
	m.pgoff = 0x7000;
	maptab_add(&t, &m);
	mp = maptab_find(&t, UINT64_MAX - 1);
	CHECK(mp && mp->start == 0x6000 && mp->pgoff == 0x5000 &&
	    maptab_count(&t) == 3, "a mapping to the top of the address "
	    "space splits around a new one");
	maptab_release(&t);
}

int
main(void)
{
	test_random();
	test_edges();
	return unit_done();
}
