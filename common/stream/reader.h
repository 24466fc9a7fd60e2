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
 * Two more calls serve a caller with a fast path on the raw line
 * (fgfold's frame cache) and one that wants only some samples (fgfold's
 * event, its --skip-after): stream_reader_pull may hand back a line of the
 * open sample unparsed, for the caller to know by its bytes or give to
 * stream_reader_parse (frame and source lines change no state); and
 * stream_reader_skip_rest passes over the rest of the open sample's frame
 * and source lines. A sample the caller knows whole by its text
 * (fgfold's sample cache) is looked at by stream_reader_peek_sample and
 * passed over by stream_reader_skip_sample, or read and known at its
 * empty line as the text looked at (it.whole).
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
 *   passed	after stream_reader_skip_rest, until the sample's end (its
 *		empty line or the next head): its frame and source lines
 *		are not returned, and an indented line that is no head is
 *		not even parsed (a bad one is not said).
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
	STREAM_ITEM_LINE,	/* a line of the open sample, not parsed
				   (stream_reader_pull) */
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
	int		 whole;		/* and the sample was the text that
					   stream_reader_peek_sample gave
					   at its head: this line, bare, its
					   end, and no bad line in it */
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
	int		 skip;		/* stream_reader_skip_rest: the open
					   sample's lines are passed over (1),
					   or will be after a source line (2) */
	int		 peeked;	/* the open sample's text was looked at */
	int		 clean;		/* no bad line since its head */
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

/* Fills *v with the values of the head it (a STREAM_ITEM_HEAD). */
void	 stream_head_values(const struct stream_item *it,
	    struct stream_head_values *v);

/*
 * Parses the line stream_reader_pull handed back unparsed, runs the
 * state machine, says a bad line, and returns the item's kind.
 */
enum stream_item_kind stream_reader_parse(struct stream_reader *,
	    struct stream_item *it);

/*
 * The next item, parsed: stream_reader_pull(r, it, 0). Returns
 * STREAM_ITEM_EOF at the end of the input or on a read error
 * (r->lr->error).
 */
enum stream_item_kind stream_reader_next(struct stream_reader *,
	    struct stream_item *it);

/*
 * The rest of the open sample is not wanted: until its end, its frame
 * and source lines are passed over (see "passed" above). A caller that
 * takes its items one by one calls it, after the head or a frame. With
 * srcline set, the frame the caller took last still wants its source
 * line: lines are read as ever up to the next frame or source line; a
 * source line is returned, and the passing over begins after it; a
 * frame line is the first passed over.
 */
static inline void
stream_reader_skip_rest(struct stream_reader *r, int srcline)
{
	r->skip = srcline ? 2 : 1;
}

/*
 * The next item, as stream_reader_next, but with raw set an indented line
 * of the open sample, when none is being passed over, comes back
 * unparsed (kind STREAM_ITEM_LINE, line, len, lineno): the caller knows
 * it as a frame by its bytes, or hands it to stream_reader_parse. Inline:
 * it is the loop over every line of the hot path.
 */
static inline enum stream_item_kind
stream_reader_pull(struct stream_reader *r, struct stream_item *it, int raw)
{
	enum stream_item_kind k;
	char *line;
	ssize_t n;

	for (;;) {
		if ((n = lineread_next(r->lr, &line)) < 0)
			return it->kind = STREAM_ITEM_EOF;
		it->line = line;
		it->len = (size_t)n;
		it->lineno = r->lr->lineno;
		if (n > 0 && (line[0] == ' ' || line[0] == '\t')) {
			if (r->skip == 1) {
				if (!stream_indented_head(line, (size_t)n))
					continue;
			} else if (raw && r->open && r->skip == 0)
				return it->kind = STREAM_ITEM_LINE;
		}
		k = stream_reader_parse(r, it);
		if (r->skip == 0 || (k != STREAM_ITEM_FRAME &&
		    k != STREAM_ITEM_SRCLINE))
			return k;
		if (k == STREAM_ITEM_SRCLINE && r->skip == 2) {
			r->skip = 1;
			return k;
		}
		r->skip = 1;
	}
}

/*
 * Right after a head: the rest of the open sample's text, up to and
 * including its empty line, at most max bytes (lineread_peek_block:
 * -1 when no empty line comes within them), looked at and not read;
 * *p is borrowed until the next call. fgfold's sample cache knows a
 * sample by it: when it is read on, its empty line says whether the
 * sample was that text (it.whole). Inline, as the next: it is most of
 * what fgfold does of a sample it knows.
 */
static inline ssize_t
stream_reader_peek_sample(struct stream_reader *r, size_t max, char **p)
{
	ssize_t n = lineread_peek_block(r->lr, max, p);

	r->peeked = n >= 0;
	return n;
}

/*
 * Passes over the n bytes, nlines lines, that stream_reader_peek_sample
 * gave: the sample is ended, as by its empty line.
 */
static inline void
stream_reader_skip_sample(struct stream_reader *r, size_t n,
    unsigned long nlines)
{
	lineread_skip(r->lr, n, nlines);
	r->open = 0;		/* ended, as by its empty line */
	r->headless = 1;
	r->skip = 0;
	r->peeked = 0;
}

/*
 * At the end of the input: says a sample still open (cut off before its
 * empty line) and returns 1, or returns 0. A read error is the caller's
 * to say (base/cmdfile.h).
 */
int	 stream_reader_finish(struct stream_reader *);

#endif
