#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/lineread.h"
#include "base/xalloc.h"
#include "profile/foldperf.h"
#include "stream/diag.h"
#include "stream/sniff.h"
#include "svg/draw.h"

void
draw_init(struct draw *d, struct flame *fl, const struct timeline_opts *tlo,
    int notimeline)
{
	struct fold_opts fop = { .on_sample = NULL };

	memset(d, 0, sizeof(*d));
	d->fl = fl;
	d->notimeline = notimeline;
	flameread_init(&d->fr, fl);
	timebins_init(&d->tb);
	if (!notimeline) {
		fop.on_sample = timebins_on_sample;
		fop.on_sample_arg = &d->tb;
	}
	fold_init(&d->fold, &fop);
	timeline_init(&d->tl, tlo);
}

void
draw_release(struct draw *d)
{
	flameread_release(&d->fr);
	fold_release(&d->fold);
	timeline_release(&d->tl);
	timebins_release(&d->tb);
	free(d->folded);
	free(d->stream);
	memset(d, 0, sizeof(*d));
}

int
draw_read(struct draw *d, int fd, const char *name)
{
	struct lineread lr;
	struct stat st;
	const char *p;
	size_t n;
	off_t at = lseek(fd, 0, SEEK_CUR);
	enum sniff_kind k;
	int stream, rv = 0;

	lineread_init(&lr, fd, name);
	n = lineread_peek(&lr, SNIFF_BLOCK, &p);
	k = sniff(p, n, SNIFF_FOLDED, NULL);
	/* perf data is a stream too, read in this process */
	stream = k == SNIFF_STREAM_TEXT || k == SNIFF_PERFDATA ||
	    k == SNIFF_PERFPIPE;
	if ((stream ? d->folded : d->stream) != NULL)
		errx(2, "'%s' is %s, and '%s' %s: draw one kind at a time "
		    "(fold the streams with fgfold, or give only streams)",
		    name, stream ? "a sample stream" : "folded stacks",
		    stream ? d->folded : d->stream,
		    stream ? "folded stacks" : "a sample stream");
	if (stream) {
		if (d->stream == NULL)
			d->stream = xstrdup(name);
		rv = fold_input(&d->fold, &lr, fd, "fgsvg");
		lineread_release(&lr);
		return rv;
	}
	if (n > 0 && d->folded == NULL)
		d->folded = xstrdup(name);
	if (at != -1 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    lseek(fd, at, SEEK_SET) == at) {
		/* a file: mapped, its lines kept in place */
		lineread_release(&lr);
		flameread_fd(&d->fr, fd, name);
	} else {
		flameread_lines(&d->fr, &lr);
		lineread_release(&lr);
	}
	return d->fr.refused ? 2 : 0;
}

/*
 * The timeline's budget when --timeline-budget is not given: 30% of the
 * graph without it (drawn once in memory to know), less the timeline's
 * script, so that the whole SVG is at most 30% bigger; and at least
 * TIMELINE_BUDGET_MIN, so that a small profile keeps every detail.
 */
static size_t
default_budget(struct flame *fl, const struct svg_opts *so,
    struct palette *pal)
{
	struct buf m;
	size_t n;

	buf_init(&m);
	(void)svg_write(&m, fl, so, pal);
	n = m.len * 3 / 10;
	n = n > strlen(timeline_script) ? n - strlen(timeline_script) : 0;
	buf_release(&m);
	return n > TIMELINE_BUDGET_MIN ? n : TIMELINE_BUDGET_MIN;
}

/*
 * Says what the time bins could not take as it was (profile/timebins.h):
 * waits that pass 2^64-1 ns, waits that overlap. Returns 1 when any.
 */
static int
say_bins(const struct timebins *tb)
{
	const struct timebins_bad *c = &tb->clamped, *o = &tb->overlap;

	if (c->n > 0)
		warnx("%s:%lu: an off-CPU wait ends past 2^64-1 ns (its time "
		    "plus its period): the timeline cuts it there (%llu wait%s "
		    "so); the time or the period is wrong", c->name, c->line,
		    (unsigned long long)c->n, c->n == 1 ? "" : "s");
	if (o->n > 0)
		warnx("%s:%lu: an off-CPU wait begins before its thread's "
		    "previous one ended (a thread waits for one thing at a "
		    "time): the timeline weighs it where it began (%llu wait%s "
		    "so); give each thread's waits in time order, apart",
		    o->name, o->line, (unsigned long long)o->n,
		    o->n == 1 ? "" : "s");
	return c->n > 0 || o->n > 0;
}

int
draw_finish(struct draw *d, int quiet, struct svg_opts *so,
    struct palette *pal)
{
	uint32_t *seq = NULL;
	int rv = 0;

	if (flameread_finish(&d->fr) != 0)
		rv = 1;
	if (d->stream != NULL) {
		if (fold_finish(&d->fold, quiet || rv != 0) != 0)
			rv = 1;
		seq = flameread_fold(&d->fr, &d->fold);
		timebins_finish(&d->tb);
		if (say_bins(&d->tb))
			rv = 1;
	}
	/* not bad input: exit 0 (fold_finish says it of a stream) */
	if (!quiet && rv == 0 && d->fl->nlines == 0 && d->stream == NULL)
		stream_diag_empty(NULL);
	flame_build(d->fl);
	if (seq != NULL && !d->notimeline) {
		if (d->tl.opts.budget == 0)
			d->tl.opts.budget = default_budget(d->fl, so, pal);
		d->timeline_ok = timeline_build(&d->tl, &d->tb, d->fl, seq,
		    d->fold.timed, pal) == 0;
	}
	free(seq);
	if (d->timeline_ok)
		so->timeline = &d->tl;
	if (so->total > 0 && so->total < d->fl->time) {
		warnx("--total %g is less than the sum of the counts, %g; "
		    "using the sum", so->total, d->fl->time);
		so->total = 0;
	}
	return rv;
}

void
draw_on_sigbus(int sig)
{
	static const char msg[] = "fgsvg: an input file shrank while it was "
	    "being read; run again on a file that is not being written\n";

	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	_exit(2);
}
