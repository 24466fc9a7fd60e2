/*
 * sniff: what an input is, from its first bytes, for the tools that read
 * text (a sample stream, folded stacks). A perf.data file, compressed
 * data, an ELF file, an SVG, a pprof profile or other binary is no text
 * to read line by line: it is refused with one line that says what it is
 * and what to run instead, before anything of it is read, so that no
 * binary reaches a terminal or a message.
 *
 *	lineread_init(&lr, fd, name);
 *	if (sniff_refuse(&lr, SNIFF_STREAM, "fgfold") != 0)
 *		return SNIFF_REFUSED;		(said; the tool exits 2)
 */
#ifndef FG_SNIFF_H
#define FG_SNIFF_H

#include <stddef.h>

#include "base/lineread.h"

#define SNIFF_BLOCK	4096	/* bytes looked at, at most */
#define SNIFF_REFUSED	2	/* what a reader returns for a refused input */

enum sniff_kind {
	SNIFF_TEXT,		/* maybe what was asked for: read it */
	SNIFF_PERFDATA,		/* perf record's perf.data */
	SNIFF_PERFPIPE,		/* perf record -o -: perf data in pipe mode */
	SNIFF_GZIP,
	SNIFF_ZSTD,
	SNIFF_XZ,
	SNIFF_BZIP2,
	SNIFF_ELF,
	SNIFF_SVG,
	SNIFF_PPROF,		/* an uncompressed profile.proto */
	SNIFF_STREAM_TEXT,	/* a sample stream (from fgrecord, or a head and a
				   frame first) where folded stacks were asked */
	SNIFF_BINARY		/* NUL bytes in the first line, or mostly no text */
};

/* What the reader wants. */
enum sniff_want {
	SNIFF_STREAM,		/* a sample stream (fg-stream(5)) */
	SNIFF_FOLDED		/* folded stacks */
};

/*
 * What p[0..n), the first bytes of an input, are. Only the first
 * SNIFF_BLOCK bytes are looked at; 16 are enough for every magic number.
 * For SNIFF_BINARY, *at (when not NULL) is set to the offset of the first
 * byte that is no text.
 */
enum sniff_kind sniff(const char *p, size_t n, enum sniff_want want,
		    size_t *at);

/*
 * Looks at the first bytes of lr's input (reading some in, consuming
 * nothing). Returns 0 when it may be what want asks for; else says in one
 * line what it is and what to run instead, naming the input lr->name and
 * the tool (its own name: "fgfold"), and returns -1.
 */
int	 sniff_refuse(struct lineread *lr, enum sniff_want want,
	    const char *tool);

#endif
