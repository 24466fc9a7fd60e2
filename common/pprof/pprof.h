/*
 * pprof: turns sample streams (fg-stream(5): fgrecord, fgsym or perf script
 * output) and perf data (perfdata.c: perf.data, or perf record -o -'s
 * pipe, symbolized in this process) into one profile in pprof's format,
 * profile.proto of
 * github.com/google/pprof, gzipped, as go tool pprof, Grafana Pyroscope and
 * Parca read it.
 *
 *	struct pprof p;
 *	pprof_init(&p);
 *	rv = pprof_stream(&p, fd, "rec.txt");	once per input
 *	pprof_write(&p, stdout);
 *	pprof_release(&p);
 *
 * What goes where:
 *   sample types	samples/count; cpu/nanoseconds from the periods of
 *			cpu-clock or task-clock samples (EVENT/count for
 *			other events); off-cpu/nanoseconds and wall/nanoseconds
 *			when the stream holds offcpu-time samples.
 *   samples		one per unique (stack, thread, on- or off-CPU), its
 *			values summed; labels pid and tid (numbers), comm.
 *   locations		one per frame of the stream with its inlined frames
 *			and source lines (in practice one per address):
 *			inlined functions first, the function holding them
 *			last. A frame still [unknown] in a file gets no line,
 *			so that pprof can symbolize it from the file; other
 *			[unknown], [truncated] and kernel frames are named.
 *   functions		system_name is name where name is a symbol as the
 *			file holds it (a C name, or one still mangled), and
 *			unset for a demangled name, whose mangled one the
 *			stream does not carry; a function with no source file
 *			has its DSO for a file, as it is when bracketed
 *			("[kernel.kallsyms]"), else in brackets
 *			("[/usr/lib/libc.so.6]"), so that pprof's source view
 *			keeps the DSOs apart.
 *   mappings		one per DSO: its name, and its build ID from the
 *			stream's "# buildid" lines. Addresses are the stream's,
 *			the file's own address space, so every mapping starts
 *			at 0 with offset 0, which pprof reads as "already
 *			adjusted".
 *   period, time,	from the "# event" line (freq or period); the
 *   duration		earliest "# start" of the inputs (time_nanos); each
 *			input's time from its "# start", or its first
 *			sample, to the end of its last sample (an off-CPU
 *			sample ends a period after its time stamp), summed;
 *			"# cmdline" and "# lost" become comments.
 * The streams are read into a profile of raw stacks (profile/stacks.h);
 * number.c numbers its strings, functions, mappings and locations in the
 * order they were first seen, and encode.c writes the messages from
 * those tables (encode.c calls number.c, and nothing calls back).
 * Memory grows with the unique frames and unique (stack, thread) pairs,
 * never with repeated samples. The output is the same bytes for the same
 * input.
 */
#ifndef FG_PPROF_H
#define FG_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "profile/stacks.h"
#include "stream/intern.h"

/* What a raw frame of the profile became, once known (0: not yet). */
struct pprof_fmemo {
	uint64_t	 map;		/* the mapping of its DSO */
	uint64_t	 func;		/* its function as a location's last,
					   non-inlined line */
};

struct pprof {
	struct stacks	 prof;		/* what the streams said */
	/* The encoding's tables, made again by each pprof_encode. */
	struct intern	 strs;		/* string -> its index (= entry index) */
	struct intern	 funcs;		/* "NAME\0FILE" -> u[0] name, u[1] file */
	struct intern	 maps;		/* DSO -> u[0] name, u[1] MAP_ flags */
	struct pprof_fmemo *fmemo;	/* by index in prof.frm */
	uint32_t	*fids;		/* scratch: a location's frames */
	size_t		 fmemo_cap, fids_cap;
	uint64_t	*tcomm;		/* each thread's COMM, a string index */
	size_t		 tcomm_cap;
	struct buf	 larena;	/* the Location messages, in id order:
					   mapping id, length, message */
	uint64_t	*comments;	/* string indexes */
	size_t		 ncomments, comments_cap;
	struct buf	 tmp, tmp2;	/* scratch for nested messages */
	uint64_t	*vals;
	size_t		 vals_cap;
};

/* Makes an empty profile in *p, which the caller holds. */
void	pprof_init(struct pprof *);
/* Frees everything p owns, not p itself. */
void	pprof_release(struct pprof *);

/*
 * Reads one sample stream, or perf data, from fd (name is for messages,
 * borrowed for the call) and adds its samples. Perf data is replayed
 * and its frames named here, as fgsym names them by default: the profile
 * is that of fgsym's stream of it (what fgsym would say at its end is
 * said; data that cannot be read at all is said and exits 2). Bad lines
 * are reported as "name:line: ..." (the first ten) and skipped; a sample
 * cut off by the end of the input is dropped with a warning. Returns 0
 * when everything converted, 1 when something was skipped or the read
 * failed, SNIFF_REFUSED (2) when the input is no text stream and no perf
 * data (stream/sniff.h said what it is; nothing of it was read).
 */
int	pprof_stream(struct pprof *, int fd, const char *name);

/*
 * Encodes the profile, not compressed, into out (appended; the caller owns
 * out). pprof_write calls it; tests and the fuzz harness use it directly.
 */
void	pprof_encode(struct pprof *, struct buf *out);

/*
 * Writes the profile gzipped to out. Returns 0, or -1 with errno set when
 * writing failed; a zlib failure is fatal (exit 2 with zlib's message).
 */
int	pprof_write(struct pprof *, FILE *out);

#endif
