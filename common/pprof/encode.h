/*
 * encode: the profile.proto side of pprof/: what the stream reader
 * (pprof.c) hands it while it reads (strings, locations), and the
 * profile's encoding (pprof_encode, pprof_write in pprof.h). Internal to
 * pprof/.
 */
#ifndef FG_PPROF_ENCODE_H
#define FG_PPROF_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "pprof/pprof.h"

/* A sample's kind, the first varint of its key in p->samples. */
enum { PPROF_ON = 1, PPROF_OFF = 2 };

/*
 * The index of s[0..len) in the string table, added when new (s is
 * copied; it may be NULL when len is 0).
 */
uint64_t pprof_str(struct pprof *, const char *s, size_t len);

/*
 * Makes the Location for the frame group text[0..len) (inlined frame
 * lines, the frame line holding them, their source lines; each ending in
 * '\n', borrowed for the call): appends its message, but for its id and
 * mapping id, to p->larena, and records its place and its mapping in e,
 * the group's entry in p->locs.
 */
void	 pprof_location(struct pprof *, struct stacktab_entry *e,
	    const char *text, size_t len);

#endif
