/* Unit tests of common/svg/flameread.c: folded inputs read into a flame,
 * mapped (a regular file) or streamed (a pipe); bad lines counted and
 * skipped; a line that takes the integer sum past 2^64-1 skipped. The
 * warnings go to stderr, as fgsvg's do. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "svg/flame.h"
#include "svg/flameread.h"
#include "unit.h"

static const char text[] =
    "main;a 3\n"
    "\n"
    "no count here\n"
    "main;b 2\n"
    "main;c 18446744073709551615\n"
    "main;a 1";

/* Reads text through fd into a new flame; returns fl.time and the status. */
static double
read_text(int fd, int *status, unsigned long *bad)
{
	struct flame_opts fo = { .sort = FLAME_SORT_NAME };
	struct flameread fr;
	struct flame fl;
	double t;

	flame_init(&fl, &fo);
	flameread_init(&fr, &fl);
	flameread_fd(&fr, fd, "test");
	close(fd);
	*status = flameread_finish(&fr);
	*bad = fr.rd.bad;
	flame_build(&fl);
	t = fl.time;
	flame_release(&fl);
	flameread_release(&fr);
	return t;
}

int
main(void)
{
	char path[] = "/tmp/test_flameread.XXXXXX";
	unsigned long bad;
	int fd, p[2], status;
	double t;

	if ((fd = mkstemp(path)) == -1 ||
	    write(fd, text, sizeof(text) - 1) != (ssize_t)sizeof(text) - 1 ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		perror(path);
		return 2;
	}
	unlink(path);
	t = read_text(fd, &status, &bad);
	CHECK(t == 6, "a mapped file: 3 + 2 + 1 drawn, the line past 2^64-1 skipped");
	CHECK(bad == 1 && status == 1, "one malformed line, and the status says so");

	if (pipe(p) != 0 || write(p[1], text, sizeof(text) - 1) !=
	    (ssize_t)sizeof(text) - 1) {
		perror("pipe");
		return 2;
	}
	close(p[1]);
	t = read_text(p[0], &status, &bad);
	CHECK(t == 6 && bad == 1 && status == 1, "a pipe, streamed: the same");

	if (pipe(p) != 0 || write(p[1], "a;b 1\n\n", 7) != 7) {
		perror("pipe");
		return 2;
	}
	close(p[1]);
	t = read_text(p[0], &status, &bad);
	CHECK(t == 1 && bad == 0 && status == 0, "clean input: status 0, blank lines quiet");
	return unit_done();
}
