/*
 * allocprep: what fgrecord --alloc does before it forks the command:
 * finds libfgalloc.so, checks that the command can load it (a
 * dynamically linked program), makes the socket the library writes to,
 * and puts both in the environment the command inherits (LD_PRELOAD,
 * appended to the user's; FGALLOC_FD, FGALLOC_PERIOD, FGALLOC_STACK).
 */
#ifndef FG_ALLOCPREP_H
#define FG_ALLOCPREP_H

#include "record/source.h"

/*
 * Prepares the launch of argv under --alloc: sets cfg->alloc_fd to
 * fgrecord's end of the socket (close-on-exec) and returns the command's
 * end (at least ALLOCMSG_FD_MIN, inherited across exec), which the
 * caller closes after the fork. Exits 2 with one line saying why when
 * the library is not found or the command cannot load it (statically
 * linked).
 */
int	 allocprep_launch(struct source_config *cfg, char *const argv[]);

/*
 * The library fgrecord preloads: beside fgrecord (../lib/libfgalloc.so,
 * the build tree), else in the install prefix. Returns a path (the
 * caller frees it), or NULL with *tried (the caller frees it) naming the
 * places looked in.
 */
char	*allocprep_library(char **tried);

/* The file execvp would run for name, or NULL; the caller frees it. */
char	*allocprep_command_path(const char *name);

/*
 * The summary's first line under --alloc, in the words of a heap
 * profile: the allocations sampled (one per period bytes on average),
 * what they stand for, and what was still allocated at the end.
 */
void	 allocprep_say(uint64_t samples, double period, uint64_t bytes,
	    uint64_t objects, uint64_t in_bytes, uint64_t in_objects);

#endif
