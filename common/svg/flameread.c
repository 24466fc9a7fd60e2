#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cmdfile.h"
#include "base/lineread.h"
#include "base/xalloc.h"
#include "profile/fold.h"
#include "stream/folded.h"
#include "stream/sniff.h"
#include "svg/flame.h"
#include "svg/flameread.h"

void
flameread_init(struct flameread *fr, struct flame *fl)
{
	memset(fr, 0, sizeof(*fr));
	fr->fl = fl;
}

void
flameread_release(struct flameread *fr)
{
	size_t i;

	for (i = 0; i < fr->nmaps; i++)
		lineread_unmap(&fr->maps[i]);
	free(fr->maps);
	fr->maps = NULL;
	fr->nmaps = fr->mapcap = 0;
}

/* Counts a bad line, saying the first of each kind. */
static void
bad_line(struct flameread *fr, enum folded_status st, const char *name,
    unsigned long lineno)
{
	if (st == FOLDED_BLANK)
		return;
	if (fr->seen[st]++ == 0)
		warnx("%s:%lu: %s; expected \"STACK COUNT\" or "
		    "\"STACK BEFORE AFTER\"", name, lineno, folded_strerror(st));
	fr->bad++;
}

/*
 * Adds the line's integer counts to the totals and returns 0; or, when
 * that would take a sum past 2^64-1, leaves them and returns -1, said once.
 */
static int
add_totals(struct flameread *fr, const struct folded_line *f,
    const char *name, unsigned long lineno)
{
	int c, to;

	for (c = 0; c < f->ncounts; c++) {
		to = f->ncounts == 2 ? c : 1;
		if (!f->count[c].decimal &&
		    fr->totals[to] > UINT64_MAX - f->count[c].u)
			break;
	}
	if (c == f->ncounts) {
		for (c = 0; c < f->ncounts; c++)
			if (!f->count[c].decimal)
				fr->totals[f->ncounts == 2 ? c : 1] +=
				    f->count[c].u;
		return 0;
	}
	if (!fr->said_overflow++)
		warnx("%s:%lu: the counts add up past 2^64-1 here: skipped the "
		    "line; draw fewer stacks at a time", name, lineno);
	fr->failed = 1;
	return -1;
}

/*
 * One line: parsed, checked, and added to the flame, copied or (kept)
 * pointing into the mapping.
 */
static void
add_line(struct flameread *fr, const char *line, size_t len, int kept,
    const char *name, unsigned long lineno)
{
	struct folded_line f;
	enum folded_status st;

	if ((st = folded_parse(line, len, &f)) != FOLDED_OK)
		bad_line(fr, st, name, lineno);
	else if (add_totals(fr, &f, name, lineno) != 0)
		return;
	else if (kept)
		flame_add_kept(fr->fl, line, len, &f);
	else
		flame_add(fr->fl, line, len, &f);
}

void
flameread_fd(struct flameread *fr, int fd, const char *name)
{
	struct lineread *lr;
	const char *kept;
	ssize_t len;

	GROW(fr->maps, fr->nmaps + 1, fr->mapcap);
	lr = &fr->maps[fr->nmaps];
	if (lineread_map(lr, fd, name) == 0) {
		if (sniff_refuse(lr, SNIFF_FOLDED, "fgsvg") != 0) {
			fr->refused = 1;
			lineread_release(lr);
			lineread_unmap(lr);
			return;
		}
		while ((len = lineread_next_kept(lr, &kept)) >= 0)
			add_line(fr, kept, len, 1, name, lr->lineno);
		lineread_release(lr);
		fr->nmaps++;		/* kept until flameread_release */
		return;
	}
	flameread_lines(fr, lr, name);
	lineread_release(lr);
}

void
flameread_lines(struct flameread *fr, struct lineread *lr, const char *name)
{
	char *line;
	ssize_t len;

	if (sniff_refuse(lr, SNIFF_FOLDED, "fgsvg") != 0) {
		fr->refused = 1;
		return;
	}
	while ((len = lineread_next(lr, &line)) >= 0)
		add_line(fr, line, len, 0, name, lr->lineno);
	if (lr->error != 0) {
		cmdfile_read_failed(name, lr->error);
		fr->failed = 1;
	}
}

int
flameread_finish(struct flameread *fr)
{
	if (fr->bad > 0)
		warnx("skipped %lu malformed line%s", fr->bad,
		    fr->bad == 1 ? "" : "s");
	return fr->bad > 0 || fr->failed;
}

uint32_t *
flameread_fold(struct flameread *fr, struct fold *f)
{
	uint32_t *seq = xmalloc((f->tab.n + 1) * sizeof(*seq));
	size_t i;

	fold_settle(f);
	for (i = 0; i < f->tab.n; i++) {
		const struct stacktab_entry *e = &f->tab.ents[i];
		size_t n = fr->fl->nlines;

		seq[i] = UINT32_MAX;
		/* a stack whose only samples were refused: none */
		if (e->u[0] == 0)
			continue;
		flame_add_stack(fr->fl, e->key, e->len, e->u[0]);
		if (fr->fl->nlines > n)
			seq[i] = (uint32_t)n;
	}
	return seq;
}
