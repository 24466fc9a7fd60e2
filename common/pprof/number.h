/*
 * number: the encoding's tables, numbered in the order the profile first
 * saw things: the strings, functions, mappings and locations of
 * profile.proto, and the comments, which pprof/encode.c then writes
 * (pprof_encode, pprof_write in pprof.h). Internal to pprof/; it calls
 * nothing of encode.c.
 */
#ifndef FG_PPROF_NUMBER_H
#define FG_PPROF_NUMBER_H

#include <stddef.h>
#include <stdint.h>

#include "pprof/pprof.h"

/* Mapping flags: what the stream told about a DSO's frames. */
#define PPROF_MAP_FUNCS	1
#define PPROF_MAP_FILES	2
#define PPROF_MAP_LINES	4
#define PPROF_MAP_INLINE	8

/*
 * The index of s[0..len) in the string table, added when new (s is
 * copied; it may be NULL when len is 0).
 */
uint64_t pprof_str(struct pprof *, const char *s, size_t len);

/*
 * Makes the Location id of p->prof, called in id order: appends its
 * mapping id and its message's length (varints) and its message, but for
 * its id and mapping id, to p->larena; its mapping and functions are
 * numbered when new.
 */
void	 pprof_location(struct pprof *, size_t id);

/*
 * Makes the string, function and mapping tables, the comments and the
 * locations' messages again from p->prof, in the order it first saw its
 * threads, locations, build IDs and notes. pprof_encode calls it first.
 */
void	 pprof_number(struct pprof *);

#endif
