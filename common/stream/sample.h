/*
 * sample: a sample stream (fg-stream(5)) as structs, for a producer and a
 * consumer in one process: the recording session hands each header line
 * and each finished sample to a sink, which writes them (the stream
 * writer, fgrecord) or symbolizes them first (fgsym on perf.data), with
 * no text between the two.
 *
 *	struct sample_sink sink;
 *	sample_sink_file(&sink, stdout);	(or a sink of one's own)
 *	sink.ops->header(sink.arg, &hdr);	each header line, in order
 *	sink.ops->sample(sink.arg, &smp);	each sample, in order
 *	if (sink.ops->flush(sink.arg) != 0)	when it suits the producer
 *		... errno says why
 *
 * Every pointer in a header or a sample is borrowed for the call only.
 */
#ifndef FG_SAMPLE_H
#define FG_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stream/writer.h"

/*
 * One frame: its address (the file's own for a file), its DSO, and the
 * producer's number for the file, so that a consumer knows it again
 * without its path.
 */
struct sample_frame {
	uint64_t	 addr;
	const char	*dso;		/* STREAM_KERNEL, STREAM_UNKNOWN, a path */
	uint32_t	 file;		/* one number a file, the same in every
					   sample, from 1; 0: no file */
};

/* A finished sample: its head, its frames leaf first, its cut mark. */
struct sample {
	struct stream_head head;
	const struct sample_frame *frames;
	size_t		 nframes;
	int		 truncated;	/* ends in STREAM_TRUNCATED */
};

/* Which header line a struct sample_hdr is: writer.h's functions. */
enum sample_hdr_kind {
	SAMPLE_HDR_BEGIN,	/* stream_write_begin(start) */
	SAMPLE_HDR_FENCE,	/* stream_write_fence */
	SAMPLE_HDR_TEXT,	/* stream_write_header(key, value) */
	SAMPLE_HDR_NUMBER,	/* stream_write_headeru(key, n) */
	SAMPLE_HDR_EVENT,	/* stream_write_event(event) */
	SAMPLE_HDR_BUILDID,	/* stream_write_buildid(value, key): before
				   the first sample with a frame in the file */
	SAMPLE_HDR_INSIDE	/* stream_write_inside(key, value): before
				   the file's build ID */
};

/* A header line; the fields its kind does not use are ignored. */
struct sample_hdr {
	enum sample_hdr_kind kind;
	const struct stream_start *start;	/* BEGIN: or NULL */
	const char	*key;		/* TEXT, NUMBER; BUILDID, INSIDE: the path */
	const char	*value;		/* TEXT; BUILDID: the build ID, hex;
					   INSIDE: the path inside */
	uint64_t	 n;		/* NUMBER */
	const struct stream_event *event;	/* EVENT */
};

struct sample_sink_ops {
	void	(*header)(void *arg, const struct sample_hdr *);
	void	(*sample)(void *arg, const struct sample *);
	/* Pushes out what is buffered: 0, or -1 with errno set. */
	int	(*flush)(void *arg);
};

struct sample_sink {
	const struct sample_sink_ops *ops;	/* static */
	void		*arg;		/* the sink's, borrowed */
};

/* Writes *h with writer.h's function for its kind. */
void	 sample_write_header(FILE *, const struct sample_hdr *h);

/*
 * Writes *s as fgrecord does: its head, a frame line per frame with no
 * symbol (STREAM_UNKNOWN), the truncated mark, the blank line.
 */
void	 sample_write(FILE *, const struct sample *s);

/* Makes *sink the stream writer on o (borrowed, not closed). */
void	 sample_sink_file(struct sample_sink *sink, FILE *o);

#endif
