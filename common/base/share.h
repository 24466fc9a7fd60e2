/*
 * share: a part of a whole as a percentage for a message, with one
 * decimal, never rounded to what it is not. A part that is some but
 * rounds to none is "<0.1", not "0.0", which reads as none; a part short
 * of the whole that rounds to all is ">99.9", not "100.0", which reads
 * as all (while the line lists what is missing).
 *
 *	char pct[SHARE_SIZE];
 *	warnx("resolved %lu of %lu frames (%s%%)", n, total,
 *	    share(pct, n, total));
 */
#ifndef FG_SHARE_H
#define FG_SHARE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SHARE_SIZE	32	/* out's size: any part of any whole fits */

/*
 * Writes part/whole in percent into out (SHARE_SIZE bytes) and returns
 * out: "12.3", "<0.1", ">99.9", "100.0"; a whole of 0 is "0.0".
 */
static inline const char *
share(char *out, uint64_t part, uint64_t whole)
{
	snprintf(out, SHARE_SIZE, "%.1f", whole ? 100.0 * part / whole : 0);
	if (part > 0 && strcmp(out, "0.0") == 0)
		snprintf(out, SHARE_SIZE, "<0.1");
	else if (part < whole && strcmp(out, "100.0") == 0)
		snprintf(out, SHARE_SIZE, ">99.9");
	return out;
}

#endif
