/*
 * event: what a sampler hands a recording session, one event at a time
 * and in time order: samples, and the mmap, comm, fork and exit events
 * that tell which files back which addresses and what each thread is
 * called. perf's records decode into them (perfdecode, perfdata); the
 * ptrace sampler makes the same; the session (record/source.h) takes
 * them through a struct source_sink.
 */
#ifndef FG_PERF_EVENT_H
#define FG_PERF_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf/perf.h"
#include "stream/stream.h"

enum source_kind {
	SOURCE_SAMPLE,
	SOURCE_MMAP,		/* an executable mapping */
	SOURCE_COMM,		/* a thread's new name; exec when it exec'd */
	SOURCE_FORK,		/* a new thread or process */
	SOURCE_EXIT,		/* a thread ended */
	SOURCE_LOST,		/* samples the source could not keep */
	SOURCE_THROTTLE		/* the kernel throttled sampling once */
};

/* One sample: what the unwinder and the stream need. */
struct source_sample {
	uint32_t	 cpu;
	uint64_t	 period;	/* events (or ns) the sample stands for */
	const char	*event;		/* the event's name, for the stream */
	enum stream_ev	 ev;		/* which event that is */
	/*
	 * The kernel's callchain, leaf first, with PERF_CONTEXT_KERNEL and
	 * PERF_CONTEXT_USER markers before each part; with fp the user part
	 * is the frame-pointer walk.
	 */
	const uint64_t	*callchain;
	size_t		 nr;
	int		 chain_cut;	/* the kernel's depth limit cut it */
	uint64_t	 regs[PERF_DWARF_NREGS];	/* user registers, DWARF numbers */
	uint32_t	 regs_valid;	/* 0: none (a kernel thread, or fp) */
	const unsigned char *stack;	/* user stack from regs[PERF_DWARF_SP] */
	size_t		 stack_len;
	/*
	 * What lies beyond the copy as the source read it when the sample
	 * was taken (the ptrace sampler's walk of the stopped thread), or
	 * NULL: the unwinding's read-more hook (record/unwind.h's
	 * unwind_more_fn: 0 and *v the word at addr, or -1) and its argument.
	 */
	int		(*more)(void *arg, uint64_t addr, uint64_t *v);
	void		*more_arg;
};

struct source_mmap {
	uint64_t	 addr, len, pgoff;
	const char	*path;		/* NUL-terminated */
	const unsigned char *buildid;	/* or NULL */
	size_t		 buildid_len;
	int		 have_ino;	/* MMAP2 named the file's device and
					   inode: */
	uint32_t	 maj, min;
	uint64_t	 ino;
};

/* An event; every pointer in it is borrowed for the sink call only. */
struct source_event {
	enum source_kind kind;
	pid_t		 pid, tid;
	uint64_t	 time;		/* ns, CLOCK_MONOTONIC; 0 when unknown */
	union {
		struct source_sample sample;
		struct source_mmap mmap;
		struct {
			const char *name;	/* NUL-terminated */
			int	 exec;
		} comm;
		struct {
			pid_t	 ppid, ptid;
		} fork;
		uint64_t	 lost;
	} u;
};

struct source_sink {
	void	(*fn)(void *arg, const struct source_event *);
	void	*arg;
};

#endif
