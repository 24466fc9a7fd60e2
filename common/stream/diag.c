#include <err.h>

#include "stream/diag.h"

void
stream_diag_init(struct stream_diag *d, const char *name)
{
	d->name = name;
	d->bad = 0;
}

void
stream_diag_bad(struct stream_diag *d, unsigned long lineno, const char *line,
    size_t len)
{
	d->bad++;
	if (d->bad <= DIAG_BAD_SHOWN)
		warnx("%s:%lu: unrecognised line '%.*s'%s", d->name, lineno,
		    (int)(len > 80 ? 80 : len), line, len > 80 ? "..." : "");
	if (d->bad == DIAG_BAD_SHOWN + 1)
		warnx("%s: more unrecognised lines follow; only the first %d "
		    "are shown", d->name, DIAG_BAD_SHOWN);
}

void
stream_diag_cut(const struct stream_diag *d, unsigned long lineno)
{
	warnx("%s:%lu: the last sample has no closing empty line, so the "
	    "stream was cut off; dropped it", d->name, lineno);
}
