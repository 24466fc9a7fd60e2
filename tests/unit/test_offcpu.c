/*
 * test_offcpu: pairing a thread's switch out with its switch in. The
 * sample held is given back whole, with the time away; a preemption is
 * left out or counted as asked; a switch in with nothing held gives
 * nothing; a second switch out replaces the first; threads still away at
 * the end come back from offcpu_flush in thread ID order, with their wait
 * up to the end; hundreds of threads grow the table.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/offcpu.h"
#include "unit.h"

/* A fake sample: a header and a payload that names it. */
struct fake {
	struct perf_event_header h;
	uint64_t	 tag;
};

static const struct perf_event_header *
fake(struct fake *f, uint64_t tag)
{
	memset(f, 0, sizeof(*f));
	f->h.type = PERF_RECORD_SAMPLE;
	f->h.size = sizeof(*f);
	f->tag = tag;
	return &f->h;
}

static uint64_t
tag_of(const struct perf_event_header *h)
{
	return ((const struct fake *)(const void *)h)->tag;
}

struct flushed {
	int		 n;
	uint64_t	 tags[8];
	uint64_t	 ns[8];
};

static void
collect(void *arg, const struct perf_event_header *h, uint64_t ns)
{
	struct flushed *fl = arg;

	if (fl->n < 8) {
		fl->tags[fl->n] = tag_of(h);
		fl->ns[fl->n] = ns;
	}
	fl->n++;
}

int
main(void)
{
	struct offcpu oc;
	struct fake f;
	struct flushed fl;
	const struct perf_event_header *h;
	uint64_t ns = 0;
	int i, all = 1;

	offcpu_init(&oc, 0);
	offcpu_block(&oc, 100, 1000, fake(&f, 7));
	f.tag = 99;		/* the held sample is a copy */
	h = offcpu_wake(&oc, 100, 5000, &ns);
	CHECK(h != NULL && tag_of(h) == 7 && h->size == sizeof(f),
	    "the switch in gives the held sample back, whole");
	CHECK(ns == 4000, "with the time between switch out and switch in");
	CHECK(offcpu_wake(&oc, 100, 6000, &ns) == NULL && oc.unmatched == 1,
	    "a second switch in gives nothing, and is counted");
	CHECK(offcpu_wake(&oc, 555, 6000, &ns) == NULL,
	    "a thread never seen gives nothing");

	offcpu_block(&oc, 100, 7000, fake(&f, 8));
	offcpu_preempted(&oc, 100);
	CHECK(offcpu_wake(&oc, 100, 9000, &ns) == NULL && oc.preempted == 1,
	    "a preemption is left out when not counted");

	offcpu_block(&oc, 100, 10000, fake(&f, 9));
	offcpu_block(&oc, 100, 12000, fake(&f, 10));
	h = offcpu_wake(&oc, 100, 12500, &ns);
	CHECK(h && tag_of(h) == 10 && ns == 500,
	    "a second switch out replaces the first (its switch in was lost)");

	offcpu_block(&oc, 300, 100, fake(&f, 3));
	offcpu_block(&oc, 200, 200, fake(&f, 2));
	offcpu_block(&oc, 400, 900, fake(&f, 4));
	offcpu_preempted(&oc, 400);
	memset(&fl, 0, sizeof(fl));
	offcpu_flush(&oc, 1000, collect, &fl);
	CHECK(fl.n == 2 && fl.tags[0] == 2 && fl.tags[1] == 3,
	    "the flush gives back the threads still away, by thread ID, "
	    "without the preempted one");
	CHECK(fl.ns[0] == 800 && fl.ns[1] == 900,
	    "each with its wait up to the end");
	memset(&fl, 0, sizeof(fl));
	offcpu_flush(&oc, 2000, collect, &fl);
	CHECK(fl.n == 0, "and forgets them");
	offcpu_block(&oc, 600, 100, fake(&f, 6));
	h = offcpu_wake(&oc, 600, 400, &ns);
	CHECK(h && tag_of(h) == 6 && ns == 300,
	    "a thread that exits blocked gives its wait back");
	offcpu_forget(&oc, 600);
	CHECK(offcpu_wake(&oc, 600, 500, &ns) == NULL,
	    "and is forgotten");

	offcpu_block(&oc, 500, 100, fake(&f, 5));
	offcpu_drop(&oc);
	CHECK(offcpu_wake(&oc, 500, 300, &ns) == NULL && oc.dropped == 1,
	    "after a loss, a held sample is let go, not paired with a later "
	    "switch in");
	offcpu_release(&oc);

	offcpu_init(&oc, 1);
	offcpu_block(&oc, 100, 7000, fake(&f, 8));
	offcpu_preempted(&oc, 100);
	h = offcpu_wake(&oc, 100, 9000, &ns);
	CHECK(h && tag_of(h) == 8 && ns == 2000 && oc.preempted == 1,
	    "a preemption counts when asked (--wall)");
	offcpu_block(&oc, 100, 9500, fake(&f, 9));
	CHECK(offcpu_wake(&oc, 100, 9000, &ns) != NULL && ns == 0,
	    "a switch in stamped before the switch out gives 0, not a wrap");

	for (i = 1; i <= 1000; i++)
		offcpu_block(&oc, i, (uint64_t)i, fake(&f, (uint64_t)i));
	for (i = 1000; i >= 1; i--) {
		h = offcpu_wake(&oc, i, 5000, &ns);
		if (h == NULL || tag_of(h) != (uint64_t)i ||
		    ns != 5000 - (uint64_t)i)
			all = 0;
	}
	CHECK(all, "a thousand threads away at once each get their own back");
	offcpu_release(&oc);
	return unit_done();
}
