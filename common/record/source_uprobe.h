/*
 * source_uprobe: fgrecord --alloc through uprobes, for what the preloaded
 * library cannot reach: a statically linked program, a running process
 * (-p), an allocator linked in by symbols a preload does not replace
 * (jemalloc through tikv-jemallocator, mimalloc). perf_event_open's uprobe
 * PMU puts an entry probe on each allocation function of the files the
 * program maps, found by their symbols, and a return probe on those that
 * return a pointer; fgrecord samples by bytes what they report, so every
 * call traps into the kernel, sampled or not (root, or CAP_PERFMON and
 * CAP_SYS_ADMIN). The source itself is source_uprobe (record/source.h).
 */
#ifndef FG_SOURCE_UPROBE_H
#define FG_SOURCE_UPROBE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Why --alloc should go through uprobes for the command argv (or, argv
 * NULL, the npids -p processes): "-p PID", "'PATH' is statically
 * linked", "'PATH' links jemalloc (_rjem_malloc)", in words that follow
 * "--alloc: "; or NULL when the preload can record it. *must is set
 * when the preload can record nothing at all (-p, a static program),
 * cleared when it records the calls that go through malloc (an
 * allocator linked in). The caller frees the words.
 */
char	*uprobe_alloc_needed(char *const argv[], size_t npids, int *must);

/*
 * Whether this process may open uprobes: 1, or 0 with *fix (static) the
 * words that say what is missing and the fix.
 */
int	 uprobe_alloc_allowed(const char **fix);

#endif
