/* Unit tests of common/stream/folded.c's reader: the lines handed to the
 * callback (stack, counts, slots, line numbers), from a pipe and from a
 * mapping; bad lines between good ones; CRLF; no final newline; the sums
 * kept within 2^64-1; a refused input; the two wordings of a bad line. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lineread.h"
#include "stream/folded.h"
#include "stream/sniff.h"
#include "unit.h"

/* What the callback was handed, one line of text an item. */
struct got {
	char	 text[4096];
	size_t	 len;
	int	 kept;
};

static void
on_line(void *arg, const struct folded_item *it)
{
	struct got *g = arg;
	int n, c;

	n = snprintf(g->text + g->len, sizeof(g->text) - g->len, "%lu:%.*s",
	    it->lineno, (int)it->fl.stack_len, it->fl.stack);
	g->len += (size_t)n;
	for (c = 0; c < it->fl.ncounts; c++) {
		if (it->fl.count[c].decimal)
			n = snprintf(g->text + g->len, sizeof(g->text) - g->len,
			    " %g>%d", it->fl.count[c].d, it->to[c]);
		else
			n = snprintf(g->text + g->len, sizeof(g->text) - g->len,
			    " %llu>%d", (unsigned long long)it->fl.count[c].u,
			    it->to[c]);
		g->len += (size_t)n;
	}
	g->text[g->len++] = '\n';
	g->text[g->len] = '\0';
	g->kept |= it->kept;
}

/* An fd that reads text: a pipe, or (mapped) an unlinked regular file. */
static int
text_fd(const char *text, int file)
{
	char path[] = "/tmp/test_folded.XXXXXX";
	size_t n = strlen(text);
	int fd, p[2];

	if (file) {
		if ((fd = mkstemp(path)) == -1 ||
		    write(fd, text, n) != (ssize_t)n ||
		    lseek(fd, 0, SEEK_SET) != 0) {
			perror(path);
			exit(2);
		}
		unlink(path);
		return fd;
	}
	if (pipe(p) != 0 || write(p[1], text, n) != (ssize_t)n) {
		perror("pipe");
		exit(2);
	}
	close(p[1]);
	return p[0];
}

/*
 * Reads text through r (on_line into g), as a mapping or a pipe, with
 * stderr caught in err. Returns what folded_read returned.
 */
static int
read_text(struct folded_reader *r, const char *text, int file,
    char *err, size_t errsize)
{
	struct lineread lr;
	char path[] = "/tmp/test_folded_err.XXXXXX";
	int fd = text_fd(text, file), efd, saved, rc;
	ssize_t n;

	if ((efd = mkstemp(path)) == -1 || (saved = dup(2)) == -1) {
		perror(path);
		exit(2);
	}
	unlink(path);
	fflush(stderr);
	dup2(efd, 2);
	if (!file || lineread_map(&lr, fd, "in") != 0)
		lineread_init(&lr, fd, "in");
	rc = folded_read(r, &lr);
	lineread_release(&lr);
	if (file)
		lineread_unmap(&lr);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(efd, err, errsize - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(efd);
	close(fd);
	return rc;
}

static void
reader(struct folded_reader *r, struct got *g, uint64_t *totals, int slot,
    int say_forms)
{
	struct folded_reader_opts o = {
		.tool = "test", .slot = slot, .say_forms = say_forms,
		.fewer = "read less", .totals = totals,
		.on_line = on_line, .arg = g
	};

	memset(g, 0, sizeof(*g));
	folded_reader_init(r, &o);
}

/* One input through a new reader, and what should come of it. */
struct rcase {
	const char	*what;
	int		 slot, say_forms;
	uint64_t	 t0, t1;	/* the sums before, and after */
	uint64_t	 want_t0, want_t1;
	const char	*text;
	const char	*want;		/* the lines handed on, as on_line writes them */
	const char	*want_err;
	unsigned long	 want_bad, want_skipped;
	int		 want_rc;
};

static const struct rcase cases[] = {
	{ "bad lines between good ones, CRLF taken off, the last line "
	  "without a newline; the first of each kind said, the line quoted; "
	  "integer counts summed per slot, a decimal not",
	  0, 0, 0, 0, 14, 5,
	  "a;b 3\r\nno count\r\n\r\na;c 1.5\n-2\nalso none\na;b 4 5\na;d 7",
	  "1:a;b 3>0\n4:a;c 1.5>0\n7:a;b 4>0 5>1\n8:a;d 7>0\n",
	  "test_folded: in:2: no count at the end of the line: 'no count'\n"
	  "test_folded: in:5: count is negative or not a number: '-2'\n",
	  3, 0, 1 },
	{ "the sums within 2^64-1: a plain count to slot 1, filled exactly, "
	  "the lines that would pass it skipped and said once; the forms named",
	  1, 1, 0, UINT64_MAX - 10, 3, UINT64_MAX,
	  "a 5\nb 6\nc 0.5\nd 3 5\ne 100 1\nf x\ng 18446744073709551616\nh 1",
	  "1:a 5>1\n3:c 0.5>1\n4:d 3>0 5>1\n",
	  "test_folded: in:2: the counts add up past 2^64-1 here: skipped the "
	  "line; read less\n"
	  "test_folded: in:6: no count at the end of the line; expected "
	  "\"STACK COUNT\" or \"STACK BEFORE AFTER\"\n"
	  "test_folded: in:7: count does not fit in 64 bits (scale the counts "
	  "down); expected "
	  "\"STACK COUNT\" or \"STACK BEFORE AFTER\"\n",
	  2, 3, 1 },
	{ "a fraction of 70 digits before its dot: refused whole, not read "
	  "from its first 63; the good lines kept",
	  0, 0, 0, 0, 1, 0,
	  "a 1\nb 1234567890123456789012345678901234567890123456789012345678"
	  "901234567890.5\nc 18446744073709551616.0\nd 2.5000000000000000000"
	  "0000000000000000000000000000000000000000000000000000001\n",
	  "1:a 1>0\n4:d 2.5>0\n",
	  "test_folded: in:2: count does not fit in 64 bits (scale the counts "
	  "down): 'b 12345678901234567890123456789012345678901234567890123456"
	  "78...'\n", 2, 0, 1 },
	{ "clean input: blank lines quiet, status 0",
	  0, 0, 0, 0, 2, 0, "\n  \nx;y 2\n", "3:x;y 2>0\n", "", 0, 0, 0 },
	{ "gzip refused, nothing of it read",
	  0, 0, 0, 0, 0, 0, "\x1f\x8b\x08\x00 x;y 2\n", "", NULL, 0, 0,
	  SNIFF_REFUSED },
};

int
main(void)
{
	struct folded_reader r;
	struct got g;
	uint64_t t[2];
	char err[4096], what[512];
	const struct rcase *c;
	size_t i;
	int file, rc;

	for (file = 0; file < 2; file++)
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c = &cases[i];
		t[0] = c->t0;
		t[1] = c->t1;
		reader(&r, &g, t, c->slot, c->say_forms);
		rc = read_text(&r, c->text, file, err, sizeof(err));
		snprintf(what, sizeof(what), "%s: %s: the lines",
		    file ? "mapped" : "a pipe", c->what);
		CHECK_STR(g.text, c->want, what);
		snprintf(what, sizeof(what), "%s: %s: what is said",
		    file ? "mapped" : "a pipe", c->what);
		if (c->want_err != NULL)
			CHECK_STR(err, c->want_err, what);
		else
			CHECK(strstr(err, "'in'") != NULL, what);
		snprintf(what, sizeof(what), "%s: %s: the counts and status",
		    file ? "mapped" : "a pipe", c->what);
		CHECK(r.bad == c->want_bad && r.skipped == c->want_skipped &&
		    rc == c->want_rc && t[0] == c->want_t0 &&
		    t[1] == c->want_t1 && g.kept == (file && *c->want), what);
	}

	/* after a refused input, the next through the same reader */
	rc = read_text(&r, "i 1\nk 2 3\n", 0, err, sizeof(err));
	CHECK(rc == 0 && err[0] == '\0' &&
	    strcmp(g.text, "1:i 1>0\n2:k 2>0 3>1\n") == 0,
	    "after a refused input, the next is read whole");
	/* a second input through the same reader: what is said once is said
	   once in all, and the sum stays full */
	t[0] = 0;
	t[1] = UINT64_MAX - 10;
	reader(&r, &g, t, 1, 1);
	(void)read_text(&r, cases[1].text, 1, err, sizeof(err));
	rc = read_text(&r, "i 1\nj x\nk 2\n", 0, err, sizeof(err));
	CHECK(err[0] == '\0' && rc == 1 && r.bad == 3 && r.skipped == 5,
	    "one reader, two inputs: a kind said once in all, the sum still full");
	/* a stack with its count held apart reads as its line "STACK COUNT" */
	{
		static const char *stacks[] = {
			"a;b", "a;b 7", "a;b 7 8", "a;b  \t", "a;b 1.5", "x 99x",
			"main;f(int, char)", " ", "", "7"
		};
		struct folded_line a, b;
		char line[64];
		size_t k;
		int ok = 1, sa, sb;

		for (k = 0; k < sizeof(stacks) / sizeof(stacks[0]); k++) {
			size_t n = strlen(stacks[k]);

			snprintf(line, sizeof(line), "%s 42", stacks[k]);
			sa = folded_parse(line, strlen(line), &a);
			sb = folded_parse_stack(stacks[k], n, 42, &b);
			if (sa != sb || (sa == FOLDED_OK &&
			    (a.stack_len != b.stack_len ||
			    a.ncounts != b.ncounts ||
			    a.count[0].d != b.count[0].d ||
			    a.count[a.ncounts - 1].u != 42 ||
			    b.count[b.ncounts - 1].u != 42))) {
				printf("# '%s': %d %d\n", stacks[k], sa, sb);
				ok = 0;
			}
		}
		CHECK(ok, "folded_parse_stack: as folded_parse of STACK COUNT "
		    "(a trailing \" NUMBER\" differential, white space off)");
		CHECK_INT(folded_parse_stack("a\0b", 3, 1, &b), FOLDED_NUL,
		    "folded_parse_stack: a NUL byte refused");
	}
	return unit_done();
}
