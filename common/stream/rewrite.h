/*
 * rewrite: writes what a stream reader read (stream/reader.h) through the
 * stream's writer (stream/writer.h), the other half of the round trip:
 * a stream the writer wrote, read and written again, is the same bytes,
 * and any input read, written, read and written again gives the same
 * bytes both times (tests/unit/test_reader.c, tests/fuzz/fuzz_reader.c).
 *
 *	while (stream_reader_next(&r, &it) != STREAM_ITEM_EOF)
 *		stream_write_item(out, &it);
 */
#ifndef FG_REWRITE_H
#define FG_REWRITE_H

#include <stdio.h>

#include "stream/reader.h"

/*
 * Writes the item *it (borrowed for the call) as the writer writes its
 * kind: a head, a frame, a source line, an empty line, a header line of
 * a known key in its key's form, the fence. A line in no form the writer
 * writes (a head with no CPU, a comment, a bad line, perf's "# event"
 * lines) is written as it was read. Errors show in ferror(3).
 */
void	 stream_write_item(FILE *, const struct stream_item *it);

#endif
