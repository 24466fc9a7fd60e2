/*
 * test_writer: what the stream writer writes, read back with stream.c's
 * parser: every field of headers, sample heads and frames round-trips,
 * hostile names included (spaces, parentheses, control characters, a
 * leading '#' or space), and a few lines are checked byte for byte
 * against what fgrecord has always written.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/stream.h"
#include "stream/writer.h"
#include "unit.h"

/* Checks that two numbers are equal, printing both when not. */
#define CHECK_U64(got, want, what) do {					\
	uint64_t gu_ = (got), wu_ = (want);				\
	unit_n++;							\
	if (gu_ == wu_)							\
		printf("ok %d - %s\n", unit_n, what);			\
	else { unit_failed++;						\
		printf("not ok %d - %s\n#   %s:%d: got %" PRIu64	\
		    ", want %" PRIu64 "\n", unit_n, what, __FILE__,	\
		    __LINE__, gu_, wu_); }				\
} while (0)

/* What a writer call wrote: a memory stream and its contents. */
struct out {
	FILE	*f;
	char	*p;
	size_t	 len;
	char	 str[512];	/* a stream_str as a C string, for CHECK_STR */
};

static void
out_open(struct out *o)
{
	o->p = NULL;
	o->len = 0;
	if ((o->f = open_memstream(&o->p, &o->len)) == NULL) {
		perror("open_memstream");
		exit(2);
	}
}

/* Ends the writing: o->p[0..len) is what was written. */
static void
out_close(struct out *o)
{
	fclose(o->f);
}

static void
out_free(struct out *o)
{
	free(o->p);
	o->p = NULL;
}

/* The single line written, without its newline; NULL unless just one. */
static int
one_line(const struct out *o, size_t *len)
{
	char *nl = memchr(o->p, '\n', o->len);

	if (nl == NULL || (size_t)(nl - o->p) + 1 != o->len)
		return 0;
	*len = nl - o->p;
	return 1;
}

static const char *
cstr(struct out *o, struct stream_str s)
{
	snprintf(o->str, sizeof(o->str), "%.*s", (int)s.len, s.p);
	return o->str;
}

static uint64_t
digits(struct stream_str s)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < s.len; i++)
		v = v * 10 + (unsigned)(s.p[i] - '0');
	return v;
}

static void
test_header(const char *key, const char *value, const char *want)
{
	struct stream_str k, v;
	struct out o;
	size_t len;
	char what[256];

	out_open(&o);
	stream_write_header(o.f, key, value);
	out_close(&o);
	snprintf(what, sizeof(what), "header %s: one comment line", key);
	CHECK(one_line(&o, &len) && stream_classify(o.p, len, NULL, NULL) ==
	    STREAM_COMMENT, what);
	snprintf(what, sizeof(what), "header %s: parses as a header", key);
	CHECK(stream_header(o.p, len, &k, &v), what);
	snprintf(what, sizeof(what), "header %s: key", key);
	CHECK_STR(cstr(&o, k), key, what);
	snprintf(what, sizeof(what), "header %s: value", key);
	CHECK_STR(cstr(&o, v), want, what);
	out_free(&o);
}

static void
test_headers(void)
{
	struct stream_event cpu = { "cpu-clock", STREAM_RATE_FREQ, 999, 1,
	    65528 };
	struct stream_event per = { "cycles", STREAM_RATE_PERIOD, 100000, 0, 0 };
	struct stream_event off = { STREAM_OFFCPU_EVENT, STREAM_RATE_NONE, 0,
	    1, 8192 };
	struct stream_start start = { 1796150957000200105ULL, 18527965876942ULL };
	struct stream_str k, v;
	uint64_t wall, clk;
	struct out o;

	test_header("cmdline", "./prog a b", "./prog a b");
	test_header("cmdline", "./prog 'a\nb'\t(c)", "./prog 'a?b'?(c)");
	test_header("kernel", "included", "included");

	out_open(&o);
	stream_write_begin(o.f, &start);
	stream_write_event(o.f, &cpu);
	stream_write_event(o.f, &per);
	stream_write_event(o.f, &off);
	stream_write_buildid(o.f, "24a3598f", STREAM_KERNEL);
	stream_write_buildid(o.f, "5d98afc8", "/tmp/a b/(x)\n.so");
	stream_write_inside(o.f, "/srv/j/a b\t.so", "/a\tb");
	stream_write_headeru(o.f, "lost", 12);
	out_close(&o);
	CHECK_STR(o.p, "# ========\n"
	    "# fgrecord 1\n"
	    "# start : 1796150957.000200105 18527.965876942\n"
	    "# event : cpu-clock freq 999 callgraph dwarf 65528\n"
	    "# event : cycles period 100000 callgraph fp\n"
	    "# event : offcpu-time callgraph dwarf 8192\n"
	    "# buildid : 24a3598f [kernel.kallsyms]\n"
	    "# buildid : 5d98afc8 /tmp/a b/(x)?.so\n"
	    "# inside : /srv/j/a b?.so\t/a?b\n"
	    "# lost : 12\n", "the headers fgrecord writes, byte for byte");
	out_free(&o);

	out_open(&o);
	stream_write_begin(o.f, NULL);
	stream_write_fence(o.f);
	out_close(&o);
	CHECK_STR(o.p, "# ========\n# fgrecord 1\n# ========\n",
	    "no start: the fence and the magic only");
	out_free(&o);

	/* the start reads back; the magic is known with or without a fence */
	out_open(&o);
	stream_write_begin(o.f, &start);
	out_close(&o);
	CHECK(stream_is_magic(o.p + 11, 12), "the second line is the magic");
	CHECK(!stream_is_magic(o.p, 10), "the fence is not");
	CHECK(!stream_is_magic("# fgrecorder", 12), "a longer word is not");
	CHECK(stream_header(o.p + 24, strlen(o.p + 24) - 1, &k, &v) &&
	    stream_str_eq(k, "start") && stream_start(v, &wall, &clk) &&
	    wall == start.wall_ns && clk == start.clock_ns,
	    "the start reads back on both clocks");
	CHECK(!stream_start((struct stream_str){ "12.5", 4 }, &wall, &clk),
	    "one clock is no start");
	CHECK(!stream_start((struct stream_str){ "12.5 x", 6 }, &wall, &clk),
	    "a word is no time");
	out_free(&o);
}

/* Writes a head with comm, and reads every field back. */
static void
test_head(const char *comm, const char *want_comm)
{
	struct stream_head h = { comm, 4242, 4343, 7, 3459250647123ULL,
	    1001001, "cpu-clock" };
	struct stream_sample s;
	struct out o;
	size_t len;
	uint64_t ns = 0;
	char what[256], cpu[16];
	int ok;

	out_open(&o);
	stream_write_head(o.f, &h);
	out_close(&o);
	snprintf(what, sizeof(what), "head of '%s': one sample line",
	    want_comm);
	ok = one_line(&o, &len) && stream_classify(o.p, len, &s, NULL) ==
	    STREAM_SAMPLE;
	CHECK(ok, what);
	if (!ok) {
		printf("#   the line: %s", o.p);
		out_free(&o);
		return;
	}
	snprintf(what, sizeof(what), "head of '%s': comm", want_comm);
	CHECK_STR(cstr(&o, s.comm), want_comm, what);
	snprintf(what, sizeof(what), "head of '%s': pid", want_comm);
	CHECK_U64(digits(s.pid), 4242, what);
	snprintf(what, sizeof(what), "head of '%s': tid", want_comm);
	CHECK_U64(digits(s.tid), 4343, what);
	snprintf(what, sizeof(what), "head of '%s': period", want_comm);
	CHECK_U64(s.has_period ? s.period : 0, 1001001, what);
	snprintf(what, sizeof(what), "head of '%s': event", want_comm);
	CHECK_STR(cstr(&o, s.event), "cpu-clock", what);
	snprintf(what, sizeof(what), "head of '%s': time, to the us",
	    want_comm);
	CHECK(stream_sample_time(&s, o.p, len, &ns), what);
	CHECK_U64(ns, 3459250647000ULL, what);
	/* stream.c does not read the CPU: it is "[%03u]" after the TID */
	snprintf(cpu, sizeof(cpu), " [%03u] ", 7);
	snprintf(what, sizeof(what), "head of '%s': cpu", want_comm);
	CHECK(strncmp(s.tid.p + s.tid.len, cpu, strlen(cpu)) == 0, what);
	out_free(&o);
}

static void
test_heads(void)
{
	struct stream_head h = { "alloc", 12, 13, 1, 5000001000ULL, 1000,
	    STREAM_OFFCPU_EVENT };
	struct out o;

	test_head("alloc", "alloc");
	test_head("Web Content", "Web Content");
	test_head("f(x) (y)", "f(x) (y)");
	test_head("a\nb\x7f", "a?b?");
	test_head("#main", "_main");
	test_head(" idle", "_idle");
	test_head("\tx", "?x");
	test_head("", "_");
	test_head("a: b: [1]", "a: b: [1]");

	out_open(&o);
	stream_write_head(o.f, &h);
	out_close(&o);
	CHECK_STR(o.p, "alloc 12/13 [001] 5.000001: 1000 offcpu-time:\n",
	    "a head as fgrecord writes it, byte for byte");
	out_free(&o);

	/* perf's -1 (a sample of no task, a u32 in perf.data) */
	h.comm = ":-1";
	h.pid = h.tid = UINT32_MAX;
	h.event = "cpu-clock";
	out_open(&o);
	stream_write_head(o.f, &h);
	out_close(&o);
	CHECK_STR(o.p, ":-1 -1/-1 [001] 5.000001: 1000 cpu-clock:\n",
	    "a PID and TID of -1 are written -1, as perf script prints them");
	out_free(&o);
}

/* Writes a frame, and reads its address, symbol and DSO back. */
static void
test_frame(uint64_t addr, const char *sym, const char *dso,
    const char *want_sym, const char *want_dso)
{
	struct stream_frame f;
	struct out o;
	size_t len;
	char what[256];
	int ok;

	out_open(&o);
	stream_write_frame(o.f, addr, sym, dso);
	out_close(&o);
	snprintf(what, sizeof(what), "frame in '%s': one frame line", want_dso);
	ok = one_line(&o, &len) && stream_classify(o.p, len, NULL, &f) ==
	    STREAM_FRAME;
	CHECK(ok, what);
	if (!ok) {
		printf("#   the line: %s", o.p);
		out_free(&o);
		return;
	}
	snprintf(what, sizeof(what), "frame in '%s': address", want_dso);
	CHECK(f.addr_ok, what);
	CHECK_U64(f.addrval, addr, what);
	snprintf(what, sizeof(what), "frame in '%s': symbol", want_dso);
	CHECK_STR(cstr(&o, f.sym), want_sym, what);
	snprintf(what, sizeof(what), "frame in '%s': dso", want_dso);
	CHECK_STR(cstr(&o, f.dso), want_dso, what);
	out_free(&o);
}

static void
test_frames(void)
{
	struct stream_frame f;
	struct out o;
	size_t len;

	test_frame(0x401136, NULL, "/work/prog", STREAM_UNKNOWN, "/work/prog");
	test_frame(0xffffffff81000000ULL, NULL, STREAM_KERNEL, STREAM_UNKNOWN,
	    STREAM_KERNEL);
	test_frame(0x10, NULL, "/tmp/lib.so (deleted)", STREAM_UNKNOWN,
	    "/tmp/lib.so (deleted)");
	test_frame(0x20, NULL, "/tmp/a (b)/c d.so", STREAM_UNKNOWN,
	    "/tmp/a (b)/c d.so");
	test_frame(0x30, "operator() (int)", "/x.so", "operator() (int)",
	    "/x.so");
	test_frame(0x40, NULL, "/tmp/a\nb\r.so", STREAM_UNKNOWN,
	    "/tmp/a?b?.so");
	test_frame(0, STREAM_TRUNCATED, STREAM_UNKNOWN, STREAM_TRUNCATED,
	    STREAM_UNKNOWN);

	out_open(&o);
	stream_write_frame(o.f, 0x401136, NULL, "/work/prog");
	stream_write_truncated(o.f);
	out_close(&o);
	CHECK_STR(o.p, "\t401136 [unknown] (/work/prog)\n"
	    "\t0 [truncated] ([unknown])\n",
	    "a frame and the truncated frame, byte for byte");
	CHECK(stream_classify(o.p + 31, strlen(o.p + 31) - 1, NULL, &f) ==
	    STREAM_FRAME && f.addrval == 0 && stream_str_eq(f.sym,
	    STREAM_TRUNCATED) && stream_str_eq(f.dso, STREAM_UNKNOWN),
	    "the truncated frame reads back as [truncated] in [unknown]");
	out_free(&o);

	out_open(&o);
	stream_write_end(o.f);
	out_close(&o);
	CHECK(one_line(&o, &len) && len == 0 &&
	    stream_classify(o.p, len, NULL, NULL) == STREAM_BLANK,
	    "the end of a sample is a blank line");
	out_free(&o);
}

/*
 * The cleaning reads eight bytes at a time: every byte value at every
 * place in a word, in names short and longer than the writer's buffer
 * (300 and 600 bytes), must come out as the byte loop made it.
 */
static void
test_clean_bytes(void)
{
	static const size_t lens[] = { 1, 7, 8, 9, 16, 23, 300, 600 };
	char in[601], want[601];
	size_t li, len, pos, bad = 0, badinplace = 0;
	int c, changed;
	struct out o;

	for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		len = lens[li];
		for (pos = 0; pos < len && pos < 24; pos++)
			for (c = 1; c < 256; c++) {
				memset(in, 'a' + (int)(pos % 26), len);
				in[len] = '\0';
				in[pos] = (char)c;
				memcpy(want, in, len + 1);
				if (c < 0x20 || c == 0x7f)
					want[pos] = '?';
				out_open(&o);
				stream_write_clean(o.f, in);
				out_close(&o);
				if (o.len != len || memcmp(o.p, want, len) != 0)
					bad++;
				out_free(&o);
				/* stream_clean, in place, does the same,
				   as stream_needs_clean foretells */
				if (stream_needs_clean(in) !=
				    (c < 0x20 || c == 0x7f))
					badinplace++;
				changed = stream_clean(in);
				if (memcmp(in, want, len + 1) != 0 ||
				    changed != (c < 0x20 || c == 0x7f))
					badinplace++;
			}
	}
	CHECK_U64(bad, 0, "each byte at each place is cleaned as alone");
	CHECK_U64(badinplace, 0, "stream_clean cleans in place the same, "
	    "and says when it changed a byte");
}

int
main(void)
{
	test_headers();
	test_heads();
	test_frames();
	test_clean_bytes();
	return unit_done();
}
