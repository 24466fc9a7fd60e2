/*
 * source_ptrace: the sampler behind --sampler=ptrace, for where
 * perf_event_open is refused. ptsample stops the threads and copies
 * their registers and stacks; this file turns what it sees into source
 * events: samples (cpu-clock, or offcpu-time for a blocked thread in
 * wall mode), and the names, mappings, forks, execs and exits that perf
 * would report in its side band, read from /proc instead.
 *
 * A stack deeper than the copy is walked while its thread is stopped
 * (on_walk), with mappings and unwind tables of this file's own: the
 * session's are fed by the events queued here, which it reads only after
 * the threads are let go. What the walk read goes with the sample, for
 * the session's walk to read where the copy ends.
 *
 * No kernel stacks: a ptrace stop happens on the way back to user space.
 * The mappings of a process are read at its exec and again at its first
 * sample (and at the next, while a sample finds the dynamic linker at
 * work: it loads libraries), when a
 * sample's pc is in none of those known (a library just loaded), and
 * every 50 ms while it is sampled; they are sent again only when they
 * changed.
 */
#include <elf.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/procfs.h"
#include "record/maps.h"
#include "record/ptsample.h"
#include "record/source.h"
#include "record/unwind.h"
#include "base/xalloc.h"

#define REREAD_NS	50000000ULL	/* mappings read again at most this often */
#define UNKNOWN_NS	5000000ULL	/* ... or this often for an unknown pc */
#define FP_MAX		127		/* frames of a frame-pointer walk */
#define K_MAX		1000		/* samples one stop may stand for */
#define LATE_SAY	10		/* ticks this many periods late are said */

/* A queued event with the memory it points to. */
struct qev {
	struct source_event ev;
	void		*own;		/* owned: stack, path or name */
	uint64_t	*chain;		/* owned: fp callchain */
	struct livestack_pieces *more;	/* owned: read beyond the stack */
};

/* What is known of a traced process's executable mappings. */
struct pproc {
	pid_t		 pid;
	uint64_t	 hash;		/* of its maps file's executable lines */
	uint64_t	 read_at;	/* CLOCK_MONOTONIC ns */
	int		 again;		/* read them at the next sample */
	uint64_t	 at_base;	/* the dynamic linker's load address */
	uint64_t	 interp[2];	/* and its code: [start, end) */
	uint64_t	(*ranges)[2];	/* owned: [start, end) */
	size_t		 n;
};

struct ptsrc {
	struct ptsample	 ps;
	struct source	*src;		/* borrowed: the source it is */
	struct source_config cfg;
	int		 wall;
	int		 disabled;
	uint64_t	 period_ns;	/* the sampling period */
	struct qev	*q;		/* owned: a FIFO, q[head..nq) pending */
	size_t		 head, nq, qcap;
	struct pproc	*procs;		/* owned */
	size_t		 nprocs, procs_cap;
	pid_t		*named;		/* owned: threads whose name was sent */
	size_t		 nnamed, named_cap;
	/* The walks of stopped threads (on_walk): their own mappings. */
	struct maps	 wmaps;
	struct unwind	 wunwind;
	uint64_t	*wpcs;		/* owned: cfg.max_depth frames */
	pid_t		 wpid;		/* the process whose mappings were */
	uint64_t	 wread_at;	/* read last, at this time */
};

static struct qev *
push(struct ptsrc *p, enum source_kind kind, pid_t pid, pid_t tid)
{
	struct qev *e;

	if (p->head > 0 && p->head == p->nq)
		p->head = p->nq = 0;
	GROW(p->q, p->nq + 1, p->qcap);
	e = &p->q[p->nq++];
	memset(e, 0, sizeof(*e));
	e->ev.kind = kind;
	e->ev.pid = pid;
	e->ev.tid = tid;
	e->ev.time = procfs_now_ns();
	return e;
}

/* ---- names and mappings, from /proc ---- */

static void
send_comm(struct ptsrc *p, pid_t pid, pid_t tid, int exec)
{
	char buf[64];
	struct qev *e;

	procfs_comm(pid, tid, buf, sizeof(buf));
	if (buf[0] == '\0' && !exec)
		return;
	e = push(p, SOURCE_COMM, pid, tid);
	e->own = xstrdup(buf);
	e->ev.u.comm.name = e->own;
	e->ev.u.comm.exec = exec;
}

/* Sends tid's name before its first sample: by then it has named itself. */
static void
name_once(struct ptsrc *p, pid_t pid, pid_t tid)
{
	size_t i;

	for (i = 0; i < p->nnamed; i++)
		if (p->named[i] == tid)
			return;
	GROW(p->named, p->nnamed + 1, p->named_cap);
	p->named[p->nnamed++] = tid;
	send_comm(p, pid, tid, 0);
}

static void
forget_names(struct ptsrc *p, pid_t pid)
{
	size_t i;

	for (i = 0; i < p->nnamed; )
		if (p->named[i] == pid)
			p->named[i] = p->named[--p->nnamed];
		else
			i++;
}

static struct pproc *
proc_get(struct ptsrc *p, pid_t pid)
{
	size_t i;

	for (i = 0; i < p->nprocs; i++)
		if (p->procs[i].pid == pid)
			return &p->procs[i];
	GROW(p->procs, p->nprocs + 1, p->procs_cap);
	memset(&p->procs[p->nprocs], 0, sizeof(p->procs[0]));
	p->procs[p->nprocs].pid = pid;
	return &p->procs[p->nprocs++];
}

static void
proc_drop(struct ptsrc *p, pid_t pid)
{
	size_t i;

	for (i = 0; i < p->nprocs; i++)
		if (p->procs[i].pid == pid) {
			free(p->procs[i].ranges);
			p->procs[i] = p->procs[--p->nprocs];
			return;
		}
}

/*
 * Reads pid's maps file and, when its executable mappings changed since
 * the last time (or force), sends every one of them.
 */
static void
read_maps(struct ptsrc *p, struct pproc *pp, int force)
{
	struct procfs_maps ms;
	struct procfs_map m, ld = { 0 };
	size_t i, n = 0, ncap = 0;
	uint64_t h = 1469598103934665603ULL;
	uint64_t (*r)[2] = NULL;
	struct {
		uint64_t start, len, off, ino;
		unsigned maj, min;
		char	*name;
	} *v = NULL;

	pp->read_at = procfs_now_ns();
	pp->again = 0;
	if (pp->at_base == 0)
		pp->at_base = procfs_auxv(pp->pid, AT_BASE);
	if (procfs_maps_open(&ms, pp->pid, 0) != 0)
		return;
	while (procfs_maps_next(&ms, &m)) {
		const char *c;

		if (m.start == pp->at_base && m.ino != 0)
			ld = m;		/* the dynamic linker's first mapping */
		if (strchr(m.perms, 'x') == NULL)
			continue;
		if (ld.ino != 0 && m.ino == ld.ino && m.maj == ld.maj &&
		    m.min == ld.min) {
			pp->interp[0] = m.start;
			pp->interp[1] = m.end;
		}
		for (c = m.line; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		GROW(v, n + 1, ncap);
		v[n].start = m.start;
		v[n].len = m.end - m.start;
		v[n].off = m.pgoff;
		v[n].maj = m.maj;
		v[n].min = m.min;
		v[n].ino = m.ino;
		v[n].name = xstrdup(m.name);
		n++;
	}
	procfs_maps_release(&ms);
	if (force || h != pp->hash) {
		pp->hash = h;
		r = n ? xmalloc(n * sizeof(*r)) : NULL;
		for (i = 0; i < n; i++) {
			struct qev *e = push(p, SOURCE_MMAP, pp->pid, pp->pid);

			e->ev.u.mmap.addr = v[i].start;
			e->ev.u.mmap.len = v[i].len;
			e->ev.u.mmap.pgoff = v[i].off;
			e->ev.u.mmap.path = v[i].name;
			e->ev.u.mmap.have_ino = v[i].ino != 0;
			e->ev.u.mmap.maj = v[i].maj;
			e->ev.u.mmap.min = v[i].min;
			e->ev.u.mmap.ino = v[i].ino;
			e->own = v[i].name;
			v[i].name = NULL;
			r[i][0] = v[i].start;
			r[i][1] = v[i].start + v[i].len;
		}
		free(pp->ranges);
		pp->ranges = r;
		pp->n = n;
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static int
known(const struct pproc *pp, uint64_t pc)
{
	size_t i;

	for (i = 0; i < pp->n; i++)
		if (pc >= pp->ranges[i][0] && pc < pp->ranges[i][1])
			return 1;
	return 0;
}

/* ---- ptsample's callbacks ---- */

/*
 * Finds the frame pointer of a thread sampled without its registers (a
 * blocked thread read from /proc: only its stack pointer and pc), for
 * --call-graph fp: the lowest 8-byte slot of the copy that starts a
 * chain of at least two frame records (saved frame pointer above it,
 * return address in an executable mapping) or of one that ends the
 * stack (a saved frame pointer of 0). Returns 0 when there is none.
 */
static uint64_t
find_fp(const struct pproc *pp, const struct pt_sample *s)
{
	uint64_t sp = s->regs[UNWIND_SP], a, fp, next, ret;
	int links;

	for (a = (sp + 7) & ~7ULL; a - sp + 16 <= s->stack_len; a += 8) {
		for (fp = a, links = 0; links < 2; links++) {
			memcpy(&next, s->stack + (fp - sp), 8);
			memcpy(&ret, s->stack + (fp - sp) + 8, 8);
			if (!known(pp, ret))
				break;
			if (next == 0) {
				links = 2;
				break;
			}
			if (next <= fp || (next & 7) != 0 ||
			    next - sp + 16 > s->stack_len)
				break;
			fp = next;
		}
		if (links == 2)
			return a;
	}
	return 0;
}

/*
 * Walks the frame pointers through the stack copy, for --call-graph fp:
 * the callchain perf would give, PERF_CONTEXT_USER first.
 */
static size_t
fp_chain(const struct pproc *pp, const struct pt_sample *s, uint64_t *chain,
    int *cut)
{
	uint64_t sp = s->regs[UNWIND_SP], fp = s->regs[UNWIND_BP];
	size_t n = 0;

	if (!(s->regs_valid & (1u << UNWIND_BP)))
		fp = find_fp(pp, s);
	chain[n++] = PERF_CONTEXT_USER;
	chain[n++] = s->regs[UNWIND_RA];
	*cut = 0;
	while (fp >= sp && fp - sp + 16 <= s->stack_len && (fp & 7) == 0) {
		uint64_t next, ret;

		if (n == FP_MAX) {
			*cut = 1;
			break;
		}
		memcpy(&next, s->stack + (fp - sp), 8);
		memcpy(&ret, s->stack + (fp - sp) + 8, 8);
		if (ret == 0)
			break;
		chain[n++] = ret;
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}

/* Frees what queued event e owns. */
static void
qev_free(struct qev *e)
{
	free(e->own);
	free(e->chain);
	if (e->more != NULL) {
		livestack_pieces_release(e->more);
		free(e->more);
	}
}

/* Queues one sample of k standing for period ns, at time. */
static void
queue_sample(struct ptsrc *p, const struct pproc *pp,
    const struct pt_sample *s, uint64_t time, uint64_t period)
{
	struct source_sample *ss;
	struct qev *e;

	e = push(p, SOURCE_SAMPLE, s->pid, s->tid);
	e->ev.time = time;
	ss = &e->ev.u.sample;
	ss->cpu = (uint32_t)s->cpu;
	ss->period = period;
	ss->event = s->offcpu ? STREAM_OFFCPU_EVENT : p->cfg.event->name;
	ss->ev = s->offcpu ? STREAM_EV_OFFCPU : STREAM_EV_OTHER;
	if (p->cfg.dwarf) {
		e->own = xmalloc(s->stack_len ? s->stack_len : 1);
		memcpy(e->own, s->stack, s->stack_len);
		memcpy(ss->regs, s->regs, sizeof(ss->regs));
		ss->regs_valid = s->regs_valid;
		ss->stack = e->own;
		ss->stack_len = s->stack_len;
		if (s->more != NULL) {
			e->more = xcalloc(1, sizeof(*e->more));
			livestack_pieces_copy(e->more, s->more);
			ss->more = livestack_pieces_read;
			ss->more_arg = e->more;
		}
	} else {
		e->chain = xmalloc(FP_MAX * sizeof(*e->chain));
		ss->nr = fp_chain(pp, s, e->chain, &ss->chain_cut);
		ss->callchain = e->chain;
	}
}

/*
 * A CPU-time sample that stands for k whole periods (the thread ran k
 * periods between two ticks that could stop it) goes out as k samples of
 * one period each, so that counting samples, as fgfold and the peers do
 * for cpu-clock, weighs it as a cpu-clock profile would.
 */
static void
on_sample(void *arg, const struct pt_sample *s)
{
	struct ptsrc *p = arg;
	struct pproc *pp = proc_get(p, s->pid);
	uint64_t now = procfs_now_ns(), k = 1, i;

	if (s->preemption)
		p->src->preempted++;
	if ((!s->offcpu || s->preempted) && p->cfg.mode == RECORD_OFFCPU)
		return;		/* --off-cpu: blocked threads only */
	if (pp->read_at <= 1 || pp->again || now - pp->read_at > REREAD_NS ||
	    (!known(pp, s->regs[UNWIND_RA]) && now - pp->read_at > UNKNOWN_NS))
		read_maps(p, pp, pp->read_at == 0);
	/*
	 * In the dynamic linker, libraries are being loaded (at the start,
	 * or a dlopen): its next sample reads the mappings again, for the
	 * frames below would be in no known mapping till the next reread.
	 */
	if (s->regs[UNWIND_RA] >= pp->interp[0] &&
	    s->regs[UNWIND_RA] < pp->interp[1])
		pp->again = 1;
	name_once(p, s->pid, s->tid);
	if (!p->wall && s->period > p->period_ns) {
		k = s->period / p->period_ns;
		if (k > K_MAX)
			k = K_MAX;
	}
	if (k == 1) {
		queue_sample(p, pp, s, s->time, s->period);
		return;
	}
	for (i = 0; i < k; i++)
		queue_sample(p, pp, s, s->time - (k - 1 - i), p->period_ns);
}

static void
on_fork(void *arg, pid_t parent, pid_t child)
{
	struct ptsrc *p = arg;
	struct qev *e = push(p, SOURCE_FORK, child, child);

	e->ev.u.fork.ppid = parent;
	e->ev.u.fork.ptid = parent;
}

static void
on_exec(void *arg, pid_t pid)
{
	struct ptsrc *p = arg;

	struct pproc *pp = proc_get(p, pid);

	forget_names(p, pid);
	maps_exec(&p->wmaps, pid);
	send_comm(p, pid, pid, 1);
	pp->at_base = pp->interp[0] = pp->interp[1] = 0;	/* a new program's */
	read_maps(p, pp, 1);
	pp->read_at = 1;	/* and again at its first sample */
}

static void
on_proc_exit(void *arg, pid_t pid)
{
	struct ptsrc *p = arg;

	push(p, SOURCE_EXIT, pid, pid);
	maps_exit(&p->wmaps, pid);
	if (p->wpid == pid)
		p->wpid = 0;
	proc_drop(p, pid);
	forget_names(p, pid);
}

/*
 * The walk of a thread stopped with a stack deeper than its copy (s),
 * reading on through more: the mappings of its process read when they
 * are not known, or when the walk met a pc outside them and they were
 * read more than UNKNOWN_NS ago.
 */
static void
on_walk(void *arg, const struct pt_sample *s, unwind_more_fn *more,
    void *more_arg)
{
	struct ptsrc *p = arg;
	struct unwind_input in;
	enum unwind_end why;
	uint64_t now;
	int again;

	unwind_input_init(&in, s->pid, s->regs, s->regs_valid, s->stack,
	    s->stack_len);
	in.more = more;
	in.more_arg = more_arg;
	for (again = 0; again < 2; again++) {
		now = procfs_now_ns();
		if (again || maps_find(&p->wmaps, s->pid,
		    s->regs[UNWIND_RA]) == NULL) {
			if (s->pid == p->wpid && now - p->wread_at < UNKNOWN_NS)
				return;
			maps_exec(&p->wmaps, s->pid);
			if (maps_read_proc(&p->wmaps, s->pid) != 0)
				return;
			p->wpid = s->pid;
			p->wread_at = now;
		}
		unwind_stack(&p->wunwind, &in, p->wpcs,
		    (size_t)p->wunwind.max_depth, &why);
		if (why != UNWIND_NOMAP)
			return;
	}
}

static const struct ptsample_cb callbacks = {
	.sample = on_sample,
	.walk = on_walk,
	.fork = on_fork,
	.exec = on_exec,
	.exit = on_proc_exit,
};

/* ---- the source ---- */

/* Reads kernel.yama.ptrace_scope; -1 when there is no Yama. */
static int
yama_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Says why process pid could not be seized (e, the errno of
 * PTRACE_SEIZE), and exits 2. The causes are told apart by what /proc
 * says of it, read after e is saved: gone, a zombie, another tracer's,
 * Yama's scope, and only then another user's.
 */
static void __attribute__((noreturn))
refused(pid_t pid, int e)
{
	struct procfs_status st;
	char name[64];
	int scope;

	if (e == ESRCH || procfs_status(pid, &st) != 0)
		errx(2, "process %d: no such process; check the PID given "
		    "to -p", (int)pid);
	if (!procfs_alive(pid))
		errx(2, "cannot trace process %d: it has exited (a zombie its "
		    "parent has not reaped); there is nothing left to sample",
		    (int)pid);
	if (st.tracer > 0 && st.tracer != getpid()) {
		procfs_comm(st.tracer, st.tracer, name, sizeof(name));
		for (char *c = name; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		errx(2, "cannot trace process %d: it is already traced by "
		    "process %d ('%s'), and a process has one tracer at a "
		    "time; detach that one (in gdb: detach) or end it first",
		    (int)pid, (int)st.tracer, name[0] ? name : "?");
	}
	if (e == EPERM && (scope = yama_scope()) > 0)
		errx(2, "cannot trace process %d (%s): "
		    "kernel.yama.ptrace_scope is %d, which lets a user "
		    "trace only the commands it starts; give the command "
		    "to fgrecord, or run it with CAP_SYS_PTRACE (which "
		    "lets it read and stop every process of every user)",
		    (int)pid,
		    strerror(e), scope);
	if (e == EPERM)
		errx(2, "cannot trace process %d (%s): it belongs to "
		    "another user, or ptrace is forbidden here", (int)pid,
		    strerror(e));
	errx(2, "cannot trace process %d: %s", (int)pid, strerror(e));
}

static void
pt_open(struct source *src, const struct source_config *cfg)
{
	struct ptsample_opts po;
	struct ptsrc *p;
	size_t i;

	p = xcalloc(1, sizeof(*p));
	p->cfg = *cfg;
	p->wall = cfg->mode != RECORD_CPU;
	memset(&po, 0, sizeof(po));
	/* A period of cpu-clock is in nanoseconds. */
	po.freq = cfg->period ? (1000000000ULL + cfg->period / 2) / cfg->period :
	    cfg->freq;
	if (po.freq == 0)
		po.freq = 1;
	p->period_ns = 1000000000ULL / po.freq;
	if (p->period_ns == 0)
		p->period_ns = 1;
	po.stack_size = cfg->dwarf ? cfg->stack_size : 4096;
	po.wall = p->wall;
	po.fixed = cfg->fixed_period;
	maps_init(&p->wmaps);
	unwind_init(&p->wunwind, &p->wmaps);
	p->wunwind.max_depth = (int)(cfg->max_depth ? cfg->max_depth : 2048);
	p->wpcs = xmalloc((size_t)p->wunwind.max_depth * sizeof(*p->wpcs));
	ptsample_init(&p->ps, &po, &callbacks, p);
	src->priv = p;
	p->src = src;
	src->user_only = 1;
	if (cfg->child) {
		if (ptsample_add(&p->ps, cfg->child, 1) != 0)
			err(2, "cannot trace the command with ptrace");
		return;
	}
	for (i = 0; i < cfg->npids; i++)
		if (ptsample_add(&p->ps, cfg->pids[i], 0) != 0)
			refused(cfg->pids[i], errno);
}

static void
pt_enable(struct source *src)
{
	(void)src;
}

static void
pt_wait(struct source *src, int timeout_ms)
{
	struct ptsrc *p = src->priv;

	if (!p->disabled && ptsample_live(&p->ps) && !p->ps.child_done) {
		ptsample_run(&p->ps, timeout_ms);
	} else if (!p->ps.child_done) {
		struct timespec ts = { timeout_ms / 1000,
		    (long)(timeout_ms % 1000) * 1000000L };

		/* Nothing to do: the session waits for its command's end. */
		nanosleep(&ts, NULL);
	}
}

static void
pt_drain(struct source *src, uint64_t limit, const struct source_sink *sink)
{
	struct ptsrc *p = src->priv;

	while (p->head < p->nq && p->q[p->head].ev.time <= limit) {
		struct qev *e = &p->q[p->head++];

		sink->fn(sink->arg, &e->ev);
		qev_free(e);
	}
}

/* Lets go of every thread: the program runs on untraced. */
static void
pt_disable(struct source *src)
{
	struct ptsrc *p = src->priv;

	if (p->disabled)
		return;
	p->disabled = 1;
	ptsample_detach(&p->ps);
}

static void
pt_close(struct source *src)
{
	struct ptsrc *p = src->priv;
	size_t i;

	ptsample_release(&p->ps);
	for (i = p->head; i < p->nq; i++)
		qev_free(&p->q[i]);
	unwind_release(&p->wunwind);
	maps_release(&p->wmaps);
	free(p->wpcs);
	free(p->q);
	for (i = 0; i < p->nprocs; i++)
		free(p->procs[i].ranges);
	free(p->procs);
	free(p->named);
	free(p);
}

/*
 * Says how late the latest tick came, when more than LATE_SAY periods;
 * how many waits a sampler's stop ended and made again, and with
 * --wall the time the sampler held threads at its stops, which the
 * samples leave out, when it is more than a trifle (0.5% of the time).
 */
static void
pt_summary(const struct source *src, uint64_t throttled)
{
	const struct ptsrc *p = src->priv;
	uint64_t held = p->ps.held_ns, all = p->ps.wall_ns + held;

	(void)throttled;
	if (held > 0 && held * 200 >= all)
		fprintf(stderr, "fgrecord: %.3f s that the sampler held "
		    "threads at its stops is left out of --wall time "
		    "(%.1f%% of it)\n", held / 1e9, 100.0 * held / all);
	if (p->ps.late_max_ns > LATE_SAY * p->period_ns)
		fprintf(stderr, "fgrecord: the sampler's ticks came up to "
		    "%.1f ms late (%" PRIu64 " of %" PRIu64 " more than a "
		    "period late: it waited for a CPU or a disk); the time "
		    "before a late tick goes to where each thread was at it, "
		    "so a function's time may be off by about that much at "
		    "its edges\n", p->ps.late_max_ns / 1e6, p->ps.late_ticks,
		    p->ps.ticks);
	if (p->ps.restarts > 0)
		fprintf(stderr, "fgrecord: %" PRIu64 " wait%s (epoll_wait, "
		    "sigtimedwait) met by a stop as %s began made again, "
		    "%s timeout%s longer by microseconds; see fgrecord(1), "
		    "CAVEATS\n", p->ps.restarts, p->ps.restarts == 1 ? "" : "s",
		    p->ps.restarts == 1 ? "it" : "they",
		    p->ps.restarts == 1 ? "its" : "their",
		    p->ps.restarts == 1 ? "" : "s");
}

/* A sample every so many ns of a thread's CPU time: clock events only. */
static int
pt_measures_event(const struct perf_event_desc *ev)
{
	return stream_event_is_clock(ev->name, strlen(ev->name));
}

const struct source_ops source_ptrace = {
	.name = "ptrace",
	.system_wide = 0,
	.measures_event = pt_measures_event,
	.measures = "CPU time",
	.limits = "user space only, more overhead",
	.open = pt_open,
	.enable = pt_enable,
	.wait = pt_wait,
	.drain = pt_drain,
	.disable = pt_disable,
	.close = pt_close,
	.summary = pt_summary,
};
