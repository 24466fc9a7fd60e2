/*
 * stream: classify and split the lines of a sample stream, the layout that
 * `perf script` prints and that fgrecord and fgsym write (fg-stream(5)).
 *
 * The parser works one line at a time and keeps no state: the caller owns
 * the state machine (a sample head, its frames, an empty line). Every
 * string it returns points into the line it was given and is borrowed for
 * as long as that line is; nothing is NUL-terminated, lengths are given.
 *
 * The rules follow what stackcollapse-perf.pl accepts, so that real
 * `perf script` output from any kernel parses:
 *   sample head	"COMM PID[/TID] [CPU] SECS.USECS: [PERIOD] EVENT:"
 *			read from the right, where every field after COMM
 *			has a fixed shape: COMM may hold any bytes but a
 *			newline ("a 1/1", "x [001] 1.0:", "b: c") and is
 *			never read as a PID, a CPU or a time. Layouts
 *			without a time (perf script -F) are read as the
 *			reference does: the shortest COMM followed by a
 *			PID, every field after it optional. A one-line
 *			sample (perf record without -g) has its frame
 *			after "EVENT:", and its COMM padded with spaces in
 *			front.
 *   frame		"<space>ADDR SYMBOL (DSO)"; SYMBOL may hold spaces,
 *			parentheses and '<>'; DSO is the last balanced
 *			parenthesised group on the line.
 *   srcline		"<space>FILE:LINE" (fgsym --srcline, perf script
 *			-F+srcline: "  a.c:12", "  ??:0", "  a.c:3
 *			(discriminator 2)"), or perf's "  DSO[ADDR]" and
 *			"  SYM+0xOFF", at most STREAM_SRCLINE_MAX bytes
 *			after the indent. Any other line that starts with
 *			white space and is no frame fits no format.
 *   comment		a line starting with '#'.
 *   blank		an empty line: the end of a sample.
 */
#ifndef FG_STREAM_H
#define FG_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "base/str.h"

/*
 * The stream's vocabulary: the names fg-stream(5) gives, written and read
 * by every tool from here.
 */
#define STREAM_OFFCPU_EVENT	"offcpu-time"	/* off-CPU samples' event, as perf's --off-cpu names it;
						   their period is nanoseconds */
/*
 * Heap allocation samples (fgrecord --alloc), pprof's four heap values:
 * each sampled allocation is written as two samples of the same stack,
 * its estimated bytes and its estimated allocations; what is still
 * allocated when the program ends is written again as the inuse pair.
 */
#define STREAM_ALLOC_BYTES_EVENT	"alloc-bytes"	/* period: bytes allocated */
#define STREAM_ALLOC_OBJECTS_EVENT	"alloc-objects"	/* period: allocations */
#define STREAM_INUSE_BYTES_EVENT	"inuse-bytes"	/* period: bytes still allocated at the end */
#define STREAM_INUSE_OBJECTS_EVENT	"inuse-objects"	/* period: allocations still live */
/*
 * The leaf fgfold gives each stack of a heap profile: the event folded in
 * brackets ("[alloc-bytes]", stream_ev_frame), which tells fgsvg and
 * fgfold --top what the counts are: bytes, or allocations.
 */
#define STREAM_OFFCPU_FRAME	"[off-cpu]"	/* the leaf fgfold gives an off-CPU stack */
#define STREAM_TRUNCATED	"[truncated]"	/* the frame past a stack deeper than the copy */
#define STREAM_UNKNOWN		"[unknown]"	/* no symbol; as a DSO, no mapping */
#define STREAM_KERNEL		"[kernel.kallsyms]"	/* the kernel's DSO, as perf names it */
#define STREAM_VDSO		"[vdso]"	/* the vDSO's DSO, as perf names it */
#define STREAM_INLINED		"inlined"	/* the DSO of a frame inlined into the
						   frame below it: "ADDR SYM (inlined)" */
#define STREAM_FENCE		"# ========"	/* the line perf script --header opens and
						   closes its header with */
#define STREAM_MAGIC		"# fgrecord"	/* the header line of a stream whose
						   addresses are ELF addresses */

/* The keys of the header lines "# KEY : VALUE" that fgrecord and fgsym write. */
#define STREAM_KEY_EVENT	"event"		/* NAME [freq N | period N] callgraph ... */
#define STREAM_KEY_BUILDID	"buildid"	/* ID PATH */
#define STREAM_KEY_INSIDE	"inside"	/* PATH<tab>INSIDE: PATH is the
						   file the process mapped as INSIDE */
#define STREAM_KEY_CMDLINE	"cmdline"	/* the command recorded */
#define STREAM_KEY_KERNEL	"kernel"	/* STREAM_KERNEL_INCLUDED or _EXCLUDED */
#define STREAM_KEY_LOST		"lost"		/* samples the kernel dropped */
#define STREAM_KEY_START	"start"		/* WALL CLOCK */
#define STREAM_KEY_SYMBOLIZED	"symbolized"	/* "fgsym VERSION": the frames went
						   through fgsym, which wrote it */
#define STREAM_KERNEL_INCLUDED	"included"
#define STREAM_KERNEL_EXCLUDED	"excluded"

#define STREAM_SRCLINE_MAX	8192	/* bytes of a source line after its indent */

enum stream_kind {
	STREAM_BLANK,
	STREAM_COMMENT,
	STREAM_SAMPLE,
	STREAM_FRAME,
	STREAM_SRCLINE,
	STREAM_OTHER		/* fits no format */
};

struct stream_str {
	const char	*p;	/* borrowed, not NUL-terminated */
	size_t		 len;
};

struct stream_frame {
	struct stream_str addr;		/* hex digits, no 0x */
	struct stream_str sym;		/* as printed: "main+0x1f", "[unknown]" */
	struct stream_str dso;		/* inside the parentheses */
	struct stream_str indent;	/* the leading white space */
	uint64_t	 addrval;	/* addr's value */
	int		 addr_ok;	/* addr is hex and fits in 64 bits */
};

/*
 * The events fg-stream(5) names, as an enum: a sample's (ev), read once
 * from its head, so that no consumer compares its name again.
 * STREAM_EV_OTHER is a sampler's own event (cpu-clock, cycles, ...).
 */
enum stream_ev {
	STREAM_EV_OTHER,
	STREAM_EV_OFFCPU,		/* STREAM_OFFCPU_EVENT */
	STREAM_EV_ALLOC_BYTES,		/* STREAM_ALLOC_BYTES_EVENT */
	STREAM_EV_ALLOC_OBJECTS,	/* STREAM_ALLOC_OBJECTS_EVENT */
	STREAM_EV_INUSE_BYTES,		/* STREAM_INUSE_BYTES_EVENT */
	STREAM_EV_INUSE_OBJECTS,	/* STREAM_INUSE_OBJECTS_EVENT */
	STREAM_EV_COUNT
};

/*
 * The event e[0..len) (its modifiers after a ':' ignored) as the enum;
 * STREAM_EV_OTHER when len is 0 (e may then be NULL).
 */
enum stream_ev stream_ev_of(const char *e, size_t len);

/* The name of ev: its STREAM_*_EVENT; NULL for STREAM_EV_OTHER. */
const char *stream_ev_name(enum stream_ev ev);

/*
 * Whether ev is one of the four heap events; they follow each other from
 * STREAM_EV_ALLOC_BYTES, in the enum's order (ev - STREAM_EV_ALLOC_BYTES
 * numbers them 0 to 3).
 */
static inline int
stream_ev_heap(enum stream_ev ev)
{
	return ev >= STREAM_EV_ALLOC_BYTES && ev <= STREAM_EV_INUSE_OBJECTS;
}

/* Whether ev is a heap event that counts bytes (else allocations). */
static inline int
stream_ev_bytes(enum stream_ev ev)
{
	return ev == STREAM_EV_ALLOC_BYTES || ev == STREAM_EV_INUSE_BYTES;
}

/*
 * Which heap event the folded frame f[0..len) is the leaf of,
 * "[alloc-bytes]" and its three siblings, or STREAM_EV_OTHER.
 */
enum stream_ev stream_ev_frame(const char *f, size_t len);

struct stream_sample {
	struct stream_str comm;
	struct stream_str pid;		/* digits, a '-' first for perf's -1;
					   empty when perf printed only a TID */
	struct stream_str tid;		/* digits, a '-' first for perf's -1 */
	struct stream_str cpu;		/* digits inside "[CPU]"; empty if absent */
	struct stream_str event;	/* "cpu-clock"; empty if absent */
	enum stream_ev	 ev;		/* which event that is */
	uint64_t	 period;	/* 1 when absent */
	int		 has_period;
	/*
	 * perf script without -g prints a sample on one line, its one frame
	 * after the event: "sh 9068 3459.250647: 250000 cpu-clock:ppp:
	 * 7f8c12a4 update_active+0x270 (/usr/lib/ld.so)". Then has_frame is
	 * set and frame holds that frame (indent: the space before it).
	 */
	int		 has_frame;
	struct stream_frame frame;
};

/*
 * Classifies line[0..len). For STREAM_SAMPLE fills *s, for STREAM_FRAME
 * fills *f (either may be NULL when the caller does not need the fields).
 * A line that holds a NUL byte is STREAM_OTHER.
 */
enum stream_kind stream_classify(const char *line, size_t len,
		    struct stream_sample *s, struct stream_frame *f);

/*
 * Whether an indented line has the shape of a sample head: perf script
 * pads COMM to 16 columns when a sample has no call chain ("        sh
 * 9068 3459.250647: ..."), and never with a tab, which starts a frame. A
 * quick test, for readers that skip frame lines without classifying them.
 */
int	stream_indented_head(const char *line, size_t len);

/*
 * Parses a header line "# key : value". Returns 1 and sets *key and *val
 * (trimmed) when the line has that shape, 0 otherwise.
 */
int	stream_header(const char *line, size_t len,
		    struct stream_str *key, struct stream_str *val);

/*
 * Whether line[0..len) is the "# fgrecord N" line, which says that the
 * stream's addresses are ELF addresses, not perf's file offsets: the
 * second line of fgrecord's streams, after STREAM_FENCE, and the first of
 * those an older fgrecord wrote, with no fence (fg-stream(5)). A reader
 * looks for it among the comments before the first sample.
 */
int	stream_is_magic(const char *line, size_t len);

/*
 * Parses the value of a "# start" header line, "WALL CLOCK": the moment a
 * recording started in seconds since the Epoch (CLOCK_REALTIME), then the
 * same moment on the clock of the sample heads, both "SECONDS.FRACTION".
 * Sets *wall_ns and *clock_ns and returns 1, or returns 0 when v has not
 * that shape.
 */
int	stream_start(struct stream_str v, uint64_t *wall_ns,
		    uint64_t *clock_ns);

/*
 * The time of a sample head that stream_classify parsed into *s, from its
 * "SECONDS.FRACTION:" field: sets *ns and returns 1, or returns 0 when the
 * head has no time. Digits past nanoseconds are ignored.
 */
int	stream_sample_time(const struct stream_sample *s, const char *line,
		    size_t len, uint64_t *ns);

/* Whether s is exactly the C string c: base/str.h's str_is on a field. */
static inline int
stream_str_eq(struct stream_str s, const char *c)
{
	return str_is(s.p, s.len, c);
}


/*
 * Whether the event e[0..len), without its modifiers after a ':' (perf's
 * "cpu-clock:ppp"), is name.
 */
int	 stream_event_is(const char *e, size_t len, const char *name);

/*
 * Whether the event e[0..len) is a clock, cpu-clock or task-clock (with
 * any modifiers): its periods are nanoseconds of CPU time.
 */
int	 stream_event_is_clock(const char *e, size_t len);

/*
 * The length of symbol s[0..len) without a trailing "+0xHEX" offset, as
 * perf prints since Linux 4.8 ("main+0x1f" gives 4).
 */
size_t	 stream_sym_len(const char *s, size_t len);

#endif
