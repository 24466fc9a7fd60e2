/*
 * record: run a recording session and write the sample stream
 * (fg-stream(5), section 1) that fgrecord prints.
 *
 * It launches a command (sampling starts at its exec), or attaches to
 * running processes, or samples the whole system, through a source
 * (source.h: perf_event_open, or ptrace where that is refused) that hands it samples and the
 * mmap, comm, fork and exit events in time order. It turns them into
 * finished samples for a sink (opts.sink: the stream writer, or fgsym's
 * symbolizer): mappings and command names are tracked, user stacks are
 * unwound (dwarf) or taken from the kernel's callchain (fp), and every
 * user address is converted to its file's own ELF address. A recording
 * is replayed the same way, through its source (source_perfdata: the
 * options name the file in cfg.replay_name).
 *
 *	struct record r;
 *	record_opts_check(&opts, &why);
 *	record_init(&r, &opts);
 *	status = record_run(&r);	(the exit status fgrecord passes on)
 *	record_release(&r);
 *
 * Errors the user must act on (permissions, an unsupported event, a
 * command that does not exist) are reported with err(3)-style messages
 * naming the fix, and record_run exits the process through errx with
 * status 2 (or 126/127 for a command that cannot be run).
 */
#ifndef FG_RECORD_H
#define FG_RECORD_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "stream/sample.h"
#include "record/comm.h"
#include "record/fpchain.h"
#include "record/livestack.h"
#include "record/maps.h"
#include "perf/perf.h"
#include "record/source.h"
#include "record/spool.h"
#include "record/stitch.h"
#include "record/unwind.h"

struct filesearch;

struct record_opts {
	/*
	 * What to record, as the source is asked for it: the mode, event,
	 * rate, call graph, targets (-p pids, borrowed; -a) and quiet.
	 * cfg.child is the session's to fill in.
	 */
	struct source_config cfg;
	double		 duration;	/* seconds, or 0 for no limit */
	char *const	*argv;		/* borrowed: the command, or NULL */
	/*
	 * Where the stream goes: header lines and finished samples (the
	 * stream writer on a FILE, sample_sink_file, for fgrecord); its
	 * arg borrowed.
	 */
	struct sample_sink sink;
	/*
	 * Borrowed, or NULL: the spool (spool.h) the sink writes into,
	 * emptied at the end before the summary, which says how far the
	 * output lagged.
	 */
	struct spool	*spool;
	const char	*outname;	/* for messages */
	int		 cmd_stdout;	/* the command's stdout: a descriptor */
	const char	*cmdline;	/* borrowed: for the # cmdline header */
	int		 any_user;	/* -p on other users' processes by capability */
	int		 no_stitch;	/* --no-stitch: leave deep stacks truncated
					   (neither stitched nor read on live) */
	int		 no_buildid_cache;	/* --no-buildid-cache: no copies
					   of the files of another root */
	unsigned	 max_depth;	/* --max-depth: user frames kept; 0 the default */
	const char	*sampler;	/* --sampler: a source's name, or NULL */
	int		 freq_given;	/* -F was given (it conflicts with -c) */
	int		 event_given;	/* -e was given */
	const struct source_ops *source;	/* the sampler: record_opts_check's choice */
	/*
	 * Borrowed, or NULL: where a replayed recording's files are looked
	 * for besides their recorded paths (fgsym's --symfs, --symbol-dir,
	 * debuginfod; elf/filesearch).
	 */
	const struct filesearch *search;
};

struct record_stats {
	uint64_t	 samples;	/* written */
	uint64_t	 lost;		/* PERF_RECORD_LOST and LOST_SAMPLES */
	uint64_t	 lost_records;
	uint64_t	 throttled;
	uint64_t	 truncated;	/* samples ending in [truncated] */
	uint64_t	 fp_nofp;	/* of them, frame-pointer chains that
					   stopped in code keeping none (fpchain.h) */
	uint64_t	 fp_skipped;	/* whole chains from code that keeps no
					   frame: its caller skipped */
	uint64_t	 stitched;	/* completed from an earlier sample (stitch.h) */
	uint64_t	 live;		/* completed from the live stack (livestack.h) */
	uint64_t	 stopped;	/* read on beyond the copy by the source
					   while the thread was stopped (ptrace) */
	uint64_t	 fp_completed;	/* completed from the kernel's frame-pointer
					   chain */
	uint64_t	 live_partial;	/* taken further there, not to the end */
	uint64_t	 live_stale;	/* not read on: the frame had changed */
	uint64_t	 live_denied;	/* not read on: the reads were refused */
	int		 live_errno;	/* the first refusal's errno */
	uint64_t	 unknown;	/* frames in no known or readable file */
	uint64_t	 waits;		/* offcpu-time samples written */
	uint64_t	 wait_ns;	/* their periods, summed */
	uint64_t	 end_reason[UNWIND_NEND]; /* the other truncations, by
					   enum unwind_end */
	uint64_t	 ring_bytes;
	uint64_t	 procs;		/* -a: processes found at the start */
	uint64_t	 procs_denied;	/* of them, whose maps were refused */
	double		 seconds;	/* wall time recorded */
	double		 cpu_seconds;	/* fgrecord's own CPU time */
};

struct record {
	struct record_opts opts;	/* a copy; pointers in it stay borrowed */
	struct record_stats stats;
	struct maps	 maps;
	struct unwind	 unwind;
	struct fpchain	 fpchain;	/* judges frame-pointer chains */
	struct source	 src;		/* the sampler (source.h) */
	pid_t		 child;		/* the launched command, or 0 */
	int		 child_status;	/* wait status, when child_done */
	int		 child_done;
	struct comm	 comms;		/* thread names, as learnt */
	struct stitch	 stitch;	/* each thread's last complete stack */
	struct livestack live;		/* the live stacks read on (livestack.h) */
	uint64_t	*pcs, *sps;	/* owned: unwinding scratch */
	uint64_t	*lpcs, *lsps;	/* owned: the same, for the walk read on */
	size_t		 pcs_cap;
	struct sample_frame *frames;	/* owned: one sample's frames */
	struct mapfile	**files;	/* owned: the file of each, or NULL */
	size_t		 nframes, frames_cap, files_cap;
	struct {
		pid_t	 pid;		/* of the last look, or 0 */
		int	 exists;	/* /tmp/perf-PID.map was there */
		uint64_t checked;	/* stats.samples at the last look */
		char	 name[64];	/* its path */
	} perfmap;			/* anonymous code's DSO: see anon_dso */
	char		 notid[24];	/* ":TID" of a replay's negative TID */
	int		 write_failed;
	int		 rval;		/* 1 when something was unresolved */
	uint64_t	 t_first, t_last;	/* the first and last sample's time */
};

/*
 * The user frames a stack keeps at most, by default and at most: g++'s
 * cc1plus reaches 524, clang++ stitched past 1,025. The unwinder, the
 * stitched stacks (stitch.h) and the frame-pointer walk all stop there.
 */
#define RECORD_DEPTH_DEFAULT	2048
#define RECORD_DEPTH_MAX	65536

/* The largest stack copy the kernel takes with a sample, in bytes. */
#define RECORD_STACK_MAX	65528

/*
 * Returns the default size of the stack copy for a sampling frequency
 * (or a period, for which 1 kHz is assumed): RECORD_STACK_MAX, which
 * reaches main in deep C++ programs such as clang and cc1plus, while the
 * kernel writes at most 64 MiB per second for each busy CPU; above about
 * 1 kHz less, down to 8 KiB (perf record's default) at 8 kHz and above.
 */
uint32_t record_stack_size(uint64_t freq, uint64_t period);

/*
 * Checks the options fgrecord was given against each other (-F with -c,
 * -e with --off-cpu or --wall, --wall's shortest period, --off-cpu or
 * --wall with -a, exactly one of a command, -p, -a and a recording to
 * replay (cfg.replay_name), --max-depth's
 * range), completes them (the stack copy's size for the mode and the
 * rate, the depth limit), and chooses the
 * source (source_choose with o->sampler), setting o->source. When it
 * falls back from perf_event_open it warns so in one line, unless quiet.
 * Returns 0, or -1 with *why (the caller frees it) saying what is wrong
 * in one line, for a usage error.
 */
int	 record_opts_check(struct record_opts *o, char **why);

/*
 * --call-graph s: fp, dwarf, or dwarf,BYTES (rounded up to 8, at most
 * RECORD_STACK_MAX) into o->cfg. Returns 0, or -1 with *why (the caller
 * frees it) for a usage error.
 */
int	record_opts_callgraph(struct record_opts *o, const char *s,
	    char **why);

/*
 * -p s: a PID or a comma-separated list of them, each added to *pids
 * (owned by the caller, grown), *npids of them. Returns 0, or -1 with
 * *why (the caller frees it) for a usage error.
 */
int	record_opts_pids(const char *s, pid_t **pids, size_t *npids,
	    char **why);

/*
 * Opens where o's stream goes: the file name (borrowed), or standard
 * output when name is NULL or "-". A file is created, or truncated, only
 * when it is a regular file (or /dev/null) and no symbolic link, and, run
 * as root, when it is root's and has one link (output.c says why); it
 * is made 0600, or an old file of the user's loses its group's and
 * others' permissions (the stream holds kernel addresses). Sets
 * o->outname (for messages: name, or CMDFILE_STDOUT) and o->cmd_stdout
 * (the command's standard output: fgrecord's own when the stream goes to
 * a file, else its standard error). Returns the descriptor, which the
 * spool (spool.h) writes and the caller closes; or -1 with *why (the
 * caller frees it) saying what was refused or failed.
 */
int	record_opts_output(struct record_opts *o, const char *name,
	    char **why);

/*
 * Copies *opts (the pointers in it stay borrowed); record_opts_check must
 * have passed them.
 */
void	 record_init(struct record *, const struct record_opts *opts);
/* Closes the source and frees what r owns, not r itself. */
void	 record_release(struct record *);

/*
 * Runs the whole session and returns the exit status fgrecord should
 * return: the command's (128+N when it died by signal N), or 0/1 when
 * attaching, or 2 when the stream could not be written.
 */
int	 record_run(struct record *);

#endif
