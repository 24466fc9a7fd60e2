/*
 * perfdata: perf data (perf.data, or perf record -o -'s pipe) into the
 * profile in one process, as fgsym FILE | fgpprof would read it: replayed
 * and named by profile/perfnamed, handed to the profile as structs
 * (stacks_feed_*), with no text between the stages.
 */
#include "base/lineread.h"
#include "pprof/pprof.h"
#include "profile/perfnamed.h"
#include "profile/stacks.h"
#include "stream/sample.h"
#include "stream/sniff.h"
#include "sym/sym.h"

static void
named_header(void *arg, const struct sample_hdr *h)
{
	stacks_feed_header(arg, h);
}

static void
named_head(void *arg, const struct stream_head *h)
{
	stacks_feed_head(arg, h);
}

static void
named_frame(void *arg, const struct stream_frame *fr, const void *id)
{
	(void)id;
	stacks_feed_frame(arg, fr);
}

static void
named_srcline(void *arg, const char *text)
{
	stacks_feed_srcline(arg, text);
}

static void
named_end(void *arg)
{
	stacks_feed_end(arg);
}

static const struct sym_named to_stacks = {
	.header = named_header,
	.head = named_head,
	.frame = named_frame,
	.srcline = named_srcline,
	.end = named_end,
};

static int
named_finish(void *arg)
{
	stacks_feed_finish(arg);
	return 0;
}

/*
 * The perf data on fd (head[0..headlen) read of it already), its frames
 * named as fgsym names them by default (no source lines: fgsym FILE |
 * fgpprof's profile).
 */
static int
pprof_perfdata(struct pprof *p, int fd, const char *name, const char *head,
    size_t headlen)
{
	struct perfnamed pn = { .to = &to_stacks, .arg = &p->prof,
	    .finish = named_finish };

	stacks_feed_begin(&p->prof, name);
	return perfnamed_run(&pn, fd, name, head, headlen);
}

int
pprof_stream(struct pprof *p, int fd, const char *name)
{
	struct lineread lr;
	const char *head;
	size_t n;
	enum sniff_kind k;
	int rv;

	lineread_init(&lr, fd, name);
	n = lineread_peek(&lr, 16, &head);
	k = sniff(head, n, SNIFF_STREAM, NULL);
	if (k == SNIFF_PERFDATA || k == SNIFF_PERFPIPE)
		rv = pprof_perfdata(p, fd, name, head, n);
	else if (sniff_refuse(&lr, SNIFF_STREAM, "fgpprof") != 0)
		rv = SNIFF_REFUSED;
	else
		rv = stacks_lines(&p->prof, &lr, name);
	lineread_release(&lr);
	return rv;
}
