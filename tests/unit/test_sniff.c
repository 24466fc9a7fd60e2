/*
 * Unit tests of common/stream/sniff.c and stream_quote: what the first
 * bytes of an input say it is, and that a quoted line never holds raw
 * binary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/diag.h"
#include "stream/sniff.h"
#include "unit.h"

#define S(lit)	lit, sizeof(lit) - 1

int
main(void)
{
	char q[DIAG_QUOTE_SIZE], big[SNIFF_BLOCK];
	size_t at = 99;

	CHECK_INT(sniff(S("PERFILE2h\0\0\0\0\0\0\0\0\0"), SNIFF_STREAM, NULL),
	    SNIFF_PERFDATA, "perf.data");
	CHECK_INT(sniff(S("PERFILE2\x10\0\0\0\0\0\0\0"), SNIFF_STREAM, NULL),
	    SNIFF_PERFPIPE, "perf data in pipe mode");
	CHECK_INT(sniff(S("\x1f\x8b\x08\0"), SNIFF_STREAM, NULL), SNIFF_GZIP,
	    "gzip");
	CHECK_INT(sniff(S("\x28\xb5\x2f\xfd"), SNIFF_FOLDED, NULL), SNIFF_ZSTD,
	    "zstd");
	CHECK_INT(sniff(S("\x7f" "ELF\2\1\1"), SNIFF_STREAM, NULL), SNIFF_ELF,
	    "ELF");
	CHECK_INT(sniff(S("\xef\xbb\xbf<?xml version=\"1.0\"?>\n<svg>"),
	    SNIFF_FOLDED, NULL), SNIFF_SVG, "an SVG after a byte order mark");
	CHECK_INT(sniff(S("\x0a\x04\x08\x01\x10\x02"), SNIFF_STREAM, NULL),
	    SNIFF_PPROF, "an uncompressed pprof profile");
	CHECK_INT(sniff(S("ab\0cd\n"), SNIFF_STREAM, &at), SNIFF_BINARY,
	    "a NUL byte in the first line: binary");
	CHECK_INT(at, 2, "at the NUL byte");
	CHECK_INT(sniff(S("app 1/1 [000] 1.0: 1 cpu-clock:\n\t1 a\0b (x)\n"),
	    SNIFF_STREAM, NULL), SNIFF_TEXT,
	    "a NUL byte further on: text, said line by line");
	CHECK_INT(sniff(S("a;b\x01\x02\x03 1\n"), SNIFF_FOLDED, NULL),
	    SNIFF_BINARY, "mostly control bytes: binary");
	CHECK_INT(sniff(S("caf\xc3\xa9;na\xc3\xafve 1\n"), SNIFF_FOLDED, NULL),
	    SNIFF_TEXT, "UTF-8 names are text");
	CHECK_INT(sniff(S("a;b 1\r\nc 2\r\n"), SNIFF_FOLDED, NULL), SNIFF_TEXT,
	    "CRLF is text");
	CHECK_INT(sniff(S("# fgrecord 1\n"), SNIFF_FOLDED, NULL),
	    SNIFF_STREAM_TEXT, "a stream where folded stacks are wanted");
	CHECK_INT(sniff(S("# ========\n# fgrecord 1\n# start : 1.5 2.5\n"),
	    SNIFF_FOLDED, NULL), SNIFF_STREAM_TEXT,
	    "a stream that opens with the fence, where folded stacks are wanted");
	CHECK_INT(sniff(S("# ====\napp 12 1.0: 1 cpu-clock:\n\t1f a (/x)\n"),
	    SNIFF_FOLDED, NULL), SNIFF_STREAM_TEXT,
	    "perf script output where folded stacks are wanted");
	CHECK_INT(sniff(S("a;b 1 2\na;c 3 4\n"), SNIFF_FOLDED, NULL),
	    SNIFF_TEXT, "differential folded lines are no stream");
	CHECK_INT(sniff(S("# fgrecord 1\n"), SNIFF_STREAM, NULL), SNIFF_TEXT,
	    "a stream where one is wanted");
	CHECK_INT(sniff(S(""), SNIFF_STREAM, NULL), SNIFF_TEXT,
	    "an empty input is text");
	memset(big, 'a', sizeof(big));
	memcpy(big + sizeof(big) - 1, "\xc3", 1);
	CHECK_INT(sniff(big, sizeof(big), SNIFF_FOLDED, NULL), SNIFF_TEXT,
	    "a character cut by the end of the block is no fault");

	CHECK_STR(stream_quote(q, sizeof(q), S("a\tb\x1b[2J\x9b\xc2\x9b\0z"),
	    80), "a\\x09b\\x1b[2J\\x9b\\xc2\\x9b\\x00z",
	    "control, C1, bad UTF-8 and NUL bytes as \\xHH");
	CHECK_STR(stream_quote(q, sizeof(q), S("caf\xc3\xa9"), 80),
	    "caf\xc3\xa9", "UTF-8 kept");
	CHECK_STR(stream_quote(q, sizeof(q), S("abcdef"), 3), "abc...",
	    "cut at max");
	CHECK_STR(stream_quote(q, 8, S("\x01\x02\x03"), 80), "\\x01...",
	    "a small buffer holds what fits, NUL-terminated");

	/* Issue 33.8: a name's ESC, BEL and CR never reach the terminal. */
	{
		char *m = stream_quoted(S("/a\x1b]0;T\x07" "b\x1b[2J\rc"));
		char got[512];
		FILE *tmp = tmpfile();
		int saved = dup(2);
		size_t n;

		CHECK_STR(m, "/a\\x1b]0;T\\x07b\\x1b[2J\\x0dc",
		    "stream_quoted: all of it, every control byte as \\xHH");
		free(m);
		fflush(stderr);
		dup2(fileno(tmp), 2);
		stream_warnx("'%s': no such %s", "/x\x1b[2J\ry", "file\a");
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		rewind(tmp);
		n = fread(got, 1, sizeof(got) - 1, tmp);
		got[n] = '\0';
		fclose(tmp);
		CHECK_INT(strchr(got, '\x1b') == NULL && strchr(got, '\a') ==
		    NULL && strchr(got, '\r') == NULL, 1,
		    "stream_warnx writes no control byte");
		CHECK_INT(strstr(got, ": '/x\\x1b[2J\\x0dy': no such "
		    "file\\x07\n") != NULL, 1, "stream_warnx: the message quoted");
	}
	return unit_done();
}
