/*
 * source_perf: the perf_event_open(2) sampler behind source.h. One event
 * per online CPU (and per thread with -p), a ring buffer per CPU that the
 * other events of that CPU write into, records decoded by perfdecode and
 * put back in time order across the CPUs before the sink sees them.
 *
 * Off-CPU time (--off-cpu, --wall): the context-switches software event
 * with a period of 1 samples every switch out, with the same stacks as a
 * cpu-clock sample, and its attr.context_switch records
 * (PERF_RECORD_SWITCH) say when the thread was switched back in. offcpu.c
 * pairs the two; the sample goes to the sink as an offcpu-time sample
 * whose period is the time between them. A switch out while the thread
 * was still runnable (preempted: PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) is
 * waiting for a CPU, not for an event: --off-cpu leaves it out, --wall
 * counts it, so that every thread's time adds up to the wall clock.
 *
 * Random intervals (record/jitter.h; not with --fixed-period): the event
 * is opened in period mode at the mean period (-F's 999 Hz is 1001001 ns
 * of cpu-clock, what the kernel makes of it anyway), wakes the poll at
 * every sample, and each sample of an event fgrecord holds the
 * descriptor of sets that event's next interval with
 * PERF_EVENT_IOC_PERIOD, drawn anew; the interval starts at the ioctl.
 * The kernel goes on reporting the period the event was opened with, so
 * the period a sample carries is read from its count instead
 * (PERF_SAMPLE_READ, the event's CPU time on that CPU): the count less
 * the count of the event's last sample, the interval that ended in it.
 * A thread created after the start has its events opened by fgrecord
 * too, not inherited: the side band (mmap, comm, fork, exit) comes from
 * a dummy event the kernel copies into every new thread, and its FORK
 * record has the new thread's sampling events opened, into the rings of
 * their CPUs (fill_dummy_attr, open_late). Not with --wall, whose
 * context-switch event goes with the cpu-clock one: an event the kernel
 * made for a thread created after the start (inherit) has no
 * descriptor, its period is the one drawn last when its thread was
 * created, and stays fixed, as its samples say.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/num.h"
#include "base/procfs.h"
#include "base/share.h"
#include "record/denied.h"
#include "record/jitter.h"
#include "record/offcpu.h"
#include "perf/perf.h"
#include "perf/perfdecode.h"
#include "perf/perfqueue.h"
#include "record/source.h"
#include "base/xalloc.h"

/* An event whose period fgrecord draws: its thread and CPU, and fd. */
struct jit_event {
	pid_t		 tid;		/* -1 for -a's events of a whole CPU */
	int		 cpu;
	int		 fd;		/* borrowed from perf_source.fds */
	uint64_t	 count;		/* its count at its last sample */
	uint64_t	 drawn;		/* the interval it was last given */
	uint64_t	 set_at;	/* when, CLOCK_MONOTONIC ns */
	int		 dead;		/* its thread exited: closed at the drain's end */
};

struct perf_source {
	struct source	*src;		/* borrowed: the owner */
	struct source_config cfg;	/* a copy; pids stay borrowed */
	struct perf_event_attr attr;
	struct perf_decoder dec;
	int		 ncpus;		/* configured CPUs: rings are indexed by CPU */
	unsigned char	*online;	/* online[cpu] is 1 for online CPUs */
	int		*fds;		/* every event */
	size_t		 nfds, fds_cap;
	struct perf_ring *rings;	/* one per CPU (index = cpu) */
	size_t		 ring_pages;
	size_t		 want_pages;	/* asked for, when the mlock limit cut them */
	int		 lost;		/* a LOST record came: the cut mattered */
	struct perfqueue queue;		/* records of all CPUs, to be put in order */
	struct pollfd	*pfd;		/* wait's scratch: one per CPU */
	int		*pcpu;		/* pfd[k] is CPU pcpu[k]'s ring */
	int		*hup;		/* hup[cpu]: its event reported POLLHUP */
	/* off-CPU time */
	struct perf_event_attr cs_attr;	/* --wall: the context-switches event */
	struct offcpu	 offcpu;	/* waits in progress */
	struct perf_decoder offdec;	/* decodes held samples as offcpu-time */
	uint64_t	 end_ns;	/* when sampling was disabled */
	/* random intervals: the events whose period is drawn at each sample */
	int		 jitter;
	uint64_t	 mean, least;	/* the mean interval, the shortest */
	int		 clock;		/* the event counts ns: cpu-clock, task-clock */
	struct jitter	 rng;
	struct jit_event *jev;		/* sorted by tid, cpu once opened */
	size_t		 njev, jev_cap;
	int		 no_count;	/* the kernel refused PERF_SAMPLE_READ */
	uint64_t	 drawn;		/* samples whose next interval was drawn */
	uint64_t	 repeated;	/* of them, taken before the last draw was
					   set: at the interval before, again */
	uint64_t	 inherited;	/* samples of events we hold no fd of */
	int		 reopen;	/* opening again, with smaller rings */
	/* sampling events per thread: side band from an inherited dummy */
	int		 per_thread;
	struct perf_event_attr sb_attr;	/* the dummy: mmap, comm, fork, exit */
	struct perf_event_attr late_attr; /* a new thread's: enabled at once */
	int		 ndead;		/* jev entries to close */
	uint64_t	 late_opened;	/* threads whose event opened on FORK */
	uint64_t	 late_failed;	/* and whose event could not be */
	int		 disable_warned;
};

/*
 * Explains why perf_event_open failed with errnum e, in one or more lines
 * on stderr that name the fix (the paranoid level and what it still
 * allows, seccomp, a missing PMU), then exits with status 2. ev is the
 * event; system_wide tells whether -a was asked for.
 */
static void __attribute__((noreturn))
perf_explain_open(int e, const struct perf_event_desc *ev, int system_wide)
{
	int p = perf_paranoid();
	char why[512], fix[160];

	switch (denied_why(e, system_wide, why, sizeof(why))) {
	case DENIED_SECCOMP:
		errx(2, "%s; allow it: docker run --cap-add PERFMON, or a "
		    "seccomp profile that allows perf_event_open", why);
	case DENIED_CAPS:
		errx(2, "%s; grant CAP_PERFMON (docker run --cap-add PERFMON) "
		    "or lower the level", why);
	case DENIED_NOSYS:
	case DENIED_OTHER:
		errx(2, "%s", why);
	default:
		break;
	}
	switch (e) {
	case EACCES:
	case EPERM:
		if (p == INT_MIN) {
			errx(2, "perf_event_open denied for event '%s' (%s): run as "
			    "root or grant CAP_PERFMON", ev->name, strerror(e));
		}
		warnx("perf_event_open denied for event '%s' (%s): "
		    "kernel.perf_event_paranoid is %d", ev->name, strerror(e), p);
		if (p >= 3)
			warnx("at level %d nothing may be sampled without "
			    "privilege (a Debian kernel's extra level)", p);
		else if (p == 2)
			warnx("at level 2 your own processes can be sampled in "
			    "user space only (a command it launches, or "
			    "-p); -a needs level 0 or less");
		else if (p == 1)
			warnx("at level 1 user and kernel stacks of your own "
			    "processes can be sampled, but not -a (needs level 0)");
		else if (system_wide)
			warnx("-a needs privilege at level %d", p);
		denied_paranoid_fix(p, system_wide, fix, sizeof(fix));
		errx(2, "fix: %s, run as root, or grant CAP_PERFMON: sudo "
		    "setcap cap_perfmon+ep \"$(command -v %s)\"", fix,
		    program_invocation_short_name);
	case ENOSYS:
		errx(2, "perf_event_open is not available (%s): the kernel lacks "
		    "CONFIG_PERF_EVENTS, or a container's seccomp profile blocks "
		    "it; allow it, e.g. docker run --cap-add PERFMON "
		    "--security-opt seccomp=unconfined", strerror(e));
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (ev->hardware)
			errx(2, "hardware event '%s' is not supported on this "
			    "machine (%s): it exposes no hardware counters, as "
			    "many VMs do; use -e cpu-clock", ev->name, strerror(e));
		errx(2, "event '%s' is not supported by this kernel (%s); use -e "
		    "cpu-clock", ev->name, strerror(e));
	case EMFILE:
	case ENFILE:
		errx(2, "perf_event_open: %s: one event per CPU and per thread "
		    "is needed; raise the limit with ulimit -n", strerror(e));
	case EINVAL:
		errx(2, "perf_event_open refused event '%s' (%s): the frequency "
		    "may be above kernel.perf_event_max_sample_rate (%ld), or "
		    "the kernel too old for these options; try a lower -F or "
		    "--call-graph fp", ev->name, strerror(e),
		    perf_max_sample_rate());
	case EBUSY:
		errx(2, "perf_event_open: event '%s' is busy (%s): another "
		    "tool holds the counter exclusively; use -e cpu-clock",
		    ev->name, strerror(e));
	default:
		errx(2, "perf_event_open for event '%s': %s", ev->name,
		    strerror(e));
	}
}


/* ---- opening events ---- */

static void
add_fd(struct perf_source *ps, int fd)
{
	GROW(ps->fds, ps->nfds + 1, ps->fds_cap);
	ps->fds[ps->nfds++] = fd;
}

/* Returns the real user ID that owns pid, or -1. */
static uid_t
proc_uid(pid_t pid)
{
	struct procfs_status st;

	if (procfs_status(pid, &st) != 0 || st.nuid < 1)
		return (uid_t)-1;
	return st.uid[0];
}

/*
 * Opens the event for pid on cpu, retrying without build IDs (kernels
 * before 5.12) and without the kernel (paranoid level 2). Returns the
 * descriptor; or -1 for ESRCH when soft (a thread that just exited);
 * anything else is explained and fatal.
 */
static int
open_one(struct perf_source *ps, struct perf_event_attr *attr, pid_t pid,
    int cpu, int soft)
{
	int fd, e;

	for (;;) {
		/*
		 * FGRECORD_NO_SAMPLE_READ (for the tests, undocumented): the
		 * kernel taken to refuse PERF_SAMPLE_READ with inherit, as
		 * kernels before 6.12 do, so that the path below is tried.
		 */
		if ((attr->sample_type & PERF_SAMPLE_READ) &&
		    getenv("FGRECORD_NO_SAMPLE_READ") != NULL) {
			fd = -1;
			errno = EINVAL;
		} else {
			fd = perf_open(attr, pid, cpu);
		}
		if (fd >= 0)
			return fd;
		e = errno;
		if (e == EINVAL && attr->build_id) {
			attr->build_id = 0;
			continue;
		}
		/*
		 * Before Linux 6.12, no PERF_SAMPLE_READ with inherit: the
		 * period of a sample is then the interval drawn, a little
		 * short of the time the ioctl took to come.
		 */
		if (e == EINVAL && (attr->sample_type & PERF_SAMPLE_READ)) {
			ps->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_READ;
			ps->cs_attr.sample_type &= ~(uint64_t)PERF_SAMPLE_READ;
			ps->sb_attr.sample_type &= ~(uint64_t)PERF_SAMPLE_READ;
			ps->no_count = 1;
			continue;
		}
		/*
		 * Without the kernel, a switch out (which happens in the
		 * kernel) is never sampled: the switch records come, the
		 * samples do not.
		 */
		if ((e == EACCES || e == EPERM) && ps->cfg.mode != RECORD_CPU)
			errx(2, "%s needs the kernel's context-switch samples, "
			    "which kernel.perf_event_paranoid %d refuses to this "
			    "user (%s): run as root, grant CAP_PERFMON, or sudo "
			    "sysctl kernel.perf_event_paranoid=1",
			    ps->cfg.mode == RECORD_WALL ? "--wall" : "--off-cpu",
			    perf_paranoid(), strerror(e));
		if ((e == EACCES || e == EPERM) && !attr->exclude_kernel &&
		    !ps->cfg.system_wide) {
			attr->exclude_kernel = 1;
			ps->src->user_only = 1;
			continue;
		}
		if (soft && e == ESRCH)
			return -1;
		if ((e == EACCES || e == EPERM) && pid > 0 && !ps->cfg.child &&
		    geteuid() != 0 && proc_uid(pid) != getuid())
			errx(2, "process %d belongs to another user (%s): run "
			    "%s as root or with CAP_PERFMON to attach to it",
			    (int)pid, strerror(e), program_invocation_short_name);
		if (e == ESRCH)
			errx(2, "process %d: no such process; check the PID given "
			    "to -p", (int)pid);
		perf_explain_open(e, ps->cfg.event, ps->cfg.system_wide);
	}
}

/* Maps cpu's ring buffer for fd, or sends fd's records into it. */
static void
attach_ring(struct perf_source *ps, int fd, int cpu)
{
	struct perf_ring *ring = &ps->rings[cpu];

	if (ring->base) {
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) != 0)
			err(2, "ioctl PERF_EVENT_IOC_SET_OUTPUT on CPU %d", cpu);
		return;
	}
	if (perf_ring_map(ring, fd, cpu, &ps->ring_pages) != 0) {
		int e = errno;

		if (e == EPERM || e == ENOMEM)
			errx(2, "cannot map a ring buffer for CPU %d (%s): the "
			    "limit kernel.perf_event_mlock_kb or ulimit -l is too "
			    "small; raise it with sudo sysctl "
			    "kernel.perf_event_mlock_kb=2048", cpu, strerror(e));
		errx(2, "cannot map a ring buffer for CPU %d: %s", cpu,
		    strerror(e));
	}
}

/* Keeps fd, the event of tid (or -1) on cpu, to draw its period. */
static void
add_jit(struct perf_source *ps, pid_t tid, int cpu, int fd)
{
	struct jit_event *e;

	if (!ps->jitter)
		return;
	GROW(ps->jev, ps->njev + 1, ps->jev_cap);
	e = &ps->jev[ps->njev++];
	memset(e, 0, sizeof(*e));
	e->tid = tid;
	e->cpu = cpu;
	e->fd = fd;
	e->drawn = ps->attr.sample_period;
}

static int
jit_cmp(const void *a, const void *b)
{
	const struct jit_event *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* The event of tid on cpu whose period fgrecord draws, or NULL. */
static struct jit_event *
find_jit(struct perf_source *ps, pid_t tid, int cpu)
{
	struct jit_event key;

	key.tid = ps->cfg.system_wide ? -1 : tid;
	key.cpu = cpu;
	return bsearch(&key, ps->jev, ps->njev, sizeof(key), jit_cmp);
}

/* Keeps fd, the event of a thread born since the start, in jev's order. */
static void
insert_jit(struct perf_source *ps, pid_t tid, int cpu, int fd)
{
	struct jit_event e;
	size_t i;

	add_jit(ps, tid, cpu, fd);
	e = ps->jev[ps->njev - 1];
	for (i = ps->njev - 1; i > 0 && jit_cmp(&ps->jev[i - 1], &e) > 0; i--)
		ps->jev[i] = ps->jev[i - 1];
	ps->jev[i] = e;
}

/*
 * Closes the events of threads that exited, once every ring is drained:
 * a sample of theirs on another CPU came before the EXIT, so it was read.
 */
static void
close_dead(struct perf_source *ps)
{
	size_t i, k, j = 0;

	for (i = 0; i < ps->njev; i++) {
		if (!ps->jev[i].dead) {
			ps->jev[j++] = ps->jev[i];
			continue;
		}
		for (k = 0; k < ps->nfds; k++)
			if (ps->fds[k] == ps->jev[i].fd) {
				ps->fds[k] = ps->fds[--ps->nfds];
				break;
			}
		close(ps->jev[i].fd);
	}
	ps->njev = j;
	ps->ndead = 0;
}

/*
 * Raises the soft limit on descriptors to the hard one, once: each
 * thread holds one per CPU. The command was started before: its limit
 * stays. Returns 1 when it rose.
 */
static int
raise_nofile(void)
{
	static int tried;
	struct rlimit rl;

	if (tried++ || getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
	    rl.rlim_cur >= rl.rlim_max)
		return 0;
	rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

/*
 * A thread born since the start (its FORK record, from the inherited
 * dummy): its sampling event opened on every CPU, enabled, into that
 * CPU's ring, so that its intervals are drawn as the first threads'
 * are. A thread already gone (ESRCH) is no failure; any other refusal
 * (the fd limit) leaves the thread unsampled, counted for the summary.
 */
static void
open_late(struct perf_source *ps, pid_t tid)
{
	struct jit_event *e;
	int cpu, fd, first = 1;

	for (cpu = 0; cpu < ps->ncpus; cpu++) {
		if (!ps->online[cpu] || ps->rings[cpu].base == NULL)
			continue;
		if (first && (e = find_jit(ps, tid, cpu)) != NULL) {
			if (!e->dead)
				return;	/* opened at the start already */
			close_dead(ps);	/* its TID taken again at once */
		}
		first = 0;
		fd = perf_open(&ps->late_attr, tid, cpu);
		if (fd < 0 && errno == EMFILE && raise_nofile())
			fd = perf_open(&ps->late_attr, tid, cpu);
		if (fd < 0) {
			if (errno != ESRCH) {
				ps->late_failed++;
				ps->src->partial = 1;
			}
			return;
		}
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ps->rings[cpu].fd) != 0) {
			close(fd);
			ps->late_failed++;
			ps->src->partial = 1;
			return;
		}
		add_fd(ps, fd);
		insert_jit(ps, tid, cpu, fd);
	}
	ps->late_opened++;
}

/* FORK and EXIT of the dummy: a new thread's events, a dead one's. */
static void
on_task(struct perf_source *ps, const struct perf_event_header *h)
{
	const uint32_t *w = (const void *)(h + 1);
	pid_t tid;
	int cpu;

	if (h->size < sizeof(*h) + 4 * sizeof(uint32_t))
		return;
	tid = (pid_t)w[2];
	if (h->type == PERF_RECORD_FORK) {
		if (ps->end_ns == 0)
			open_late(ps, tid);
		return;
	}
	for (cpu = 0; cpu < ps->ncpus; cpu++) {
		struct jit_event *e = find_jit(ps, tid, cpu);

		if (e != NULL && !e->dead) {
			e->dead = 1;
			ps->ndead++;
		}
	}
}

/* Closes every event and unmaps every ring, to open them again. */
static void
close_all(struct perf_source *ps)
{
	size_t i;

	ps->njev = 0;
	for (i = 0; i < (size_t)ps->ncpus; i++)
		perf_ring_unmap(&ps->rings[i]);
	for (i = 0; i < ps->nfds; i++)
		close(ps->fds[i]);
	ps->nfds = 0;
}

/* Opens pid's events on every CPU. Returns 0, or -1 when it is gone. */
static int
open_for_task(struct perf_source *ps, pid_t pid, int soft)
{
	int cpu, fd;

	for (cpu = 0; cpu < ps->ncpus; cpu++) {
		if (!ps->online[cpu])
			continue;
		/* the dummy first: it owns the ring, its watermark wakes */
		if (ps->per_thread) {
			if ((fd = open_one(ps, &ps->sb_attr, pid, cpu, soft)) < 0)
				return -1;
			add_fd(ps, fd);
			attach_ring(ps, fd, cpu);
		}
		if ((fd = open_one(ps, &ps->attr, pid, cpu, soft)) < 0)
			return -1;
		add_fd(ps, fd);
		add_jit(ps, pid, cpu, fd);
		attach_ring(ps, fd, cpu);
		if (ps->cfg.mode != RECORD_WALL)
			continue;
		if ((fd = open_one(ps, &ps->cs_attr, pid, cpu, soft)) < 0)
			return -1;
		add_fd(ps, fd);
		attach_ring(ps, fd, cpu);
	}
	return 0;
}

/*
 * Opens events on every thread of pid. Returns the number of threads
 * opened: 0 when the process is gone.
 */
static int
open_for_pid(struct perf_source *ps, pid_t pid)
{
	struct procfs_walk w;
	pid_t tid;
	int n = 0;

	if (procfs_walk_tasks(&w, pid) != 0) {
		if (errno == ENOENT)
			return 0;
		errx(2, "process %d: %s; check the PID given to -p", (int)pid,
		    strerror(errno));
	}
	while ((tid = procfs_walk_next(&w)) > 0)
		if (open_for_task(ps, tid, 1) == 0)
			n++;
	procfs_walk_release(&w);
	return n;
}

/*
 * Reads which of the first n CPUs are online, from the kernel's list
 * ("0-3,6"). Returns a new array of n flags; all set when the list is
 * missing. Caller frees.
 */
static unsigned char *
online_cpus(int n)
{
	unsigned char *on = xcalloc(n, 1);
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char buf[4096], *tok, *save = NULL;
	int any = 0;

	if (f && fgets(buf, sizeof(buf), f)) {
		for (tok = strtok_r(buf, ",\n", &save); tok;
		    tok = strtok_r(NULL, ",\n", &save)) {
			size_t len = strlen(tok), k;
			uint64_t a, b;

			if (num_u64(tok, len, &a, &k) == NUM_BAD)
				continue;
			b = a;
			if (tok[k] == '-')
				num_u64(tok + k + 1, len - k - 1, &b, NULL);
			for (; a <= b && a < (uint64_t)n; a++) {
				on[a] = 1;
				any = 1;
			}
		}
	}
	if (f)
		fclose(f);
	if (!any)
		memset(on, 1, n);
	return on;
}

/*
 * Opens the events of -p's processes. One that has exited is skipped with
 * a warning (src->partial), unless none is left.
 */
static void
open_pids(struct perf_source *ps)
{
	size_t i, opened = 0;
	pid_t pid;

	for (i = 0; i < ps->cfg.npids; i++) {
		pid = ps->cfg.pids[i];
		if (open_for_pid(ps, pid) > 0) {
			opened++;
			continue;
		}
		if (ps->cfg.npids == 1)
			errx(2, "process %d: no such process; check the PID "
			    "given to -p", (int)pid);
		if (!ps->reopen)	/* once, not again on a reopen */
			warnx("process %d: no such process (it may have "
			    "exited): recording the others", (int)pid);
		ps->src->partial = 1;
	}
	if (opened == 0)
		errx(2, "none of the processes given to -p is running; check "
		    "the PIDs");
}

/* Opens the events of the session: the command, the whole system, or -p. */
static void
open_events(struct perf_source *ps)
{
	int cpu, fd;

	if (ps->cfg.child) {
		open_for_task(ps, ps->cfg.child, 0);
	} else if (ps->cfg.system_wide) {
		for (cpu = 0; cpu < ps->ncpus; cpu++) {
			if (!ps->online[cpu] || (fd = open_one(ps, &ps->attr, -1, cpu, 0)) < 0)
				continue;
			add_fd(ps, fd);
			add_jit(ps, -1, cpu, fd);
			attach_ring(ps, fd, cpu);
		}
	} else {
		open_pids(ps);
	}
	if (ps->njev > 1)
		qsort(ps->jev, ps->njev, sizeof(*ps->jev), jit_cmp);
}

/*
 * Sizes the per-CPU ring buffers to hold about a quarter of a second of
 * samples of one busy thread, so that a recorder that is descheduled for a
 * while loses nothing: 16 MiB for dwarf at 999 Hz with the default 64 KiB
 * copies, 8 MiB at least, up to 64 MiB. A power of two, in pages.
 */
static size_t
ring_pages_for(const struct source_config *c)
{
	size_t pgsz = (size_t)sysconf(_SC_PAGESIZE);
	double rate = c->period ? 1000.0 : (double)c->freq;
	double per = (c->dwarf ? c->stack_size + 1024.0 : 1024.0);
	size_t want, pages;

	/*
	 * Switches are not periodic: a program may switch 50,000 times a
	 * second, each time with a stack copy. The largest buffers then.
	 */
	if (c->mode != RECORD_CPU)
		rate = 1e6;
	want = (size_t)(per * rate / 4 / pgsz);

	for (pages = c->dwarf ? 2048 : 128; pages < want && pages < 16384; )
		pages *= 2;
	return pages;
}

/*
 * --wall: the context-switches event that goes with the cpu-clock one. It
 * samples every switch out, with the same stacks, and reports the
 * switches; mappings and names come from the cpu-clock event.
 */
static void
fill_switch_attr(struct perf_source *ps, const struct perf_opts *cpu,
    uint32_t wakeup_bytes)
{
	struct perf_opts po = *cpu;

	po.wakeup_bytes = wakeup_bytes;	/* not woken at every switch */
	po.event = perf_event_find("context-switches");
	po.period = 1;
	po.sideband = 0;
	po.build_id = 0;
	po.context_switch = 1;
	perf_attr_fill(&ps->cs_attr, &po);
}

/*
 * Random intervals of every thread: the side band (mmap, comm, fork,
 * exit) from a dummy event that the kernel copies into every thread
 * born since (inherit), the sampling events opened per thread without
 * it. The dummy owns each CPU's ring and wakes the poll at every record,
 * so that a FORK is read, and the new thread's events opened, at once.
 */
static void
fill_dummy_attr(struct perf_source *ps, const struct perf_opts *smp,
    int no_bid, int no_kernel)
{
	struct perf_opts po = *smp;

	po.inherit = 1;
	po.sideband = 1;
	po.read_count = 0;
	po.wakeup_bytes = 1;
	perf_attr_fill(&ps->sb_attr, &po);
	ps->sb_attr.type = PERF_TYPE_SOFTWARE;
	ps->sb_attr.config = PERF_COUNT_SW_DUMMY;
	if (no_bid)
		ps->sb_attr.build_id = 0;
	if (no_kernel)
		ps->sb_attr.exclude_kernel = 1;
}

/*
 * Random intervals: the mean period -F or -c sets, and the event opened
 * in period mode at a first interval drawn. A clock's period is in ns,
 * at least the kernel's shortest; a count's is at least 1. -F of an
 * event that counts (page faults, say) keeps its frequency mode, in
 * which the kernel sets the period itself; so does -c 1, which has no
 * interval to draw.
 */
static void
jitter_setup(struct perf_source *ps, struct perf_opts *po)
{
	const struct perf_event_desc *ev = ps->cfg.event;
	int clock = ev->type == PERF_TYPE_SOFTWARE &&
	    (ev->config == PERF_COUNT_SW_CPU_CLOCK ||
	    ev->config == PERF_COUNT_SW_TASK_CLOCK);

	if (ps->cfg.period)
		ps->mean = ps->cfg.period;
	else if (clock && ps->cfg.freq)
		ps->mean = 1000000000ULL / ps->cfg.freq;
	if (ps->mean < 2)
		return;
	ps->least = clock ? JITTER_CLOCK_FLOOR : 1;
	ps->clock = clock;
	if (ps->mean < ps->least)
		ps->mean = ps->least;
	ps->jitter = 1;
	jitter_init(&ps->rng);
	po->period = jitter_draw(&ps->rng, ps->mean, ps->least);
}

static void
perf_source_open(struct source *src, const struct source_config *cfg)
{
	struct perf_source *ps = xcalloc(1, sizeof(*ps));
	struct perf_opts po;
	size_t want_pages, i, pgsz = (size_t)sysconf(_SC_PAGESIZE);
	long maxrate = perf_max_sample_rate();
	int tries;

	if (cfg->freq && !cfg->period && maxrate > 0 &&
	    cfg->freq > (uint64_t)maxrate)
		errx(2, "-F %" PRIu64 " is above kernel.perf_event_max_sample_rate "
		    "(%ld): lower -F, or raise it with sudo sysctl "
		    "kernel.perf_event_max_sample_rate=%" PRIu64, cfg->freq,
		    maxrate, cfg->freq);
	src->priv = ps;
	ps->src = src;
	ps->cfg = *cfg;
	offcpu_init(&ps->offcpu, cfg->mode == RECORD_WALL);
	perfqueue_init(&ps->queue, 0);	/* a drain hands back all it may */
	ps->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (ps->ncpus < 1)
		ps->ncpus = 1;
	ps->online = online_cpus(ps->ncpus);
	ps->rings = xcalloc(ps->ncpus, sizeof(*ps->rings));
	for (i = 0; i < (size_t)ps->ncpus; i++)
		ps->rings[i].fd = -1;
	ps->pfd = xcalloc(ps->ncpus, sizeof(*ps->pfd));
	ps->pcpu = xcalloc(ps->ncpus, sizeof(*ps->pcpu));
	ps->hup = xcalloc(ps->ncpus, sizeof(*ps->hup));
	ps->ring_pages = want_pages = ring_pages_for(cfg);

	memset(&po, 0, sizeof(po));
	po.event = cfg->event;
	po.freq = cfg->freq;
	po.period = cfg->period;
	po.dwarf = cfg->dwarf;
	po.stack_size = cfg->stack_size;
	po.inherit = !cfg->system_wide;
	po.enable_on_exec = cfg->child != 0;
	po.build_id = 1;
	po.sideband = 1;
	if (cfg->mode == RECORD_OFFCPU) {
		po.event = perf_event_find("context-switches");
		po.period = 1;
		po.context_switch = 1;
	} else if (!cfg->fixed_period) {
		jitter_setup(ps, &po);
	}
	/*
	 * Random intervals of every thread: the sampling event opened by
	 * fgrecord for each (FGRECORD_INHERIT, undocumented, for the
	 * tests: the kernel's inherited events, as before).
	 */
	ps->per_thread = ps->jitter && cfg->mode == RECORD_CPU &&
	    !cfg->system_wide && getenv("FGRECORD_INHERIT") == NULL;
	if (ps->per_thread) {
		po.inherit = 0;
		po.sideband = 0;
	}
	/*
	 * The kernel may grant smaller ring buffers than asked (the mlock
	 * limit): then everything is opened again with the wake-up mark
	 * scaled to what was granted, or the buffers would overflow between
	 * two wake-ups.
	 */
	for (tries = 0; ; tries++) {
		size_t pages = ps->ring_pages;
		int no_bid = tries > 0 && !(ps->per_thread ? ps->sb_attr.build_id :
		    ps->attr.build_id);
		int no_kernel = ps->attr.exclude_kernel;
		int sb_no_kernel = ps->sb_attr.exclude_kernel;

		/*
		 * Woken at 1/32 of the ring (some 8 ms of dwarf samples at
		 * 999 Hz): a stack read on live (livestack.h) is read soon
		 * after its sample, before its frames move. On a compressor
		 * diving past the copy, at 1/8 4.7% of the samples had moved,
		 * at 1/16 2.9%, 1/32 1.3%, 1/64 0.2%; fgrecord's own CPU on a
		 * g++ compile 0.155 s, 0.18, 0.23, 0.28. Frame pointers
		 * read nothing live: 1/8.
		 */
		uint32_t wake = (uint32_t)(ps->ring_pages * pgsz /
		    (cfg->dwarf ? 32 : 8));

		/* random intervals: each sample is seen at once, its next drawn */
		po.wakeup_bytes = ps->jitter ? 0 : wake;
		po.read_count = ps->jitter && !ps->no_count;
		perf_attr_fill(&ps->attr, &po);
		if (no_bid)
			ps->attr.build_id = 0;
		if (no_kernel)
			ps->attr.exclude_kernel = 1;
		if (cfg->mode == RECORD_WALL)
			fill_switch_attr(ps, &po, wake);
		if (ps->per_thread)
			fill_dummy_attr(ps, &po, no_bid, sb_no_kernel);
		ps->reopen = tries > 0;
		open_events(ps);
		if (ps->ring_pages == pages || tries == 4)
			break;
		close_all(ps);
	}
	ps->late_attr = ps->attr;
	ps->late_attr.disabled = 0;
	ps->late_attr.enable_on_exec = 0;
	perf_decoder_init_attr(&ps->dec, &ps->attr, cfg->event->name);
	perf_decoder_init_attr(&ps->offdec, &ps->attr, STREAM_OFFCPU_EVENT);
	/* said at the end, and only when samples were lost (summary) */
	if (ps->ring_pages < want_pages)
		ps->want_pages = want_pages;
	if (cfg->mode != RECORD_CPU && !cfg->quiet)
		fprintf(stderr, "fgrecord: off-CPU time from the kernel's "
		    "context switches (perf_event_open)\n");
	if (src->user_only && !cfg->quiet) {
		int p = perf_paranoid();

		warnx("kernel.perf_event_paranoid is %d: recording user space only "
		    "(for kernel stacks: sudo sysctl kernel.perf_event_paranoid=1)",
		    p == INT_MIN ? -1 : p);
	}
}

/* Sends req to every event. Returns how many refused, with errno set. */
static size_t
ioctl_all(struct perf_source *ps, unsigned long req)
{
	size_t i, failed = 0;
	int e = 0;

	for (i = 0; i < ps->nfds; i++)
		if (ioctl(ps->fds[i], req, 0) != 0) {
			e = errno;
			failed++;
		}
	errno = e;
	return failed;
}

/*
 * At -p with off-CPU time: marks each thread of the targets that sleeps
 * now (its stat says S or D) as away since now, so that the wait it is in
 * counts up to its switch in (offcpu_asleep). A thread that wakes between
 * now and the read of its state has its switch in after now: the same.
 */
static void
mark_asleep(struct perf_source *ps, uint64_t now)
{
	struct procfs_walk w;
	char buf[512];
	size_t i;
	pid_t tid;
	int fd, st;

	if (ps->cfg.mode == RECORD_CPU || ps->cfg.system_wide)
		return;
	for (i = 0; i < ps->cfg.npids; i++) {
		if (procfs_walk_tasks(&w, ps->cfg.pids[i]) != 0)
			continue;
		while ((tid = procfs_walk_next(&w)) > 0) {
			fd = procfs_task_open(ps->cfg.pids[i], tid, "stat");
			st = procfs_reread(fd, buf, sizeof(buf)) == 0 ?
			    procfs_stat_state(buf, NULL) : 0;
			if (fd >= 0)
				close(fd);
			if (st == 'S' || st == 'D')
				offcpu_asleep(&ps->offcpu, tid, now);
		}
		procfs_walk_release(&w);
	}
}

static void
perf_source_enable(struct source *src)
{
	struct perf_source *ps = src->priv;
	uint64_t now = procfs_now_ns();
	size_t failed;

	if (ps->cfg.child)	/* enable_on_exec starts a command's events */
		return;
	failed = ioctl_all(ps, PERF_EVENT_IOC_ENABLE);
	mark_asleep(ps, now);
	if (failed == 0)
		return;
	if (failed == ps->nfds)
		err(2, "ioctl PERF_EVENT_IOC_ENABLE: no event could be started");
	warn("ioctl PERF_EVENT_IOC_ENABLE: %zu of %zu events could not be "
	    "started: some threads are not sampled", failed, ps->nfds);
	src->partial = 1;
}

static void
perf_source_disable(struct source *src)
{
	struct perf_source *ps = src->priv;

	if (ioctl_all(ps, PERF_EVENT_IOC_DISABLE) != 0 && !ps->disable_warned) {
		warn("ioctl PERF_EVENT_IOC_DISABLE");
		ps->disable_warned = 1;
	}
	ps->end_ns = procfs_now_ns();
}

static void
perf_source_wait(struct source *src, int timeout)
{
	struct perf_source *ps = src->priv;
	int np = 0, cpu, k;

	/*
	 * An event whose thread has exited reports POLLHUP for good; its
	 * ring may still receive the records of other threads, so it is
	 * drained every round, but no longer polled.
	 */
	for (cpu = 0; cpu < ps->ncpus; cpu++) {
		if (ps->rings[cpu].base == NULL || ps->hup[cpu])
			continue;
		ps->pfd[np].fd = ps->rings[cpu].fd;
		ps->pfd[np].events = POLLIN;
		ps->pfd[np].revents = 0;
		ps->pcpu[np] = cpu;
		np++;
	}
	if (poll(ps->pfd, np, timeout) <= 0)
		return;
	for (k = 0; k < np; k++)
		if (ps->pfd[k].revents & (POLLHUP | POLLERR))
			ps->hup[ps->pcpu[k]] = 1;
}

/* ---- off-CPU time: switch out, switch in ---- */

/* Passes a held sample on with the time away as its period. */
struct wait_sink {
	struct perf_source *ps;
	const struct source_sink *next;
	uint64_t	 ns;
};

static void
wait_fn(void *arg, const struct source_event *ev)
{
	struct wait_sink *ws = arg;
	struct source_event e = *ev;

	if (e.kind == SOURCE_SAMPLE)
		e.u.sample.period = ws->ns;
	ws->next->fn(ws->next->arg, &e);
}

static void
emit_wait(struct perf_source *ps, const struct perf_event_header *h,
    uint64_t ns, const struct source_sink *next)
{
	struct wait_sink ws = { ps, next, ns };
	struct source_sink sink = { wait_fn, &ws };

	perf_decode(&ps->offdec, h, &sink);
}

static void
flush_one(void *arg, const struct perf_event_header *h, uint64_t ns)
{
	struct wait_sink *ws = arg;

	emit_wait(ws->ps, h, ns, ws->next);
}

/*
 * Is h a sample of the context-switches event? With --wall the cpu-clock
 * samples share the ring: theirs is a period in nanoseconds, at least
 * 10000 (fgrecord refuses a smaller -c), and the switches' is 1.
 */
static int
is_switch_sample(const struct perf_source *ps,
    const struct perf_event_header *h)
{
	uint64_t period;

	if (perf_sample_period(&ps->dec, h, &period) != 0)
		return 0;
	return ps->cfg.mode == RECORD_OFFCPU || period == 1;
}

/* ---- the queue: records of all CPUs, put back in time order ---- */

/*
 * Random intervals: a sample of an event fgrecord holds gives that event
 * its next interval, and returns the period the sample stands for (its
 * count less its last one's); 0 for any other record, whose period is
 * what the kernel says. The kernel starts the interval at the ioctl, not
 * at the sample: the time since the sample is taken off the draw, so
 * that the intervals keep their mean (CPU time if the thread ran all
 * along, as a busy one does; one that blocked or waited for a CPU
 * meanwhile has its interval that much shorter), but a sixteenth of
 * the draw at the most (60 us at 999 Hz, more than a prompt recorder
 * takes): a recorder later than that is on a busy machine, or slowed
 * (ASan), where the thread may not have run all along, and taking more
 * off gives the threads preempted the most more samples for their CPU
 * time (with half the draw, -c 250000 beside busy loops gave a mean of
 * 214 us; with a quarter under ASan, a thread's share in fgsvg's
 * timeline was 6.7% over its CPU time's); taken off without a cap, it
 * sets the shortest interval, gets more samples, falls later still, and
 * floods itself. The period written is the count, exact either way.
 */
static uint64_t
next_interval(struct perf_source *ps, const struct perf_event_header *h,
    int cpu)
{
	struct jit_event *e;
	uint64_t count, period, next, late, now;

	if (h->type != PERF_RECORD_SAMPLE ||
	    (ps->cfg.mode == RECORD_WALL && is_switch_sample(ps, h)))
		return 0;
	if ((e = find_jit(ps, perf_record_tid(&ps->dec, h), cpu)) == NULL) {
		ps->inherited++;
		return 0;
	}
	ps->drawn++;
	if (ps->no_count || perf_sample_count(&ps->dec, h, &count) != 0) {
		period = e->drawn;
	} else {
		period = count > e->count ? count - e->count : 0;
		e->count = count;
	}
	/*
	 * Taken before the last interval drawn was set (read late): the
	 * one before was in force again, and repeated intervals can fall
	 * into step with a program's rounds. Counted, for the summary.
	 */
	if (e->set_at != 0 && perf_record_time(h) < e->set_at)
		ps->repeated++;
	next = jitter_draw(&ps->rng, ps->mean, ps->least);
	e->drawn = next;
	now = procfs_now_ns();
	if (ps->clock) {
		late = now > perf_record_time(h) ? now - perf_record_time(h) : 0;
		next -= late < next / 16 ? late : next / 16;
	}
	/* A thread that is gone refuses: its event samples no more. */
	ioctl(e->fd, PERF_EVENT_IOC_PERIOD, &next);
	e->set_at = now;
	return period;
}

/* The period a sample stands for travels with it as its queue offset. */
static void
enqueue(void *arg, const struct perf_event_header *h, int cpu)
{
	struct perf_source *ps = arg;
	uint64_t period;

	if (ps->per_thread &&
	    (h->type == PERF_RECORD_FORK || h->type == PERF_RECORD_EXIT))
		on_task(ps, h);
	period = ps->jitter ? next_interval(ps, h, cpu) : 0;

	perfqueue_add(&ps->queue, h, h->size, perf_record_time(h), period,
	    cpu);
}

/* Hands the sink what record h means, off-CPU time included. */
static void
decode(struct perf_source *ps, const struct perf_event_header *h,
    const struct source_sink *sink)
{
	const struct perf_event_header *held;
	uint64_t ns;
	pid_t tid;

	if (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_LOST_SAMPLES)
		ps->lost = 1;
	if (ps->cfg.mode == RECORD_CPU) {
		perf_decode(&ps->dec, h, sink);
		return;
	}
	tid = perf_record_tid(&ps->dec, h);
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (is_switch_sample(ps, h)) {
			/* The wait in progress at -p, if it was this one's. */
			if ((ns = offcpu_block(&ps->offcpu, tid,
			    perf_record_time(h), h)) != 0)
				emit_wait(ps, h, ns, sink);
			return;
		}
		break;
	case PERF_RECORD_SWITCH:
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT) {
			if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				offcpu_preempted(&ps->offcpu, tid);
		} else if ((held = offcpu_wake(&ps->offcpu, tid,
		    perf_record_time(h), &ns)) != NULL) {
			emit_wait(ps, held, ns, sink);
		}
		return;
	case PERF_RECORD_EXIT:
		/* A thread killed while it waits: its wait ends here. */
		if ((held = offcpu_wake(&ps->offcpu, tid, perf_record_time(h),
		    &ns)) != NULL)
			emit_wait(ps, held, ns, sink);
		offcpu_forget(&ps->offcpu, tid);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		offcpu_drop(&ps->offcpu);
		break;
	}
	perf_decode(&ps->dec, h, sink);
}

struct drain {
	struct perf_source *ps;
	const struct source_sink *sink;
};

static void
on_queued(void *arg, const void *rec, const struct perfqueue_rec *r)
{
	struct drain *d = arg;
	struct wait_sink ws = { d->ps, d->sink, r->off };
	struct source_sink own = { wait_fn, &ws };

	/* random intervals: the sample's own, in place of the kernel's */
	decode(d->ps, rec, r->off ? &own : d->sink);
}

static void
perf_source_drain(struct source *src, uint64_t limit,
    const struct source_sink *sink)
{
	struct perf_source *ps = src->priv;
	int cpu;

	for (cpu = 0; cpu < ps->ncpus; cpu++) {
		uint64_t before = ps->rings[cpu].bytes;

		perf_ring_drain(&ps->rings[cpu], enqueue, ps);
		src->bytes += ps->rings[cpu].bytes - before;
	}
	if (ps->ndead)
		close_dead(ps);
	/* the records up to limit, in time order; the rest wait */
	{
		struct drain d = { ps, sink };

		perfqueue_flush(&ps->queue, limit, 0, on_queued, &d);
	}
	/* The end: threads still away count their wait up to it. */
	if (limit == UINT64_MAX && ps->cfg.mode != RECORD_CPU) {
		struct wait_sink ws = { ps, sink, 0 };

		offcpu_flush(&ps->offcpu, ps->end_ns, flush_one, &ws);
	}
	src->preempted = ps->offcpu.preempted;
	src->waits_dropped = ps->offcpu.dropped;
}

static void
perf_source_close(struct source *src)
{
	struct perf_source *ps = src->priv;
	size_t i;

	for (i = 0; i < (size_t)ps->ncpus; i++)
		perf_ring_unmap(&ps->rings[i]);
	free(ps->rings);
	for (i = 0; i < ps->nfds; i++)
		close(ps->fds[i]);
	free(ps->fds);
	perf_decoder_release(&ps->dec);
	perf_decoder_release(&ps->offdec);
	offcpu_release(&ps->offcpu);
	free(ps->online);
	perfqueue_release(&ps->queue);
	free(ps->pfd);
	free(ps->pcpu);
	free(ps->hup);
	free(ps->jev);
	free(ps);
}

/*
 * What only perf_event_open's sampling runs into: a rate above what the
 * kernel allows, which it lowers on its own, and throttling.
 */
static void
perf_source_summary(const struct source *src, uint64_t throttled)
{
	const struct perf_source *ps = src->priv;
	long max = perf_max_sample_rate();
	char pct[SHARE_SIZE];

	if (ps == NULL)
		return;
	if (!ps->cfg.period && max > 0 && (uint64_t)max < ps->cfg.freq)
		fprintf(stderr, "%s: the kernel lowered "
		    "kernel.perf_event_max_sample_rate to %ld during the "
		    "recording, below -F %" PRIu64 ": the rate is lower than "
		    "asked\n", program_invocation_short_name, max,
		    ps->cfg.freq);
	if (throttled)
		fprintf(stderr, "%s: the kernel throttled sampling %"
		    PRIu64 " times: lower -F (kernel.perf_event_max_sample_rate "
		    "is %ld)\n", program_invocation_short_name, throttled, max);
	/*
	 * A twentieth: beside a busy loop on two cores, a prompt
	 * reader's. Before the fix lines that end the summary.
	 */
	if (ps->repeated * 20 > ps->drawn)
		fprintf(stderr, "%s: %s%% of the samples (%" PRIu64 " of %"
		    PRIu64 ") were taken before fgrecord could set their "
		    "random interval (it read them late: a busy machine), at "
		    "the interval before, again: a program whose work comes "
		    "in rounds may fall into step with such repeats\n",
		    program_invocation_short_name, share(pct, ps->repeated,
		    ps->drawn), ps->repeated, ps->drawn);
	if (ps->lost && ps->want_pages) {
		size_t kib = (size_t)sysconf(_SC_PAGESIZE) / 1024;

		fprintf(stderr, "%s: samples were lost with ring buffers cut "
		    "to %zu KiB per CPU by kernel.perf_event_mlock_kb: raise "
		    "it with sudo sysctl kernel.perf_event_mlock_kb=%zu\n",
		    program_invocation_short_name, ps->ring_pages * kib,
		    (ps->want_pages * kib + 4) * (size_t)ps->ncpus);
	}
	if (ps->late_failed)
		fprintf(stderr, "%s: %" PRIu64 " threads created during the "
		    "recording could not be sampled (their events refused: "
		    "raise ulimit -n)\n", program_invocation_short_name,
		    ps->late_failed);
	/* fgrecord(1) CAVEATS: the kernel's events of later threads */
	if (ps->inherited)
		fprintf(stderr, "%s: %s%% of the samples (%" PRIu64 " of %"
		    PRIu64 ") are of threads created after the start, sampled "
		    "at the interval drawn when each was created, fixed for "
		    "its life (the kernel gives fgrecord no descriptor to "
		    "change it by); --sampler ptrace draws every thread's\n",
		    program_invocation_short_name, share(pct, ps->inherited,
		    ps->inherited + ps->drawn), ps->inherited,
		    ps->inherited + ps->drawn);
}

const struct source_ops source_perf = {
	.name = "perf",
	.system_wide = 1,
	.open = perf_source_open,
	.enable = perf_source_enable,
	.wait = perf_source_wait,
	.drain = perf_source_drain,
	.disable = perf_source_disable,
	.summary = perf_source_summary,
	.close = perf_source_close,
};
