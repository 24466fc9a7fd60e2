/*
 * perfnamed: perf data replayed and named in one process, handed on as
 * structs (perfnamed.h).
 */
#include <err.h>
#include <stdlib.h>
#include <unistd.h>

#include "profile/perfnamed.h"
#include "record/replay.h"
#include "stream/sample.h"
#include "sym/sym.h"

int
perfnamed_run(const struct perfnamed *pn, int fd, const char *name,
    const char *head, size_t headlen)
{
	struct sym_opts o = SYM_OPTS_DEFAULT;
	struct sample_sink sink;
	struct sym *s;
	char *why;
	int rc, rv = 0;

	o.srcline = pn->srcline;
	o.progress = isatty(STDERR_FILENO);
	s = sym_new(&o);
	sym_sink_named(s, pn->to, pn->arg, &sink);
	rc = replay_perfdata(fd, name, head, headlen, &sink, sym_search(s),
	    &why);
	if (rc == -1)
		errx(2, "%s", why);
	sym_sink_release(&sink);
	if (pn->finish != NULL)
		rv = pn->finish(pn->arg);
	if (sym_finish(s) != 0 && rc == 0)
		rc = 1;
	sym_free(s);
	return rc > rv ? rc : rv;
}
