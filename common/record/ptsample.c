#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/num.h"
#include "base/procfs.h"
#include "record/ptsample.h"
#include "base/xalloc.h"

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
};

/* SIGALRM only ends a tick's blocking wait for stops (EINTR). */
static void
on_alarm(int sig)
{
	(void)sig;
}

/* Set when a SIGCHLD said a tracee stopped: a report waits. */
static volatile sig_atomic_t trapped;

/*
 * When the SIGCHLDs of the last stops came, and whose they were: the
 * time a stop began as best known (its report is read later, after the
 * reports before it, or after a tick). The handler writes slot
 * trap_next % TRAP_SLOTS, the time before the thread.
 */
#define TRAP_SLOTS	64
static volatile struct {
	pid_t		 tid;
	uint64_t	 ns;
} traps[TRAP_SLOTS];
static volatile sig_atomic_t trap_next;

/*
 * SIGCHLD ends the sleep between ticks (EINTR): a tracee's stop is
 * handled at once, not at the next poll, since the thread waits for it.
 * Any other reason (the command's end) is the caller's to see.
 */
static void
on_child(int sig, siginfo_t *si, void *ctx)
{
	int k;

	(void)sig;
	(void)ctx;
	if (si != NULL && si->si_code == CLD_TRAPPED) {
		k = trap_next % TRAP_SLOTS;
		trap_next = (k + 1) % TRAP_SLOTS;
		traps[k].tid = 0;
		traps[k].ns = procfs_now_ns();
		traps[k].tid = si->si_pid;
		trapped = 1;
	} else {
		trapped = 2;
	}
}

/*
 * When the stop of tid that is reported now began, as best known: when
 * its SIGCHLD came, if that was after since (its last release), else
 * now. (SIGCHLDs that come while one is pending are merged: a stop then
 * counts from its report.)
 */
static uint64_t
stop_began(pid_t tid, uint64_t since, uint64_t now)
{
	uint64_t ns;
	int k;

	for (k = 0; k < TRAP_SLOTS; k++) {
		if (traps[k].tid != tid)
			continue;
		ns = traps[k].ns;
		if (traps[k].tid != tid)
			continue;	/* the handler took the slot meanwhile */
		traps[k].tid = 0;
		if (ns > since && ns <= now)
			return ns;
	}
	return now;
}

void
ptsample_init(struct ptsample *ps, const struct ptsample_opts *opts,
    const struct ptsample_cb *cb, void *arg)
{
	struct sigaction sa;

	memset(ps, 0, sizeof(*ps));
	ps->opts = *opts;
	if (ps->opts.freq == 0)
		ps->opts.freq = 999;
	ps->opts.stack_size &= ~7U;
	if (cb)
		ps->cb = *cb;
	ps->arg = arg;
	ps->period_ns = NS / ps->opts.freq;
	if (ps->period_ns == 0)
		ps->period_ns = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: waitid returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	/* Without SA_NOCLDSTOP: a tracer's SIGCHLD for a stop is wanted. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_child;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
}

/* ---- the thread table ---- */

static struct pt_thread *
find(struct ptsample *ps, pid_t tid)
{
	size_t i;

	for (i = 0; i < ps->nthreads; i++)
		if (ps->threads[i].tid == tid)
			return &ps->threads[i];
	return NULL;
}

static void
close_proc(struct pt_thread *t)
{
	if (t->schedfd >= 0)
		close(t->schedfd);
	if (t->statfd >= 0)
		close(t->statfd);
	if (t->sysfd >= 0)
		close(t->sysfd);
	t->schedfd = t->statfd = t->sysfd = -1;
}

/*
 * Reads the user stack pointer and pc of a thread blocked in a system
 * call, the last two fields of its syscall file ("NR ARGS... SP PC");
 * returns -1 when it runs, is not in a system call, or cannot be read.
 */
static int
read_syscall(struct pt_thread *t, uint64_t *sp, uint64_t *pc)
{
	char buf[256], *f[9], *save = NULL;
	int k = 0;

	if (procfs_reread(t->sysfd, buf, sizeof(buf)) != 0)
		return -1;
	for (char *p = strtok_r(buf, " \n", &save); p != NULL && k < 9;
	    p = strtok_r(NULL, " \n", &save))
		f[k++] = p;
	if (k != 9 || f[0][0] == '-')
		return -1;
	*sp = strtoull(f[7], NULL, 16);
	*pc = strtoull(f[8], NULL, 16);
	return 0;
}

/*
 * Reads the thread's CPU time and the time it waited on a run queue, in
 * ns, and how many times it has been put on a CPU (schedstat's three
 * fields; count may be NULL); returns 0, or -1 when it cannot.
 */
static int
read_runtime(struct pt_thread *t, uint64_t *ns, uint64_t *delay,
    uint64_t *count)
{
	uint64_t *field[3] = { ns, delay, count };
	char buf[96];
	size_t at = 0, len, n;
	int k;

	if (procfs_reread(t->schedfd, buf, sizeof(buf)) != 0)
		return -1;
	/* "NS DELAY COUNT\n", one space between */
	len = strlen(buf);
	for (k = 0; k < 3 && field[k] != NULL; k++, at += n + 1)
		if (at >= len || num_u64(buf + at, len - at, field[k], &n) !=
		    NUM_OK)
			return -1;
	return 0;
}

/*
 * Reads the thread's state letter and the CPU it last ran on from its
 * stat file. Returns the state ('R', 'S', 'D', ...), or 0.
 */
static int
read_state(struct pt_thread *t)
{
	char buf[1024], *s, *tok, *save = NULL;
	int field, state;
	uint64_t cpu;

	if (procfs_reread(t->statfd, buf, sizeof(buf)) != 0 ||
	    (state = procfs_stat_state(buf, &s)) == 0)
		return 0;
	/* Field 3 is the state; field 39 is the CPU. */
	for (field = 3, tok = strtok_r(s, " ", &save); tok;
	    tok = strtok_r(NULL, " ", &save), field++)
		if (field == 39) {
			t->cpu = num_u64(tok, strlen(tok), &cpu, NULL) ==
			    NUM_OK && cpu <= INT_MAX ? (int)cpu : 0;
			break;
		}
	return state;
}

/*
 * Reads how many times the thread gave its CPU up of its own accord
 * (blocked): voluntary_ctxt_switches in its status file; ~0 when it
 * cannot.
 */
static uint64_t
read_vcsw(const struct pt_thread *t)
{
	char buf[2048], *p;
	uint64_t n = ~0ULL;
	size_t used;
	int fd;

	if ((fd = procfs_task_open(t->pid, t->tid, "status")) < 0)
		return n;
	if (procfs_reread(fd, buf, sizeof(buf)) == 0 &&
	    (p = strstr(buf, "\nvoluntary_ctxt_switches:\t")) != NULL &&
	    num_u64(p + 26, strlen(p + 26), &n, &used) != NUM_OK)
		n = ~0ULL;
	close(fd);
	return n;
}

/* Reads the thread group of tid from /proc; returns tid itself when unknown. */
static pid_t
tgid_of(pid_t tid)
{
	struct procfs_status st;

	if (procfs_status(tid, &st) != 0 || st.tgid <= 0)
		return tid;
	return st.tgid;
}

static void
thread_open(struct ptsample *ps, struct pt_thread *t)
{
	uint64_t ns, delay;

	close_proc(t);
	t->lazy = 0;
	t->schedfd = procfs_task_open(t->pid, t->tid, "schedstat");
	t->statfd = procfs_task_open(t->pid, t->tid, "stat");
	t->sysfd = ps->opts.wall ?
	    procfs_task_open(t->pid, t->tid, "syscall") : -1;
	t->kept = 0;
	t->credit = t->waited = 0;
	t->last = procfs_now_ns();
	if (read_runtime(t, &ns, &delay, NULL) == 0) {
		t->runtime = ns;
		t->rundelay = delay;
	}
	if (ps->cb.comm && t->started)
		ps->cb.comm(ps->arg, t->pid, t->tid);
}

/*
 * Adds thread tid of process pid. fresh: it was just created under the
 * tracer, so its /proc files wait for its first tick (most threads of
 * a program that makes thousands a second are gone by then) and all its
 * CPU time is its own.
 */
static struct pt_thread *
add_thread_as(struct ptsample *ps, pid_t tid, pid_t pid, int started,
    int fresh)
{
	struct pt_thread *t;

	if ((t = find(ps, tid)) != NULL)
		return t;
	GROW(ps->threads, ps->nthreads + 1, ps->threads_cap);
	t = &ps->threads[ps->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	t->started = (unsigned char)started;
	t->schedfd = t->statfd = t->sysfd = -1;
	t->cpu = -1;
	if (fresh) {
		t->lazy = 1;
		t->last = procfs_now_ns();
	} else {
		thread_open(ps, t);
	}
	return t;
}

static struct pt_thread *
add_thread(struct ptsample *ps, pid_t tid, pid_t pid, int started)
{
	return add_thread_as(ps, tid, pid, started, 0);
}

/* Opens a fresh thread's /proc files, at its first tick. */
static void
open_lazy(struct ptsample *ps, struct pt_thread *t)
{
	if (!t->lazy)
		return;
	t->lazy = 0;
	t->schedfd = procfs_task_open(t->pid, t->tid, "schedstat");
	t->statfd = procfs_task_open(t->pid, t->tid, "stat");
	t->sysfd = ps->opts.wall ?
	    procfs_task_open(t->pid, t->tid, "syscall") : -1;
}

/* Whether an interrupt was sent to t and its stop has not been seen. */
static int
interrupted(const struct pt_thread *t)
{
	return t->state == PT_INTERRUPTED || t->state == PT_AWAITED;
}

/* Stops waiting for an interrupted thread's stop: it is free again. */
static void
unpend(struct ptsample *ps, struct pt_thread *t)
{
	if (t->state == PT_AWAITED && ps->nfast > 0)
		ps->nfast--;
	if (interrupted(t))
		t->state = PT_FREE;
}

/* Forgets a thread that was reaped or replaced (the table stays dense). */
static void
drop_thread(struct ptsample *ps, struct pt_thread *t)
{
	unpend(ps, t);
	close_proc(t);
	if (t->keep != NULL)
		ps->keep_bytes -= ps->opts.stack_size;
	free(t->keep);
	*t = ps->threads[--ps->nthreads];
}

int
ptsample_live(const struct ptsample *ps)
{
	return ps->nthreads > 0;
}

/* ---- seizing ---- */

/*
 * Not PTRACE_O_TRACECLONE: a clone event would stop the thread that
 * creates a thread, and hold it until the tracer lets it go, at every
 * thread (seven times slower to create, and that time is the tracer's,
 * not the program's). New threads are found at each tick instead
 * (adopt()); a fork or vfork still stops, since the new process must be
 * traced before it runs.
 */
#define SEIZE_OPTS	(PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | \
			 PTRACE_O_TRACEEXEC)

/* Seizes every thread of pid, until a pass finds no new one. */
static int
seize_all(struct ptsample *ps, pid_t pid)
{
	struct procfs_walk w;
	pid_t tid;
	int found, any = 0, e = ESRCH;

	do {
		if (procfs_walk_tasks(&w, pid) != 0)
			break;
		found = 0;
		while ((tid = procfs_walk_next(&w)) > 0) {
			if (find(ps, tid))
				continue;
			if (ptrace(PTRACE_SEIZE, tid, 0, SEIZE_OPTS) != 0) {
				if (errno != ESRCH)
					e = errno;
				continue;
			}
			add_thread(ps, tid, pid, 1);
			found = any = 1;
		}
		procfs_walk_release(&w);
	} while (found);
	if (!any) {
		errno = e;
		return -1;
	}
	return 0;
}

int
ptsample_add(struct ptsample *ps, pid_t pid, int launched)
{
	if (!launched)
		return seize_all(ps, pid);
	if (ptrace(PTRACE_SEIZE, pid, 0, SEIZE_OPTS) != 0)
		return -1;
	ps->child = pid;
	add_thread(ps, pid, pid, 0);
	return 0;
}

/* ---- taking a sample from a stopped thread ---- */

static void
regs_to_dwarf(const struct user_regs_struct *u, uint64_t *d)
{
	d[0] = u->rax;
	d[1] = u->rdx;
	d[2] = u->rcx;
	d[3] = u->rbx;
	d[4] = u->rsi;
	d[5] = u->rdi;
	d[6] = u->rbp;
	d[7] = u->rsp;
	d[8] = u->r8;
	d[9] = u->r9;
	d[10] = u->r10;
	d[11] = u->r11;
	d[12] = u->r12;
	d[13] = u->r13;
	d[14] = u->r14;
	d[15] = u->r15;
	d[16] = u->rip;
}

/* The next free sample buffer (flush hands them on). */
static struct pt_sbuf *
sbuf_next(struct ptsample *ps)
{
	if (ps->nready == ps->nsbufs) {
		GROW(ps->sbufs, ps->nsbufs + 1, ps->sbufs_cap);
		ps->sbufs[ps->nsbufs].stack = xmalloc(ps->opts.stack_size + 8);
		ps->nsbufs++;
	}
	return &ps->sbufs[ps->nready];
}

/*
 * Completes sample buffer b of thread t, whose registers and stack are
 * in it, taken at now: the period is the CPU time it stands for (whole
 * periods of credit), or in wall mode the time since the thread's last
 * sample.
 */
static void
ready(struct ptsample *ps, struct pt_thread *t, struct pt_sbuf *b,
    uint64_t now)
{
	uint64_t n;

	b->s.pid = t->pid;
	b->s.tid = t->tid;
	b->s.cpu = t->cpu < 0 ? 0 : t->cpu;
	b->s.time = now;
	b->s.offcpu = t->offcpu;
	b->s.preempted = t->preempted;
	b->s.preemption = b->s.preempted && !t->inpre;
	t->inpre = (unsigned char)b->s.preempted;
	b->s.stack = b->stack;
	if (ps->opts.wall) {
		/* The time the sampler held it is not the program's. */
		b->s.period = now > t->last ? now - t->last : ps->period_ns;
		t->last = now;
		t->credit = t->waited = 0;
		if (t->held >= b->s.period) {
			ps->held_ns += b->s.period;
			t->held = 0;
			return;		/* held all along: no sample */
		}
		b->s.period -= t->held;
		ps->held_ns += t->held;
		t->held = 0;
		/*
		 * Found running: the time it was blocked since its last
		 * sample was not spent here; it goes to its next sample read
		 * blocked in a system call, where it waits.
		 */
		if (t->asleep_now > 0 && t->asleep_now < b->s.period) {
			b->s.period -= t->asleep_now;
			t->asleep += t->asleep_now;
		} else if (t->asleep_now == 0 && b->s.regs_valid ==
		    ((1u << UNWIND_SP) | (1u << UNWIND_RA))) {
			/* Read blocked, without a stop (peek()): it waits here. */
			b->s.period += t->asleep;
			t->asleep = 0;
		}
		t->asleep_now = 0;
		ps->wall_ns += b->s.period;
	} else {
		n = t->credit / ps->period_ns;
		if (n == 0)
			n = 1;
		b->s.period = n * ps->period_ns;
		t->credit = t->credit > b->s.period ? t->credit - b->s.period : 0;
	}
	ps->nready++;
}

/*
 * Copies the stack of process pid from sp up, at most opts.stack_size
 * bytes, into buf; returns the bytes copied (0 when none could be).
 */
static size_t
copy_stack(struct ptsample *ps, pid_t pid, uint64_t sp, unsigned char *buf)
{
	struct iovec local = { buf, ps->opts.stack_size }, remote;
	ssize_t got;

	if (ps->opts.stack_size == 0)
		return 0;
	remote.iov_base = (void *)(uintptr_t)sp;
	remote.iov_len = ps->opts.stack_size;
	got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (got < 0) {
		/* The copy ends at the first unreadable page: try less. */
		remote.iov_len = local.iov_len = 4096 - (sp & 4095);
		if (local.iov_len > ps->opts.stack_size)
			local.iov_len = remote.iov_len = ps->opts.stack_size;
		got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	}
	return got < 0 ? 0 : (size_t)got;
}

/*
 * Wall mode: keeps a copy of the stack of sample b, read of a blocked
 * thread that had run run ns and been on a CPU count times, so that
 * while it has not run since, peek() samples it again without copying
 * it again. Within KEEP_MAX bytes for all threads.
 */
static void
keep(struct ptsample *ps, struct pt_thread *t, const struct pt_sbuf *b,
    uint64_t run, uint64_t count)
{
	t->kept = 0;
	if (t->keep == NULL) {
		if (ps->keep_bytes + ps->opts.stack_size > KEEP_MAX)
			return;
		t->keep = xmalloc(ps->opts.stack_size + 8);
		ps->keep_bytes += ps->opts.stack_size;
	}
	memcpy(t->keep, b->stack, b->s.stack_len);
	t->keep_len = b->s.stack_len;
	t->keep_sp = b->s.regs[UNWIND_SP];
	t->keep_pc = b->s.regs[UNWIND_RA];
	t->keep_run = run;
	t->keep_count = count;
	t->kept = 1;
}

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
static int
peek(struct ptsample *ps, struct pt_thread *t, uint64_t now)
{
	uint64_t sp, pc, sp2, pc2, run, delay, count, run2, count2;
	struct pt_sbuf *b;

	if (read_runtime(t, &run, &delay, &count) != 0 ||
	    read_syscall(t, &sp, &pc) != 0)
		return 0;
	b = sbuf_next(ps);
	memset(b->s.regs, 0, sizeof(b->s.regs));
	b->s.regs[UNWIND_SP] = sp;
	b->s.regs[UNWIND_RA] = pc;
	b->s.regs_valid = (1u << UNWIND_SP) | (1u << UNWIND_RA);
	if (t->kept && sp == t->keep_sp && pc == t->keep_pc &&
	    run == t->keep_run && count == t->keep_count) {
		memcpy(b->stack, t->keep, t->keep_len);
		b->s.stack_len = t->keep_len;
		ready(ps, t, b, now);
		return 1;
	}
	t->kept = 0;
	b->s.stack_len = copy_stack(ps, t->pid, sp, b->stack);
	if (read_syscall(t, &sp2, &pc2) != 0 || sp2 != sp || pc2 != pc ||
	    read_runtime(t, &run2, &delay, &count2) != 0 || run2 != run ||
	    count2 != count)
		return 1;	/* it moved: no sample this time */
	keep(ps, t, b, run, count);
	ready(ps, t, b, now);
	return 1;
}

/* The system calls that end with EINTR at any stop and may be made again. */
static int
restartable(uint64_t nr)
{
	switch (nr) {
	case SYS_epoll_wait:
	case SYS_epoll_pwait:
#ifdef SYS_epoll_pwait2
	case SYS_epoll_pwait2:
#endif
	case SYS_rt_sigtimedwait:
	case SYS_io_getevents:
#ifdef SYS_io_pgetevents
	case SYS_io_pgetevents:
#endif
		return 1;
	}
	return 0;
}

/*
 * At the stop of a PTRACE_INTERRUPT (u its registers): when it came as
 * the thread entered a wait that the stop ends with EINTR, and no
 * signal the thread would take is pending, the wait is made again on
 * resume, as the kernel does for the waits it restarts itself (the pc
 * back over the syscall instruction, rax the call's number): the program
 * sees its wait go on, not end. Its timeout starts again, longer by the
 * time from its start to the stop. Returns 1 when it did so.
 */
static int
restart_wait(struct pt_thread *t, struct user_regs_struct *u)
{
	struct iovec io = { u, sizeof(*u) }, local, remote;
	struct procfs_status st;
	unsigned char insn[2];

	if ((int64_t)u->orig_rax < 0 || (int64_t)u->rax != -EINTR ||
	    u->cs != 0x33 || !restartable(u->orig_rax))
		return 0;
	if (procfs_status(t->tid, &st) != 0 ||
	    ((st.sigpnd | st.shdpnd) & ~st.sigblk) != 0)
		return 0;	/* a signal ends it, as it would bare */
	local.iov_base = insn;
	local.iov_len = remote.iov_len = sizeof(insn);
	remote.iov_base = (void *)(uintptr_t)(u->rip - 2);
	if (process_vm_readv(t->pid, &local, 1, &remote, 1, 0) != 2 ||
	    insn[0] != 0x0f || insn[1] != 0x05)
		return 0;	/* no syscall instruction before the pc */
	u->rip -= 2;
	u->rax = u->orig_rax;
	if (ptrace(PTRACE_SETREGSET, t->tid, (void *)NT_PRSTATUS, &io) != 0)
		return 0;
	return 1;
}

/*
 * Copies the stopped thread's registers and stack into a new sample.
 * intr: the stop is a PTRACE_INTERRUPT's, and a wait it ended is made
 * again.
 */
static void
take(struct ptsample *ps, struct pt_thread *t, int intr)
{
	struct user_regs_struct u;
	struct iovec io = { &u, sizeof(u) };
	struct pt_sbuf *b;
	uint64_t now = procfs_now_ns();

	if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRSTATUS, &io) != 0)
		return;		/* it is gone */
	b = sbuf_next(ps);
	regs_to_dwarf(&u, b->s.regs);
	b->s.regs_valid = (1u << UNWIND_NREGS) - 1;
	if (intr && io.iov_len == sizeof(u) && restart_wait(t, &u))
		ps->restarts++;
	b->s.stack_len = copy_stack(ps, t->pid, b->s.regs[UNWIND_SP],
	    b->stack);
	t->kept = 0;
	ready(ps, t, b, now);
}

/* Hands the samples taken on, once every thread has been let go. */
static void
flush(struct ptsample *ps)
{
	size_t i;

	for (i = 0; i < ps->nready; i++)
		if (ps->cb.sample)
			ps->cb.sample(ps->arg, &ps->sbufs[i].s);
	ps->nready = 0;
}

/* ---- ptrace events ---- */

static int
is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
	    sig == SIGTTOU;
}

static void
reaped(struct ptsample *ps, pid_t tid, int status)
{
	struct pt_thread *t = find(ps, tid);
	pid_t pid = t ? t->pid : tid;

	if (tid == ps->child && !ps->child_done) {
		ps->child_status = status;
		ps->child_done = 1;
	}
	if (t)
		drop_thread(ps, t);
	if (pid == tid && ps->cb.exit)
		ps->cb.exit(ps->arg, pid);
}

/*
 * A new task, from clone, fork or vfork (its first stop may come first).
 * ev is the parent's event (0 when the task stopped first): a fork or
 * vfork makes a process, a clone a thread of the parent's process when
 * /proc lists it among the parent's tasks; only a stop that came first
 * needs the task's status read.
 */
static void
new_task(struct ptsample *ps, pid_t tid, pid_t ppid, int started, int ev)
{
	char path[64];
	pid_t pid;
	int isnew = find(ps, tid) == NULL;

	if (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK) {
		pid = tid;
	} else if (ev == PTRACE_EVENT_CLONE) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)ppid,
		    (int)tid);
		pid = access(path, F_OK) == 0 ? ppid : tgid_of(tid);
	} else {
		pid = tgid_of(tid);
	}
	add_thread_as(ps, tid, pid, started, 1);
	if (ppid && isnew && pid == tid && ps->cb.fork)
		ps->cb.fork(ps->arg, ppid, pid);
}

/*
 * Lets the stopped thread tid run on, sig delivered, and counts the time
 * since its stop began (its SIGCHLD, or its interrupt sent) as held by
 * the sampler; keeps how many times it had been on a CPU, so that the
 * tick knows whether it has run since.
 */
static void
resume(struct ptsample *ps, pid_t tid, int sig)
{
	struct pt_thread *t;
	uint64_t now, ns, delay;

	/* Its count of times on a CPU, read while it cannot move. */
	if ((t = find(ps, tid)) != NULL && (t->schedfd < 0 ||
	    read_runtime(t, &ns, &delay, &t->resumed_count) != 0))
		t->resumed_count = ~0ULL;
	ptrace(PTRACE_CONT, tid, 0, sig);
	if (t == NULL)
		return;
	t->stops++;
	now = procfs_now_ns();
	t->resumed = now;
	if (t->held_from != 0) {
		if (now > t->held_from)
			t->held += now - t->held_from;
		t->held_from = 0;
	}
}

static void
exec_event(struct ptsample *ps, struct pt_thread *t)
{
	unsigned long former = 0;
	struct pt_thread *old;
	pid_t tid = t->tid;

	/* A thread other than the leader exec'd: it now has the leader's ID. */
	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &former) == 0 &&
	    (pid_t)former != tid && (old = find(ps, (pid_t)former)) != NULL)
		drop_thread(ps, old);
	t = find(ps, tid);
	t->pid = tid;
	t->started = 1;
	if (ps->cb.exec)
		ps->cb.exec(ps->arg, tid);
	thread_open(ps, t);
}

/*
 * A thread sent PTRACE_INTERRUPT stops for it in PTRACE_EVENT_STOP,
 * unless it traps for another reason first (a clone, an exec, a signal):
 * the kernel then drops the pending stop trap, and that other stop
 * stands for it. Either way the thread is no longer waited for;
 * otherwise a thread interrupted as it called pthread_create would be
 * waited for, and never sampled again. The sample is taken there, but
 * in wall mode only at the interrupt's own stop (intr): the other stops
 * are the tracer's (a clone event holds the thread until the tracer
 * lets it go), and a sample there would write the time spent at them
 * as the program's (its period goes to the next sample instead).
 */
static void
settle(struct ptsample *ps, struct pt_thread *t, int intr)
{
	if (!interrupted(t))
		return;
	if (t->started && (intr || !ps->opts.wall))
		take(ps, t, intr);
	unpend(ps, t);
}

/* Handles one report of waitpid. */
static void
event(struct ptsample *ps, pid_t tid, int status)
{
	struct pt_thread *t;
	int sig, ev, hold, started;
	unsigned long msg;
	pid_t ppid;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		reaped(ps, tid, status);
		return;
	}
	if (!WIFSTOPPED(status))
		return;
	if ((t = find(ps, tid)) == NULL) {
		/* An automatically attached task that stopped before its parent. */
		new_task(ps, tid, 0, 1, 0);
		t = find(ps, tid);
	}
	if (t->held_from == 0)
		t->held_from = stop_began(tid, t->resumed > t->last ?
		    t->resumed : t->last, procfs_now_ns());
	sig = WSTOPSIG(status);
	ev = status >> 16;
	switch (ev) {
	case PTRACE_EVENT_STOP:
		if (is_stop_signal(sig)) {
			/* A group-stop: it stays stopped, but for us. */
			unpend(ps, t);
			t->state = PT_GROUPSTOP;
			t->held_from = 0;	/* the program's own stop */
			ptrace(PTRACE_LISTEN, tid, 0, 0);
			return;
		}
		if (t->state == PT_GROUPSTOP)
			t->state = PT_FREE;
		hold = t->state == PT_AWAITED && ps->in_tick;
		settle(ps, t, 1);
		if (hold)
			t->state = PT_HELD;	/* let go with the others */
		if (t->state != PT_HELD)
			resume(ps, tid, 0);
		return;
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		/* The parent goes on first: it is what the program waits for. */
		settle(ps, t, 0);
		ppid = t->pid;
		started = t->started;
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) != 0)
			msg = 0;
		resume(ps, tid, 0);
		if (msg != 0)
			new_task(ps, (pid_t)msg, ppid, started, ev);
		return;
	case PTRACE_EVENT_EXEC:
		exec_event(ps, t);
		if ((t = find(ps, tid)) != NULL)
			settle(ps, t, 0);
		resume(ps, tid, 0);
		return;
	case 0:
		/* A signal on its way to the thread: deliver it. */
		settle(ps, t, 0);
		resume(ps, tid, sig);
		return;
	default:
		settle(ps, t, 0);
		resume(ps, tid, 0);
		return;
	}
}

/*
 * Takes the next report of a traced task into *status and returns its
 * ID; 0 when there is none (or a signal came), -1 when nothing is traced
 * any more. The launched command's end is only looked at (WNOWAIT), so
 * that its parent, the session, reaps it and learns its exit status;
 * after it, only the known threads are asked, one by one, because the
 * command's exit would be reported first for ever.
 */
static pid_t
next_report(struct ptsample *ps, int block, int *status)
{
	siginfo_t si;
	size_t i;
	pid_t w;

	if (ps->child_done) {
		for (i = 0; i < ps->nthreads; i++) {
			w = waitpid(ps->threads[i].tid, status, __WALL | WNOHANG);
			if (w > 0)
				return w;
			if (w < 0 && errno == ECHILD) {
				reaped(ps, ps->threads[i].tid, 0);
				return 0;
			}
		}
		return ps->nthreads ? 0 : -1;
	}
	memset(&si, 0, sizeof(si));
	if (waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | __WALL | WNOWAIT |
	    (block ? 0 : WNOHANG)) != 0)
		return errno == ECHILD ? -1 : 0;
	if (si.si_pid == 0)
		return 0;
	if (si.si_pid == ps->child && (si.si_code == CLD_EXITED ||
	    si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)) {
		reaped(ps, ps->child, si.si_code == CLD_EXITED ?
		    (si.si_status & 0xff) << 8 : si.si_status & 0x7f);
		return 0;
	}
	return waitpid(si.si_pid, status, __WALL | WNOHANG);
}

/* Handles the reports that are there; with block, waits for one first. */
static int
drain(struct ptsample *ps, int block)
{
	int status, n = 0;
	pid_t w;

	while ((w = next_report(ps, block && n == 0, &status)) > 0) {
		event(ps, w, status);
		n++;
	}
	if (w < 0) {
		/* Nothing is left to report: every thread is gone. */
		while (ps->nthreads > 0)
			reaped(ps, ps->threads[0].tid, 0);
	}
	return n;
}

/* ---- the tick ---- */

/*
 * Seizes the threads that the traced processes created since the last
 * tick (their /proc/PID/task lists them): they are sampled from this
 * tick on, and the CPU time they had is theirs. A thread that was born
 * and died between two ticks is not seen.
 */
static void
adopt(struct ptsample *ps)
{
	struct procfs_walk w;
	struct pt_thread *t;
	size_t i, n = ps->nthreads;
	pid_t pid, tid;

	for (i = 0; i < n; i++) {
		t = &ps->threads[i];
		if (t->tid != t->pid || !t->started)
			continue;
		pid = t->pid;
		if (procfs_walk_tasks(&w, pid) != 0)
			continue;
		while ((tid = procfs_walk_next(&w)) > 0) {
			if (find(ps, tid) != NULL ||
			    ptrace(PTRACE_SEIZE, tid, 0, SEIZE_OPTS) != 0)
				continue;
			t = add_thread(ps, tid, pid, 1);
			t->credit = t->runtime;
		}
		procfs_walk_release(&w);
	}
}

/*
 * Chooses the threads to sample and interrupts them: in wall mode all,
 * else those with a whole period of CPU time unsampled that are running.
 * due is the time the tick fell due: a thread let go from a stop since
 * then was, at that time, at a stop or on its way to one (the tick
 * follows the reports that came first), so where it is now says nothing
 * of where the program was; it is not sampled in this tick, and its
 * time goes to its next sample, less the time it was held.
 */
static void
tick(struct ptsample *ps, uint64_t due)
{
	size_t i, k;
	uint64_t ns, delay, count, span, now = procfs_now_ns();
	int state;

	adopt(ps);
	for (i = 0; i < ps->nthreads; i++) {
		struct pt_thread *t = &ps->threads[i];

		if (!t->started || t->state != PT_FREE)
			continue;
		open_lazy(ps, t);
		count = ~0ULL;
		if (read_runtime(t, &ns, &delay, &count) == 0) {
			if (ns > t->runtime)
				t->credit += ns - t->runtime;
			if (delay > t->rundelay)
				t->waited += delay - t->rundelay;
			t->runtime = ns;
			t->rundelay = delay;
		}
		if (t->resumed != 0 && count != ~0ULL &&
		    count == t->resumed_count) {
			/*
			 * Let go from a stop, but not on a CPU since: it waits
			 * for a CPU where the stop left it, so its next sample
			 * finds the same stack and takes this time as a wait
			 * for a CPU. Not held: on a busy machine it would wait
			 * bare too, and held time is left out.
			 */
			continue;
		}
		if (t->resumed > due)
			continue;
		if (!ps->opts.wall && t->credit < ps->period_ns)
			continue;
		state = read_state(t);
		/* 't': at a ptrace stop whose report waits: held, not sampled. */
		if (state == 0 || state == 'Z' || state == 'X' || state == 't')
			continue;
		if (!ps->opts.wall && state != 'R') {
			/* It ran, but blocks now: sample it when it runs. */
			if (t->credit > ps->period_ns)
				t->credit = ps->period_ns;
			continue;
		}
		/*
		 * Wall mode: off-CPU when it ran for less than half the time
		 * since its last sample. Its state would say 'R' for a thread
		 * that waits for a CPU, or that was let go by the last tick and
		 * has not blocked again yet.
		 */
		span = now - t->last > t->held ? now - t->last - t->held : 0;
		t->offcpu = ps->opts.wall &&
		    t->credit * 2 < span + (state == 'R' ? 0 : t->asleep);
		/*
		 * Off a CPU but not blocked: runnable now (waiting on a run
		 * queue, or just woken), or most of its time off a CPU was
		 * spent on a run queue (schedstat adds a wait when it ends).
		 * The sampler's own stops count as neither: a stopped thread
		 * is not runnable.
		 */
		t->preempted = t->offcpu && (state == 'R' ||
		    t->waited * 2 > span - t->credit);
		t->asleep_now = 0;
		if (ps->opts.wall && state == 'R') {
			/*
			 * Running: only its time on or waiting for a CPU is
			 * here, if it blocked since (else it was preempted,
			 * and schedstat counts a wait only once it ends).
			 */
			if (span > t->credit + t->waited) {
				/*
				 * Blocked: more voluntary switches than the
				 * sampler's own stops account for (a stop
				 * gives its CPU up of its own accord too).
				 */
				count = read_vcsw(t);
				if (count != ~0ULL && t->vcsw != 0 &&
				    t->vcsw != ~0ULL &&
				    count > t->vcsw + t->stops)
					t->asleep_now = span - t->credit -
					    t->waited;
				t->vcsw = count;
				t->stops = 0;
			}
			t->offcpu = t->preempted = t->waited > t->credit;
		}
		if (ps->opts.wall && (state == 'S' || state == 'D') &&
		    peek(ps, t, now))
			continue;
		t->want = (unsigned char)state;
	}
	/* Then the interrupts, back to back: a thread stopped first waits
	   for the others' stops, not for the reading of /proc too. */
	for (i = 0; i < ps->nthreads; i++) {
		struct pt_thread *t = &ps->threads[i];

		state = t->want;
		t->want = 0;
		if (state == 0 || ptrace(PTRACE_INTERRUPT, t->tid, 0, 0) != 0)
			continue;
		t->held_from = procfs_now_ns();
		/* A thread in a disk wait stops when the wait ends: no waiting. */
		if (state == 'D') {
			t->state = PT_INTERRUPTED;
		} else {
			t->state = PT_AWAITED;
			ps->nfast++;
		}
	}
	/*
	 * All are let go together once all have stopped, so that none gets
	 * a head start on the CPU; the unwinding waits until then, but not
	 * for ever: a stop that has not come in WAIT_NS is handled when it
	 * comes, and the others go on. The repeating timer breaks the
	 * blocking wait (a single one could fire just before it).
	 */
	if (ps->nfast > 0) {
		struct itimerval wake = { { 0, WAKE_US }, { 0, WAKE_US } };
		struct itimerval off = { { 0, 0 }, { 0, 0 } };
		uint64_t until = procfs_now_ns() + WAIT_NS;

		ps->in_tick = 1;
		setitimer(ITIMER_REAL, &wake, NULL);
		while (ps->nfast > 0 && (drain(ps, 1) > 0 ||
		    (!ps->child_done && procfs_now_ns() < until)))
			;
		setitimer(ITIMER_REAL, &off, NULL);
		ps->in_tick = 0;
		if (ps->nfast > 0) {
			for (k = 0; k < ps->nthreads; k++)
				if (ps->threads[k].state == PT_AWAITED)
					ps->threads[k].state = PT_INTERRUPTED;
			ps->nfast = 0;
		}
	}
	for (k = 0; k < ps->nthreads; k++)
		if (ps->threads[k].state == PT_HELD) {
			ps->threads[k].state = PT_FREE;
			resume(ps, ps->threads[k].tid, 0);
		}
	flush(ps);
}

void
ptsample_run(struct ptsample *ps, int timeout_ms)
{
	uint64_t now = procfs_now_ns(), end = now + (uint64_t)timeout_ms * 1000000ULL;

	if (ps->next_tick == 0)
		ps->next_tick = now + ps->period_ns;
	while (ps->nthreads > 0) {
		struct timespec ts;
		uint64_t wake;

		drain(ps, 0);
		flush(ps);
		now = procfs_now_ns();
		if (now >= ps->next_tick) {
			tick(ps, ps->next_tick);
			ps->next_tick += ps->period_ns;
			/* Behind by more than a period: start again from now. */
			if (ps->next_tick < now)
				ps->next_tick = now + ps->period_ns;
			continue;
		}
		if (now >= end)
			break;
		wake = ps->next_tick;
		if (wake > now + POLL_NS)
			wake = now + POLL_NS;
		if (wake > end)
			wake = end;
		ts.tv_sec = (time_t)(wake / NS);
		ts.tv_nsec = (long)(wake % NS);
		/* A tracee's stop (SIGCHLD) is handled at once; else return. */
		if (trapped) {
			int why = trapped;

			trapped = 0;
			if (why != 1)
				break;
			continue;
		}
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
		    EINTR && trapped != 1)
			break;
	}
}

/* ---- letting go ---- */

/* Detaches the stopped thread t (w its report), and forgets it. */
static void
let_go(struct ptsample *ps, struct pt_thread *t, int status)
{
	int ev = status >> 16;
	unsigned long msg;

	/* A task created meanwhile is traced too: it must be let go as well. */
	if ((ev == PTRACE_EVENT_CLONE || ev == PTRACE_EVENT_FORK ||
	    ev == PTRACE_EVENT_VFORK) &&
	    ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg) == 0 &&
	    find(ps, (pid_t)msg) == NULL) {
		pid_t tid = t->tid;

		add_thread(ps, (pid_t)msg, tgid_of((pid_t)msg), 0);
		ptrace(PTRACE_INTERRUPT, (pid_t)msg, 0, 0);
		t = find(ps, tid);
	}
	/* A wait that the interrupt ended goes on, as in take(). */
	if (ev == PTRACE_EVENT_STOP && !is_stop_signal(WSTOPSIG(status))) {
		struct user_regs_struct u;
		struct iovec io = { &u, sizeof(u) };

		if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRSTATUS,
		    &io) == 0 && io.iov_len == sizeof(u) && restart_wait(t, &u))
			ps->restarts++;
	}
	/* A signal on its way is handed on; a group-stop stays stopped. */
	ptrace(PTRACE_DETACH, t->tid, 0, ev == 0 ? WSTOPSIG(status) : 0);
	drop_thread(ps, t);
}

void
ptsample_detach(struct ptsample *ps)
{
	uint64_t give_up = procfs_now_ns() + NS;
	size_t i;

	flush(ps);
	/*
	 * A tracee can only be detached while stopped: interrupt them all,
	 * and detach each as it stops. One that does not stop within a
	 * second (a long disk wait) is let go by the kernel when this
	 * process exits. Only the known threads are waited for: the
	 * launched command's end is its parent's to reap.
	 */
	for (i = 0; i < ps->nthreads; i++)
		ptrace(PTRACE_INTERRUPT, ps->threads[i].tid, 0, 0);
	while (ps->nthreads > 0 && procfs_now_ns() < give_up) {
		int status, any = 0;

		for (i = 0; i < ps->nthreads; ) {
			struct pt_thread *t = &ps->threads[i];
			pid_t w = waitpid(t->tid, &status, __WALL | WNOHANG);

			if (w < 0 && errno == EINTR)
				continue;
			if (w == 0) {
				i++;
				continue;
			}
			any = 1;
			if (w < 0 || WIFEXITED(status) || WIFSIGNALED(status))
				drop_thread(ps, t);
			else
				let_go(ps, t, status);
		}
		if (!any) {
			struct timespec ts = { 0, 200000 };

			nanosleep(&ts, NULL);
		}
	}
	while (ps->nthreads > 0)
		drop_thread(ps, &ps->threads[0]);
}

void
ptsample_release(struct ptsample *ps)
{
	size_t i;

	ptsample_detach(ps);
	for (i = 0; i < ps->nsbufs; i++)
		free(ps->sbufs[i].stack);
	free(ps->sbufs);
	free(ps->threads);
	memset(ps, 0, sizeof(*ps));
}
