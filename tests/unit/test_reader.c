/*
 * test_reader: the stream reader's state machine (heads, frames, source
 * lines, the empty line, lines between samples, a sample cut off, one-line
 * samples), its parse of every header line the writer writes, and the
 * round trip: what the writer wrote, read and written again
 * (stream_write_item), is the same bytes; any input read and written
 * twice gives the same bytes both times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/lineread.h"
#include "stream/reader.h"
#include "stream/rewrite.h"
#include "stream/writer.h"
#include "unit.h"

/* An fd that reads back s[0..n). */
/*
 * Reads s[0..n) and writes every item back; returns what was written
 * (caller frees) in *out, and the reader's finish in *cut.
 */
static char *
rewrite(const char *s, size_t n, int pass, size_t *outlen, int *cut,
    unsigned long *bad)
{
	struct stream_reader_opts o = { pass, NULL, NULL };
	struct stream_reader r;
	struct stream_diag d;
	struct stream_item it;
	struct lineread lr;
	char *p = NULL;
	FILE *f = open_memstream(&p, outlen);
	int fd = unit_memfd(s, n);

	lineread_init(&lr, fd, "test");
	stream_diag_init(&d, "test");
	stream_reader_init(&r, &lr, &d, &o);
	while (stream_reader_next(&r, &it) != STREAM_ITEM_EOF)
		stream_write_item(f, &it);
	*cut = stream_reader_finish(&r);
	*bad = d.bad;
	lineread_release(&lr);
	close(fd);
	fclose(f);
	return p;
}

/* The input kinds() read last: its items' strings point into it. */
static struct lineread lr;
static int lr_fd = -1;
static struct stream_reader rd;

/*
 * The kinds of the items of s, as letters, into k (of size ksz), and a
 * '!' when a sample was cut off; *last is the last item before the end.
 */
static void
kinds(const char *s, int pass, char *k, size_t ksz, struct stream_item *last)
{
	struct stream_reader_opts o = { pass, NULL, NULL };
	static struct stream_diag d;
	struct stream_item it;
	size_t i = 0;

	if (lr_fd != -1) {
		lineread_release(&lr);
		close(lr_fd);
	}
	lr_fd = unit_memfd(s, strlen(s));
	lineread_init(&lr, lr_fd, "test");
	stream_diag_init(&d, "test");
	stream_reader_init(&rd, &lr, &d, &o);
	while (stream_reader_next(&rd, &it) != STREAM_ITEM_EOF && i + 2 < ksz) {
		k[i++] = "ELHFSBXfmcb"[it.kind];
		*last = it;
	}
	k[i++] = stream_reader_finish(&rd) ? '!' : '.';
	k[i] = '\0';
}

/*
 * As kinds, through stream_reader_pull(raw): a line handed back unparsed
 * ('L') is parsed next, as by a caller that does not know it; a 'w' after
 * an empty line that ended a sample whole. After the i-th item, acts[i]
 * (while there is one): 's' skip_rest, 'S' skip_rest wanting a source
 * line, 'p' peek at the sample, '.' nothing. *bad: the bad lines said.
 */
static void
pulls(const char *s, int raw, const char *acts, char *k, size_t ksz,
    unsigned long *bad)
{
	static struct stream_diag d;
	enum stream_item_kind kind;
	struct stream_item it;
	size_t i = 0, a = 0;
	char *p;

	if (lr_fd != -1) {
		lineread_release(&lr);
		close(lr_fd);
	}
	lr_fd = unit_memfd(s, strlen(s));
	lineread_init(&lr, lr_fd, "test");
	stream_diag_init(&d, "test");
	stream_reader_init(&rd, &lr, &d, NULL);
	while ((kind = stream_reader_pull(&rd, &it, raw)) != STREAM_ITEM_EOF &&
	    i + 4 < ksz) {
		k[i++] = "ELHFSBXfmcb"[kind];
		if (kind == STREAM_ITEM_LINE)
			k[i++] = "ELHFSBXfmcb"[stream_reader_parse(&rd, &it)];
		if (it.kind == STREAM_ITEM_BLANK && it.whole)
			k[i++] = 'w';
		switch (acts[a] != '\0' ? acts[a++] : '.') {
		case 's':
			stream_reader_skip_rest(&rd, 0);
			break;
		case 'S':
			stream_reader_skip_rest(&rd, 1);
			break;
		case 'p':
			stream_reader_peek_sample(&rd, 4096, &p);
			break;
		}
	}
	k[i++] = stream_reader_finish(&rd) ? '!' : '.';
	k[i] = '\0';
	*bad = d.bad;
}

static void
same_twice(const char *s, int pass, const char *what)
{
	size_t n1, n2;
	int c;
	unsigned long b;
	char *w1 = rewrite(s, strlen(s), pass, &n1, &c, &b);
	char *w2 = rewrite(w1, n1, pass, &n2, &c, &b);

	CHECK_MEM(w2, n2, w1, n1, what);
	free(w1);
	free(w2);
}

/* Everything the writer writes, once. */
static char *
written(size_t *len)
{
	struct stream_start st = { 1796150957600200105ULL, 81234566690942ULL };
	struct stream_event ev1 = { "cpu-clock", STREAM_RATE_FREQ, 999, 1, 16384 };
	struct stream_event ev2 = { STREAM_OFFCPU_EVENT, STREAM_RATE_NONE, 0, 0, 0 };
	struct stream_event ev3 = { "cycles", STREAM_RATE_PERIOD, 100003, 0, 0 };
	struct stream_head h1 = { "a 1/1 x [001] 1.0:", 4242, 4243, 7,
	    3459250647123000ULL, 1001001, "cpu-clock" };
	struct stream_head h2 = { "#tab\there", 0, 4294967295U, 0, 0, 1,
	    STREAM_OFFCPU_EVENT };
	char *p = NULL;
	FILE *f = open_memstream(&p, len);

	stream_write_begin(f, &st);
	stream_write_header(f, STREAM_KEY_CMDLINE, "./app --flag 'a b'");
	stream_write_event(f, &ev1);
	stream_write_event(f, &ev2);
	stream_write_event(f, &ev3);
	stream_write_header(f, STREAM_KEY_KERNEL, STREAM_KERNEL_INCLUDED);
	stream_write_buildid(f, "5f0c1e", STREAM_KERNEL);
	stream_write_fence(f);
	stream_write_inside(f, "/srv/jail/my app", "/my app");
	stream_write_buildid(f, "abcdef0123", "/home/u/my app (deleted)");
	stream_write_comment(f, "a comment");
	stream_write_head(f, &h1);
	stream_write_inlined(f, 0x1f3a4, "app::inner<T>(int)");
	stream_write_frame(f, 0x1f3a4, "app::main+0x1f", "/home/u/app");
	stream_write_srcline(f, "src/main.rs:12");
	stream_write_frame(f, 0xffffffff81a0b1c2ULL, NULL, STREAM_KERNEL);
	stream_write_truncated(f);
	stream_write_end(f);
	stream_write_headeru(f, STREAM_KEY_LOST, 12);
	stream_write_head(f, &h2);
	stream_write_frame(f, 0, "(x) y", "a (b) c");
	stream_write_end(f);
	fclose(f);
	return p;
}

int
main(void)
{
	struct stream_item it;
	char k[64];
	struct stream_head_values v;
	size_t n1, n2;
	int c;
	unsigned long b;
	char *w = written(&n1), *w2;

	/* the round trip */
	w2 = rewrite(w, n1, 0, &n2, &c, &b);
	CHECK_MEM(w2, n2, w, n1, "writer, reader, writer: the same bytes");
	CHECK(c == 0 && b == 0, "the writer's stream is clean");
	free(w2);
	free(w);
	same_twice("perf 1 [001] 1.0: ev:\n\t1 f (a)\n  a.c:3\n\n", 0,
	    "a head of perf's: written as it was");
	same_twice("  :-1    -1/-1 [000] 5.000001: 1 cpu-clock:\n\tff a (b)\n\n",
	    0, "perf's sample of no task");
	same_twice("a 1/2 [003] 1.5: 7 e:\r\n\tab x (y)\r\n\r\n", 0, "CR LF lines");
	same_twice("@@\r\r\n\r\r\n", 0, "a line ending in CR before CR LF");
	same_twice("\t1 f (a)\n@@\n# x\n#y : \n# event : name = a, , id = { 1 }\n"
	    "# buildid : x\n# lost : 1x\n", 0, "bad lines and odd headers");
	same_twice("\t1 f (a)\n  a.c:1\n", 1, "pass: frames between samples");
	same_twice("sh 9 1.0: 1 cpu-clock:ppp: 7f12 up+0x27 (/ld.so)\n", 0,
	    "a one-line sample");
	same_twice("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n", 0, "a sample cut off");

	/* the state machine */
	kinds("a 1/1 [1] 1.0: 3 e:\n\t1 f (inlined)\n  a.c:1\n\n", 0, k,
	    sizeof(k), &it);
	CHECK_STR(k, "HFSB.", "a sample: head, frame, srcline, empty line");
	kinds("\t1 f (a)\n  a.c:1\n@@\n", 0, k, sizeof(k), &it);
	CHECK_STR(k, "bbb.", "frames and srclines between samples are bad");
	kinds("\t1 f (a)\n  a.c:1\n", 1, k, sizeof(k), &it);
	CHECK_STR(k, "FS.", "pass: they are frames and srclines");
	kinds("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n", 0, k, sizeof(k), &it);
	CHECK_STR(k, "HF!", "a last sample cut off is said");
	kinds("sh 9 1.0: 1 e: 7f12 up (/ld.so)\nsh 9 1.0: 1 e: 7f12 up (/ld.so)\n",
	    0, k, sizeof(k), &it);
	CHECK_STR(k, "HH.", "one-line samples need no empty line");
	CHECK(it.head.has_frame && it.unended == 0, "one-line: its frame");
	kinds("a 1/1 [1] 1.0: 3 e:\nb 2/2 [1] 1.0: 3 e:\n\n", 0, k, sizeof(k),
	    &it);
	CHECK_STR(k, "HHB.", "a head with no empty line before it");
	kinds("a 1/1 [1] 1.0: 3 e:\nb 2/2 [1] 1.0: 3 e:\n", 0, k, sizeof(k),
	    &it);
	CHECK(it.unended, "it ends the open sample");
	kinds("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n\n", 0, k, sizeof(k), &it);
	CHECK(it.ended, "the empty line ends it");
	kinds("  :-1    -1/-1 [000] 5.000001: 1 cpu-clock:\n", 0, k, sizeof(k),
	    &it);
	stream_head_values(&it, &v);
	CHECK(it.kind == STREAM_ITEM_HEAD && v.pid == -1 && v.tid == -1 &&
	    v.has_pid && v.cpu == 0 && v.has_cpu && v.has_time &&
	    v.time == 5000001000ULL, "-1/-1: perf's sample of no task");
	kinds("a 4242/4243 [007] 1.5: 3 e:\r\n", 0, k, sizeof(k), &it);
	stream_head_values(&it, &v);
	CHECK(it.kind == STREAM_ITEM_HEAD && v.pid == 4242 && v.tid == 4243 &&
	    v.cpu == 7 && it.head.period == 3 &&
	    stream_str_eq(it.head.event, "e"), "a CR LF head");

	/* the pulls of a reader with a fast path, one that skips samples */
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n  a.c:1\n\n\t2 g (a)\n", 1, "",
	    k, sizeof(k), &b);
	CHECK_STR(k, "HLFLSBb.", "raw: the open sample's lines, unparsed; "
	    "none between samples");
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n  a.c:1\n\n", 0, "", k,
	    sizeof(k), &b);
	CHECK_STR(k, "HFSB.", "not raw: every line parsed");
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n  @@ x\n# c\nzz\n\n\t1 f (a)\n",
	    1, "s", k, sizeof(k), &b);
	CHECK_STR(k, "HcbBb.", "skip_rest: frame and source lines passed over, "
	    "up to the empty line");
	CHECK(b == 2, "an indented line passed over is not said, another is");
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\nb 2/2 [1] 1.0: 3 e:\n\t1 f (a)\n"
	    "\n", 0, "s", k, sizeof(k), &b);
	CHECK_STR(k, "HHFB.", "a head ends the passing over");
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n# c\n  a.c:1\n\t2 g (a)\n"
	    "  b.c:2\n\n", 1, ".S", k, sizeof(k), &b);
	CHECK_STR(k, "HLFcSB.", "skip_rest wanting a source line: it comes, "
	    "then the passing over");
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n\t2 g (a)\n  b.c:2\n\n", 1,
	    ".S", k, sizeof(k), &b);
	CHECK_STR(k, "HLFB.", "skip_rest wanting a source line: a frame "
	    "first is passed over, and what follows");
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n\n", 1, "p", k, sizeof(k),
	    &b);
	CHECK_STR(k, "HLFBw.", "a sample looked at, read to its empty line: "
	    "whole");
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n\n", 1, "", k, sizeof(k), &b);
	CHECK_STR(k, "HLFB.", "not looked at: not whole");
	pulls("a 1/1 [1] 1.0: 3 e:\n@@\n\t1 f (a)\n\n", 1, "p", k, sizeof(k),
	    &b);
	CHECK_STR(k, "HbLFB.", "a bad line in it: not whole");
	pulls("a 1/1 [1] 1.0: 3 e:\n\t1 f (a)\n \n\n", 1, "p", k, sizeof(k),
	    &b);
	CHECK_STR(k, "HLFLBB.", "ended by white space: not whole");

	/* headers */
	kinds("# buildid : ab  /a b\n", 0, k, sizeof(k), &it);
	CHECK(it.kind == STREAM_ITEM_HEADER && it.hdr.key == STREAM_HDR_BUILDID
	    && it.hdr.ok && stream_str_eq(it.hdr.u.buildid.id, "ab") &&
	    stream_str_eq(it.hdr.u.buildid.path, "/a b"), "# buildid");
	kinds("# inside : /j/a b\t/a b\n", 0, k, sizeof(k), &it);
	CHECK(it.kind == STREAM_ITEM_HEADER && it.hdr.key == STREAM_HDR_INSIDE
	    && it.hdr.ok && stream_str_eq(it.hdr.u.inside.path, "/j/a b") &&
	    stream_str_eq(it.hdr.u.inside.inside, "/a b"), "# inside");
	kinds("# inside : /j/a b /a b\n", 0, k, sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_INSIDE && !it.hdr.ok,
	    "# inside with no tab: not the writer's");
	kinds("# inside : /j\t/a\tb\n", 0, k, sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_INSIDE && !it.hdr.ok,
	    "# inside with two tabs: not the writer's");
	kinds("# event : cpu-clock freq 999 callgraph dwarf 8192\n", 0, k,
	    sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_EVENT && it.hdr.ok &&
	    stream_str_eq(it.hdr.u.event.name, "cpu-clock") &&
	    it.hdr.u.event.rate_kind == STREAM_RATE_FREQ &&
	    it.hdr.u.event.rate == 999 && it.hdr.u.event.dwarf &&
	    it.hdr.u.event.stack_size == 8192, "# event");
	kinds("# event : name = cpu-clock, , id = { 5 }\n", 0, k, sizeof(k),
	    &it);
	CHECK(it.hdr.key == STREAM_HDR_EVENT && !it.hdr.ok &&
	    stream_str_eq(it.hdr.u.event.name, "name"), "perf's # event");
	kinds("# start : 1.5 2.000000001\n", 0, k, sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_START && it.hdr.ok &&
	    it.hdr.u.start.wall_ns == 1500000000 &&
	    it.hdr.u.start.clock_ns == 2000000001, "# start");
	kinds("# lost : 12\n", 0, k, sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_LOST && it.hdr.u.lost == 12, "# lost");
	kinds("# lost : 18446744073709551615\n", 0, k, sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_LOST && it.hdr.ok &&
	    it.hdr.u.lost == UINT64_MAX, "# lost 2^64-1 is read");
	kinds("# lost : 18446744073709551616\n", 0, k, sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_LOST && !it.hdr.ok,
	    "# lost 2^64 is not");
	kinds("a 9223372036854775807/12345678901234567890 [1] 1.0: 3 e:\n", 0,
	    k, sizeof(k), &it);
	stream_head_values(&it, &v);
	CHECK(v.pid == INT64_MAX && v.tid == INT64_MAX,
	    "a PID of 2^63-1 is read, a TID past it stays there");
	kinds("a -123456789012345678/-1 [1] 1.0: 3 e:\n", 0, k, sizeof(k), &it);
	stream_head_values(&it, &v);
	CHECK(v.pid == -123456789012345678LL && v.tid == -1,
	    "18 digits after a sign are read");
	kinds("# kernel : excluded\n", 0, k, sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_KERNEL && it.hdr.ok, "# kernel");
	kinds("# cmdline : ./a b\n", 0, k, sizeof(k), &it);
	CHECK(it.hdr.key == STREAM_HDR_CMDLINE &&
	    stream_str_eq(it.hdr.value, "./a b"), "# cmdline");
	kinds("# ========\n# fgrecord 1\n# x\n", 0, k, sizeof(k), &it);
	CHECK_STR(k, "fmc.", "the fence, the magic, a comment");
	CHECK(rd.fgrecord, "the magic before the first head: ELF addresses");
	kinds("a 1/1 [1] 1.0: 3 e:\n\n# fgrecord 1\n", 0, k, sizeof(k), &it);
	CHECK(!rd.fgrecord, "not after it");
	return unit_done();
}
