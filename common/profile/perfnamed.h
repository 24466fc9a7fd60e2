/*
 * perfnamed: perf data (perf.data, or perf record -o -'s pipe) replayed
 * by fgrecord's session (record/replay.h) and named by a symbolizer of
 * its own (sym_sink_named), each sample handed as structs to a profile's
 * feed, with no text between the stages: the one setup of fgfold and
 * fgsvg (profile/foldperf) and fgpprof (pprof/perfdata) on perf data.
 * It lives here, not in sym/ nor record/, because it uses both, and
 * they never use each other.
 *
 *	struct perfnamed pn = { .to = &my_feed, .arg = me,
 *	    .finish = my_finish };
 *	my_begin(me, name);
 *	rc = perfnamed_run(&pn, fd, name, head, headlen);
 */
#ifndef FG_PERFNAMED_H
#define FG_PERFNAMED_H

#include <stddef.h>

#include "sym/sym.h"

struct perfnamed {
	const struct sym_named *to;	/* static: takes the named samples */
	void	*arg;			/* to's, borrowed */
	int	 srcline;		/* nonzero: source lines too */
	/*
	 * Called after the last sample, before the symbolizer says its
	 * summary (so that the profile's own closing lines come first):
	 * returns the profile's status, 0, 1 or 2. May be NULL.
	 */
	int	(*finish)(void *arg);
};

/*
 * Replays the perf data on fd (borrowed; name, borrowed, names it in
 * messages; head[0..headlen) is what was read of it already, borrowed)
 * into pn->to, its frames named as fgsym names them by default (inlined
 * functions; source lines when pn->srcline), and says on stderr what
 * the replay and the symbolizer say at their end; the progress line when
 * stderr is a terminal. Returns the worst of the replay's status, the
 * symbolizer's (1: files that could not be read) and pn->finish's: 0, 1
 * (part of the input bad, said) or 2 (no perf data it reads: said). A
 * session that cannot start exits 2, said.
 */
int	perfnamed_run(const struct perfnamed *pn, int fd, const char *name,
	    const char *head, size_t headlen);

#endif
