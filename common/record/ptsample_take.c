/*
 * ptsample_take: taking a sample from a stopped thread: its registers,
 * its user stack, and the stacks kept for threads blocked in a system
 * call (wall mode).
 */
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/procfs.h"
#include "base/xalloc.h"
#include "record/ptsample_impl.h"

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
	struct pt_sbuf *b;

	if (ps->nready == ps->nsbufs) {
		GROW(ps->sbufs, ps->nsbufs + 1, ps->sbufs_cap);
		b = &ps->sbufs[ps->nsbufs];
		memset(b, 0, sizeof(*b));
		b->stack = xmalloc(ps->opts.stack_size + 8);
		ps->nsbufs++;
	}
	b = &ps->sbufs[ps->nready];
	b->s.more = NULL;
	return b;
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
			/* Read blocked, without a stop (pt_peek()): it waits here. */
			b->s.period += t->asleep;
			t->asleep = 0;
		}
		t->asleep_now = 0;
		ps->wall_ns += b->s.period;
	} else if (!ps->opts.fixed) {
		/*
		 * Random ticks: a sample stands for a period (coin), or for
		 * all the whole periods owed when the coin could not keep up:
		 * on a busy machine the sampler's ticks come late or not at
		 * all (a thread beside CI got 259 samples for 510 periods of
		 * CPU time), and the time it ran unsampled goes to this random
		 * moment, as at fixed ticks (source_ptrace splits it). The
		 * coin leaves a debt of about 3 periods (one standard
		 * deviation) when it keeps up: 8 is behind.
		 */
		n = t->owed >= (int64_t)(8 * ps->period_ns) ?
		    (uint64_t)t->owed / ps->period_ns : 1;
		b->s.period = n * ps->period_ns;
		t->owed -= (int64_t)b->s.period;
		t->credit = t->credit > b->s.period ? t->credit - b->s.period : 0;
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
 * while it has not run since, pt_peek() samples it again without copying
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
int
pt_peek(struct ptsample *ps, struct pt_thread *t, uint64_t now)
{
	uint64_t sp, pc, sp2, pc2, run, delay, count, run2, count2;
	struct pt_sbuf *b;

	if (pt_read_runtime(t, &run, &delay, &count) != 0 ||
	    pt_read_syscall(t, &sp, &pc) != 0)
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
	if (pt_read_syscall(t, &sp2, &pc2) != 0 || sp2 != sp || pc2 != pc ||
	    pt_read_runtime(t, &run2, &delay, &count2) != 0 || run2 != run ||
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
int
pt_restart_wait(struct pt_thread *t, struct user_regs_struct *u)
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
 * The stopped thread t's sample b, whose copy ran out before its stack
 * did: walked now (cb.walk), reading on in its stack as the walk asks
 * (within its stack mapping), and what it read kept with the sample.
 */
static void
walk_stopped(struct ptsample *ps, struct pt_thread *t, struct pt_sbuf *b)
{
	if (ps->cb.walk == NULL || ps->opts.stack_size == 0 ||
	    b->s.stack_len < ps->opts.stack_size ||
	    livestack_begin(&ps->live, t->pid, t->tid,
	    b->s.regs[UNWIND_SP] + b->s.stack_len) != 0)
		return;
	b->s.pid = t->pid;
	b->s.tid = t->tid;
	b->s.stack = b->stack;
	ps->cb.walk(ps->arg, &b->s, livestack_read, &ps->live);
	ps->walks++;
	if (livestack_keep(&ps->live, &b->more) > 0)
		b->s.more = &b->more;
}

/*
 * Copies the stopped thread's registers and stack into a new sample.
 * intr: the stop is a PTRACE_INTERRUPT's, and a wait it ended is made
 * again.
 */
void
pt_take(struct ptsample *ps, struct pt_thread *t, int intr)
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
	if (intr && io.iov_len == sizeof(u) && pt_restart_wait(t, &u))
		ps->restarts++;
	b->s.stack_len = copy_stack(ps, t->pid, b->s.regs[UNWIND_SP],
	    b->stack);
	walk_stopped(ps, t, b);
	t->kept = 0;
	ready(ps, t, b, now);
}

/* Hands the samples taken on, once every thread has been let go. */
void
pt_flush(struct ptsample *ps)
{
	size_t i;

	for (i = 0; i < ps->nready; i++)
		if (ps->cb.sample)
			ps->cb.sample(ps->arg, &ps->sbufs[i].s);
	ps->nready = 0;
}

