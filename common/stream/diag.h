/*
 * diag: what a reader of a sample stream says about its input, in the
 * same words in every tool that reads one (fgfold, fgpprof): each line
 * that is no part of the format, up to DIAG_BAD_SHOWN of them and then
 * one line that more follow; a last sample cut off before its empty line.
 * Every message names the input and the line. (An input that cannot be
 * read is said as every tool says it: base/cmdfile.h.)
 *
 *	struct stream_diag d;
 *	stream_diag_init(&d, name);
 *	... stream_diag_bad(&d, lr.lineno, line, len); ...
 *	if (in_sample) stream_diag_cut(&d, head_lineno);
 *	rval = d.bad > 0 || ...;
 */
#ifndef FG_DIAG_H
#define FG_DIAG_H

#include <stddef.h>

#define DIAG_BAD_SHOWN	10	/* unrecognised lines shown per input */

struct stream_diag {
	const char	*name;		/* borrowed: the input, for messages */
	unsigned long	 bad;		/* unrecognised lines so far */
};

void	 stream_diag_init(struct stream_diag *, const char *name);

/*
 * Counts line[0..len), read at lineno, as unrecognised, and says so while
 * no more than DIAG_BAD_SHOWN have been: the line cut at 80 bytes.
 */
void	 stream_diag_bad(struct stream_diag *, unsigned long lineno,
	    const char *line, size_t len);

/* Says that the sample whose head is at lineno had no closing empty line. */
void	 stream_diag_cut(const struct stream_diag *, unsigned long lineno);

#endif
