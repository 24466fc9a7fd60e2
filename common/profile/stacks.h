/*
 * stacks: sample streams (fg-stream(5)) read into a profile of unique
 * stacks of raw frames, where fold.h keeps the tidied names: each frame as
 * the stream wrote it (symbol, DSO, address, inline mark, source lines),
 * the samples summed per stack, thread and side (on- or off-CPU), and what
 * the headers say of the run. fgpprof's profile.proto is made from it
 * (pprof/pprof.h).
 *
 *	struct stacks s;
 *	stacks_init(&s);
 *	rv = stacks_stream(&s, fd, "rec.txt");	once per input
 *	... s.seen, s.stacks, s.locs, s.threads ...
 *	stacks_release(&s);
 *
 * What it holds:
 *   locations	one per frame group of the stream: the inlined frame
 *		lines, the frame line holding them, and the source lines
 *		after each. Known by the 128-bit hash of that text, so
 *		that the table stays small; ids from 1, in the order first
 *		seen. Each is an address (the non-inlined frame's, else
 *		the first frame's) and raw frames, innermost first
 *		(stacks_loc).
 *   frames	one per unique raw frame: a frame line's function name
 *		(its symbol without "+0xOFF"), its DSO as written
 *		(STREAM_INLINED for an inlined frame), and the file and line
 *		of the source line after it.
 *   stacks	one per unique (side, thread, location ids, leaf first):
 *		u[0] the samples, u[1] the summed weights (the period, or
 *		the "# event" header's for a sample with none; an off-CPU
 *		sample's time blocked), both stopping at 2^63-1 (saturated
 *		says so). The key is varints (buf_varint): the side
 *		(STACKS_ON, STACKS_OFF), the thread's index, then the
 *		location ids (stacks_key_side, stacks_key_thread).
 *   threads	one per unique (COMM, PID, TID) of the sample heads.
 *   event	the on-CPU event kept: the first one seen; samples of other
 *		events are left out, said once, but for off-CPU time
 *		(offcpu-time) and the four heap events (alloc-bytes, ...:
 *		a side each, has_heap set), which are always kept.
 *   headers	build IDs ("# buildid", the last one of each file), the
 *		period of a clock event ("# event"), the program's name
 *		(the first "# cmdline"'s first word), "# cmdline" and
 *		"# lost" as notes (each once), the earliest "# start"
 *		(time_nanos); the duration is each input's time from its
 *		"# start", or its first sample, to the end of its last
 *		sample (an off-CPU sample ends its period after its time
 *		stamp), summed.
 *   seen	the order in which threads, build IDs and notes were first
 *		seen, each with the number of locations seen before it
 *		(the locations come in id order), for an output that
 *		numbers things as it meets them (profile.proto's string
 *		table).
 * Memory grows with the unique locations, stacks and threads, never with
 * repeated samples.
 */
#ifndef FG_PROFILE_STACKS_H
#define FG_PROFILE_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/lineread.h"
#include "stream/intern.h"

/*
 * A stack's side, the first varint of its key: on- or off-CPU, or one of
 * the four heap events (fg-stream(5)), STACKS_HEAP + their number
 * (stream_ev_heap: ev - STREAM_EV_ALLOC_BYTES).
 */
enum { STACKS_ON = 1, STACKS_OFF = 2, STACKS_HEAP = 3 };

/* What a note says, the first byte of its key in notes. */
enum { STACKS_NOTE_CMDLINE = 1, STACKS_NOTE_LOST };

/* What an entry of seen is. */
enum stacks_seen_kind {
	STACKS_SEEN_THREAD,		/* index in threads */
	STACKS_SEEN_BUILDID,		/* index in bids */
	STACKS_SEEN_NOTE		/* index in notes */
};

struct stacks_seen {
	enum stacks_seen_kind kind;
	size_t		 i;
	size_t		 locs;		/* the locations seen before it */
};

/* A raw frame. The strings are in frames' keys, not NUL-terminated. */
struct stacks_frame {
	const char	*name, *dso;
	const char	*file;		/* NULL when no source line said one */
	size_t		 nlen, dlen, flen;
	uint64_t	 line;		/* 0 when none */
	int		 inlined;	/* its DSO is STREAM_INLINED */
};

/* A thread: its COMM is its key's first commlen bytes in threads. */
struct stacks_thread {
	size_t		 commlen;
	int64_t		 pid;		/* -1 when the stream gave only a TID */
	int64_t		 tid;
};

/* A recently seen location: the hash of its text, and its id. */
struct stacks_lcache {
	uint64_t	 lo, hi;
	uint64_t	 id;		/* 0: empty */
};
#define STACKS_LCACHE	4096		/* entries, a power of two */

/* A frame of the open group as the reader parsed it: offsets into grp. */
struct stacks_gline {
	size_t		 name, dso, file;	/* where each starts in grp */
	size_t		 nlen, dlen, flen;	/* nlen: the symbol with its
						   offset; flen 0: no source line */
	uint64_t	 line;
};

struct stacks {
	struct intern	 locs;		/* XXH3-128 of a frame group's text ->
					   u[0] its frames' offset in lframes,
					   u[1] its address */
	struct buf	 lframes;	/* each location's frame count and
					   frame ids, varints */
	struct intern	 frames;	/* raw frames (their key is internal) */
	struct stacks_frame *frm;	/* by index in frames */
	size_t		 frm_cap;
	struct intern	 stacks;	/* side, thread, location ids ->
					   u[0] samples, u[1] weight */
	struct intern	 threads;	/* "COMM\0PID\0TID" -> nothing */
	struct stacks_thread *thr;	/* by index in threads */
	size_t		 thr_cap;
	struct intern	 bids;		/* build IDs, each once */
	struct intern	 buildids;	/* file -> u[0] its build ID's index in bids */
	struct intern	 notes;		/* STACKS_NOTE_* byte, then the value */
	struct stacks_seen *seen;
	size_t		 nseen, seen_cap;
	char		*event;		/* the on-CPU event kept; NULL before the first */
	char		*prog;		/* the program's file name, from "# cmdline" */
	int		 event_warned;
	int		 has_on, has_off, has_weight;
	int		 has_heap;	/* heap samples, bit 1 << the heap
					   event's number (side - STACKS_HEAP) */
	uint64_t	 heap_period;	/* bytes per sample from "# event :
					   alloc-bytes period N", or 0 */
	int		 saturated;	/* some sum stopped at 2^63-1 */
	uint64_t	 hdr_period;	/* ns per sample from "# event", or 0 */
	uint64_t	 first_period;	/* the first on-CPU sample's period, or 0 */
	uint64_t	 duration;	/* ns, summed over inputs */
	uint64_t	 time_nanos;	/* the earliest start, ns since the Epoch, or 0 */
	uint64_t	 nsamples;

	/* The sample being read. */
	int		 in_sample;
	int		 side;		/* STACKS_ON, STACKS_OFF, STACKS_HEAP + a */
	uint64_t	 weight;
	uint64_t	 time;		/* its time in ns, when has_time */
	int		 has_time;
	uint64_t	 t_first, t_end;	/* this input's complete samples':
					   the first time, the last end */
	int		 in_has_time;
	uint64_t	 in_start;	/* its "# start" on the samples' clock */
	int		 in_has_start;
	struct buf	 key;		/* side, thread, location ids so far */
	struct buf	 grp;		/* the open frame's lines, '\n' after each */
	int		 grp_phys;	/* it has its non-inlined frame line */
	struct stacks_gline *gl;	/* its frames, parsed by the reader */
	size_t		 ngl, glcap;
	uint64_t	 gaddr;		/* its address: the non-inlined
					   frame's, else the first's */
	struct stacks_lcache *lcache;	/* STACKS_LCACHE recent locations */
	struct buf	 fkey;		/* scratch for a frame's key */
	struct buf	 fline;		/* scratch: a fed frame's text */
	const char	*feed_name;	/* the input fed, borrowed */
};

void	stacks_init(struct stacks *);
void	stacks_release(struct stacks *);

/*
 * Reads one sample stream from fd (name is for messages, borrowed for the
 * call) and adds its samples. Bad lines are reported as "name:line: ..."
 * (the first ten) and skipped; a sample cut off by the end of the input is
 * dropped with a warning. Returns 0 when everything was read, 1 when
 * something was skipped or the read failed, SNIFF_REFUSED (2) when the
 * input is no text stream at all (stream/sniff.h said what it is; nothing
 * of it was read), with "fgpprof" as the tool in that message.
 */
int	stacks_stream(struct stacks *, int fd, const char *name);

/*
 * As stacks_stream, on the lines lr (borrowed) reads, which the caller
 * sniffed: no refusal.
 */
int	stacks_lines(struct stacks *, struct lineread *lr, const char *name);

struct sample_hdr;
struct stream_head;
struct stream_frame;

/*
 * A stream handed over as structs, in the order of its lines, as
 * sym_named (sym/sym.h) hands it (pprof/perfdata.c: perf data in this
 * process): begin (name, borrowed until finish, names the input in
 * messages), then its headers, and each sample's head, frames (the
 * address in addrval), source lines and end; finish ends the input. The
 * profile is the one stacks_stream makes of those lines written out.
 */
void	stacks_feed_begin(struct stacks *, const char *name);
void	stacks_feed_header(struct stacks *, const struct sample_hdr *);
void	stacks_feed_head(struct stacks *, const struct stream_head *);
void	stacks_feed_frame(struct stacks *, const struct stream_frame *);
void	stacks_feed_srcline(struct stacks *, const char *text);
void	stacks_feed_end(struct stacks *);
void	stacks_feed_finish(struct stacks *);

/*
 * Location id (from 1): sets *addr to its address and *ids to its frames'
 * indexes in frm, innermost first, varints (read each with
 * buf_varint_get), and returns how many there are. Borrowed until the next
 * stacks_stream or stacks_release.
 */
static inline size_t
stacks_loc(const struct stacks *s, size_t id, uint64_t *addr,
    const uint8_t **ids)
{
	const struct intern_entry *e = &s->locs.ents[id - 1];

	*addr = e->u[1];
	*ids = (const uint8_t *)s->lframes.p + e->u[0];
	return (size_t)buf_varint_get(ids);
}

/*
 * A stack's key read from its start: stacks_key_side, then
 * stacks_key_thread, leave *k on its location ids (varints up to the key's
 * end).
 */
static inline int
stacks_key_side(const uint8_t **k)
{
	return (int)buf_varint_get(k);
}

static inline size_t
stacks_key_thread(const uint8_t **k)
{
	return (size_t)buf_varint_get(k);
}

#endif
