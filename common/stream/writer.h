/*
 * writer: write a sample stream (fg-stream(5)), the matching half of
 * stream.h's parser. Whatever goes through these functions reads back
 * through stream_classify and stream_header with the same fields, except
 * that names are cleaned first (see below): one line stays one line, and
 * a sample head stays a sample head.
 *
 *	stream_write_begin(o, &start);		# ========, # fgrecord 1, # start
 *	stream_write_header(o, "cmdline", cmdline);
 *	stream_write_event(o, &ev);		# event : cpu-clock freq 999 ...
 *	stream_write_fence(o);			# ========, the header's end
 *	stream_write_buildid(o, id, path);	before the first sample using path
 *	stream_write_head(o, &head);		COMM PID/TID [CPU] SECS: PERIOD EVENT:
 *	stream_write_frame(o, addr, NULL, dso);	one per frame, leaf first
 *	stream_write_truncated(o);		when the stack was cut
 *	stream_write_end(o);			the blank line
 *
 * Cleaning: a control character (a thread may call itself "a\nb") is
 * written as '?', and a COMM whose first character is a space or '#'
 * (which would make the head a frame or a comment) has it written as '_';
 * an empty COMM is written as "_".
 *
 * A COMM of head fields ("worker 1 x", "a 1/1", "x [001] 1.0:") reads
 * back whole: the parser reads a head from the right, where every field
 * after COMM has a fixed shape. A limit the format has: white space at
 * the end of a COMM does not read back ("a " is "a").
 *
 * Every function writes with stdio and ignores its errors: the caller
 * checks ferror(3) or fflush(3) once, when it suits it. Nothing is kept:
 * every argument is borrowed for the call only.
 */
#ifndef FG_WRITER_H
#define FG_WRITER_H

#include <stdint.h>
#include <stdio.h>

/* A sample's head line. */
struct stream_head {
	const char	*comm;		/* the thread's name: cleaned */
	uint32_t	 pid, tid;	/* UINT32_MAX, perf's -1 (no task), written -1 */
	uint32_t	 cpu;		/* written as [%03u] */
	uint64_t	 time;		/* ns; written as seconds and microseconds */
	uint64_t	 period;
	const char	*event;		/* "cpu-clock", STREAM_OFFCPU_EVENT */
};

/* How an "# event" line says the event was sampled. */
enum stream_rate {
	STREAM_RATE_NONE,		/* no rate: each occurrence, as offcpu-time */
	STREAM_RATE_FREQ,		/* "freq N": N samples per second */
	STREAM_RATE_PERIOD		/* "period N": one sample per N events */
};

/*
 * An "# event" line: "# event : NAME [freq N | period N] callgraph fp" or
 * "... callgraph dwarf BYTES".
 */
struct stream_event {
	const char	*name;		/* cleaned */
	enum stream_rate rate_kind;
	uint64_t	 rate;		/* N, unless STREAM_RATE_NONE */
	int		 dwarf;		/* else fp */
	uint32_t	 stack_size;	/* dwarf: bytes of stack per sample */
};

/* When a recording started, on two clocks. */
struct stream_start {
	uint64_t	 wall_ns;	/* CLOCK_REALTIME: ns since the Epoch */
	uint64_t	 clock_ns;	/* the same moment on the sample heads' clock */
};

/*
 * Writes s with its control characters as '?', so that a name or a path
 * stays on its line.
 */
void	 stream_write_clean(FILE *, const char *s);

/*
 * Cleans s in place as the writer writes it (control characters become
 * '?'); returns whether it changed anything. stream_needs_clean says
 * whether it would, without changing s.
 */
int	 stream_clean(char *s);
int	 stream_needs_clean(const char *s);

/*
 * Writes the lines a stream opens with: STREAM_FENCE, the first line of
 * perf script --header's output, by which the Firefox Profiler tells perf
 * text from folded stacks (its test reads the first line only); then
 * "# fgrecord 1" (STREAM_MAGIC), and "# start : WALL CLOCK" when start is
 * not NULL, both clocks as seconds with nine decimals.
 */
void	 stream_write_begin(FILE *, const struct stream_start *start);

/* Writes the "# start : WALL CLOCK" line alone. */
void	 stream_write_start(FILE *, const struct stream_start *start);

/*
 * Writes STREAM_FENCE again, where the header lines that describe the
 * whole recording end, as perf script --header does.
 */
void	 stream_write_fence(FILE *);

/* Writes the comment line "# TEXT", text cleaned. */
void	 stream_write_comment(FILE *, const char *text);

/*
 * Writes the header line "# KEY : VALUE": key as it is (a word of the
 * caller's, no ':'), value cleaned.
 */
void	 stream_write_header(FILE *, const char *key, const char *value);

/* Writes the header line "# KEY : N", N in decimal ("# lost : 12"). */
void	 stream_write_headeru(FILE *, const char *key, uint64_t n);

/* Writes the "# event" line for *ev. */
void	 stream_write_event(FILE *, const struct stream_event *ev);

/*
 * Writes "# buildid : ID PATH": the build ID (hex, as it is) of the file
 * at path (cleaned), which fgsym checks the file against. It must come
 * before the first sample with a frame in that file.
 */
void	 stream_write_buildid(FILE *, const char *buildid, const char *path);

/*
 * Writes "# inside : PATH<tab>INSIDE": the file that the frames name path
 * is the one that a process, under another root or other mounts, mapped
 * as inside; both cleaned, so the tab is the one on the line. It comes
 * before the file's "# buildid" line.
 */
void	 stream_write_inside(FILE *, const char *path, const char *inside);

/* Writes the head line of a sample, *h's comm and event cleaned. */
void	 stream_write_head(FILE *, const struct stream_head *h);

/*
 * Writes a frame line "\tADDR SYM (DSO)": addr in hex, sym cleaned, or
 * STREAM_UNKNOWN when sym is NULL (fgsym resolves it), and dso cleaned.
 */
void	 stream_write_frame(FILE *, uint64_t addr, const char *sym,
	    const char *dso);

/*
 * Writes the frame that ends a stack deeper than what was copied of it:
 * "\t0 [truncated] ([unknown])".
 */
void	 stream_write_truncated(FILE *);

/*
 * Writes a frame inlined into the next one: "\tADDR SYM (inlined)", sym
 * cleaned. fgsym writes them above the frame that holds them.
 */
void	 stream_write_inlined(FILE *, uint64_t addr, const char *sym);

/*
 * Writes the source line of the frame before it: "  TEXT" (FILE:LINE),
 * text cleaned (fgsym --srcline).
 */
void	 stream_write_srcline(FILE *, const char *text);

/* Writes the blank line that ends a sample. */
void	 stream_write_end(FILE *);

#endif
