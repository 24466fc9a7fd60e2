/* Unit tests of profile/stacks: a stream read into unique stacks of raw
 * frames, per side and thread, with the order things were first seen. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profile/stacks.h"
#include "stream/stream.h"
#include "unit.h"

static int
read_stream(struct stacks *s, const char *text, const char *name)
{
	int fd = unit_memfd(text, strlen(text)), rv = stacks_stream(s, fd, name);

	close(fd);
	return rv;
}

/* The location ids of a stack's key, after its side and thread. */
static size_t
key_locs(const struct intern_entry *e, int *side, size_t *thread,
    uint64_t *ids, size_t max)
{
	const uint8_t *k = (const uint8_t *)e->key, *end = k + e->len;
	size_t n = 0;

	*side = stacks_key_side(&k);
	*thread = stacks_key_thread(&k);
	while (k < end && n < max)
		ids[n++] = buf_varint_get(&k);
	return n;
}

/* Location id as "ADDR name dso file:line|..." for its frames. */
static const char *
loc(const struct stacks *s, size_t id, char *out, size_t outsz)
{
	const uint8_t *ids;
	uint64_t addr;
	size_t n = stacks_loc(s, id, &addr, &ids), i, len;

	len = snprintf(out, outsz, "%llx", (unsigned long long)addr);
	for (i = 0; i < n && len < outsz; i++) {
		const struct stacks_frame *f = &s->frm[buf_varint_get(&ids)];

		len += snprintf(out + len, outsz - len, " %.*s %.*s%s %.*s:%llu%s",
		    (int)f->nlen, f->name, (int)f->dlen, f->dso,
		    f->inlined ? "!" : "", (int)f->flen, f->file ? f->file : "",
		    (unsigned long long)f->line, i + 1 < n ? " |" : "");
	}
	return out;
}

/*
 * A group of inlined frames and their source lines is one location; the
 * same sample again adds to its stack and nothing else; a thread and a
 * side make stacks apart.
 */
static void
test_groups(void)
{
	static const char text[] =
	    "# ========\n"
	    "# cmdline : /usr/bin/app --fast x\n"
	    "# buildid : 0123abcd /usr/bin/app\n"
	    "# event : cpu-clock freq 1000\n"
	    "# ========\n"
	    "app 7/7 [000] 1.000000: 1000000 cpu-clock:\n"
	    "\t1f3a4 inner (inlined)\n  app.c:3\n"
	    "\t1f3a4 main+0x4 (/usr/bin/app)\n  app.c:9\n"
	    "\t1f000 _start+0x4 (/usr/bin/app)\n\n"
	    "app 7/7 [000] 2.000000: 1000000 cpu-clock:\n"
	    "\t1f3a4 inner (inlined)\n  app.c:3\n"
	    "\t1f3a4 main+0x4 (/usr/bin/app)\n  app.c:9\n"
	    "\t1f000 _start+0x4 (/usr/bin/app)\n\n"
	    "app 7/8 [000] 2.500000: 1000000 cpu-clock:\n"
	    "\t1f000 _start+0x4 (/usr/bin/app)\n\n"
	    "# buildid : 4567ef /usr/bin/app\n"
	    "# lost : 3\n"
	    "app 7/7 [000] 3.000000: 2000000000 offcpu-time:\n"
	    "\t1f000 _start+0x4 (/usr/bin/app)\n\n";
	struct stacks s;
	const struct intern_entry *e;
	uint64_t ids[8];
	size_t n, th, i;
	int side, ok;
	char b[256];

	stacks_init(&s);
	CHECK_INT(read_stream(&s, text, "groups"), 0, "a clean stream");
	CHECK_UINT(s.nsamples, 4, "four samples");
	CHECK_UINT(s.locs.n, 2, "two locations: the inlined group, _start");
	CHECK_STR(loc(&s, 1, b, sizeof(b)),
	    "1f3a4 inner inlined! app.c:3 | main /usr/bin/app app.c:9",
	    "a location: its inlined frame, the frame holding it, their lines");
	CHECK_STR(loc(&s, 2, b, sizeof(b)), "1f000 _start /usr/bin/app :0",
	    "the next location: no source line");
	CHECK_UINT(s.frames.n, 3, "three raw frames");
	CHECK_UINT(s.stacks.n, 3, "three stacks: one repeated, a thread, off-CPU");
	e = &s.stacks.ents[0];
	n = key_locs(e, &side, &th, ids, 8);
	CHECK(side == STACKS_ON && th == 0 && n == 2 && ids[0] == 1 &&
	    ids[1] == 2, "the first stack: on-CPU, thread 0, leaf first");
	CHECK(e->u[0] == 2 && e->u[1] == 2000000, "its two samples and periods");
	e = &s.stacks.ents[1];
	n = key_locs(e, &side, &th, ids, 8);
	CHECK(side == STACKS_ON && th == 1 && n == 1 && ids[0] == 2,
	    "another thread, another stack");
	e = &s.stacks.ents[2];
	n = key_locs(e, &side, &th, ids, 8);
	CHECK(side == STACKS_OFF && th == 0 && n == 1 && ids[0] == 2 &&
	    e->u[1] == 2000000000, "off-CPU time: a stack of its own");
	CHECK_UINT(s.threads.n, 2, "two threads");
	CHECK(s.thr[1].pid == 7 && s.thr[1].tid == 8 && s.thr[1].commlen == 3 &&
	    memcmp(s.threads.ents[1].key, "app", 3) == 0, "a thread's values");
	CHECK(s.has_on && s.has_off && s.has_weight, "on, off, weighed");
	CHECK_STR(s.event, "cpu-clock", "the event kept");
	CHECK_STR(s.prog, "app", "the program: the command's file name");
	CHECK_UINT(s.hdr_period, 1000000, "freq 1000: 1 ms");
	CHECK_UINT(s.duration, 4000000000ULL,
	    "duration: the first sample to the off-CPU sample's end");
	e = intern_find(&s.buildids, "/usr/bin/app", 12);
	CHECK(e != NULL && e->u[0] == 1 && s.bids.n == 2,
	    "a file's build ID: the last one said");
	CHECK_UINT(s.notes.n, 2, "two notes");
	CHECK(s.notes.ents[1].key[0] == STACKS_NOTE_LOST &&
	    s.notes.ents[1].len == 2 && s.notes.ents[1].key[1] == '3',
	    "# lost: a note");
	/* note, build ID, thread, (two locations), thread, build ID, note */
	{
		static const int want[][3] = {
			{ STACKS_SEEN_NOTE, 0, 0 }, { STACKS_SEEN_BUILDID, 0, 0 },
			{ STACKS_SEEN_THREAD, 0, 0 }, { STACKS_SEEN_THREAD, 1, 2 },
			{ STACKS_SEEN_BUILDID, 1, 2 }, { STACKS_SEEN_NOTE, 1, 2 },
		};

		ok = s.nseen == sizeof(want) / sizeof(want[0]);
		for (i = 0; ok && i < s.nseen; i++)
			ok = (int)s.seen[i].kind == want[i][0] &&
			    s.seen[i].i == (size_t)want[i][1] &&
			    s.seen[i].locs == (size_t)want[i][2];
		CHECK(ok, "seen: each thing once, in the order first met");
	}
	stacks_release(&s);
}

/*
 * Memory grows with unique stacks: 10,000 repeated samples make one stack
 * and one location; a second event is left out, said once.
 */
static void
test_repeats(void)
{
	struct stacks s;
	size_t i, seen;
	char *text;
	size_t len = 0, cap = 1 << 20;
	const char one[] = "app 7/7 [000] 1.0: 10 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/app)\n\t20 main+0x1 (/bin/app)\n\n";
	const char other[] = "app 7/7 [000] 1.0: 10 cycles:\n"
	    "\t30 g+0x1 (/bin/app)\n\n";
	FILE *olderr;

	text = malloc(cap);
	for (i = 0; i < 10000; i++) {
		const char *p = i % 100 == 99 ? other : one;
		size_t n = i % 100 == 99 ? sizeof(other) - 1 : sizeof(one) - 1;

		if (len + n + 1 > cap)
			abort();
		memcpy(text + len, p, n);
		len += n;
	}
	text[len] = '\0';
	stacks_init(&s);
	fflush(stderr);
	olderr = freopen("/dev/null", "w", stderr);	/* the warning */
	(void)olderr;
	CHECK_INT(read_stream(&s, text, "repeats"), 0,
	    "another event is no bad input");
	CHECK_UINT(s.nsamples, 9900, "the samples of the event kept");
	CHECK_UINT(s.stacks.n, 1, "one stack");
	CHECK_UINT(s.locs.n, 2, "two locations");
	CHECK_UINT(s.stacks.ents[0].u[0], 9900, "its count");
	CHECK_UINT(s.stacks.ents[0].u[1], 99000, "its weight");
	CHECK(s.event_warned, "the other event said");
	seen = s.nseen;
	CHECK_UINT(seen, 1, "seen: the thread, once");
	CHECK_UINT(s.frames.n, 2, "two raw frames: the other event's are not kept");
	stacks_release(&s);
	free(text);
}

/* Sums stop at 2^63-1, and say so. */
static void
test_saturate(void)
{
	struct stacks s;

	stacks_init(&s);
	CHECK_INT(read_stream(&s,
	    "app 7/7 [000] 1.0: 9223372036854775807 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/app)\n\n"
	    "app 7/7 [000] 1.0: 5 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/app)\n\n", "sat"), 0, "two samples");
	CHECK(s.saturated && s.stacks.ents[0].u[1] == INT64_MAX,
	    "the weight stopped at 2^63-1");
	stacks_release(&s);
}

/*
 * The four heap events are a side each, whatever the on-CPU event is, and
 * weigh their periods; the alloc-bytes event line's period is kept.
 */
static void
test_heap(void)
{
	struct stacks s;
	uint64_t ids[4];
	size_t i, th, seen[4] = { 0 };
	uint64_t w[4] = { 0 };
	int side;

	stacks_init(&s);
	CHECK_INT(read_stream(&s,
	    "# event : alloc-bytes period 65536 callgraph fp\n"
	    "app 7/7 [000] 1.0: 70000 alloc-bytes:\n\t10 f+0x1 (/bin/app)\n\n"
	    "app 7/7 [000] 1.0: 3 alloc-objects:\n\t10 f+0x1 (/bin/app)\n\n"
	    "app 7/7 [000] 2.0: 1000 cpu-clock:\n\t10 f+0x1 (/bin/app)\n\n"
	    "app 7/7 [000] 1.0: 70000 inuse-bytes:\n\t10 f+0x1 (/bin/app)\n\n"
	    "app 7/7 [000] 1.0: 3 inuse-objects:\n\t10 f+0x1 (/bin/app)\n\n",
	    "heap"), 0, "heap: a clean stream, no 'several events'");
	CHECK_UINT(s.heap_period, 65536, "heap: the alloc-bytes period");
	CHECK_INT(s.has_heap, 15, "heap: the four events seen");
	CHECK(s.has_on && !s.has_off, "heap: the clock's sample on-CPU");
	CHECK_UINT(s.stacks.n, 5, "heap: a stack for each side");
	for (i = 0; i < s.stacks.n; i++) {
		key_locs(&s.stacks.ents[i], &side, &th, ids, 4);
		if (side >= STACKS_HEAP && side < STACKS_HEAP + 4) {
			seen[side - STACKS_HEAP]++;
			w[side - STACKS_HEAP] = s.stacks.ents[i].u[1];
		}
	}
	/* sides in the heap events' order: alloc-bytes, alloc-objects, ... */
	CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1,
	    "heap: one stack a heap event");
	CHECK(w[0] == 70000 && w[1] == 3 && w[2] == 70000 && w[3] == 3,
	    "heap: each weighs its period");
	stacks_release(&s);
}

int
main(void)
{
	test_groups();
	test_heap();
	test_saturate();
	test_repeats();
	return unit_done();
}
