/* Unit tests of the stream and folded parsers, the line reader and the
 * name tidy-up, through their APIs. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/fold.h"
#include "profile/tidy.h"
#include "stream/folded.h"
#include "base/lineread.h"
#include "stream/stream.h"
#include "unit.h"

static int
eq(struct stream_str s, const char *c)
{
	return stream_str_eq(s, c);
}

static const char *
tidy(const char *in)
{
	static char buf[512];

	tidy_name(in, strlen(in), buf);
	return buf;
}

static const char *
rust(const char *in)
{
	static char buf[512];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", in);
	n = tidy_rust_legacy(buf, strlen(buf));
	buf[n] = '\0';
	return buf;
}

static void
test_rust(void)
{
	CHECK(strcmp(rust("core::ptr::drop_in_place$LT$alloc..vec..Vec$LT$u8$GT$$GT$::h0123456789abcdef"),
	    "core::ptr::drop_in_place<alloc::vec::Vec<u8>>") == 0, "Rust: escapes, .. and the hash");
	CHECK(strcmp(rust("app::main::_$u7b$$u7b$closure$u7d$$u7d$::h0123456789abcdef"),
	    "app::main::_{{closure}}") == 0, "Rust: {{closure}}");
	CHECK(strcmp(rust("_$LT$u8$u20$as$u20$core..clone..Clone$GT$::clone::h7bfab8630dda96cf"),
	    "<u8 as core::clone::Clone>::clone") == 0, "Rust: a leading _ goes");
	CHECK(strcmp(rust("emulator::main::hc2aaa9b4591a10c7"), "emulator::main") == 0, "Rust: hash only");
	CHECK(strcmp(rust("std::vector<int>::push_back"), "std::vector<int>::push_back") == 0, "C++ left alone");
	CHECK(strcmp(rust("a..b"), "a..b") == 0, "no hash, no escape: left alone");
	CHECK(strcmp(rust("f::hXYZ"), "f::hXYZ") == 0, "not a hash");
	CHECK(strcmp(rust("$LT$"), "<") == 0 && strcmp(rust("$u7"), "$u7") == 0, "short names");
}

static void
test_stream(void)
{
	struct stream_sample s;
	struct stream_frame f;
	const char *l;

	l = "V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles:";
	CHECK(stream_classify(l, strlen(l), &s, &f) == STREAM_SAMPLE, "sample head with a space in COMM");
	CHECK(eq(s.comm, "V8 WorkerThread") && eq(s.pid, "24636") && eq(s.tid, "25607"), "COMM, PID and TID");
	CHECK(eq(s.event, "cycles") && s.period == 100 && s.has_period, "event and period");

	l = "java 12688 [002] 6544038.708352: cpu-clock:";
	CHECK(stream_classify(l, strlen(l), &s, NULL) == STREAM_SAMPLE && s.pid.len == 0 &&
	    eq(s.tid, "12688") && s.period == 1 && !s.has_period, "TID only, no period");

	l = "a 7/8 [001] 1.000001: 5 cpu-clock:ppp: ";
	CHECK(stream_classify(l, strlen(l), &s, NULL) == STREAM_SAMPLE && eq(s.comm, "a") &&
	    eq(s.event, "cpu-clock:ppp") && s.period == 5, "one-letter COMM, event modifiers");

	l = "sh 9068 3459.250647:     250000 cpu-clock:ppp:      7f8c1a2b update_active+0x270 (/usr/lib/ld.so)";
	CHECK(stream_classify(l, strlen(l), &s, NULL) == STREAM_SAMPLE && s.has_frame &&
	    eq(s.event, "cpu-clock:ppp") && s.period == 250000, "one-line sample: its event and period");
	CHECK(eq(s.frame.addr, "7f8c1a2b") && eq(s.frame.sym, "update_active+0x270") &&
	    eq(s.frame.dso, "/usr/lib/ld.so"), "one-line sample: its frame");
	l = "              sh  9068 [001]  3459.250647:     250000 cpu-clock:      7f8c1a2b f+0x1 (/a)";
	CHECK(stream_indented_head(l, strlen(l)) && stream_classify(l, strlen(l), &s, NULL) == STREAM_SAMPLE &&
	    s.has_frame && eq(s.comm, "sh") && eq(s.tid, "9068") && eq(s.frame.sym, "f+0x1"),
	    "one-line sample with COMM padded, as perf script prints it");
	l = "\t    4005d4 main+0x1 (/a)";
	CHECK(!stream_indented_head(l, strlen(l)), "a frame line is no indented head");
	l = "\t    4005d4 std::x 1.5: y (/a)";
	CHECK(!stream_indented_head(l, strlen(l)), "a frame with a ':' is no indented head");
	l = "sh 9068 3459.250647: 1 cpu-clock:";
	CHECK(stream_classify(l, strlen(l), &s, NULL) == STREAM_SAMPLE && !s.has_frame, "a head alone has no frame");
	l = "sh 9068 3459.250647: no frame here";
	CHECK(stream_classify(l, strlen(l), &s, NULL) == STREAM_SAMPLE && !s.has_frame &&
	    s.event.len == 0, "a head with no event and no frame");

	l = "\t    4005d4 std::function<void (int)>::operator()(int) const+0x14 (/opt/a b/x (deleted))";
	CHECK(stream_classify(l, strlen(l), NULL, &f) == STREAM_FRAME, "frame line");
	CHECK(eq(f.addr, "4005d4") && f.addr_ok && f.addrval == 0x4005d4, "frame address");
	CHECK(eq(f.sym, "std::function<void (int)>::operator()(int) const+0x14"), "symbol with parentheses");
	CHECK(eq(f.dso, "/opt/a b/x (deleted)"), "DSO is the last balanced group");

	l = "\tffffffffffffffffff [unknown] ([unknown])";
	CHECK(stream_classify(l, strlen(l), NULL, &f) == STREAM_FRAME && !f.addr_ok, "a 72-bit address is flagged");

	l = "  capture.cc:41";
	CHECK(stream_classify(l, strlen(l), NULL, NULL) == STREAM_SRCLINE, "srcline");
	CHECK(stream_classify("", 0, NULL, NULL) == STREAM_BLANK, "blank");
	CHECK(stream_classify("# lost : 3", 10, NULL, NULL) == STREAM_COMMENT, "comment");
	CHECK(stream_classify("@@@", 3, NULL, NULL) == STREAM_OTHER, "garbage");

	struct stream_str k, v;
	l = "# buildid : abcd /usr/bin/x y";
	CHECK(stream_header(l, strlen(l), &k, &v) && eq(k, "buildid") && eq(v, "abcd /usr/bin/x y"), "header key and value");
}

static void
test_folded(void)
{
	struct folded_line fl;
	const char *l;

	l = "a;b c;d 42";
	CHECK(folded_parse(l, strlen(l), &fl) == FOLDED_OK && fl.ncounts == 1 &&
	    fl.count[0].u == 42 && fl.stack_len == 7, "stack and count");
	l = "a;b 3 4";
	CHECK(folded_parse(l, strlen(l), &fl) == FOLDED_OK && fl.ncounts == 2 &&
	    fl.count[0].u == 3 && fl.count[1].u == 4 && fl.stack_len == 3, "differential line");
	l = "a 2.5";
	CHECK(folded_parse(l, strlen(l), &fl) == FOLDED_OK && fl.count[0].decimal &&
	    fl.count[0].d == 2.5, "decimal count");
	l = "a 18446744073709551615";
	CHECK(folded_parse(l, strlen(l), &fl) == FOLDED_OK && fl.count[0].u == UINT64_MAX, "2^64-1 fits");
	l = "a 18446744073709551616";
	CHECK(folded_parse(l, strlen(l), &fl) == FOLDED_OVERFLOW, "2^64 overflows");
	l = "a -1";
	CHECK(folded_parse(l, strlen(l), &fl) == FOLDED_BADCOUNT, "negative");
	l = "a;b";
	CHECK(folded_parse(l, strlen(l), &fl) == FOLDED_NOCOUNT, "no count");
	l = "12";
	CHECK(folded_parse(l, strlen(l), &fl) == FOLDED_NOSTACK, "count alone");
	CHECK(folded_parse("  ", 2, &fl) == FOLDED_BLANK, "blank");
}

static void
test_tidy(void)
{
	CHECK_STR(tidy("foo(int, char)"), "foo", "argument list dropped");
	CHECK_STR(tidy("std::function<void (int)>::operator()(int) const"),
	    "std::function<void (int)>::operator()", "template parentheses kept");
	CHECK_STR(tidy("(anonymous namespace)::f(int)"), "(anonymous namespace)::f", "anonymous namespace kept");
	CHECK_STR(tidy("main::{lambda(unsigned int, unsigned int)#1}::operator()(unsigned int, unsigned int) const"),
	    "main::{lambda(unsigned int, unsigned int)#1}::operator()", "a lambda's parameters inside {...} kept");
	CHECK_STR(tidy("f{(int)"), "f{", "unbalanced braces: the first '('");
	CHECK_STR(tidy("net/http.(*Client).Do"), "net/http.(*Client).Do", "Go method kept");
	CHECK_STR(tidy("a;b\"c'd"), "a:bcd", "semicolon and quotes");
	CHECK_STR(tidy("bool std::operator< <char>(x)"), "bool std::operator< <char>", "operator<");
	CHECK_STR(tidy("a<b(int)"), "a<b", "unbalanced bracket: as the reference");
}

static void
test_lineread(void)
{
	char path[] = "/tmp/fgunitXXXXXX", *line;
	int fd = mkstemp(path);
	struct lineread lr;
	ssize_t n;
	size_t big = 3 * 1024 * 1024, i;
	char *buf = malloc(big);

	for (i = 0; i < big; i++)
		buf[i] = 'x';
	CHECK(write(fd, "a\r\nbb\n", 6) == 6 && write(fd, buf, big) == (ssize_t)big &&
	    write(fd, "\nlast", 5) == 5, "write the file");
	lseek(fd, 0, SEEK_SET);
	lineread_init(&lr, fd, path);
	n = lineread_next(&lr, &line);
	CHECK(n == 1 && line[0] == 'a', "CRLF stripped");
	n = lineread_next(&lr, &line);
	CHECK(n == 2 && strcmp(line, "bb") == 0 && lr.lineno == 2, "second line");
	n = lineread_next(&lr, &line);
	CHECK(n == (ssize_t)big, "a 3 MB line whole");
	n = lineread_next(&lr, &line);
	CHECK(n == 4 && strcmp(line, "last") == 0 && lr.partial, "last line without newline is flagged");
	CHECK(lineread_next(&lr, &line) == -1, "end");
	lineread_release(&lr);
	close(fd);
	unlink(path);
	free(buf);
}

static void
test_peek(void)
{
	char path[] = "/tmp/fgunitXXXXXX", *line, *p;
	int fd = mkstemp(path);
	struct lineread lr;
	ssize_t n;

	static const char text[] = "head\n a\n b\n\nnext\n\n\ntail";

	CHECK(write(fd, text, sizeof(text) - 1) == sizeof(text) - 1, "write the file");
	lseek(fd, 0, SEEK_SET);
	lineread_init(&lr, fd, path);
	CHECK(lineread_next(&lr, &line) == 4, "head");
	n = lineread_peek_block(&lr, 1 << 20, &p);
	CHECK(n == 7 && memcmp(p, " a\n b\n\n", 7) == 0, "block up to the empty line");
	CHECK(lineread_next(&lr, &line) == 2 && strcmp(line, " a") == 0, "peek consumed nothing");
	lineread_skip(&lr, 4, 2);
	CHECK(lineread_next(&lr, &line) == 4 && strcmp(line, "next") == 0 && lr.lineno == 5,
	    "skip moves past bytes and lines");
	n = lineread_peek_block(&lr, 1 << 20, &p);
	CHECK(n == 1, "an empty line next is a block of 1");
	lineread_skip(&lr, 1, 1);
	lineread_skip(&lr, 1, 1);
	CHECK(lineread_peek_block(&lr, 1 << 20, &p) == -1, "no empty line before the end");
	CHECK(lineread_next(&lr, &line) == 4 && strcmp(line, "tail") == 0 && lr.lineno == 8, "tail");
	lineread_release(&lr);
	close(fd);
	unlink(path);
}

struct seen {
	int64_t	 pid[4], tid[4];
	int	 n;
};

static void
seen_add(void *arg, const struct fold_sample *s)
{
	struct seen *v = arg;

	if (v->n < 4) {
		v->pid[v->n] = s->pid;
		v->tid[v->n] = s->tid;
	}
	v->n++;
}

/*
 * What on_sample is told of each head's thread: perf's -1/-1 (a sample
 * of no task, as perf script and fgrecord write it) is -1, not 0, the
 * swapper's; a TID alone has PID 0.
 */
static void
test_onsample(void)
{
	static const char text[] =
	    "  :-1    -1/-1     [000]     5.000001:       1 cpu-clock:\n"
	    "\tffffffff81000000 do_idle+0x1 ([kernel.kallsyms])\n\n"
	    ":-1 -1/-1 [000] 5.000002: 1 cpu-clock:\n"
	    "\tffffffff81000000 do_idle+0x1 ([kernel.kallsyms])\n\n"
	    "swapper 0/0 [000] 5.000003: 1 cpu-clock:\n"
	    "\tffffffff81000000 do_idle+0x1 ([kernel.kallsyms])\n\n"
	    "perf 77 [001] 5.000004: 1 cpu-clock:\n"
	    "\t1000 main+0x1 (/bin/perf)\n\n";
	char path[] = "/tmp/fgunitXXXXXX";
	int fd = mkstemp(path);
	struct fold_opts o = { 0 };
	struct fold f;
	struct seen v = { { 0 }, { 0 }, 0 };

	CHECK(write(fd, text, sizeof(text) - 1) == sizeof(text) - 1, "write the file");
	lseek(fd, 0, SEEK_SET);
	o.on_sample = seen_add;
	o.on_sample_arg = &v;
	fold_init(&f, &o);
	CHECK(fold_stream(&f, fd, path) == 0, "four samples folded");
	CHECK(v.n == 4, "on_sample told of each");
	CHECK(v.pid[0] == -1 && v.tid[0] == -1, "perf script's -1/-1 is -1/-1");
	CHECK(v.pid[1] == -1 && v.tid[1] == -1, "fgrecord's -1/-1 is -1/-1");
	CHECK(v.pid[2] == 0 && v.tid[2] == 0, "the swapper's 0/0 is 0/0");
	CHECK(v.pid[3] == 0 && v.tid[3] == 77, "a TID alone: PID 0");
	fold_release(&f);
	close(fd);
	unlink(path);
}

int
main(void)
{
	test_onsample();
	test_peek();
	test_stream();
	test_folded();
	test_tidy();
	test_rust();
	test_lineread();
	return unit_done();
}
