/*
 * test_perfdecode: the perf record decoder on records laid out here by
 * hand, as the kernel writes them for the attribute perf_attr_fill asks
 * for: samples with a callchain (fp) and with registers and a stack copy
 * (dwarf), the side band (mmap, mmap2 with a build ID, comm, fork, exit,
 * lost, throttle), and records that are cut short or whose lengths point
 * past their end, which must reach the sink not at all.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perf/cursor.h"
#include "perf/perfdecode.h"
#include "unit.h"

/* A record being built: the header first, then the body. */
struct rec {
	unsigned char	 buf[4096 + 8];
	size_t		 len;
};

static void
rec_start(struct rec *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };

	memset(r, 0, sizeof(*r));
	memcpy(r->buf, &h, sizeof(h));
	r->len = sizeof(h);
}

static void
put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->buf + r->len, p, n);
	r->len += n;
}

static void
put64(struct rec *r, uint64_t v)
{
	put(r, &v, 8);
}

static void
put32(struct rec *r, uint32_t v)
{
	put(r, &v, 4);
}

/* Ends the record: its size, and a sample_id_all trailer when asked. */
static const struct perf_event_header *
rec_end(struct rec *r, int trailer, uint64_t time)
{
	struct perf_event_header *h = (void *)r->buf;

	if (trailer) {
		put32(r, 7);
		put32(r, 8);
		put64(r, time);
		put64(r, 0);
	}
	h->size = (uint16_t)r->len;
	return h;
}

/* The sink keeps the last event, a copy of its strings, and a count. */
struct got {
	int		 n;
	struct source_event ev;
	char		 str[256];
	uint64_t	 chain[256];
	unsigned char	 stack[256];
	unsigned char	 bid[20];
};

static void
keep(void *arg, const struct source_event *ev)
{
	struct got *g = arg;

	g->n++;
	g->ev = *ev;
	if (ev->kind == SOURCE_SAMPLE) {
		const struct source_sample *s = &ev->u.sample;

		if (s->nr <= 256)
			memcpy(g->chain, s->callchain, s->nr * 8);
		if (s->stack && s->stack_len <= sizeof(g->stack))
			memcpy(g->stack, s->stack, s->stack_len);
		snprintf(g->str, sizeof(g->str), "%s", s->event);
	} else if (ev->kind == SOURCE_MMAP) {
		snprintf(g->str, sizeof(g->str), "%s", ev->u.mmap.path);
		if (ev->u.mmap.buildid)
			memcpy(g->bid, ev->u.mmap.buildid, ev->u.mmap.buildid_len);
	} else if (ev->kind == SOURCE_COMM) {
		snprintf(g->str, sizeof(g->str), "%s", ev->u.comm.name);
	}
}

/* Decodes h (copied to an odd address) and returns what the sink got. */
static int
decode(struct perf_decoder *d, const struct perf_event_header *h,
    struct got *g)
{
	static unsigned char odd[4096 + 16];
	struct source_sink sink = { keep, g };

	memset(g, 0, sizeof(*g));
	memcpy(odd + 1, h, h->size);
	return perf_decode(d, (const void *)(odd + 1), &sink);
}

/* The fixed head of a sample. */
static void
sample_head(struct rec *r, uint64_t nr)
{
	rec_start(r, PERF_RECORD_SAMPLE, 0);
	put64(r, 0x401000);		/* ip */
	put32(r, 100);			/* pid */
	put32(r, 101);			/* tid */
	put64(r, 5000000123ULL);	/* time */
	put32(r, 1);			/* cpu */
	put32(r, 0);			/* res */
	put64(r, 250000);		/* period */
	put64(r, nr);
}

static void
test_fp(void)
{
	struct perf_decoder d;
	struct rec r;
	struct got g;
	const struct perf_event_header *h;
	uint64_t i;

	perf_decoder_init(&d, 0, "cpu-clock");
	sample_head(&r, 5);
	put64(&r, PERF_CONTEXT_KERNEL);
	put64(&r, 0xffffffff81000010ULL);
	put64(&r, PERF_CONTEXT_USER);
	put64(&r, 0x401234);
	put64(&r, 0x401100);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 1 && g.n == 1, "an fp sample reaches the sink");
	CHECK(g.ev.kind == SOURCE_SAMPLE && g.ev.pid == 100 && g.ev.tid == 101,
	    "its pid and tid");
	CHECK(g.ev.time == 5000000123ULL && g.ev.u.sample.cpu == 1 &&
	    g.ev.u.sample.period == 250000, "its time, CPU and period");
	CHECK_STR(g.str, "cpu-clock", "its event name");
	CHECK(g.ev.u.sample.nr == 5 && g.chain[0] == PERF_CONTEXT_KERNEL &&
	    g.chain[1] == 0xffffffff81000010ULL && g.chain[4] == 0x401100,
	    "its callchain, markers and all");
	CHECK(!g.ev.u.sample.chain_cut && g.ev.u.sample.regs_valid == 0 &&
	    g.ev.u.sample.stack == NULL, "no cut, no registers, no stack");
	CHECK(perf_record_time(h) == 5000000123ULL, "a sample's time for the queue");

	/* The last 8 bytes of the callchain are missing. */
	r.len -= 8;
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0,
	    "a callchain longer than its record is skipped");
	r.len = 40;
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0,
	    "a sample shorter than its fixed head is skipped");

	sample_head(&r, PERF_MAX_STACK);
	for (i = 0; i < PERF_MAX_STACK; i++)
		put64(&r, 0x401000 + i);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 1 && g.ev.u.sample.chain_cut,
	    "a callchain at the kernel's depth limit is marked cut");
	perf_decoder_release(&d);
}

static void
test_dwarf(void)
{
	struct perf_decoder d;
	struct rec r;
	struct got g;
	const struct perf_event_header *h;
	uint64_t i;

	perf_decoder_init(&d, 1, "task-clock");
	sample_head(&r, 2);
	put64(&r, PERF_CONTEXT_KERNEL);
	put64(&r, 0xffffffff81000020ULL);
	put64(&r, PERF_SAMPLE_REGS_ABI_64);
	/* perf's order: AX BX CX DX SI DI BP SP IP R8..R15 */
	for (i = 0; i < PERF_REGS_COUNT; i++)
		put64(&r, 0x1000 + i);
	put64(&r, 32);			/* stack size */
	for (i = 0; i < 32; i++)
		put(&r, &(unsigned char){ (unsigned char)(0xa0 + i) }, 1);
	put64(&r, 24);			/* dynamic size */
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 1, "a dwarf sample reaches the sink");
	CHECK(g.ev.u.sample.regs_valid == (1u << PERF_DWARF_NREGS) - 1,
	    "all registers are valid");
	CHECK(g.ev.u.sample.regs[PERF_DWARF_SP] == 0x1007 &&
	    g.ev.u.sample.regs[PERF_DWARF_RA] == 0x1008 &&
	    g.ev.u.sample.regs[1] == 0x1003 && g.ev.u.sample.regs[8] == 0x1009,
	    "registers come in DWARF numbering (rsp, rip, rdx, r8)");
	CHECK(g.ev.u.sample.stack_len == 24 && g.stack[0] == 0xa0 &&
	    g.stack[23] == 0xa0 + 23, "the stack copy is its dynamic size");
	CHECK(g.ev.u.sample.nr == 2 && g.chain[1] == 0xffffffff81000020ULL,
	    "the kernel callchain comes too");

	/* A dynamic size past the copy is cut to the copy. */
	memcpy(r.buf + r.len - 8, &(uint64_t){ 4096 }, 8);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 1 && g.ev.u.sample.stack_len == 32,
	    "a dynamic size above the copy's is cut to it");

	/* The stack size says more than the record holds. */
	memcpy(r.buf + r.len - 8 - 32 - 8, &(uint64_t){ 40 }, 8);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0,
	    "a stack copy longer than its record is skipped");
	memcpy(r.buf + r.len - 8 - 32 - 8, &(uint64_t){ UINT64_MAX - 7 }, 8);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0,
	    "a stack size near 2^64 is skipped, not wrapped");

	/* No user registers (a kernel thread): a size-0 stack follows. */
	sample_head(&r, 0);
	put64(&r, PERF_SAMPLE_REGS_ABI_NONE);
	put64(&r, 0);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 1 && g.ev.u.sample.regs_valid == 0 &&
	    g.ev.u.sample.stack_len == 0, "a sample without user registers");

	/* Registers promised but missing. */
	sample_head(&r, 0);
	put64(&r, PERF_SAMPLE_REGS_ABI_64);
	put64(&r, 1);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0,
	    "registers cut short are skipped");
	perf_decoder_release(&d);
}

static void
mmap2(struct rec *r, uint16_t misc, uint32_t pid, uint32_t prot,
    const char *name, size_t namelen)
{
	uint8_t bid[24];

	rec_start(r, PERF_RECORD_MMAP2, misc);
	put32(r, pid);
	put32(r, pid + 1);
	put64(r, 0x400000);
	put64(r, 0x2000);
	put64(r, 0x1000);
	memset(bid, 0, sizeof(bid));
	bid[0] = 25;			/* more than 20: cut to 20 */
	bid[4] = 0xab;
	bid[23] = 0xcd;
	put(r, bid, sizeof(bid));
	put32(r, prot);
	put32(r, MAP_PRIVATE);
	put(r, name, namelen);
	while (r->len % 8)
		put(r, "", 1);
}

static void
test_sideband(void)
{
	struct perf_decoder d;
	struct rec r;
	struct got g;
	const struct perf_event_header *h;

	perf_decoder_init(&d, 1, "cpu-clock");

	mmap2(&r, PERF_RECORD_MISC_MMAP_BUILD_ID, 42, PROT_READ | PROT_EXEC,
	    "/usr/bin/x", 11);
	h = rec_end(&r, 1, 777);
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_MMAP &&
	    g.ev.pid == 42 && g.ev.tid == 43, "an executable mmap2 and its pid");
	CHECK(g.ev.u.mmap.addr == 0x400000 && g.ev.u.mmap.len == 0x2000 &&
	    g.ev.u.mmap.pgoff == 0x1000, "its address, length and offset");
	CHECK_STR(g.str, "/usr/bin/x", "its file name");
	CHECK(g.ev.u.mmap.buildid_len == 20 && g.bid[0] == 0xab &&
	    g.bid[19] == 0xcd, "its build ID, cut to 20 bytes");
	CHECK(g.ev.time == 777 && perf_record_time(h) == 777,
	    "its time from the sample_id_all trailer");

	mmap2(&r, 0, 42, PROT_READ | PROT_EXEC, "/usr/bin/x", 11);
	h = rec_end(&r, 1, 777);
	CHECK(decode(&d, h, &g) == 1 && g.ev.u.mmap.buildid == NULL,
	    "an mmap2 without a build ID has none");
	mmap2(&r, 0, 42, PROT_READ | PROT_WRITE, "/data", 6);
	h = rec_end(&r, 1, 777);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0, "a data mapping is skipped");
	mmap2(&r, 0, (uint32_t)-1, PROT_EXEC, "/x", 3);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0, "pid -1 is skipped");
	mmap2(&r, 0, 42, PROT_EXEC, "/xxxxxxx", 8);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0,
	    "a file name without its NUL is skipped");
	r.len = 8 + 60;
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0,
	    "an mmap2 shorter than its fixed part is skipped");

	rec_start(&r, PERF_RECORD_MMAP, 0);
	put32(&r, 9);
	put32(&r, 9);
	put64(&r, 0x1000);
	put64(&r, 0x3000);
	put64(&r, 0);
	put(&r, "/lib/a.so\0\0\0\0\0\0", 16);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_MMAP &&
	    g.ev.u.mmap.len == 0x3000, "an mmap (no 2)");
	CHECK_STR(g.str, "/lib/a.so", "its file name");
	((struct perf_event_header *)r.buf)->misc = PERF_RECORD_MISC_MMAP_DATA;
	CHECK(decode(&d, h, &g) == 0 && g.n == 0, "an mmap of data is skipped");

	rec_start(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put32(&r, 50);
	put32(&r, 51);
	put(&r, "worker\0\0", 8);
	h = rec_end(&r, 1, 5);
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_COMM &&
	    g.ev.pid == 50 && g.ev.tid == 51 && g.ev.u.comm.exec,
	    "a comm record of an exec");
	CHECK_STR(g.str, "worker", "its name");
	rec_start(&r, PERF_RECORD_COMM, 0);
	put32(&r, 50);
	put32(&r, 51);
	put(&r, "abcdefgh", 8);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0,
	    "a comm name without its NUL is skipped");

	rec_start(&r, PERF_RECORD_FORK, 0);
	put32(&r, 60);
	put32(&r, 59);
	put32(&r, 61);
	put32(&r, 58);
	put64(&r, 0);
	h = rec_end(&r, 1, 9);
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_FORK &&
	    g.ev.pid == 60 && g.ev.u.fork.ppid == 59 && g.ev.tid == 61 &&
	    g.ev.u.fork.ptid == 58, "a fork: pid, ppid, tid, ptid");
	((struct perf_event_header *)r.buf)->type = PERF_RECORD_EXIT;
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_EXIT &&
	    g.ev.pid == 60 && g.ev.tid == 61, "an exit: pid and tid");
	r.len = 8 + 12;
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0, "a short exit is skipped");

	rec_start(&r, PERF_RECORD_LOST, 0);
	put64(&r, 1);
	put64(&r, 12345);
	h = rec_end(&r, 1, 0);
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_LOST &&
	    g.ev.u.lost == 12345, "a lost record and its count");
	rec_start(&r, PERF_RECORD_LOST_SAMPLES, 0);
	put64(&r, 77);
	h = rec_end(&r, 1, 0);
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_LOST &&
	    g.ev.u.lost == 77, "a lost-samples record and its count");
	rec_start(&r, PERF_RECORD_THROTTLE, 0);
	put64(&r, 0);
	put64(&r, 1);
	put64(&r, 2);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_THROTTLE,
	    "a throttle record");
	rec_start(&r, PERF_RECORD_AUX, 0);
	put64(&r, 0);
	h = rec_end(&r, 0, 0);
	CHECK(decode(&d, h, &g) == 0 && g.n == 0, "other kinds are skipped");
	rec_start(&r, PERF_RECORD_SAMPLE, 0);
	h = rec_end(&r, 0, 0);
	((struct perf_event_header *)r.buf)->size = 4;
	CHECK(decode(&d, h, &g) == 0 && g.n == 0 && perf_record_time(h) == 0,
	    "a size below the header's is skipped, with no time");
	perf_decoder_release(&d);
}

/* The one bounds-checked reader of records and feature sections. */
static void
test_cursor(void)
{
	unsigned char b[14];
	uint64_t w = 0x1122334455667788ULL;
	uint32_t v = 0xdeadbeef;
	struct cursor c;

	memcpy(b, &v, 4);
	memcpy(b + 4, &w, 8);
	b[12] = 'x';
	b[13] = 'y';
	cursor_init(&c, b, sizeof(b));
	CHECK_UINT(cursor_u32(&c), 0xdeadbeef, "cursor: a word of 4 bytes");
	CHECK_UINT(cursor_u64(&c), w, "cursor: a word of 8 bytes, unaligned");
	CHECK_UINT(cursor_left(&c), 2, "cursor: 2 bytes left");
	CHECK(!c.bad, "cursor: not bad while within its range");
	CHECK_UINT(cursor_u32(&c), 0, "cursor: a word past the end reads 0");
	CHECK(c.bad, "cursor: ... and marks it bad");
	CHECK_UINT(cursor_left(&c), 0, "cursor: a bad one has nothing left");
	CHECK(c.p == b + 12, "cursor: ... and did not move");
	CHECK(cursor_skip(&c, 0) == NULL, "cursor: bad stays bad");
	cursor_init(&c, b, sizeof(b));
	CHECK(cursor_skip(&c, 12) == b, "cursor: a skip returns where it starts");
	CHECK(cursor_skip(&c, 2) == b + 12 && !c.bad,
	    "cursor: a skip to the very end is within it");
	CHECK(cursor_skip(&c, UINT64_MAX) == NULL && c.bad,
	    "cursor: a skip of any length past the end is bad");
}

/* The thread and period the perf source asks of a record. */
static void
test_thread(void)
{
	struct perf_decoder d;
	struct rec r;
	const struct perf_event_header *h;
	uint64_t period;

	perf_decoder_init(&d, 0, "cpu-clock");
	sample_head(&r, 0);
	h = rec_end(&r, 0, 0);
	CHECK_INT(perf_record_tid(&d, h), 101, "a sample's thread");
	CHECK(perf_sample_period(&d, h, &period) == 0 && period == 250000,
	    "a sample's period");
	r.len = 8 + 16;
	h = rec_end(&r, 0, 0);
	CHECK_INT(perf_record_tid(&d, h), 101,
	    "a sample cut after its thread still says it");
	CHECK(perf_sample_period(&d, h, &period) == -1 && period == 0,
	    "... but has no period");
	r.len = 8 + 12;
	h = rec_end(&r, 0, 0);
	CHECK_INT(perf_record_tid(&d, h), 0, "a sample cut in its thread: 0");
	rec_start(&r, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
	h = rec_end(&r, 1, 555);
	CHECK_INT(perf_record_tid(&d, h), 8, "a switch's thread, its sample_id's");
	CHECK(perf_sample_period(&d, h, &period) == -1,
	    "a switch has no period");
	rec_start(&r, PERF_RECORD_EXIT, 0);
	put32(&r, 60);
	put32(&r, 1);
	put32(&r, 61);
	put32(&r, 1);
	put64(&r, 555);
	h = rec_end(&r, 1, 555);
	CHECK_INT(perf_record_tid(&d, h), 61,
	    "an exit's thread is the one that exits, not the trailer's");
	r.len = 8 + 8;
	h = rec_end(&r, 0, 0);
	CHECK_INT(perf_record_tid(&d, h), 0, "an exit cut before its thread: 0");
	rec_start(&r, PERF_RECORD_COMM, 0);
	put32(&r, 50);
	put32(&r, 51);
	put64(&r, 0);
	h = rec_end(&r, 1, 555);
	CHECK_INT(perf_record_tid(&d, h), 0, "other records: 0");
	perf_decoder_release(&d);
}

/*
 * perf record -c N: a fixed sample_period and no PERIOD in sample_type.
 * Each sample's period is the attribute's; with -F (freq) it is unknown.
 */
static void
test_fixed_period(void)
{
	struct perf_event_attr a;
	struct perf_decoder d;
	struct rec r;
	struct got g;
	const struct perf_event_header *h;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_period = 10000;
	rec_start(&r, PERF_RECORD_SAMPLE, 0);
	put64(&r, 0x401000);		/* ip */
	put32(&r, 100);			/* pid */
	put32(&r, 101);			/* tid */
	put64(&r, 5000000123ULL);	/* time */
	h = rec_end(&r, 0, 0);
	perf_decoder_init_attr(&d, &a, "cpu-clock");
	CHECK(decode(&d, h, &g) == 1 && g.ev.kind == SOURCE_SAMPLE &&
	    g.ev.u.sample.period == 10000,
	    "-c 10000: a sample with no period field has the attribute's");
	perf_decoder_release(&d);
	a.freq = 1;
	a.sample_freq = 999;
	perf_decoder_init_attr(&d, &a, "cpu-clock");
	CHECK(decode(&d, h, &g) == 1 && g.ev.u.sample.period == 0,
	    "-F 999 and no period field: 0, not the frequency");
	perf_decoder_release(&d);
}

int
main(void)
{
	test_fixed_period();
	test_cursor();
	test_thread();
	test_fp();
	test_dwarf();
	test_sideband();
	return unit_done();
}
