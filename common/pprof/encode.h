/*
 * encode: the profile.proto side of pprof/: the strings, functions,
 * mappings and locations that pprof.c numbers in the order the profile
 * first saw them (pprof_number), and the profile's encoding (pprof_encode,
 * pprof_write in pprof.h). Internal to pprof/.
 */
#ifndef FG_PPROF_ENCODE_H
#define FG_PPROF_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "pprof/pprof.h"

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
