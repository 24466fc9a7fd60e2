/*
 * ptsample_thread: the ptrace sampler's table of threads, and what it
 * reads of each in /proc (its CPU time, state, system call, switches).
 */
#include <errno.h>
#include <limits.h>
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

#include "base/num.h"
#include "base/procfs.h"
#include "base/xalloc.h"
#include "record/ptsample_impl.h"

/* ---- the thread table ---- */

struct pt_thread *
pt_find(struct ptsample *ps, pid_t tid)
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

/* A field of the syscall file, "0x7ffd2f1c8a40": 0 and *v, or -1. */
static int
syscall_hex(const char *f, uint64_t *v)
{
	if (f[0] == '0' && f[1] == 'x')
		f += 2;
	return num_x64(f, strlen(f), v, NULL) == NUM_OK ? 0 : -1;
}

/*
 * Reads the user stack pointer and pc of a thread blocked in a system
 * call, the last two fields of its syscall file ("NR ARGS... SP PC");
 * returns -1 when it runs, is not in a system call, or cannot be read.
 */
int
pt_read_syscall(struct pt_thread *t, uint64_t *sp, uint64_t *pc)
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
	return syscall_hex(f[7], sp) == 0 && syscall_hex(f[8], pc) == 0 ? 0 : -1;
}

/*
 * Reads the thread's CPU time and the time it waited on a run queue, in
 * ns, and how many times it has been put on a CPU (schedstat's three
 * fields; count may be NULL); returns 0, or -1 when it cannot.
 */
int
pt_read_runtime(struct pt_thread *t, uint64_t *ns, uint64_t *delay,
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
int
pt_read_state(struct pt_thread *t)
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
uint64_t
pt_read_vcsw(const struct pt_thread *t)
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
pid_t
pt_tgid_of(pid_t tid)
{
	struct procfs_status st;

	if (procfs_status(tid, &st) != 0 || st.tgid <= 0)
		return tid;
	return st.tgid;
}

void
pt_thread_open(struct ptsample *ps, struct pt_thread *t)
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
	if (pt_read_runtime(t, &ns, &delay, NULL) == 0) {
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
struct pt_thread *
pt_add_thread_as(struct ptsample *ps, pid_t tid, pid_t pid, int started,
    int fresh)
{
	struct pt_thread *t;

	if ((t = pt_find(ps, tid)) != NULL)
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
		pt_thread_open(ps, t);
	}
	return t;
}

struct pt_thread *
pt_add_thread(struct ptsample *ps, pid_t tid, pid_t pid, int started)
{
	return pt_add_thread_as(ps, tid, pid, started, 0);
}

/* Opens a fresh thread's /proc files, at its first tick. */
void
pt_open_lazy(struct ptsample *ps, struct pt_thread *t)
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
int
pt_interrupted(const struct pt_thread *t)
{
	return t->state == PT_INTERRUPTED || t->state == PT_AWAITED;
}

/* Stops waiting for an interrupted thread's stop: it is free again. */
void
pt_unpend(struct ptsample *ps, struct pt_thread *t)
{
	if (t->state == PT_AWAITED && ps->nfast > 0)
		ps->nfast--;
	if (pt_interrupted(t))
		t->state = PT_FREE;
}

/* Forgets a thread that was reaped or replaced (the table stays dense). */
void
pt_drop_thread(struct ptsample *ps, struct pt_thread *t)
{
	pt_unpend(ps, t);
	close_proc(t);
	livestack_forget(&ps->live, t->pid, t->tid);
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

