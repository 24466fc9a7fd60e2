/*
 * foldperf: perf data folded in one process (foldperf.h): the replay's
 * samples, named by the symbolizer, handed to the fold as structs.
 */
#include <err.h>
#include <stdlib.h>
#include <unistd.h>

#include "profile/fold.h"
#include "profile/foldperf.h"
#include "record/replay.h"
#include "stream/sample.h"
#include "stream/sniff.h"
#include "sym/sym.h"

static void
named_header(void *arg, const struct sample_hdr *h)
{
	fold_feed_header(arg, h);
}

static void
named_head(void *arg, const struct stream_head *h)
{
	fold_feed_head(arg, h);
}

static void
named_frame(void *arg, const struct stream_frame *fr, const void *id)
{
	fold_feed_frame(arg, fr, id);
}

static void
named_srcline(void *arg, const char *text)
{
	fold_feed_srcline(arg, text);
}

static void
named_end(void *arg)
{
	fold_feed_end(arg);
}

static const struct sym_named to_fold = {
	.header = named_header,
	.head = named_head,
	.frame = named_frame,
	.srcline = named_srcline,
	.end = named_end,
};

int
fold_perfdata(struct fold *f, int fd, const char *name, const char *head,
    size_t headlen)
{
	struct sym_opts o = SYM_OPTS_DEFAULT;
	struct sample_sink sink;
	struct sym *s;
	char *why;
	int rc, rv;

	o.srcline = f->opts.srcline;
	o.progress = isatty(STDERR_FILENO);
	s = sym_new(&o);
	fold_feed_begin(f, name);
	sym_sink_named(s, &to_fold, f, &sink);
	rc = replay_perfdata(fd, name, head, headlen, &sink, sym_search(s),
	    &why);
	if (rc == -1)
		errx(2, "%s", why);
	sym_sink_release(&sink);
	rv = fold_feed_finish(f);
	if (sym_finish(s) != 0 && rc == 0)
		rc = 1;
	sym_free(s);
	return rc > rv ? rc : rv;
}

int
fold_input(struct fold *f, struct lineread *lr, int fd, const char *tool)
{
	const char *head;
	size_t n = lineread_peek(lr, 16, &head);
	enum sniff_kind k = sniff(head, n, SNIFF_STREAM, NULL);

	if (k == SNIFF_PERFDATA || k == SNIFF_PERFPIPE)
		return fold_perfdata(f, fd, lr->name, head, n);
	return fold_lines(f, lr, tool);
}
