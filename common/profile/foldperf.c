/*
 * foldperf: perf data folded in one process (foldperf.h): the samples
 * perfnamed replays and names, handed to the fold as structs.
 */
#include "profile/fold.h"
#include "profile/foldperf.h"
#include "profile/perfnamed.h"
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

static int
named_finish(void *arg)
{
	return fold_feed_finish(arg);
}

int
fold_perfdata(struct fold *f, int fd, const char *name, const char *head,
    size_t headlen)
{
	struct perfnamed pn = { .to = &to_fold, .arg = f,
	    .srcline = f->opts.srcline, .finish = named_finish };

	fold_feed_begin(f, name);
	return perfnamed_run(&pn, fd, name, head, headlen);
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
