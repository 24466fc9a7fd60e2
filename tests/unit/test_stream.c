/*
 * Unit tests of common/stream/stream.c's sample heads, read from the
 * right: a thread name of any bytes (spaces, slashes, brackets, colons,
 * digits) leaves the PID, TID, CPU, time, period and event alone, in
 * fgrecord's layout and in perf script's (COMM padded, PID/TID or a TID,
 * optional [CPU], TIME:, optional PERIOD, EVENT:, one-line samples).
 */
#include <stdio.h>
#include <string.h>

#include "stream/stream.h"
#include "unit.h"

static int
str_is_c(struct stream_str s, const char *c)
{
	return s.len == strlen(c) && (s.len == 0 || memcmp(s.p, c, s.len) == 0);
}

/* One head: its kind must be a sample with these fields. */
static void
head(const char *line, const char *comm, const char *pid, const char *tid,
    const char *event, uint64_t period, uint64_t ns, const char *what)
{
	struct stream_sample s;
	uint64_t t = 0;
	int ok;

	memset(&s, 0, sizeof(s));
	ok = stream_classify(line, strlen(line), &s, NULL) == STREAM_SAMPLE;
	if (ok && !str_is_c(s.comm, comm))
		printf("# comm '%.*s'\n", (int)s.comm.len, s.comm.p);
	if (ok && !str_is_c(s.tid, tid))
		printf("# tid '%.*s'\n", (int)s.tid.len, s.tid.p);
	ok = ok && str_is_c(s.comm, comm) && str_is_c(s.pid, pid) &&
	    str_is_c(s.tid, tid) && str_is_c(s.event, event) &&
	    s.period == period;
	if (ns != 0)
		ok = ok && stream_sample_time(&s, line, strlen(line), &t) &&
		    t == ns;
	CHECK(ok, what);
}

int
main(void)
{
	struct stream_sample s;
	struct stream_frame f;
	const char *l;

	/* fgrecord's layout */
	head("a 1/1 4242/4243 [001] 5.000000: 1000 cpu-clock:", "a 1/1",
	    "4242", "4243", "cpu-clock", 1000, 5000000000ULL,
	    "fgrecord: 'a 1/1' is a name, not PID 1 TID 1");
	head("x [001] 1.0: 4242/4243 [002] 5.000001: 7 cpu-clock:",
	    "x [001] 1.0:", "4242", "4243", "cpu-clock", 7, 5000001000ULL,
	    "fgrecord: 'x [001] 1.0:' is a name, not a CPU and a time");
	head("b: c 10/11 [000] 2.5: 3 offcpu-time:", "b: c", "10", "11",
	    "offcpu-time", 3, 2500000000ULL, "fgrecord: 'b: c'");
	head("worker 1 x 10/11 [000] 2.5: 3 cpu-clock:", "worker 1 x", "10",
	    "11", "cpu-clock", 3, 0, "fgrecord: 'worker 1 x' reads back whole");
	head("1 2/3 [4] 5.6: 10/11 [001] 7.000000: 1 cpu-clock:",
	    "1 2/3 [4] 5.6:", "10", "11", "cpu-clock", 1, 7000000000ULL,
	    "fgrecord: a 14-byte name of head fields");
	head("kworker/0:1-eve 9/9 [003] 1.000000: 1 cpu-clock:",
	    "kworker/0:1-eve", "9", "9", "cpu-clock", 1, 0,
	    "fgrecord: a 15-byte kernel thread name");
	head("a 1 1.0: e: 10/11 [000] 3.000000: 5 cpu-clock:", "a 1 1.0: e:",
	    "10", "11", "cpu-clock", 5, 3000000000ULL,
	    "fgrecord: a name that is a whole head");

	/* perf script's layouts */
	head("           a 1/1    4242/4243  [001]     5.000000:       1000 "
	    "cpu-clock:ppp: ", "a 1/1", "4242", "4243", "cpu-clock:ppp", 1000,
	    5000000000ULL, "perf script: padded, PID/TID, CPU, period");
	head("a 1/1  4243 [001] 5.000000: 250000 cpu-clock:", "a 1/1", "",
	    "4243", "cpu-clock", 250000, 0, "perf script: a TID alone");
	head("  :-1    -1/-1  [000]     5.000000:          1 cpu-clock:",
	    ":-1", "-1", "-1", "cpu-clock", 1, 5000000000ULL,
	    "perf script: -1/-1, a sample of no task");
	head("swapper -1 [000] 5.000000: 1 cpu-clock:", "swapper", "", "-1",
	    "cpu-clock", 1, 5000000000ULL, "perf script: a TID of -1 alone");
	head("a -1/-1 5.0: e:", "a", "-1", "-1", "e", 1, 5000000000ULL,
	    "no CPU, -1/-1");
	l = "a 1-1 5.0: e:";
	CHECK(stream_classify(l, strlen(l), &s, NULL) != STREAM_SAMPLE,
	    "a '-' inside digits is no sign: no head");
	head("x [001] 1.0:    4243     5.000000: cpu-clock:", "x [001] 1.0:",
	    "", "4243", "cpu-clock", 1, 5000000000ULL,
	    "perf script: no CPU, no period");
	head("b: c 4243 [000] 12.5: sched:sched_switch:", "b: c", "", "4243",
	    "sched:sched_switch", 1, 0, "perf script: an event with a colon");
	head("perf 123 cpu-clock:", "perf", "", "123", "cpu-clock", 1, 0,
	    "perf script -F without a time: still read");

	/* one-line samples (perf record without -g) */
	l = "    x [001] 1.0: 4243 [001] 5.000000: 1000 cpu-clock: 7f8c12a4 "
	    "update+0x270 (/usr/lib/ld.so)";
	CHECK(stream_classify(l, strlen(l), &s, NULL) == STREAM_SAMPLE &&
	    s.has_frame && str_is_c(s.comm, "x [001] 1.0:") &&
	    str_is_c(s.tid, "4243") && str_is_c(s.frame.addr, "7f8c12a4") &&
	    str_is_c(s.frame.dso, "/usr/lib/ld.so") && s.period == 1000,
	    "one-line: padded, the name 'x [001] 1.0:', the frame after");
	l = "b: c 4243 [001] 5.000000: 1000 cpu-clock: 10 main: x (/bin/a)";
	CHECK(stream_classify(l, strlen(l), &s, NULL) == STREAM_SAMPLE &&
	    s.has_frame && str_is_c(s.comm, "b: c") &&
	    str_is_c(s.frame.sym, "main: x"), "one-line: 'b: c', a ': ' in the symbol");

	/* what is no head */
	l = "a;b 12";
	CHECK(stream_classify(l, strlen(l), NULL, NULL) == STREAM_OTHER,
	    "a folded line is no head");
	l = "\t7f ns::f(a 1 1.0:) (/x)";
	CHECK(stream_classify(l, strlen(l), NULL, &f) == STREAM_FRAME &&
	    str_is_c(f.sym, "ns::f(a 1 1.0:)"), "a frame with colons is a frame");
	l = "\t7f x (/x)";
	CHECK(!stream_indented_head(l, strlen(l)), "a frame is no indented head");
	l = "        sh 9068 [000] 3459.250647: 1 cpu-clock: 7f a (/b)";
	CHECK(stream_indented_head(l, strlen(l)), "a padded one-line head is one");
	/* the heap events, and fgfold's leaf that names them */
	CHECK_INT(stream_ev_of("alloc-bytes", 11), STREAM_EV_ALLOC_BYTES,
	    "heap: alloc-bytes");
	CHECK_INT(stream_ev_of("inuse-objects:u", 15),
	    STREAM_EV_INUSE_OBJECTS, "heap: a modifier is no other event");
	CHECK_INT(stream_ev_of("alloc-byte", 10), STREAM_EV_OTHER,
	    "heap: a prefix is no heap event");
	CHECK_INT(stream_ev_of(NULL, 0), STREAM_EV_OTHER,
	    "no event is another event");
	CHECK_INT(stream_ev_frame("[inuse-bytes]", 13), STREAM_EV_INUSE_BYTES,
	    "heap: the leaf [inuse-bytes]");
	CHECK_INT(stream_ev_frame("alloc-bytes", 11), STREAM_EV_OTHER,
	    "heap: a function named alloc-bytes is no leaf");
	CHECK_INT(stream_ev_frame("[]", 2), STREAM_EV_OTHER,
	    "heap: [] is no leaf");
	CHECK_INT(stream_ev_frame("[offcpu-time]", 13), STREAM_EV_OTHER,
	    "heap: [offcpu-time] is no heap leaf");
	CHECK(stream_ev_bytes(STREAM_EV_INUSE_BYTES) &&
	    !stream_ev_bytes(STREAM_EV_ALLOC_OBJECTS) &&
	    !stream_ev_bytes(STREAM_EV_OTHER), "heap: bytes or counts");
	CHECK(stream_ev_heap(STREAM_EV_ALLOC_BYTES) &&
	    stream_ev_heap(STREAM_EV_INUSE_OBJECTS) &&
	    !stream_ev_heap(STREAM_EV_OFFCPU) && !stream_ev_heap(STREAM_EV_OTHER),
	    "heap: the four heap events, no other");
	/* the event as an enum, read once from the head */
	{
		static const struct { const char *line; enum stream_ev ev; } h[] = {
			{ "app 42/43 [001] 1.000000: 250000 cpu-clock:", STREAM_EV_OTHER },
			{ "app 42/43 [001] 1.000000: 9000 offcpu-time:", STREAM_EV_OFFCPU },
			{ "app 42/43 1.000000: 64 alloc-bytes:", STREAM_EV_ALLOC_BYTES },
			{ "app 42/43 1.000000: 1 alloc-objects:", STREAM_EV_ALLOC_OBJECTS },
			{ "app 42/43 1.000000: 64 inuse-bytes:", STREAM_EV_INUSE_BYTES },
			{ "app 42/43 1.000000: 1 inuse-objects:", STREAM_EV_INUSE_OBJECTS },
			{ "app 42/43 1.000000: 1 offcpu-timer:", STREAM_EV_OTHER },
			{ "app 42/43 1.000000: 1 offcpu-time:u:", STREAM_EV_OFFCPU },
		};
		struct stream_sample s;
		size_t k;
		int ok = 1;

		for (k = 0; k < sizeof(h) / sizeof(h[0]); k++) {
			s.ev = (enum stream_ev)99;
			if (stream_classify(h[k].line, strlen(h[k].line), &s,
			    NULL) != STREAM_SAMPLE || s.ev != h[k].ev) {
				printf("# %s: %d\n", h[k].line, (int)s.ev);
				ok = 0;
			}
		}
		CHECK(ok, "a head's event read as its enum (modifiers off, "
		    "a longer name is another event)");
		CHECK(stream_ev_name(STREAM_EV_OFFCPU) != NULL &&
		    strcmp(stream_ev_name(STREAM_EV_OFFCPU), "offcpu-time") == 0 &&
		    strcmp(stream_ev_name(STREAM_EV_INUSE_OBJECTS),
		    "inuse-objects") == 0 &&
		    stream_ev_name(STREAM_EV_OTHER) == NULL,
		    "each enum's name; none for another event");
	}
	return unit_done();
}
