/*
 * replay: a recording (perf.data, or perf record -o -'s pipe) replayed by
 * fgrecord's session (record.h, source_perfdata), each header and sample
 * handed as a struct to a sink in the same thread: fgsym on perf data. A
 * second thread behind a queue of copied samples overlapped reading and
 * naming but cost 7-9% more CPU (the copies, and the caches crossing
 * CPUs), so there is none.
 *
 *	sym_sink_init(s, stdout, &sink);
 *	rc = replay_perfdata(fd, name, head, headlen, &sink, &why);
 *	(-1: say why, free it, exit 2; else 0, 1 or 2, said)
 *	sym_sink_release(&sink);
 */
#ifndef FG_RECORD_REPLAY_H
#define FG_RECORD_REPLAY_H

#include <stddef.h>

#include "stream/sample.h"

/*
 * Replays the perf data on fd (borrowed; name, borrowed, names it in
 * messages; head[0..headlen) is what was read of it already, borrowed)
 * into sink (borrowed, called in this thread); search (borrowed, may be
 * NULL) says where the recorded files are looked for besides their
 * paths (elf/filesearch). Returns the session's status:
 * 0, 1 (part of the input bad, said) or 2 (no perf data it reads, or the
 * stream could not be written, said); or -1 with *why (the caller frees
 * it) when the session could not start (the options refused, no thread),
 * before anything was read or written.
 */
struct filesearch;

int	replay_perfdata(int fd, const char *name, const char *head,
	    size_t headlen, const struct sample_sink *sink,
	    const struct filesearch *search, char **why);

#endif
