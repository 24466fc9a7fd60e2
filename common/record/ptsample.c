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
#include "record/ptsample_impl.h"
#include "base/xalloc.h"

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
	livestack_init(&ps->live);
	ps->live.step = 4096;
	ps->period_ns = NS / ps->opts.freq;
	if (ps->period_ns == 0)
		ps->period_ns = 1;
	jitter_init(&ps->rng);
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
			if (pt_find(ps, tid))
				continue;
			if (ptrace(PTRACE_SEIZE, tid, 0, SEIZE_OPTS) != 0) {
				if (errno != ESRCH)
					e = errno;
				continue;
			}
			pt_add_thread(ps, tid, pid, 1);
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
	pt_add_thread(ps, pid, pid, 0);
	return 0;
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
	struct pt_thread *t = pt_find(ps, tid);
	pid_t pid = t ? t->pid : tid;

	if (tid == ps->child && !ps->child_done) {
		ps->child_status = status;
		ps->child_done = 1;
	}
	if (t)
		pt_drop_thread(ps, t);
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
	int isnew = pt_find(ps, tid) == NULL;

	if (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK) {
		pid = tid;
	} else if (ev == PTRACE_EVENT_CLONE) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)ppid,
		    (int)tid);
		pid = access(path, F_OK) == 0 ? ppid : pt_tgid_of(tid);
	} else {
		pid = pt_tgid_of(tid);
	}
	pt_add_thread_as(ps, tid, pid, started, 1);
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
	if ((t = pt_find(ps, tid)) != NULL && (t->schedfd < 0 ||
	    pt_read_runtime(t, &ns, &delay, &t->resumed_count) != 0))
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
	    (pid_t)former != tid && (old = pt_find(ps, (pid_t)former)) != NULL)
		pt_drop_thread(ps, old);
	t = pt_find(ps, tid);
	t->pid = tid;
	t->started = 1;
	if (ps->cb.exec)
		ps->cb.exec(ps->arg, tid);
	pt_thread_open(ps, t);
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
	if (!pt_interrupted(t))
		return;
	if (t->started && (intr || !ps->opts.wall))
		pt_take(ps, t, intr);
	pt_unpend(ps, t);
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
	if ((t = pt_find(ps, tid)) == NULL) {
		/* An automatically attached task that stopped before its parent. */
		new_task(ps, tid, 0, 1, 0);
		t = pt_find(ps, tid);
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
			pt_unpend(ps, t);
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
		if ((t = pt_find(ps, tid)) != NULL)
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
			if (pt_find(ps, tid) != NULL ||
			    ptrace(PTRACE_SEIZE, tid, 0, SEIZE_OPTS) != 0)
				continue;
			t = pt_add_thread(ps, tid, pid, 1);
			t->credit = t->runtime;
		}
		procfs_walk_release(&w);
	}
}

/*
 * Random ticks: whether to sample t, running at this tick. Its CPU time
 * (schedstat's) is not counted as it runs, only when the scheduler looks
 * (its tick, every 4 ms at 250 Hz; a switch; the thread reading its own
 * CPU clock): sampling a thread once it has run a period (fixed ticks)
 * samples it just after those moments, and a program that reads its
 * clock or blocks at the end of each round of its work gets its samples
 * at the start of the rounds (the first function of six in rounds of two
 * periods had twice its share). So a running thread is sampled at a tick
 * by the toss of a coin, which lands anywhere in its work: heads half
 * the time, since ticks come twice a period, more or less by its CPU
 * time not sampled yet (owed), so that it gets a sample a period of CPU
 * time as before, but no more than a sixteenth more or less for each
 * period owed.
 */
static int
coin(struct ptsample *ps, struct pt_thread *t)
{
	if (t->owed > (int64_t)(32 * ps->period_ns))
		t->owed = (int64_t)(32 * ps->period_ns);
	return jitter_coin(&ps->rng, 0.5 * (1 + (double)t->owed /
	    (32.0 * (double)ps->period_ns)));
}

/*
 * Reads t's CPU time and run-queue wait (schedstat) since the last
 * tick into its credit, what it is owed and its wait. Sets *count to
 * its schedstat count of times on a CPU, or ~0 when unread.
 */
static void
account(struct pt_thread *t, uint64_t *count)
{
	uint64_t ns, delay;

	*count = ~0ULL;
	if (pt_read_runtime(t, &ns, &delay, count) != 0)
		return;
	if (ns > t->runtime) {
		t->credit += ns - t->runtime;
		t->owed += (int64_t)(ns - t->runtime);
	}
	if (delay > t->rundelay)
		t->waited += delay - t->rundelay;
	t->runtime = ns;
	t->rundelay = delay;
}

/*
 * Wall mode: where t, in state (its /proc letter), spent its time since
 * its last sample (now): off-CPU when it ran for less than half of it,
 * preempted when most of that was a wait for a CPU, asleep_now when a
 * running thread blocked since.
 */
static void
wall_where(struct pt_thread *t, int state, uint64_t now)
{
	uint64_t count, span;

	/*
	 * Off-CPU when it ran for less than half the time since its last
	 * sample. Its state would say 'R' for a thread that waits for a
	 * CPU, or that was let go by the last tick and has not blocked
	 * again yet.
	 */
	span = now - t->last > t->held ? now - t->last - t->held : 0;
	t->offcpu = t->credit * 2 < span + (state == 'R' ? 0 : t->asleep);
	/*
	 * Off a CPU but not blocked: runnable now (waiting on a run queue,
	 * or just woken), or most of its time off a CPU was spent on a run
	 * queue (schedstat adds a wait when it ends). The sampler's own
	 * stops count as neither: a stopped thread is not runnable.
	 */
	t->preempted = t->offcpu && (state == 'R' ||
	    t->waited * 2 > span - t->credit);
	t->asleep_now = 0;
	if (state != 'R')
		return;
	/*
	 * Running: only its time on or waiting for a CPU is here, if it
	 * blocked since (else it was preempted, and schedstat counts a
	 * wait only once it ends).
	 */
	if (span > t->credit + t->waited) {
		/*
		 * Blocked: more voluntary switches than the sampler's own
		 * stops account for (a stop gives its CPU up of its own
		 * accord too).
		 */
		count = pt_read_vcsw(t);
		if (count != ~0ULL && t->vcsw != 0 && t->vcsw != ~0ULL &&
		    count > t->vcsw + t->stops)
			t->asleep_now = span - t->credit - t->waited;
		t->vcsw = count;
		t->stops = 0;
	}
	t->offcpu = t->preempted = t->waited > t->credit;
}

/*
 * Whether to sample t (free, started) at this tick: its state letter
 * to interrupt it, or 0. In wall mode every thread, else one with a
 * whole period of CPU time unsampled that is running (at random ticks,
 * one a coin chooses: coin). due is the time the tick fell due: a
 * thread let go from a stop since then was, at that time, at a stop or
 * on its way to one (the tick follows the reports that came first), so
 * where it is now says nothing of where the program was; it is not
 * sampled in this tick, and its time goes to its next sample, less the
 * time it was held.
 */
static int
choose(struct ptsample *ps, struct pt_thread *t, uint64_t due, uint64_t now)
{
	uint64_t count;
	int state;

	pt_open_lazy(ps, t);
	account(t, &count);
	if (t->resumed != 0 && count != ~0ULL && count == t->resumed_count) {
		/*
		 * Let go from a stop, but not on a CPU since: it waits for a
		 * CPU where the stop left it, so its next sample finds the
		 * same stack and takes this time as a wait for a CPU. Not
		 * held: on a busy machine it would wait bare too, and held
		 * time is left out.
		 */
		return 0;
	}
	if (t->resumed > due)
		return 0;
	if (!ps->opts.wall && ps->opts.fixed && t->credit < ps->period_ns)
		return 0;
	state = pt_read_state(t);
	/* 't': at a ptrace stop whose report waits: held, not sampled. */
	if (state == 0 || state == 'Z' || state == 'X' || state == 't')
		return 0;
	if (!ps->opts.wall && state != 'R') {
		/* It ran, but blocks now: sample it when it runs. */
		if (t->credit > ps->period_ns)
			t->credit = ps->period_ns;
		return 0;
	}
	if (!ps->opts.wall && !ps->opts.fixed && !coin(ps, t))
		return 0;
	if (!ps->opts.wall) {
		t->offcpu = t->preempted = 0;
		t->asleep_now = 0;
		return state;
	}
	wall_where(t, state, now);
	if ((state == 'S' || state == 'D') && pt_peek(ps, t, now))
		return 0;
	return state;
}

/*
 * Interrupts the chosen threads (their want), back to back: a thread
 * stopped first waits for the others' stops, not for the reading of
 * /proc too.
 */
static void
interrupt_chosen(struct ptsample *ps)
{
	struct pt_thread *t;
	size_t i;
	int state;

	for (i = 0; i < ps->nthreads; i++) {
		t = &ps->threads[i];
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
}

/*
 * Waits for the interrupted threads' stops, so that all are let go
 * together and none gets a head start on the CPU; the unwinding waits
 * until then, but not for ever: a stop that has not come in WAIT_NS is
 * handled when it comes, and the others go on. The repeating timer
 * breaks the blocking wait (a single one could fire just before it).
 */
static void
await_stops(struct ptsample *ps)
{
	struct itimerval wake = { { 0, WAKE_US }, { 0, WAKE_US } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	uint64_t until = procfs_now_ns() + WAIT_NS;
	size_t k;

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

/* Lets go together the threads held at their stops. */
static void
release_held(struct ptsample *ps)
{
	size_t k;

	for (k = 0; k < ps->nthreads; k++)
		if (ps->threads[k].state == PT_HELD) {
			ps->threads[k].state = PT_FREE;
			resume(ps, ps->threads[k].tid, 0);
		}
}

/*
 * One tick: adopts new threads, chooses the ones to sample (choose),
 * interrupts them, waits for their stops and lets them go together.
 */
static void
tick(struct ptsample *ps, uint64_t due)
{
	struct pt_thread *t;
	uint64_t now = procfs_now_ns();
	size_t i;

	adopt(ps);
	for (i = 0; i < ps->nthreads; i++) {
		t = &ps->threads[i];
		if (t->started && t->state == PT_FREE)
			t->want = (unsigned char)choose(ps, t, due, now);
	}
	interrupt_chosen(ps);
	if (ps->nfast > 0)
		await_stops(ps);
	release_held(ps);
	pt_flush(ps);
}

/*
 * The time to the next tick: the period, or an interval drawn around it.
 * The ticks are in wall time, and a thread is sampled at the first tick
 * after it ran a period's CPU time: at fixed ticks, a busy thread is
 * sampled at the same points of a round whose length is a multiple of
 * the period (the ticks fall into step with it); at random ones, its
 * samples land anywhere, and each still stands for a period of CPU time
 * (pt_take), so that their count keeps its meaning.
 *
 * Random ticks come twice a period on average, between a quarter and
 * three quarters of one: at a period on average, a busy thread would
 * have run two periods since its last sample at one tick in eight (its
 * credit and a long interval), written as two samples at one point,
 * which spread a function's count between runs 1.3 to 1.5 times as
 * much as independent samples do. A thread stopped once per period of
 * its CPU time still is; a tick that finds none due reads each thread's
 * schedstat and stops none. In wall mode every thread is sampled at
 * every tick: a period on average.
 */
static uint64_t
tick_interval(struct ptsample *ps)
{
	if (ps->opts.fixed)
		return ps->period_ns;
	if (ps->opts.wall)
		return jitter_draw(&ps->rng, ps->period_ns, 1);
	return jitter_draw(&ps->rng, ps->period_ns / 2, 1);
}

void
ptsample_run(struct ptsample *ps, int timeout_ms)
{
	uint64_t now = procfs_now_ns(), end = now + (uint64_t)timeout_ms * 1000000ULL;

	if (ps->next_tick == 0)
		ps->next_tick = now + tick_interval(ps);
	while (ps->nthreads > 0) {
		struct timespec ts;
		uint64_t wake;

		drain(ps, 0);
		pt_flush(ps);
		now = procfs_now_ns();
		if (now >= ps->next_tick) {
			/*
			 * A tick late (the sampler waited for a CPU or a
			 * disk): the time since the last goes to where each
			 * thread is now. Counted, for the summary to say.
			 */
			ps->ticks++;
			if (now - ps->next_tick > ps->period_ns)
				ps->late_ticks++;
			if (now - ps->next_tick > ps->late_max_ns)
				ps->late_max_ns = now - ps->next_tick;
			tick(ps, ps->next_tick);
			ps->next_tick += tick_interval(ps);
			/* Behind by more than a period: start again from now. */
			if (ps->next_tick < now)
				ps->next_tick = now + tick_interval(ps);
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
	    pt_find(ps, (pid_t)msg) == NULL) {
		pid_t tid = t->tid;

		pt_add_thread(ps, (pid_t)msg, pt_tgid_of((pid_t)msg), 0);
		ptrace(PTRACE_INTERRUPT, (pid_t)msg, 0, 0);
		t = pt_find(ps, tid);
	}
	/* A wait that the interrupt ended goes on, as in pt_take(). */
	if (ev == PTRACE_EVENT_STOP && !is_stop_signal(WSTOPSIG(status))) {
		struct user_regs_struct u;
		struct iovec io = { &u, sizeof(u) };

		if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRSTATUS,
		    &io) == 0 && io.iov_len == sizeof(u) && pt_restart_wait(t, &u))
			ps->restarts++;
	}
	/* A signal on its way is handed on; a group-stop stays stopped. */
	ptrace(PTRACE_DETACH, t->tid, 0, ev == 0 ? WSTOPSIG(status) : 0);
	pt_drop_thread(ps, t);
}

void
ptsample_detach(struct ptsample *ps)
{
	uint64_t give_up = procfs_now_ns() + NS;
	size_t i;

	pt_flush(ps);
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
				pt_drop_thread(ps, t);
			else
				let_go(ps, t, status);
		}
		if (!any) {
			struct timespec ts = { 0, 200000 };

			nanosleep(&ts, NULL);
		}
	}
	while (ps->nthreads > 0)
		pt_drop_thread(ps, &ps->threads[0]);
}

void
ptsample_release(struct ptsample *ps)
{
	size_t i;

	ptsample_detach(ps);
	for (i = 0; i < ps->nsbufs; i++) {
		free(ps->sbufs[i].stack);
		livestack_pieces_release(&ps->sbufs[i].more);
	}
	free(ps->sbufs);
	livestack_release(&ps->live);
	free(ps->threads);
	memset(ps, 0, sizeof(*ps));
}
