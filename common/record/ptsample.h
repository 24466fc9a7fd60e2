/*
 * ptsample: sample the user stacks of threads with ptrace(2), where
 * perf_event_open is refused (a seccomp filter, as in containers;
 * kernel.perf_event_paranoid=3; gVisor).
 *
 * Every thread of the traced processes is seized (PTRACE_SEIZE, following
 * clone, fork, vfork and exec), which stops nothing by itself. At each
 * tick (every 1/freq seconds with opts.fixed, else twice as often, once
 * in wall mode, with
 * each interval drawn at random, record/jitter.h) it reads each thread's
 * CPU time from /proc/PID/task/TID/schedstat. A thread that has run for
 * a whole period since its last sample (at random ticks: a running
 * thread that a coin chooses, ptsample.c's coin) and is still running is
 * stopped with
 * PTRACE_INTERRUPT (no signal the program can see), its registers are
 * read (PTRACE_GETREGSET) and its stack copied from the stack pointer up
 * (process_vm_readv). When the copy ran out before the thread's stack
 * did, the caller's walk (cb.walk) unwinds it there and then, while it
 * is stopped, reading what it asks for beyond the copy from the thread's
 * stack (record/livestack.h, in reads that begin at 4 KiB and double),
 * bounded by its stack mapping and the walk's depth; what it read goes
 * with the sample (pt_sample.more), so that a copy's size never cuts a
 * stack short. Then the thread is let go, and only then is the sample
 * handed on, so that the thread does not wait for the rest of the
 * unwinding. The
 * samples so taken mean what cpu-clock samples mean. In wall mode every
 * thread is sampled at every tick, running or blocked, and the sample of
 * a thread that was on a CPU for less than half the time since its last
 * one is marked off-CPU (waiting for a CPU is off-CPU time, as in perf's
 * sched_switch view).
 *
 *	struct ptsample ps;
 *	ptsample_init(&ps, &opts, &cb, arg);
 *	ptsample_add(&ps, pid, launched);	(before the child execs, or -p)
 *	while (ptsample_live(&ps))
 *		ptsample_run(&ps, 100);		(ticks and ptrace events)
 *	ptsample_release(&ps);			(lets go of every thread)
 *
 * ptsample reaps the traced tasks, but not the launched command: its
 * end is only looked at (child_done, child_status), for the caller, its
 * parent, to reap. A tracer
 * that dies detaches its tracees: a program is never left stopped by a
 * fgrecord killed with SIGKILL. Nothing here prints; failures come back
 * as -1 with errno set.
 */
#ifndef FG_PTSAMPLE_H
#define FG_PTSAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/jitter.h"
#include "record/livestack.h"
#include "record/unwind.h"

struct ptsample_opts {
	uint64_t	 freq;		/* ticks per second, on average */
	int		 fixed;		/* ticks at the fixed period, not drawn */
	uint32_t	 stack_size;	/* bytes of stack copied per sample */
	int		 wall;		/* sample blocked threads too */
};

/* One sample, borrowed for the duration of the callback. */
struct pt_sample {
	pid_t		 pid, tid;
	int		 cpu;		/* where it last ran */
	uint64_t	 time;		/* CLOCK_MONOTONIC, ns */
	uint64_t	 period;	/* ns of CPU time (or wall time when offcpu) */
	int		 offcpu;	/* wall mode: the thread was blocked */
	int		 preempted;	/* offcpu, but mostly waiting for a CPU */
	int		 preemption;	/* the first such sample of a wait */
	uint64_t	 regs[UNWIND_NREGS];	/* DWARF numbering */
	uint32_t	 regs_valid;	/* bit r set when regs[r] is known */
	const unsigned char *stack;	/* from regs[UNWIND_SP] up */
	size_t		 stack_len;
	/*
	 * What the walk of the stopped thread read beyond the copy (cb.walk),
	 * or NULL: read with livestack_pieces_read.
	 */
	const struct livestack_pieces *more;
};

/*
 * What the caller learns; any may be NULL. fork: a new process child,
 * a copy of parent (its mappings too). exec: pid runs a new image (read
 * its mappings again). exit: process pid is gone. comm: tid's name may
 * have changed (it was seized, or exec'd). walk: called while thread
 * s->tid is stopped, when its stack copy (s->stack, s->stack_len) ran
 * out before its stack did: the caller unwinds it, reading beyond the
 * copy through more(more_arg, ...), and keeps nothing of s; what the
 * walk read comes back with the sample.
 */
struct ptsample_cb {
	void	(*sample)(void *arg, const struct pt_sample *);
	void	(*fork)(void *arg, pid_t parent, pid_t child);
	void	(*exec)(void *arg, pid_t pid);
	void	(*exit)(void *arg, pid_t pid);
	void	(*comm)(void *arg, pid_t pid, pid_t tid);
	void	(*walk)(void *arg, const struct pt_sample *s,
		    unwind_more_fn *more, void *more_arg);
};

struct pt_thread;
struct pt_sbuf;

struct ptsample {
	struct ptsample_opts opts;
	struct ptsample_cb cb;
	void		*arg;		/* borrowed: handed to the callbacks */
	uint64_t	 period_ns;
	uint64_t	 next_tick;	/* CLOCK_MONOTONIC ns */
	struct jitter	 rng;		/* draws the ticks' intervals */
	struct pt_thread *threads;	/* owned */
	size_t		 nthreads, threads_cap;
	size_t		 nfast;		/* interrupted, stop expected soon */
	int		 in_tick;	/* stops are held until all have come */
	struct pt_sbuf	*sbufs;		/* owned: samples taken, not handed on */
	size_t		 nsbufs, sbufs_cap, nready;
	pid_t		 child;		/* the launched command, or 0 */
	int		 child_status;	/* its wait status, when child_done */
	int		 child_done;
	uint64_t	 keep_bytes;	/* the kept samples' stacks */
	uint64_t	 restarts;	/* waits an interrupt ended, made again */
	struct livestack live;		/* the stopped threads' stacks read on */
	uint64_t	 walks;		/* samples walked while stopped (cb.walk) */
	uint64_t	 wall_ns;	/* wall mode: the samples' periods, ns */
	uint64_t	 held_ns;	/* and the time the sampler held threads
					   at its stops, left out of them */
	uint64_t	 ticks;		/* ticks made */
	uint64_t	 late_ticks;	/* of them, more than a period late */
	uint64_t	 late_max_ns;	/* the latest a tick came */
};

void	 ptsample_init(struct ptsample *, const struct ptsample_opts *opts,
	    const struct ptsample_cb *cb, void *arg);

/*
 * Lets go of every thread still traced (PTRACE_DETACH; a thread in a
 * group-stop stays stopped, as the signal that stopped it meant); the
 * samples already taken are handed on first. Nothing is traced after.
 */
void	 ptsample_detach(struct ptsample *);

/* Detaches, and frees everything ps owns, not ps itself. */
void	 ptsample_release(struct ptsample *);

/*
 * Starts tracing process pid. launched: pid is the caller's child,
 * waiting to exec the command; its samples start at its first exec, and
 * its wait status is kept. Else all of pid's threads are seized, also
 * those it creates while they are. Returns 0, or -1 with errno set (EPERM:
 * not allowed to trace it; ESRCH: no such process).
 */
int	 ptsample_add(struct ptsample *, pid_t pid, int launched);

/*
 * Handles ptrace events and takes the samples that fall due, for at most
 * timeout_ms milliseconds; returns early when a signal arrives (the
 * caller checks its flags) or nothing is traced any longer.
 */
void	 ptsample_run(struct ptsample *, int timeout_ms);

/* Whether some thread is still traced. */
int	 ptsample_live(const struct ptsample *);

#endif
