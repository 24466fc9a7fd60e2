/*
 * ptsample_impl: what the files of the ptrace sampler share and no one
 * else sees (ptsample.h is its interface):
 *
 *	ptsample.c		signals, seizing, ptrace events, the tick, letting go
 *	ptsample_thread.c	the thread table and each thread's /proc files
 *	ptsample_take.c		taking a sample from a stopped thread
 */
#ifndef FG_PTSAMPLE_IMPL_H
#define FG_PTSAMPLE_IMPL_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#include "record/ptsample.h"

#define NS	1000000000ULL
#define POLL_NS	1000000ULL	/* events are looked for at least this often */
#define WAIT_NS	25000000ULL	/* a tick waits this long at most for stops */
#define KEEP_MAX	(256ULL << 20)	/* stacks kept for blocked threads, bytes */
#define WAKE_US	5000		/* and wakes this often to look at the time */

/*
 * Where a thread is with respect to the sampler: in exactly one of these
 * at a time. What it is doing of its own (running, blocked in a system
 * call) is read from /proc at each tick, and what it has done is kept
 * in the flags of struct pt_thread.
 */
enum pt_state {
	PT_FREE,		/* free to run: nothing of ours pending on it */
	PT_INTERRUPTED,		/* PTRACE_INTERRUPT sent, its stop not seen
				   (a disk wait, or the tick gave up on it) */
	PT_AWAITED,		/* the same, but the tick waits for the stop:
				   counted in nfast */
	PT_HELD,		/* stopped for the tick: let go with the others */
	PT_GROUPSTOP,		/* stopped by a stop signal (PTRACE_LISTEN) */
};

struct pt_thread {
	pid_t		 tid, pid;
	int		 schedfd;	/* /proc/PID/task/TID/schedstat, or -1 */
	int		 statfd;	/* /proc/PID/task/TID/stat, or -1 */
	int		 sysfd;		/* /proc/PID/task/TID/syscall, or -1 */
	uint64_t	 runtime;	/* CPU time at the last tick, ns */
	uint64_t	 credit;	/* CPU time not sampled yet, ns */
	int64_t		 owed;		/* random ticks: CPU time run less the
					   periods sampled, ns (below 0: sampled
					   ahead of what schedstat has counted) */
	uint64_t	 rundelay;	/* time runnable but not running, ns */
	uint64_t	 waited;	/* of which not sampled yet (wall mode) */
	uint64_t	 last;		/* wall mode: time of its last sample */
	uint64_t	 held;		/* of which stopped by the sampler, ns */
	uint64_t	 held_from;	/* when its current stop began, or 0 */
	uint64_t	 asleep;	/* wall mode: time it was blocked, not
					   written yet (it was found running) */
	uint64_t	 asleep_now;	/* of its current period, found running */
	uint64_t	 vcsw;		/* its voluntary switches then, or ~0 */
	uint64_t	 stops;		/* the sampler's stops of it since: each
					   may add one voluntary switch */
	uint64_t	 resumed;	/* when it was last let go from a stop */
	uint64_t	 resumed_count;	/* its times on a CPU then, or ~0 */
	unsigned char	 lazy;		/* its /proc files are not open yet */
	int		 cpu;
	enum pt_state	 state;
	unsigned char	 offcpu;	/* blocked when the tick chose it */
	unsigned char	 preempted;	/* and off a CPU mostly waiting for one */
	unsigned char	 inpre;		/* its last sample was preempted */
	unsigned char	 started;	/* its process has exec'd, or was attached */
	unsigned char	 want;		/* chosen by the tick: its state letter */
	/*
	 * Wall mode: the last sample read of it blocked in a system call,
	 * kept while it has not run since (its schedstat says so: the same
	 * CPU time, the same count of times on a CPU) and is still blocked
	 * at the same user stack pointer and pc (its syscall file).
	 */
	unsigned char	 kept;
	uint64_t	 keep_sp, keep_pc, keep_run, keep_count;
	unsigned char	*keep;		/* owned, opts.stack_size bytes, or NULL */
	size_t		 keep_len;
};

struct pt_sbuf {
	struct pt_sample s;
	unsigned char	*stack;		/* owned, opts.stack_size bytes */
	struct livestack_pieces more;	/* owned: read beyond it, stopped */
};

/* The thread tid in the table (borrowed: until it grows), or NULL. */
struct pt_thread *pt_find(struct ptsample *ps, pid_t tid);

/*
 * Reads the user stack pointer and pc of a thread blocked in a system
 * call, the last two fields of its syscall file ("NR ARGS... SP PC");
 * returns -1 when it runs, is not in a system call, or cannot be read.
 */
int pt_read_syscall(struct pt_thread *t, uint64_t *sp, uint64_t *pc);

/*
 * Reads the thread's CPU time and the time it waited on a run queue, in
 * ns, and how many times it has been put on a CPU (schedstat's three
 * fields; count may be NULL); returns 0, or -1 when it cannot.
 */
int pt_read_runtime(struct pt_thread *t, uint64_t *ns, uint64_t *delay,
	    uint64_t *count);

/*
 * Reads the thread's state letter and the CPU it last ran on from its
 * stat file. Returns the state ('R', 'S', 'D', ...), or 0.
 */
int pt_read_state(struct pt_thread *t);

/*
 * Reads how many times the thread gave its CPU up of its own accord
 * (blocked): voluntary_ctxt_switches in its status file; ~0 when it
 * cannot.
 */
uint64_t pt_read_vcsw(const struct pt_thread *t);

/* The process of thread tid (its Tgid:), or tid when it cannot tell. */
pid_t pt_tgid_of(pid_t tid);

/* Opens t's /proc files again and starts its CPU time from now. */
void pt_thread_open(struct ptsample *ps, struct pt_thread *t);

/*
 * Adds thread tid of process pid. fresh: it was just created under the
 * tracer, so its /proc files wait for its first tick (most threads of
 * a program that makes thousands a second are gone by then) and all its
 * CPU time is its own.
 */
struct pt_thread *pt_add_thread_as(struct ptsample *ps, pid_t tid, pid_t pid,
	    int started, int fresh);

/* pt_add_thread_as, not fresh. */
struct pt_thread *pt_add_thread(struct ptsample *ps, pid_t tid, pid_t pid,
	    int started);

/* Opens the /proc files of a thread added fresh, at its first tick. */
void pt_open_lazy(struct ptsample *ps, struct pt_thread *t);

/* Whether a PTRACE_INTERRUPT of t is pending (its stop not seen). */
int pt_interrupted(const struct pt_thread *t);

/* Forgets a pending PTRACE_INTERRUPT of t: it is free to run. */
void pt_unpend(struct ptsample *ps, struct pt_thread *t);

/*
 * Takes t out of the table (closing its files, freeing its kept stack);
 * the last thread moves into its place.
 */
void pt_drop_thread(struct ptsample *ps, struct pt_thread *t);

/*
 * Wall mode: samples a thread blocked in a system call without stopping
 * it, which would end some waits (epoll_wait, sigtimedwait) with EINTR.
 * Its syscall file gives its user stack pointer and pc, and its stack
 * is copied from there; a thread that ran meanwhile (its schedstat
 * moved) may have changed what was copied, and gives no sample this
 * tick (the next one's period covers the time). Only the stack pointer
 * and pc are known: the unwinding recovers the other registers from the
 * stack where the CFI says they were saved. Returns 1 when the thread
 * was dealt with, 0 when it is not blocked in a system call and must be
 * stopped to be sampled.
 */
int pt_peek(struct ptsample *ps, struct pt_thread *t, uint64_t now);

/*
 * At the stop of a PTRACE_INTERRUPT (u its registers): when it came as
 * the thread entered a wait that the stop ends with EINTR, and no
 * signal the thread would take is pending, the wait is made again on
 * resume, as the kernel does for the waits it restarts itself (the pc
 * back over the syscall instruction, rax the call's number): the program
 * sees its wait go on, not end. Its timeout starts again, longer by the
 * time from its start to the stop. Returns 1 when it did so.
 */
int pt_restart_wait(struct pt_thread *t, struct user_regs_struct *u);

/*
 * Copies the stopped thread's registers and stack into a new sample.
 * intr: the stop is a PTRACE_INTERRUPT's, and a wait it ended is made
 * again.
 */
void pt_take(struct ptsample *ps, struct pt_thread *t, int intr);

/* Hands the samples taken this tick to the sample callback, in order. */
void pt_flush(struct ptsample *ps);

#endif
