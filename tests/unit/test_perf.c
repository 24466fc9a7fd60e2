/*
 * test_perf: the event table, the attribute fgrecord asks for, and the
 * ring-buffer reader on a buffer laid out here by hand: records in order,
 * a record and a header that wrap around the end of the data area, and the
 * tail handed back to the kernel.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf.h"
#include "unit.h"

#define PAGE	4096
#define DATA	(2 * PAGE)

/* The last KEPT records a drain saw, as a ring of their own. */
#define KEPT	16

struct seen {
	int		 n;
	uint32_t	 types[KEPT];
	uint16_t	 sizes[KEPT];
	int		 payload_ok[KEPT];
};

static void
collect(void *arg, const struct perf_event_header *h, int cpu)
{
	struct seen *s = arg;
	const unsigned char *p = (const unsigned char *)(h + 1);
	size_t i;
	int ok = 1;

	(void)cpu;
	for (i = 0; i + sizeof(*h) < h->size; i++)
		if (p[i] != (unsigned char)(h->type + i))
			ok = 0;
	s->types[s->n % KEPT] = h->type;
	s->sizes[s->n % KEPT] = h->size;
	s->payload_ok[s->n % KEPT] = ok;
	s->n++;
}

/* Writes a record of type and size at ring position pos (wrapping). */
static void
put(unsigned char *data, uint64_t pos, uint32_t type, uint16_t size)
{
	unsigned char rec[512];
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };
	size_t i;

	memcpy(rec, &h, sizeof(h));
	for (i = 0; i + sizeof(h) < size; i++)
		rec[sizeof(h) + i] = (unsigned char)(type + i);
	for (i = 0; i < size; i++)
		data[(pos + i) % DATA] = rec[i];
}

static void
test_ring(void)
{
	unsigned char *mem = aligned_alloc(PAGE, PAGE + DATA);
	struct perf_event_mmap_page *pg = (void *)mem;
	struct perf_ring ring;
	struct seen s;
	uint64_t pos;

	memset(mem, 0, PAGE + DATA);
	memset(&ring, 0, sizeof(ring));
	ring.fd = -1;
	ring.base = mem;
	ring.data = mem + PAGE;
	ring.data_size = DATA;

	memset(&s, 0, sizeof(s));
	CHECK(!perf_ring_pending(&ring), "an empty ring has nothing pending");
	CHECK(perf_ring_drain(&ring, collect, &s) == 0, "an empty ring gives no records");

	put(ring.data, 0, 9, 64);
	put(ring.data, 64, 10, 120);
	pg->data_head = 184;
	CHECK(perf_ring_pending(&ring), "written records are pending");
	CHECK(perf_ring_drain(&ring, collect, &s) == 2, "two records come out");
	CHECK(s.types[0] == 9 && s.sizes[0] == 64 && s.payload_ok[0] &&
	    s.types[1] == 10 && s.sizes[1] == 120 && s.payload_ok[1],
	    "in order, whole");
	CHECK(pg->data_tail == 184, "the tail is given back to the kernel");

	/* Fill up to just before the end, then wrap a record's body. */
	pos = 184;
	while (pos + 200 <= DATA - 100) {
		put(ring.data, pos, 3, 200);
		pos += 200;
		pg->data_head = pos;
		perf_ring_drain(&ring, collect, &s);
	}
	memset(&s, 0, sizeof(s));
	put(ring.data, pos, 7, 400);		/* crosses the end */
	pos += 400;
	pg->data_head = pos;
	perf_ring_drain(&ring, collect, &s);
	CHECK(s.n == 1 && s.types[0] == 7 && s.sizes[0] == 400 && s.payload_ok[0],
	    "a record that wraps around comes out whole");
	CHECK(pg->data_tail == pos, "and the tail passes it");

	/* A header split across the end: a record starts 4 bytes before it. */
	{
		uint64_t boundary = (pos / DATA + 1) * DATA;

		while (boundary - 4 - pos > 400) {
			put(ring.data, pos, 3, 200);
			pos += 200;
			pg->data_head = pos;
			perf_ring_drain(&ring, collect, &s);
		}
		put(ring.data, pos, 3, (uint16_t)(boundary - 4 - pos));
		pos = boundary - 4;
		put(ring.data, pos, 11, 48);
		pos += 48;
	}
	memset(&s, 0, sizeof(s));
	pg->data_head = pos;
	perf_ring_drain(&ring, collect, &s);
	CHECK(s.n == 2 && s.types[1] == 11 && s.sizes[1] == 48 && s.payload_ok[1],
	    "a header split across the end is read whole");
	free(ring.scratch);
	free(mem);
}

static void
test_events(void)
{
	const struct perf_event_desc *e;
	struct perf_event_attr a;
	struct perf_opts o;

	e = perf_event_find("cpu-clock");
	CHECK(e && e->type == PERF_TYPE_SOFTWARE && !e->hardware, "cpu-clock is a software event");
	e = perf_event_find("cycles");
	CHECK(e && e->type == PERF_TYPE_HARDWARE && e->hardware, "cycles is a hardware event");
	CHECK(perf_event_find("cpu-cycles-typo") == NULL, "unknown names are refused");

	memset(&o, 0, sizeof(o));
	o.event = perf_event_find("task-clock");
	o.freq = 999;
	o.dwarf = 1;
	o.stack_size = 16384;
	o.inherit = 1;
	o.enable_on_exec = 1;
	o.sideband = 1;
	perf_attr_fill(&a, &o);
	CHECK(a.freq == 1 && a.sample_freq == 999, "a frequency");
	CHECK((a.sample_type & PERF_SAMPLE_STACK_USER) && a.sample_stack_user == 16384 &&
	    a.sample_regs_user == PERF_REGS_MASK && !a.exclude_callchain_user,
	    "dwarf mode copies registers and stack, with the kernel's user callchain");
	CHECK(__builtin_popcountll(PERF_REGS_MASK) == PERF_REGS_COUNT,
	    "the register mask has PERF_REGS_COUNT registers");
	CHECK(a.inherit && a.enable_on_exec && a.disabled && a.sample_id_all &&
	    a.mmap2 && a.comm && a.task, "inherit, enable on exec, side-band records");
	CHECK(a.use_clockid && a.clockid == 1 /* CLOCK_MONOTONIC */, "monotonic times");
	o.dwarf = 0;
	o.period = 12345;
	perf_attr_fill(&a, &o);
	CHECK(!a.freq && a.sample_period == 12345, "a fixed period");
	CHECK(!(a.sample_type & PERF_SAMPLE_STACK_USER) && !a.exclude_callchain_user,
	    "fp mode takes the kernel's callchain");
}

int
main(void)
{
	test_events();
	test_ring();
	return unit_done();
}
