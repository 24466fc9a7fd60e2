#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/lineread.h"
#include "base/xalloc.h"
#include "profile/fold.h"
#include "stream/folded.h"
#include "stream/sniff.h"
#include "svg/flame.h"
#include "svg/flameread.h"

/* A folded line, into the flame: copied, or pointing into the mapping. */
static void
flame_line(void *arg, const struct folded_item *it)
{
	struct flame *fl = arg;

	if (it->kept)
		flame_add_kept(fl, it->line, it->len, &it->fl);
	else
		flame_add(fl, it->line, it->len, &it->fl);
}

void
flameread_init(struct flameread *fr, struct flame *fl)
{
	/* a plain line's count is AFTER, as a differential line's second */
	struct folded_reader_opts o = {
		.tool = "fgsvg", .slot = 1, .say_forms = 1,
		.fewer = "draw fewer stacks at a time",
		.on_line = flame_line, .arg = fl
	};

	memset(fr, 0, sizeof(*fr));
	fr->fl = fl;
	o.totals = fr->totals;
	folded_reader_init(&fr->rd, &o);
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

void
flameread_fd(struct flameread *fr, int fd, const char *name)
{
	struct lineread *lr;
	int mapped, refused;

	GROW(fr->maps, fr->nmaps + 1, fr->mapcap);
	lr = &fr->maps[fr->nmaps];
	mapped = lineread_map(lr, fd, name) == 0;
	refused = flameread_lines(fr, lr) != 0;
	lineread_release(lr);
	if (mapped && refused)
		lineread_unmap(lr);
	else if (mapped)
		fr->nmaps++;		/* kept until flameread_release */
}

int
flameread_lines(struct flameread *fr, struct lineread *lr)
{
	if (folded_read(&fr->rd, lr) != SNIFF_REFUSED)
		return 0;
	fr->refused = 1;
	return -1;
}

int
flameread_finish(struct flameread *fr)
{
	unsigned long bad = fr->rd.bad;

	if (bad > 0)
		warnx("skipped %lu malformed line%s", bad, bad == 1 ? "" : "s");
	return bad > 0 || fr->rd.skipped > 0 || fr->rd.read_failed;
}

uint32_t *
flameread_fold(struct flameread *fr, struct fold *f)
{
	uint32_t *seq = xmalloc((f->tab.n + 1) * sizeof(*seq));
	size_t i;

	fold_settle(f);
	for (i = 0; i < f->tab.n; i++) {
		const struct intern_entry *e = &f->tab.ents[i];
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
