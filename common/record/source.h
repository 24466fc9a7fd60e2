/*
 * source: the seam between a recording session (record.c: command names,
 * mappings, unwinding, the stream, the summary) and the mechanism that
 * samples: perf_event_open (source_perf.c), or ptrace where that is
 * refused (source_ptrace.c). A source opens its events, starts and stops
 * them, waits for data, and hands what it saw to a sink, one event at a
 * time and in time order: samples, and the mmap, comm, fork and exit
 * events that tell the session which files back which addresses and what
 * each thread is called.
 *
 *	ops = source_choose(&cfg, name, &why);	(--sampler, or NULL)
 *	struct source src = { .ops = ops };
 *	src.ops->open(&src, &cfg);	(cfg.child: a launched command)
 *	src.ops->enable(&src);
 *	while (...) {
 *		src.ops->wait(&src, timeout_ms);
 *		src.ops->drain(&src, now, &sink);
 *	}
 *	src.ops->disable(&src);
 *	src.ops->drain(&src, UINT64_MAX, &sink);
 *	src.ops->summary(&src, throttled);	(when not NULL)
 *	src.ops->close(&src);
 *
 * How a third source plugs in: write common/record/source_NAME.c
 * defining a `const struct source_ops source_NAME` whose functions keep
 * their state behind src->priv, say in its fields what it can record
 * (-a, which events), declare it below and add it to source.c's table,
 * in the order source_choose tries them when --sampler is not given;
 * --sampler NAME then picks it by its name. The session does not
 * change: it launches the command stopped before its exec (cfg.child; it
 * is started when open returns, by a write to a pipe, so a tracer can
 * seize it in open), reads /proc for -p and -a, and reaps the command
 * with waitpid(WNOHANG), counting only exits and deaths as its end (a
 * tracer's stops are its own business). What a sample must carry is
 * struct source_sample: the registers in DWARF numbering and a copy of
 * the user stack from the stack pointer up (for --call-graph dwarf), or
 * a callchain with PERF_CONTEXT_USER before the user frames (for fp). An
 * off-CPU mechanism added to a source reports its samples with their own
 * event name (STREAM_OFFCPU_EVENT) and a period in nanoseconds.
 */
#ifndef FG_SOURCE_H
#define FG_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf/event.h"
#include "perf/perf.h"
#include "stream/stream.h"
#include "stream/writer.h"
#include "record/unwind.h"

/*
 * What a recording measures. RECORD_CPU samples the event at a frequency
 * (the default). RECORD_OFFCPU gives one "offcpu-time" sample each time a
 * thread blocks, at the stack where it blocked, whose period is the time
 * it stayed off the CPU in nanoseconds. RECORD_WALL gives both: the
 * event's samples (cpu-clock, period in ns) and the offcpu-time ones, so
 * that each thread's periods add up to its wall-clock time.
 */
enum record_mode {
	RECORD_CPU,
	RECORD_OFFCPU,
	RECORD_WALL,
	/*
	 * Heap allocations (--alloc), through libfgalloc.so preloaded into
	 * the launched command (source_alloc): samples of the four events
	 * STREAM_ALLOC_BYTES_EVENT ... STREAM_INUSE_OBJECTS_EVENT, one every
	 * period bytes allocated on average.
	 */
	RECORD_ALLOC
};

#define RECORD_ALLOC_PERIOD	524288	/* --alloc's default mean bytes per sample */
#define RECORD_ALLOC_STACK	16384	/* --alloc's default stack copy */
#define RECORD_ALLOC_STACK_MAX	65536	/* and its largest */

/* What the session asks a source for: the options of one recording. */
struct source_config {
	enum record_mode mode;		/* --off-cpu, --wall */
	const struct perf_event_desc *event;	/* static */
	uint64_t	 freq;		/* Hz; used when period is 0 */
	uint64_t	 period;
	/*
	 * Sample at the fixed period (--fixed-period), as perf does; else
	 * each interval is drawn at random around the mean that freq or
	 * period sets (record/jitter.h), and each sample's period is the
	 * interval that ended in it.
	 */
	int		 fixed_period;
	int		 dwarf;		/* registers and stack copies, else fp */
	uint32_t	 stack_size;	/* dwarf: bytes of stack per sample */
	unsigned	 max_depth;	/* user frames a walk goes to; 0: 2048 */
	int		 system_wide;	/* -a */
	const pid_t	*pids;		/* borrowed: -p targets */
	size_t		 npids;
	pid_t		 child;		/* a launched command not yet exec'd, or 0 */
	int		 quiet;		/* no warnings about the machine's limits */
	/*
	 * A recording to replay (source_perfdata) instead of sampling: the
	 * perf data on replay_fd (named replay_name, the replay when not
	 * NULL), whose first replay_headlen bytes were read into
	 * replay_head already. All borrowed.
	 */
	const char	*replay_name;
	int		 replay_fd;
	const void	*replay_head;
	size_t		 replay_headlen;
	/*
	 * --alloc: fgrecord's end of the socket libfgalloc.so writes to
	 * (record/allocmsg.h), owned by the source once opened; else -1.
	 */
	int		 alloc_fd;
	/*
	 * --alloc through uprobes (source_uprobe): the launched command's
	 * argv (borrowed), whose file is probed before its exec; or NULL.
	 */
	char *const	*argv;
};

/*
 * What a replayed recording says it recorded, for the stream's header
 * (the session's options say it for a live one).
 */
struct source_info {
	const char	*cmdline;	/* or NULL */
	const struct stream_event *events;	/* one "# event" line each */
	size_t		 nevents;
	int		 dwarf;		/* samples carry registers and a stack */
	const char	*kernel_buildid;	/* hex, or NULL */
};

struct source;

/*
 * A sampler. Fatal errors (permissions, an unsupported event, a process
 * that does not exist) are explained on stderr with the fix and end the
 * process through errx(2), as fgrecord(1) documents.
 */
struct source_ops {
	const char *name;		/* what --sampler calls it: "perf" */
	int	 system_wide;		/* it can sample the whole system (-a) */
	/*
	 * Whether it can sample event ev; NULL when it can sample every
	 * event perf_event_find knows. measures says what the events it
	 * can sample have in common, for the message ("CPU time").
	 */
	int	(*measures_event)(const struct perf_event_desc *ev);
	const char *measures;
	/*
	 * What it lacks beside perf_event_open, for the warning that says
	 * source_choose fell back to it ("user space only, more overhead").
	 */
	const char *limits;
	/*
	 * It replays a recording (cfg.replay_name): no other source does,
	 * and it does nothing else.
	 */
	int	 replays;
	/*
	 * It records heap allocations (RECORD_ALLOC): no other source
	 * does, and it does nothing else.
	 */
	int	 alloc;
	/*
	 * Its events are a recording's, read back: their pids name no
	 * process of this machine now (the session reads nothing of them
	 * in /proc, signals none, and names a thread it never heard of
	 * ":TID", as perf does), the time recorded is its samples' span,
	 * and the events end by themselves (no signal is caught: ^C ends
	 * the process, as it ends any filter).
	 */
	int	 offline;
	/*
	 * Opens the events for cfg (copied), which must be one the source
	 * can record (source_choose checks the fields above), and sets
	 * src->user_only. A -p
	 * process that has exited is warned about and skipped, and sets
	 * src->partial, unless none is left (fatal).
	 */
	void	(*open)(struct source *, const struct source_config *cfg);
	/* Starts sampling (a command starts at its exec, on its own). */
	void	(*enable)(struct source *);
	/* Waits up to timeout_ms for data, or a signal. */
	void	(*wait)(struct source *, int timeout_ms);
	/*
	 * Hands the sink every event up to time limit (all of them when
	 * limit is UINT64_MAX), in time order; later ones wait for the next
	 * call.
	 */
	void	(*drain)(struct source *, uint64_t limit,
		    const struct source_sink *);
	/* Stops sampling; what was sampled can still be drained. */
	void	(*disable)(struct source *);
	/*
	 * Prints the source's own warnings at the end of a recording on
	 * stderr, after the session's summary lines about off-CPU time
	 * (about the machine's limits it ran into: a rate the kernel
	 * lowered, throttling), or nothing. throttled is the number of
	 * SOURCE_THROTTLE events it handed over. It runs after the last
	 * drain and before close; NULL when the source has none.
	 */
	void	(*summary)(const struct source *, uint64_t throttled);
	/*
	 * Frees everything open allocated (src->priv). The session calls it
	 * once, only when open set src->priv, and clears src->priv after.
	 */
	void	(*close)(struct source *);
};

struct source {
	const struct source_ops *ops;	/* static */
	void		*priv;		/* owned by the source */
	int		 user_only;	/* kernel stacks excluded */
	int		 partial;	/* a target could not be sampled (warned) */
	int		 failed;	/* open could not start: the exit status
					   (said), and src->priv is not set */
	uint64_t	 bytes;		/* read from the kernel, for statistics */
	uint64_t	 preempted;	/* off-CPU: switches out while runnable */
	uint64_t	 waits_dropped;	/* off-CPU: waits let go after a loss */
	const struct source_info *info;	/* a replay's, set by open; or NULL */
};

/* perf_event_open(2): source_perf.c. */
extern const struct source_ops source_perf;

/* ptrace(2), for where perf_event_open is refused: source_ptrace.c. */
extern const struct source_ops source_ptrace;

/*
 * A perf.data file or pipe, replayed as if it were being recorded:
 * source_perfdata.c. Its events arrive in one drain.
 */
extern const struct source_ops source_perfdata;

/*
 * Heap allocations, from libfgalloc.so preloaded into the command:
 * source_alloc.c.
 */
extern const struct source_ops source_alloc;

/*
 * Heap allocations through uprobes on the allocator's functions, for
 * what the preload cannot reach (a static program, -p, an allocator
 * linked in): source_uprobe.c, record/source_uprobe.h.
 */
extern const struct source_ops source_uprobe;

/*
 * Chooses the source for cfg: the one called name (--sampler), or, when
 * name is NULL, source_perf where perf_event_open can record cfg, else
 * the first other source that can record cfg, else source_perf all the
 * same (whose open explains the refusal, with the fix). Returns it
 * (static); or NULL when there is no source called name, or it cannot
 * record cfg (-a, an event it does not measure), with *why saying so in
 * one line. *why also says why, when it fell back from source_perf (a
 * line to warn); else it is NULL. The caller frees *why.
 */
const struct source_ops *source_choose(const struct source_config *cfg,
	    const char *name, char **why);

#endif
