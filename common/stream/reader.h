/*
 * reader: read a sample stream (fg-stream(5)), the mirror of writer.h. It
 * owns the stream's state machine, the one every tool that reads a
 * stream runs (fgfold, fgpprof, fgsym): a sample head opens a sample,
 * its frame lines and source lines follow, the empty line ends it, and
 * header lines and comments may come anywhere. It parses every line the
 * writer writes into a struct, and says what is wrong with the input
 * through stream/diag, in the same words in every tool.
 *
 *	struct stream_diag d;
 *	struct stream_reader r;
 *	struct stream_item it;
 *
 *	stream_diag_init(&d, name);
 *	stream_reader_init(&r, &lr, &d, NULL);
 *	while (stream_reader_next(&r, &it) != STREAM_ITEM_EOF)
 *		switch (it.kind) { case STREAM_ITEM_HEAD: ... }
 *	rv = stream_reader_finish(&r) || d.bad > 0;
 *
 * The pull is in two steps for a reader with a fast path on the raw line
 * (fgfold's frame cache): stream_reader_line reads the next line and
 * parses nothing; stream_reader_parse then parses it. A line of the open
 * sample that the caller knows without parsing (a frame line it saw
 * before) may be left unparsed: frame and source lines change no state.
 *
 * What the reader decides:
 *   a sample	a head line (it.head, and its values by
 *		stream_head_values), then frame lines and source lines,
 *		then the empty line (STREAM_ITEM_BLANK, it.ended). A head
 *		with no empty line before it ends the open sample too
 *		(it.unended). A one-line sample (perf script without -g)
 *		carries its frame in it.head.frame and needs no empty line.
 *   between	a frame or source line with no head since the last empty
 *		line (or the start) is in no sample: said and returned as
 *		STREAM_ITEM_BAD, unless opts.pass.
 *   bad	a line that fits no format: said, STREAM_ITEM_BAD.
 *   cut	a sample still open at the end of the input: said by
 *		stream_reader_finish.
 *   headers	"# key : value" lines, parsed by key (it.hdr); the fence and
 *		the "# fgrecord" line are kinds of their own; any other line
 *		starting with '#' is a comment.
 *
 * Lines end in "\n" or "\r\n" (base/lineread). Every string of an item
 * points into its line and is borrowed until the next call.
 */
#ifndef FG_READER_H
#define FG_READER_H

#include <stddef.h>
#include <stdint.h>

#include "base/lineread.h"
#include "stream/diag.h"
#include "stream/stream.h"
#include "stream/writer.h"

enum stream_item_kind {
	STREAM_ITEM_EOF,	/* the input ended, or a read failed (lr->error) */
	STREAM_ITEM_LINE,	/* read by stream_reader_line, not parsed */
	STREAM_ITEM_HEAD,	/* a sample head: it.head */
	STREAM_ITEM_FRAME,	/* a frame line: it.frame, it.inlined */
	STREAM_ITEM_SRCLINE,	/* a source line: it.text */
	STREAM_ITEM_BLANK,	/* an empty line, or one of white space only */
	STREAM_ITEM_HEADER,	/* "# key : value": it.hdr */
	STREAM_ITEM_FENCE,	/* STREAM_FENCE */
	STREAM_ITEM_MAGIC,	/* the "# fgrecord N" line */
	STREAM_ITEM_COMMENT,	/* any other line starting with '#' */
	STREAM_ITEM_BAD		/* said already (see above) */
};

/* The header keys the writer and fgrecord write. */
enum stream_hdr {
	STREAM_HDR_OTHER,	/* a key the reader does not know */
	STREAM_HDR_EVENT,	/* u.event */
	STREAM_HDR_BUILDID,	/* u.buildid */
	STREAM_HDR_INSIDE,	/* u.inside */
	STREAM_HDR_CMDLINE,	/* the value as it is */
	STREAM_HDR_KERNEL,	/* STREAM_KERNEL_INCLUDED or _EXCLUDED */
	STREAM_HDR_LOST,	/* u.lost */
	STREAM_HDR_START,	/* u.start */
	STREAM_HDR_SYMBOLIZED	/* the value as it is */
};

/* An "# event" line as read: the fields of the writer's stream_event. */
struct stream_event_read {
	struct stream_str name;		/* the first word of the value */
	enum stream_rate rate_kind;
	uint64_t	 rate;		/* N of "freq N" or "period N" */
	int		 callgraph;	/* "callgraph fp" or "callgraph dwarf N" */
	int		 dwarf;
	uint32_t	 stack_size;
};

struct stream_header_read {
	enum stream_hdr	 key;
	struct stream_str name;		/* the key as written */
	struct stream_str value;	/* trimmed */
	int		 ok;		/* the value has the key's form, as the
					   writer writes it: u holds it */
	union {
		struct stream_event_read event;
		struct {
			struct stream_str id;	/* hex, as written */
			struct stream_str path;	/* may hold spaces */
		} buildid;
		struct {
			struct stream_str path;	/* as the frames name it */
			struct stream_str inside;	/* as the process did */
		} inside;
		uint64_t	 lost;
		struct stream_start start;
	} u;
};

/*
 * The values of a sample head's fields (stream_head_values): read when
 * asked, for fgfold folds the fields as printed.
 */
struct stream_head_values {
	int64_t		 pid, tid;	/* "-1" is -1 (perf's sample of no task) */
	int		 has_pid;	/* else perf printed a TID alone (pid -1) */
	uint64_t	 cpu;
	int		 has_cpu;
	uint64_t	 time;		/* ns */
	int		 has_time;
};

struct stream_item {
	enum stream_item_kind kind;
	const char	*line;		/* the raw line, no newline; borrowed */
	size_t		 len;
	unsigned long	 lineno;
	/* HEAD: the fields as printed; head.has_frame: a one-line sample */
	struct stream_sample head;
	int		 unended;	/* a sample was open: no empty line
					   before this head */
	/* FRAME */
	struct stream_frame frame;
	int		 inlined;	/* its DSO is STREAM_INLINED */
	/* SRCLINE: the text after the indent */
	struct stream_str text;
	/* BLANK */
	int		 ended;		/* it ended an open sample */
	/* HEADER */
	struct stream_header_read hdr;
};

struct stream_reader_opts {
	/*
	 * fgsym's way: every line is passed on, so a frame or a source line
	 * between samples is one like any other, and a sample cut off is
	 * said to be passed on as it is.
	 */
	int	 pass;
	/* NULL, or called before the reader writes a message on stderr */
	void	(*before_say)(void *arg);
	void	*arg;
};

struct stream_reader {
	struct lineread	*lr;		/* borrowed */
	struct stream_diag *diag;	/* borrowed */
	struct stream_reader_opts opts;
	int		 open;		/* a sample head, no empty line since */
	int		 headless;	/* no head since the last empty line */
	int		 seen_head;	/* a sample head was read */
	int		 fgrecord;	/* a "# fgrecord" line came before the
					   first head: ELF addresses */
	unsigned long	 head_line;	/* the open sample's head */
	unsigned long	 cut_line;	/* a last line cut in its middle */
};

/*
 * Reads from lr, which stays the caller's (made and released by it, and
 * read on from where it is), and says what is wrong with the input
 * through diag (borrowed; its name is the input's, its count the bad
 * lines). opts is copied, and may be NULL.
 */
void	 stream_reader_init(struct stream_reader *, struct lineread *lr,
	    struct stream_diag *diag, const struct stream_reader_opts *opts);

/*
 * Reads the next line into it (kind STREAM_ITEM_LINE, line, len, lineno),
 * parsing nothing. Returns 0 at the end of the input or on a read error
 * (r->lr->error), else 1.
 */
static inline int
stream_reader_line(struct stream_reader *r, struct stream_item *it)
{
	char *line;
	ssize_t n = lineread_next(r->lr, &line);

	if (n < 0) {
		it->kind = STREAM_ITEM_EOF;
		return 0;
	}
	it->kind = STREAM_ITEM_LINE;
	it->line = line;
	it->len = (size_t)n;
	it->lineno = r->lr->lineno;
	return 1;
}

/* Fills *v with the values of the head it (a STREAM_ITEM_HEAD). */
void	 stream_head_values(const struct stream_item *it,
	    struct stream_head_values *v);

/*
 * Parses the line stream_reader_line read into it, runs the state
 * machine, says a bad line, and returns the item's kind.
 */
enum stream_item_kind stream_reader_parse(struct stream_reader *,
	    struct stream_item *it);

/* stream_reader_line, then stream_reader_parse. */
enum stream_item_kind stream_reader_next(struct stream_reader *,
	    struct stream_item *it);

/*
 * Whether no sample head came since the last empty line (or the start):
 * a frame line here is in no sample.
 */
static inline int
stream_reader_between(const struct stream_reader *r)
{
	return r->headless;
}

/*
 * Right after a head: the rest of the open sample's text, up to and
 * including its empty line, at most max bytes (lineread_peek_block:
 * -1 when no empty line comes within them), looked at and not read;
 * *p is borrowed until the next call. fgfold's sample cache knows a
 * sample by it.
 */
ssize_t	 stream_reader_peek_sample(struct stream_reader *, size_t max,
	    char **p);

/*
 * Passes over the n bytes, nlines lines, that stream_reader_peek_sample
 * gave: the sample is ended, as by its empty line.
 */
void	 stream_reader_skip_sample(struct stream_reader *, size_t n,
	    unsigned long nlines);

/*
 * At the end of the input: says a sample still open (cut off before its
 * empty line) and returns 1, or returns 0. A read error is the caller's
 * to say (base/cmdfile.h).
 */
int	 stream_reader_finish(struct stream_reader *);

#endif
