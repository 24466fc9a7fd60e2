/*
 * fold: collapse sample streams (perf script, fgrecord, fgsym) or folded
 * files into folded stacks, as fgfold(1) does.
 *
 *	struct fold f;
 *	fold_init(&f, &opts);
 *	rc = fold_stream(&f, fd, "perf.txt");	(or fold_folded(&f, fd, name,
 *						 slot) for --folded/--diff)
 *	if (fold_write(&f, stdout, 0) == -1)	(fold/write.h; or fold_top,
 *						 fold/top.h)
 *		cmdfile_write_failed(CMDFILE_STDOUT);
 *	fold_release(&f);
 *
 * Frame names are cleaned up by the rules of profile/tidy.h.
 */
#ifndef FG_FOLD_H
#define FG_FOLD_H

#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/lineread.h"
#include "stream/sample.h"
#include "stream/intern.h"
#include "stream/stream.h"
#include "stream/writer.h"

struct foldin;

/*
 * One sample of a stream as it is counted, for a reader that wants more
 * than the sums (fgsvg's timeline): its head's thread and time, and the
 * stack it went to. Everything is borrowed for the call.
 */
struct fold_sample {
	size_t		 stack;		/* its stack, an index into tab.ents */
	uint64_t	 count;		/* what it added to that count */
	uint64_t	 period;	/* its period: the count once settled
					   when the stream is timed */
	uint64_t	 time;		/* ns, when has_time */
	int		 has_time;
	int		 offcpu;	/* off-CPU time ([off-cpu] leaf) */
	int64_t		 pid, tid;	/* 0 when the head has none; perf's -1 is -1 */
	const char	*comm;		/* the head's COMM, as it is */
	size_t		 commlen;
	const char	*name;		/* the input's name, for messages */
	unsigned long	 line;		/* the head's line in it */
};

struct fold_opts {
	int	 pid;		/* COMM-PID as the root frame */
	int	 tid;		/* COMM-PID/TID as the root frame */
	int	 kernel;	/* _[k] on kernel frames */
	int	 jit;		/* _[j] on JIT frames */
	int	 inline_mark;	/* _[i] on (inlined) frames */
	int	 addrs;		/* [dso <addr>] for frames with no symbol */
	int	 srcline;	/* input has perf script -F+srcline lines */
	int	 period;	/* weigh samples by their period, not 1 */
	int	 no_comm;	/* no process-name root frame */
	int	 strip_hex;	/* --diff -s: 0x1234 becomes 0x... */
	int	 normalize;	/* --diff -n: scale BEFORE to AFTER's total */
	const char *event;	/* only this event; NULL: the first one seen */
	int	 alloc_objects;	/* a heap profile: allocations, not bytes */
	int	 alloc_inuse;	/* a heap profile: what was live at the end */
	int	 no_leaf;	/* a heap profile's stacks without "[EVENT]" */
	char	**skip_after;	/* cut the frames below these (root-ward) */
	size_t	 nskip_after;
	char	**own;		/* --top: these crates' functions first */
	size_t	 nown;		/* (inline marks implied, then taken off) */
	/* NULL, or called with each sample a stream adds to a stack */
	void	(*on_sample)(void *arg, const struct fold_sample *);
	void	*on_sample_arg;
};

struct fold {
	struct fold_opts opts;		/* copied; the strings are borrowed */
	struct intern	 tab;
	char		*event;		/* the event folded, owned */
	enum stream_ev	 event_ev;	/* which event that is */
	char		*event2;	/* off-CPU time folded with on-CPU
					   time (--wall): the other one */
	int		 event_defaulted;
	enum stream_ev	 alloc;		/* the heap event folded (else
					   STREAM_EV_OTHER): every sample
					   weighs its period, and each stack
					   gets "[EVENT]" as its leaf */
	int		 event_warned;
	uint64_t	 samples;	/* samples kept */
	uint64_t	 heads;		/* sample heads read */
	uint64_t	 heads_other;	/* of them, of an event not folded */
	uint64_t	 noframes;	/* with --no-comm, samples with no frame */
	int		 hdr_offcpu;	/* an "# event : offcpu-time" header */
	int		 hdr_other;	/* an "# event" header of another event */
	int		 symbolized;	/* a "# symbolized" header: fgsym was
					   before us */
	uint64_t	 start_ns;	/* the first "# start" header's moment,
					   ns since the Epoch, when has_start */
	int		 has_start;
	int		 timed;		/* an offcpu-time sample was folded:
					   every sample weighs its period, in
					   ns (u[1] sums it while reading) */
	int		 time_lost;	/* that sum passed 2^64-1 */
	int		 settled;	/* u[1] moved to u[0] for output */
	uint64_t	 total[2];	/* integer count sums per slot */
	int		 overflowed;	/* a sample was not counted: its stack may be 0 */
	unsigned long	 bad;		/* unrecognised lines, all inputs */
	uint64_t	 unnamed;	/* samples kept most of whose frames
					   are [unknown] (no fgsym before?) */
	/* scratch for the sample being read */
	struct buf	 pname;		/* its root frame, COMM[-PID[/TID]] */
	struct buf	 fbuf;		/* processed frame texts */
	size_t		*fofs;		/* frame i: fbuf.p[fofs[i]..fofs[i+1]) */
	size_t		 nframes, fofs_cap;
	size_t		 nnoname;	/* of them, [unknown] ones */
	struct buf	 key;		/* its stack, root first */
	/*
	 * Frame cache: the raw symbol, DSO (and address, for --addrs) of a
	 * frame line, to its processed text in ctext. Entry counts hold
	 * u[0] = offset in ctext, u[1] = length | flags << 32.
	 */
	struct intern	 cache;
	struct buf	 ctext;
	struct buf	 ckey;		/* a Java frame's key, marked */
	/*
	 * Sample cache: the root frame and a 128-bit hash of a sample's whole
	 * text (its frame lines up to the empty line), to the stack it
	 * folded into: u[0] = index in tab, u[1] = its line count | flags.
	 */
	struct intern	 scache;
	struct buf	 skey;
	uint64_t	 sc_tries, sc_hits;	/* it is dropped when it does not pay */
	int		 sc_off;
	struct foldin	*feed;		/* owned: the input fold_feed_begin
					   opened, or NULL */
};

void	fold_init(struct fold *, const struct fold_opts *);
void	fold_release(struct fold *);

/*
 * Folds the sample stream read from fd (name is for messages). Malformed
 * lines are reported on stderr as "NAME:LINE: unrecognised line '...'" and
 * skipped; a last sample cut off before its empty line is dropped with a
 * warning. Returns 0 when the input was clean, 1 when something was bad
 * or it could not be read, and SNIFF_REFUSED (2) when it is no text stream
 * at all (a perf.data, compressed, binary: said in one line by
 * stream/sniff.h, nothing of it read; the tool exits 2).
 */
int	fold_stream(struct fold *, int fd, const char *name);

/*
 * As fold_stream, from lr (borrowed: the caller made it and releases it;
 * what a peek looked at is read too), with tool (its own name) in the
 * message that refuses an input that is no stream.
 */
int	fold_lines(struct fold *, struct lineread *lr, const char *tool);

/*
 * A sample stream handed over as structs, as fold_lines reads one's lines
 * (profile/foldperf: perf.data symbolized in this process): begin (name,
 * borrowed until finish, for messages), then headers, and each sample's
 * head, frames (sym and dso NUL-terminated; the address as text made
 * here for --addrs when addr is empty; id, when not NULL, the same for
 * every frame of the same text, and for no other, until finish: the
 * frame cache is then looked up by it), source lines and end, as
 * sym_sink_named hands them on (sym/sym.h); finish says what the input
 * lost (the total past 2^64-1) and returns 0 or 1. Everything else is
 * borrowed for the call.
 */
void	fold_feed_begin(struct fold *, const char *name);
void	fold_feed_header(struct fold *, const struct sample_hdr *);
void	fold_feed_head(struct fold *, const struct stream_head *);
void	fold_feed_frame(struct fold *, const struct stream_frame *,
	    const void *id);
void	fold_feed_srcline(struct fold *, const char *text);
void	fold_feed_end(struct fold *);
int	fold_feed_finish(struct fold *);

/*
 * The event name of off-CPU samples (as perf --off-cpu names it): their
 * period is the time blocked, in ns. When a stream holds them, every
 * sample weighs its period (--period is implied), cpu-clock or task-clock
 * samples are folded with them, and each off-CPU stack gets STREAM_OFFCPU_FRAME as
 * its leaf frame.
 */

/*
 * Heap profiles (fgrecord --alloc): when the first event seen, or
 * --event-filter's, is one of fg-stream(5)'s four heap events, the one
 * folded is alloc-bytes, or what opts.alloc_objects and opts.alloc_inuse
 * choose; the other three are passed over without a word; every sample
 * weighs its period; and each stack gets "[EVENT]" as its leaf
 * (stream_ev_frame).
 */

/*
 * Called after the last fold_stream: says on stderr why nothing was folded
 * when nothing was, unless quiet is set because an error was said
 * already. An input with no sample head at all (empty, or headers only)
 * is well formed: said by stream_diag_empty (with, for a stream of
 * off-CPU time only, that the program never waited), and 0 is returned.
 * Returns 1 when samples were read but none was folded (only other
 * events, no frames left), or the time summed past 2^64-1; else 0.
 */
int	fold_finish(struct fold *, int quiet);

/*
 * Adds the folded stacks read from fd to slot (0, or 1 for the AFTER side of
 * --diff), through the folded reader (stream/folded.h) with fgfold's
 * wording: each kind of bad line said once an input, the line quoted, and
 * "NAME: N malformed lines skipped". Returns 0, 1 or 2 as fold_stream does.
 */
int	fold_folded(struct fold *, int fd, const char *name, int slot);

/* As fold_folded, from lr (borrowed: the caller made it and releases it). */
int	fold_folded_lines(struct fold *, struct lineread *lr, int slot);

/*
 * Makes the counts final: in a stream of off-CPU time the sums of periods
 * become the counts. fold_write and fold_top call it; once is enough, and
 * more calls do nothing.
 */
void	fold_settle(struct fold *);

#endif
