/*
 * Unit tests of common/base/lineread.c's mapped reading: the lines of a mapped
 * file are those lineread_next gives (CRLF, a NUL byte, an empty line, no
 * final newline), in place, from the descriptor's offset; a pipe, an empty
 * file and one read to its end are not mapped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lineread.h"
#include "unit.h"

/*
 * lineread_peek_block over "\r\n" line ends finds the empty line as over
 * "\n", whatever the reads' sizes; and lineread_peek shows the first bytes.
 */
static void
test_crlf_peek(void)
{
	static const char text[] = "head\r\n a\r\n b\r\n\r\nnext\r\n\r\n\r\ntail";
	char path[] = "/tmp/test_lineread.XXXXXX", *line, *p;
	const char *q;
	struct lineread lr;
	int fd = mkstemp(path);
	ssize_t n;

	if (fd < 0 || write(fd, text, sizeof(text) - 1) != sizeof(text) - 1)
		return;
	lseek(fd, 0, SEEK_SET);
	lineread_init(&lr, fd, path);
	CHECK(lineread_peek(&lr, 4, &q) == sizeof(text) - 1 &&
	    memcmp(q, "head", 4) == 0, "lineread_peek shows the first bytes");
	CHECK(lineread_next(&lr, &line) == 4, "peek consumed nothing");
	n = lineread_peek_block(&lr, 1 << 20, &p);
	CHECK(n == 10 && memcmp(p, " a\r\n b\r\n\r\n", 10) == 0,
	    "CRLF: the block ends at the \\r\\n line");
	lineread_skip(&lr, 10, 3);
	CHECK(lineread_next(&lr, &line) == 4 && lr.lineno == 5, "next");
	CHECK(lineread_peek_block(&lr, 1 << 20, &p) == 2,
	    "CRLF: an empty line next is a block of 2");
	lineread_skip(&lr, 2, 1);
	lineread_skip(&lr, 2, 1);
	CHECK(lineread_peek_block(&lr, 1 << 20, &p) == -1 &&
	    lineread_peek_block(&lr, 1 << 20, &p) == -1,
	    "CRLF: no empty line before the end, twice");
	CHECK(lineread_next(&lr, &line) == 4 && strcmp(line, "tail") == 0,
	    "tail");
	lineread_release(&lr);
	close(fd);
	unlink(path);
}

static const char text[] = "a;b 1\r\n\nnul\0byte 2\nlast 3";

int
main(void)
{
	char path[] = "/tmp/test_lineread.XXXXXX", *line, got[256], want[256];
	const char *kept;
	struct lineread lr, lm;
	int fd = mkstemp(path), p[2], inplace = 1;
	size_t gl = 0, wl = 0;
	ssize_t n;

	if (fd < 0 || write(fd, text, sizeof(text) - 1) != sizeof(text) - 1)
		return 2;
	test_crlf_peek();
	lseek(fd, 0, SEEK_SET);
	lineread_init(&lr, fd, path);
	while ((n = lineread_next(&lr, &line)) >= 0) {
		memcpy(want + wl, line, n);
		wl += n;
		want[wl++] = '|';
	}
	lineread_release(&lr);
	lseek(fd, 0, SEEK_SET);
	CHECK(lineread_map(&lm, fd, path) == 0, "a regular file is mapped");
	while ((n = lineread_next_kept(&lm, &kept)) >= 0) {
		inplace &= kept >= lm.map && kept + n <= lm.map + lm.mapsize;
		memcpy(got + gl, kept, n);
		gl += n;
		got[gl++] = '|';
	}
	CHECK(gl == wl && memcmp(got, want, gl) == 0 && gl == 25,
	    "the same lines as lineread_next: CR dropped, NUL kept");
	CHECK(inplace, "each line lies in the mapping");
	CHECK(lm.lineno == 4 && lm.partial, "four lines, the last cut");
	lineread_release(&lm);
	CHECK(memcmp(lm.map, "a;b 1", 5) == 0,
	    "the lines outlive lineread_release");
	lineread_unmap(&lm);
	CHECK(lm.map == NULL, "lineread_unmap");

	/* from the descriptor's offset, as a shell leaves it; then at the end */
	lseek(fd, 7, SEEK_SET);
	CHECK(lineread_map(&lm, fd, path) == 0 &&
	    lineread_next_kept(&lm, &kept) == 0 &&
	    lineread_next_kept(&lm, &kept) == 10 &&
	    memcmp(kept, "nul\0byte 2", 10) == 0 &&
	    lseek(fd, 0, SEEK_CUR) == (off_t)sizeof(text) - 1,
	    "starts at the offset, leaves the descriptor at the end");
	lineread_release(&lm);
	lineread_unmap(&lm);
	CHECK(lineread_map(&lm, fd, path) == -1 && lm.map == NULL,
	    "nothing left to read: not mapped");
	lineread_release(&lm);

	if (ftruncate(fd, 0) != 0 || pipe(p) != 0)
		return 2;
	CHECK(lineread_map(&lm, fd, path) == -1 && lm.map == NULL,
	    "an empty file is not mapped");
	lineread_release(&lm);
	CHECK(lineread_map(&lm, p[0], "pipe") == -1 && lm.map == NULL,
	    "a pipe is not mapped");
	lineread_release(&lm);
	close(fd);
	unlink(path);
	return unit_done();
}
