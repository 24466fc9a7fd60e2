#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "denied.h"
#include "kallsyms.h"
#include "record.h"
#include "xalloc.h"

#define KERNEL_DSO	"[kernel.kallsyms]"
#define UNKNOWN_DSO	"[unknown]"
#define TRUNCATED_LINE	"\t0 [truncated] ([unknown])\n"

struct comm_ent {
	pid_t		 tid;		/* 0: empty slot */
	char		 comm[24];
};

struct qent {
	uint64_t	 time;
	uint64_t	 seq;
	size_t		 off;		/* into the arena */
	int		 cpu;
};

struct frame_out {
	uint64_t	 addr;
	const char	*dso;		/* borrowed */
	struct mapfile	*file;		/* for its build ID, or NULL */
};

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t forward_signal;

static void
on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	got_signal = sig;
	/* A terminal's ^C already reached the command: send only kill(1)s on. */
	if (si == NULL || si->si_code != SI_KERNEL)
		forward_signal = sig;
}

static void
on_child(int sig)
{
	(void)sig;
}

static double
now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void
record_init(struct record *r, const struct record_opts *opts)
{
	memset(r, 0, sizeof(*r));
	r->opts = *opts;
	maps_init(&r->maps);
	unwind_init(&r->unwind, &r->maps);
	r->comms_cap = 256;
	r->comms = xcalloc(r->comms_cap, sizeof(*r->comms));
	r->pcs_cap = 1024;
	r->pcs = xmalloc(r->pcs_cap * sizeof(*r->pcs));
}

void
record_release(struct record *r)
{
	size_t i;

	if (r->rings) {
		for (i = 0; i < (size_t)r->ncpus; i++)
			perf_ring_unmap(&r->rings[i]);
		free(r->rings);
	}
	for (i = 0; i < r->nfds; i++)
		close(r->fds[i]);
	free(r->fds);
	unwind_release(&r->unwind);
	maps_release(&r->maps);
	free(r->comms);
	free(r->arena);
	free(r->queue);
	free(r->pcs);
	free(r->frames);
	free(r->online);
	memset(r, 0, sizeof(*r));
}

/* ---- command names ---- */

/*
 * Makes a name safe for a sample head: no control characters (a thread
 * may call itself "a\nb"), and a first character that is neither white
 * space nor '#', which would turn the head into something else.
 */
static void
clean_name(char *s)
{
	char *p;

	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	if (s[0] == ' ' || s[0] == '#')
		s[0] = '_';
}

/* Writes s with its control characters as '?': one line stays one line. */
static void
put_clean(FILE *o, const char *s)
{
	for (; *s; s++)
		putc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, o);
}

static struct comm_ent *
comm_slot(struct record *r, pid_t tid)
{
	size_t mask = r->comms_cap - 1;
	size_t i = ((uint32_t)tid * 2654435761u) & mask;

	while (r->comms[i].tid != 0 && r->comms[i].tid != tid)
		i = (i + 1) & mask;
	return &r->comms[i];
}

static void
comm_set(struct record *r, pid_t tid, const char *comm)
{
	struct comm_ent *e;

	if (tid <= 0 || comm[0] == '\0')
		return;
	if ((r->ncomms + 1) * 2 > r->comms_cap) {
		struct comm_ent *old = r->comms;
		size_t i, oldcap = r->comms_cap;

		r->comms_cap *= 2;
		r->comms = xcalloc(r->comms_cap, sizeof(*r->comms));
		for (i = 0; i < oldcap; i++)
			if (old[i].tid)
				*comm_slot(r, old[i].tid) = old[i];
		free(old);
	}
	e = comm_slot(r, tid);
	if (e->tid == 0)
		r->ncomms++;
	e->tid = tid;
	snprintf(e->comm, sizeof(e->comm), "%s", comm);
	clean_name(e->comm);
}

static const char *
comm_get(struct record *r, pid_t pid, pid_t tid)
{
	struct comm_ent *e;
	char path[64], buf[64];
	FILE *f;

	if (tid <= 0)
		return "swapper";	/* the idle task, as perf names it */
	e = comm_slot(r, tid);
	if (e->tid == tid)
		return e->comm;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	buf[0] = '\0';
	if ((f = fopen(path, "re")) != NULL) {
		if (fgets(buf, sizeof(buf), f) == NULL)
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (buf[0] == '\0')
		snprintf(buf, sizeof(buf), ":%d", (int)tid);
	comm_set(r, tid, buf);
	return comm_slot(r, tid)->comm;
}

/* ---- explaining failures ---- */

void
record_explain_open(int e, const struct perf_event_desc *ev, int system_wide)
{
	int p = perf_paranoid();
	char why[512];

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
			    "user space only (a command fgrecord launches, or "
			    "-p); -a needs level 0 or less");
		else if (p == 1)
			warnx("at level 1 user and kernel stacks of your own "
			    "processes can be sampled, but not -a (needs level 0)");
		else if (system_wide)
			warnx("-a needs privilege at level %d", p);
		errx(2, "fix: sudo sysctl kernel.perf_event_paranoid=1 (or -1 "
		    "for kernel stacks and -a), run as root, or grant "
		    "CAP_PERFMON: sudo setcap cap_perfmon+ep \"$(command -v "
		    "fgrecord)\"");
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
add_fd(struct record *r, int fd)
{
	GROW(r->fds, r->nfds + 1, r->fds_cap);
	r->fds[r->nfds++] = fd;
}

/* Returns the real user ID that owns pid, or -1. */
static uid_t
proc_uid(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	unsigned long uid;
	uid_t found = (uid_t)-1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return found;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %lu", &uid) == 1) {
			found = (uid_t)uid;
			break;
		}
	fclose(f);
	return found;
}

/*
 * Opens the event for pid on cpu, retrying without build IDs (kernels
 * before 5.12) and without the kernel (paranoid level 2). Returns the
 * descriptor; or -1 for ESRCH when soft (a thread that just exited);
 * anything else is explained and fatal.
 */
static int
open_one(struct record *r, pid_t pid, int cpu, int soft)
{
	int fd, e;

	for (;;) {
		fd = perf_open(&r->attr, pid, cpu);
		if (fd >= 0)
			return fd;
		e = errno;
		if (e == EINVAL && r->attr.build_id) {
			r->attr.build_id = 0;
			continue;
		}
		if ((e == EACCES || e == EPERM) && !r->attr.exclude_kernel &&
		    !r->opts.system_wide) {
			r->attr.exclude_kernel = 1;
			r->user_only = 1;
			continue;
		}
		if (soft && e == ESRCH)
			return -1;
		if ((e == EACCES || e == EPERM) && pid > 0 && !r->child &&
		    geteuid() != 0 && proc_uid(pid) != getuid())
			errx(2, "process %d belongs to another user (%s): run "
			    "fgrecord as root or with CAP_PERFMON to attach to "
			    "it", (int)pid, strerror(e));
		if (e == ESRCH)
			errx(2, "process %d: no such process; check the PID given "
			    "to -p", (int)pid);
		record_explain_open(e, r->opts.event, r->opts.system_wide);
	}
}

/* Maps cpu's ring buffer for fd, or sends fd's records into it. */
static void
attach_ring(struct record *r, int fd, int cpu)
{
	struct perf_ring *ring = &r->rings[cpu];
	size_t want = r->ring_pages;

	if (ring->base) {
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) != 0)
			err(2, "ioctl PERF_EVENT_IOC_SET_OUTPUT on CPU %d", cpu);
		return;
	}
	if (perf_ring_map(ring, fd, cpu, &r->ring_pages) != 0) {
		int e = errno;

		if (e == EPERM || e == ENOMEM)
			errx(2, "cannot map a ring buffer for CPU %d (%s): the "
			    "limit kernel.perf_event_mlock_kb or ulimit -l is too "
			    "small; raise it with sudo sysctl "
			    "kernel.perf_event_mlock_kb=2048", cpu, strerror(e));
		errx(2, "cannot map a ring buffer for CPU %d: %s", cpu,
		    strerror(e));
	}
	(void)want;
}

/* Closes every event and unmaps every ring, to open them again. */
static void
close_all(struct record *r)
{
	size_t i;

	for (i = 0; i < (size_t)r->ncpus; i++)
		perf_ring_unmap(&r->rings[i]);
	for (i = 0; i < r->nfds; i++)
		close(r->fds[i]);
	r->nfds = 0;
}

static void
open_for_task(struct record *r, pid_t pid, int soft)
{
	int cpu, fd;

	for (cpu = 0; cpu < r->ncpus; cpu++) {
		if (!r->online[cpu])
			continue;
		if ((fd = open_one(r, pid, cpu, soft)) < 0)
			return;
		add_fd(r, fd);
		attach_ring(r, fd, cpu);
	}
}

static int
read_comm_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -1;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Opens events on every thread of pid. Returns the number of threads. */
static int
open_for_pid(struct record *r, pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		errx(2, "process %d: %s; check the PID given to -p", (int)pid,
		    strerror(errno));
	while ((de = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);

		if (tid <= 0)
			continue;
		open_for_task(r, tid, 1);
		n++;
	}
	closedir(d);
	return n;
}

static void
read_task_comms(struct record *r, pid_t pid)
{
	char path[96], buf[64];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		int tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, tid);
		if (read_comm_file(path, buf, sizeof(buf)) == 0)
			comm_set(r, tid, buf);
	}
	closedir(d);
}

/* ---- the stream ---- */

static void
write_header(struct record *r)
{
	FILE *o = r->opts.out;
	char *kid;

	fprintf(o, "# fgrecord 1\n");
	fputs("# cmdline : ", o);
	put_clean(o, r->opts.cmdline);
	fputc('\n', o);
	fprintf(o, "# event : %s ", r->opts.event->name);
	if (r->opts.period)
		fprintf(o, "period %" PRIu64, r->opts.period);
	else
		fprintf(o, "freq %" PRIu64, r->opts.freq);
	if (r->opts.dwarf)
		fprintf(o, " callgraph dwarf %" PRIu32 "\n", r->opts.stack_size);
	else
		fprintf(o, " callgraph fp\n");
	fprintf(o, "# kernel : %s\n", r->user_only ? "excluded" : "included");
	/* so that fgsym can tell a stream recorded under another kernel */
	if (!r->user_only && (kid = kallsyms_buildid("/sys/kernel/notes"))) {
		fprintf(o, "# buildid : %s " KERNEL_DSO "\n", kid);
		free(kid);
	}
}

static const char *
anon_dso(pid_t pid)
{
	static pid_t last;
	static int exists;
	static char name[64];

	if (pid != last) {
		last = pid;
		snprintf(name, sizeof(name), "/tmp/perf-%d.map", (int)pid);
		exists = access(name, R_OK) == 0;
	}
	return exists ? name : UNKNOWN_DSO;
}

static void
frame_push(struct record *r, uint64_t addr, const char *dso, struct mapfile *f)
{
	GROW(r->frames, r->nframes + 1, r->frames_cap);
	r->frames[r->nframes].addr = addr;
	r->frames[r->nframes].dso = dso;
	r->frames[r->nframes].file = f;
	r->nframes++;
}

/* Adds a user frame; exact is 0 for a return address (looked up at pc-1). */
static void
user_frame(struct record *r, pid_t pid, uint64_t pc, int exact)
{
	uint64_t adj = exact ? 0 : 1, va;
	struct mapping *mp = maps_find(&r->maps, pid, pc - adj);

	/* In the kernel during execve, the registers are the caller's. */
	if (mp == NULL && exact)
		mp = maps_find_prev(&r->maps, pid, pc);

	if (mp == NULL) {
		r->stats.unknown++;
		frame_push(r, pc, UNKNOWN_DSO, NULL);
		return;
	}
	if (mp->file->kind == MAPFILE_ANON) {
		frame_push(r, pc, anon_dso(pid), NULL);
		return;
	}
	if (mapping_vaddr(mp, pc - adj, &va) == 0) {
		frame_push(r, va + adj, mp->file->path, mp->file);
		return;
	}
	if (!mp->file->warned && !mp->file->usable) {
		mp->file->warned = 1;
		if (mp->file->buildid_mismatch)
			warnx("'%s' was rebuilt after the program mapped it (%s): "
			    "its frames are written as [unknown]; record again",
			    mp->file->path, mp->file->why);
		else
			warnx("cannot read '%s' (%s): its frames are written as "
			    "[unknown] absolute addresses", mp->file->path,
			    mp->file->why[0] ? mp->file->why : "not ELF");
	}
	r->stats.unknown++;
	if (!mp->file->usable)
		r->rval = 1;
	frame_push(r, pc, UNKNOWN_DSO, NULL);
}

static uint64_t
rd64(const unsigned char **p)
{
	uint64_t v;

	memcpy(&v, *p, 8);
	*p += 8;
	return v;
}

static void
handle_sample(struct record *r, const struct perf_event_header *h)
{
	const unsigned char *p = (const void *)(h + 1);
	const unsigned char *end = (const unsigned char *)h + h->size;
	uint64_t time, period, nr, v, *ips, regs[PERF_REGS_COUNT];
	uint32_t pid, tid, cpu;
	size_t i, nuser = 0;
	int truncated = 0, in_kernel = 0, have_regs = 0;
	const unsigned char *stack = NULL;
	uint64_t stack_size = 0, dyn_size = 0;
	FILE *o = r->opts.out;
	enum unwind_end why = UNWIND_COMPLETE;

	if (p + 48 > end)
		return;
	p += 8;		/* ip: the callchain or the registers have it */
	v = rd64(&p);
	pid = (uint32_t)v;
	tid = (uint32_t)(v >> 32);
	time = rd64(&p);
	v = rd64(&p);
	cpu = (uint32_t)v;
	period = rd64(&p);
	nr = rd64(&p);
	if (nr > (uint64_t)(end - p) / 8)
		return;
	ips = xmalloc((nr ? nr : 1) * sizeof(*ips));
	memcpy(ips, p, nr * 8);
	p += nr * 8;
	if (r->opts.dwarf) {
		uint64_t abi;

		if (p + 8 > end)
			goto out;
		abi = rd64(&p);
		if (abi != PERF_SAMPLE_REGS_ABI_NONE) {
			if (p + 8 * PERF_REGS_COUNT > end)
				goto out;
			memcpy(regs, p, sizeof(regs));
			p += sizeof(regs);
			have_regs = 1;
		}
		if (p + 8 > end)
			goto out;
		stack_size = rd64(&p);
		if (stack_size) {
			if (p + stack_size + 8 > end)
				goto out;
			stack = p;
			p += stack_size;
			dyn_size = rd64(&p);
			if (dyn_size > stack_size)
				dyn_size = stack_size;
		}
	}

	r->nframes = 0;
	/* Kernel frames, then the user frames of the kernel's callchain (fp). */
	for (i = 0; i < nr; i++) {
		uint64_t a = ips[i];

		if (a >= PERF_CONTEXT_MAX) {
			in_kernel = a == PERF_CONTEXT_KERNEL;
			if (a == PERF_CONTEXT_USER)
				in_kernel = 0;
			continue;
		}
		if (in_kernel) {
			frame_push(r, a, KERNEL_DSO, NULL);
		} else if (!r->opts.dwarf) {
			user_frame(r, (pid_t)pid, a, nuser == 0);
			nuser++;
		}
	}
	if (!r->opts.dwarf && nuser > 0) {
		if (nr >= 127 || !unwind_is_outermost(&r->unwind, (pid_t)pid,
		    ips[nr - 1]))
			truncated = 1;
	}
	if (r->opts.dwarf && have_regs) {
		struct unwind_input in;
		size_t n;

		in.pid = (pid_t)pid;
		unwind_regs_from_perf(regs, in.regs);
		in.valid = (1u << UNWIND_NREGS) - 1;
		in.stack = stack;
		in.stack_len = dyn_size;
		n = unwind_stack(&r->unwind, &in, r->pcs, r->pcs_cap, &why);
		for (i = 0; i < n; i++)
			user_frame(r, (pid_t)pid, r->pcs[i], i == 0);
		if (why != UNWIND_COMPLETE)
			truncated = 1;
	}
	if (truncated) {
		r->stats.truncated++;
		if (!r->opts.dwarf)
			why = UNWIND_NOCFI;
		r->stats.end_reason[why]++;
	}

	/* # buildid lines must precede the first sample that uses the file. */
	for (i = 0; i < r->nframes; i++) {
		struct mapfile *f = r->frames[i].file;

		if (f && f->buildid && !f->buildid_written) {
			f->buildid_written = 1;
			fprintf(o, "# buildid : %s ", f->buildid);
			put_clean(o, f->path);
			fputc('\n', o);
		}
	}
	fprintf(o, "%s %u/%u [%03u] %" PRIu64 ".%06" PRIu64 ": %" PRIu64
	    " %s:\n", comm_get(r, (pid_t)pid, (pid_t)tid), pid, tid, cpu,
	    (uint64_t)(time / 1000000000U), (uint64_t)(time % 1000000000U / 1000), period,
	    r->opts.event->name);
	for (i = 0; i < r->nframes; i++) {
		fprintf(o, "\t%" PRIx64 " [unknown] (", r->frames[i].addr);
		put_clean(o, r->frames[i].dso);
		fputs(")\n", o);
	}
	if (truncated)
		fputs(TRUNCATED_LINE, o);
	fputc('\n', o);
	r->stats.samples++;
out:
	free(ips);
}

static void
handle_record(struct record *r, const struct perf_event_header *h)
{
	const unsigned char *p = (const void *)(h + 1);
	const unsigned char *end = (const unsigned char *)h + h->size;
	uint32_t pid, tid;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		handle_sample(r, h);
		break;
	case PERF_RECORD_MMAP2: {
		uint64_t addr, len, pgoff;
		uint32_t prot;
		const unsigned char *bid = NULL;
		size_t bidlen = 0;
		char *name;

		if (p + 64 > end)
			break;
		memcpy(&pid, p, 4);
		memcpy(&tid, p + 4, 4);
		memcpy(&addr, p + 8, 8);
		memcpy(&len, p + 16, 8);
		memcpy(&pgoff, p + 24, 8);
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			bidlen = p[32];
			if (bidlen > 20)
				bidlen = 20;
			bid = p + 36;
		}
		memcpy(&prot, p + 56, 4);
		name = (char *)(p + 64);
		if (!(prot & PROT_EXEC) || pid == (uint32_t)-1 ||
		    memchr(name, '\0', (size_t)(end - (const unsigned char *)name)) == NULL)
			break;
		maps_add(&r->maps, (pid_t)pid, addr, len, pgoff, name, bid, bidlen);
		break;
	}
	case PERF_RECORD_MMAP: {
		uint64_t addr, len, pgoff;
		char *name;

		if (p + 32 > end || (h->misc & PERF_RECORD_MISC_MMAP_DATA))
			break;
		memcpy(&pid, p, 4);
		memcpy(&addr, p + 8, 8);
		memcpy(&len, p + 16, 8);
		memcpy(&pgoff, p + 24, 8);
		name = (char *)(p + 32);
		if (pid == (uint32_t)-1 ||
		    memchr(name, '\0', (size_t)(end - (const unsigned char *)name)) == NULL)
			break;
		maps_add(&r->maps, (pid_t)pid, addr, len, pgoff, name, NULL, 0);
		break;
	}
	case PERF_RECORD_COMM: {
		char *name;

		if (p + 9 > end)
			break;
		memcpy(&pid, p, 4);
		memcpy(&tid, p + 4, 4);
		name = (char *)(p + 8);
		if (memchr(name, '\0', (size_t)(end - (const unsigned char *)name)) == NULL)
			break;
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC)
			maps_exec(&r->maps, (pid_t)pid);
		comm_set(r, (pid_t)tid, name);
		break;
	}
	case PERF_RECORD_FORK: {
		uint32_t ppid, ptid;
		struct comm_ent *e;

		if (p + 16 > end)
			break;
		memcpy(&pid, p, 4);
		memcpy(&ppid, p + 4, 4);
		memcpy(&tid, p + 8, 4);
		memcpy(&ptid, p + 12, 4);
		if (pid != ppid)
			maps_fork(&r->maps, (pid_t)ppid, (pid_t)pid);
		e = comm_slot(r, (pid_t)ptid);
		if ((pid_t)ptid > 0 && e->tid == (pid_t)ptid) {
			char buf[24];

			memcpy(buf, e->comm, sizeof(buf));
			comm_set(r, (pid_t)tid, buf);
		}
		break;
	}
	case PERF_RECORD_EXIT:
		/*
		 * A process is gone: records come in time order, so none of
		 * its samples can follow. Keeps long recordings of builds
		 * with many processes small. The main thread's exit is not
		 * the process's (pthread_exit): only a process that no longer
		 * exists at all is forgotten.
		 */
		if (p + 16 > end)
			break;
		memcpy(&pid, p, 4);
		memcpy(&tid, p + 8, 4);
		if (pid == tid && (pid_t)pid != r->child &&
		    kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			maps_exit(&r->maps, (pid_t)pid);
		break;
	case PERF_RECORD_LOST: {
		uint64_t lost;

		if (p + 16 > end)
			break;
		memcpy(&lost, p + 8, 8);
		r->stats.lost += lost;
		r->stats.lost_records++;
		fprintf(r->opts.out, "# lost : %" PRIu64 "\n", lost);
		break;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		uint64_t lost;

		if (p + 8 > end)
			break;
		memcpy(&lost, p, 8);
		r->stats.lost += lost;
		r->stats.lost_records++;
		fprintf(r->opts.out, "# lost : %" PRIu64 "\n", lost);
		break;
	}
	case PERF_RECORD_THROTTLE:
		r->stats.throttled++;
		break;
	default:
		break;
	}
}

/* ---- the queue: records of all CPUs, put back in time order ---- */

static uint64_t
record_time(const struct perf_event_header *h)
{
	uint64_t t;

	if (h->type == PERF_RECORD_SAMPLE) {
		if (h->size < sizeof(*h) + 24)
			return 0;
		memcpy(&t, (const char *)(h + 1) + 16, 8);
		return t;
	}
	/* sample_id_all: TID, TIME, CPU at the end of every other record. */
	if (h->size < sizeof(*h) + 24)
		return 0;
	memcpy(&t, (const char *)h + h->size - 16, 8);
	return t;
}

static void
enqueue(void *arg, const struct perf_event_header *h, int cpu)
{
	struct record *r = arg;
	struct qent *q;
	size_t sz = ((size_t)h->size + 7) & ~(size_t)7;

	if (r->arena_cap < r->arena_len + sz) {
		r->arena_cap = (r->arena_len + sz) * 2;
		r->arena = xrealloc(r->arena, r->arena_cap);
	}
	memcpy(r->arena + r->arena_len, h, h->size);
	GROW(r->queue, r->nqueue + 1, r->queue_cap);
	q = &r->queue[r->nqueue++];
	q->time = record_time(h);
	q->seq = r->seq++;
	q->off = r->arena_len;
	q->cpu = cpu;
	r->arena_len += sz;
}

static int
qent_cmp(const void *a, const void *b)
{
	const struct qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Handles the queued records up to time limit (all when limit is
 * UINT64_MAX) in time order, and keeps the rest for the next round.
 */
static void
process_queue(struct record *r, uint64_t limit)
{
	size_t i, keep = 0, newlen = 0;
	unsigned char *na = NULL;

	if (r->nqueue > 0)	/* qsort of a NULL array is undefined */
		qsort(r->queue, r->nqueue, sizeof(*r->queue), qent_cmp);
	for (i = 0; i < r->nqueue; i++) {
		if (r->queue[i].time > limit)
			break;
		handle_record(r, (const void *)(r->arena + r->queue[i].off));
	}
	if (i < r->nqueue) {
		size_t j;

		for (j = i; j < r->nqueue; j++) {
			const struct perf_event_header *h =
			    (const void *)(r->arena + r->queue[j].off);

			newlen += (h->size + 7) & ~(size_t)7;
		}
		na = xmalloc(newlen);
		newlen = 0;
		for (j = i; j < r->nqueue; j++) {
			const struct perf_event_header *h =
			    (const void *)(r->arena + r->queue[j].off);

			memcpy(na + newlen, h, h->size);
			r->queue[keep] = r->queue[j];
			r->queue[keep].off = newlen;
			newlen += (h->size + 7) & ~(size_t)7;
			keep++;
		}
	}
	if (na) {
		free(r->arena);
		r->arena = na;
		r->arena_cap = newlen;
	}
	r->arena_len = newlen;
	r->nqueue = keep;
}

static void
drain_all(struct record *r, uint64_t limit)
{
	int cpu;

	for (cpu = 0; cpu < r->ncpus; cpu++)
		perf_ring_drain(&r->rings[cpu], enqueue, r);
	process_queue(r, limit);
}

static void
check_output(struct record *r)
{
	if (r->write_failed)
		return;
	if (fflush(r->opts.out) != 0 || ferror(r->opts.out)) {
		if (errno == EPIPE && r->child)
			warnx("the reader of '%s' went away (%s): recording "
			    "stopped; waiting for '%s' to end (Ctrl-C ends it)",
			    r->opts.outname, strerror(EPIPE), r->opts.argv[0]);
		else if (errno == EPIPE)
			warnx("the reader of '%s' went away (%s): recording "
			    "stopped", r->opts.outname, strerror(EPIPE));
		else
			warn("write error on '%s'", r->opts.outname);
		r->write_failed = 1;
	}
}

/* ---- the session ---- */

static pid_t
launch(struct record *r, int *go_fd, int *err_fd)
{
	int go[2], ep[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) != 0 || pipe2(ep, O_CLOEXEC) != 0)
		err(2, "pipe");
	fflush(NULL);
	if ((pid = fork()) < 0)
		err(2, "fork");
	if (pid == 0) {
		char c;
		int e;

		/*
		 * Only the parent may hold the write end of go: if it dies or
		 * gives up before starting the command, read() sees EOF and
		 * the child leaves, instead of waiting for ever.
		 */
		close(go[1]);
		close(ep[0]);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		if (r->opts.cmd_stdout != STDOUT_FILENO &&
		    dup2(r->opts.cmd_stdout, STDOUT_FILENO) < 0)
			_exit(127);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(r->opts.argv[0], r->opts.argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(ep[1]);
	*go_fd = go[1];
	*err_fd = ep[0];
	return pid;
}

/* Is the thread's /proc stat file there, and the thread not a zombie? */
static int
stat_alive(const char *path)
{
	char buf[512], *s;
	FILE *f;
	int alive = 0;

	if ((f = fopen(path, "re")) == NULL)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (s = strrchr(buf, ')')) != NULL)
		alive = s[1] == ' ' && s[2] != 'Z' && s[2] != 'X';
	fclose(f);
	return alive;
}

/*
 * Does process pid still run? Any of its threads counts: the main thread
 * may have called pthread_exit (a zombie) while the others work on.
 */
static int
proc_alive(pid_t pid)
{
	char path[96];
	DIR *d;
	struct dirent *de;
	int alive = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (stat_alive(path))
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return 0;
	while (!alive && (de = readdir(d)) != NULL) {
		int tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid,
		    tid);
		alive = stat_alive(path);
	}
	closedir(d);
	return alive;
}

static void
read_all_procs(struct record *r)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid <= 0)
			continue;
		maps_read_proc(&r->maps, pid);
		read_task_comms(r, pid);
	}
	closedir(d);
}

static void
summary(struct record *r)
{
	struct record_stats *s = &r->stats;
	double rate = s->seconds > 0 ? s->samples / s->seconds : 0;
	double trunc = s->samples ? 100.0 * s->truncated / s->samples : 0;

	int i, best = 1;

	if (r->opts.quiet)
		return;
	for (i = 1; i < 8; i++)
		if (s->end_reason[i] > s->end_reason[best])
			best = i;
	fprintf(stderr, "fgrecord: %" PRIu64 " samples in %.2f s (%.0f/s), "
	    "%" PRIu64 " lost, %.1f%% truncated%s%s%s, own CPU %.2f s\n",
	    s->samples, s->seconds, rate, s->lost, trunc,
	    s->truncated ? " (mostly: " : "",
	    s->truncated ? (r->opts.dwarf ? unwind_end_str(best) :
	    "frame-pointer chain ended early") : "",
	    s->truncated ? ")" : "", s->cpu_seconds);
	if (!r->opts.period && perf_max_sample_rate() > 0 &&
	    (uint64_t)perf_max_sample_rate() < r->opts.freq)
		fprintf(stderr, "fgrecord: the kernel lowered "
		    "kernel.perf_event_max_sample_rate to %ld during the "
		    "recording, below -F %" PRIu64 ": the rate is lower than "
		    "asked\n", perf_max_sample_rate(), r->opts.freq);
	if (s->throttled)
		fprintf(stderr, "fgrecord: the kernel throttled sampling %"
		    PRIu64 " times: lower -F (kernel.perf_event_max_sample_rate "
		    "is %ld)\n", s->throttled, perf_max_sample_rate());
	if (s->truncated && r->opts.dwarf) {
		if (best == UNWIND_NOSTACK && trunc > 5 &&
		    r->opts.stack_size < 65528)
			fprintf(stderr, "fgrecord: most truncated stacks were "
			    "deeper than the stack copy: try --call-graph "
			    "dwarf,65528\n");
	}
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
	char buf[4096], *p, *tok, *save = NULL;
	int any = 0;

	if (f && fgets(buf, sizeof(buf), f)) {
		for (tok = strtok_r(buf, ",\n", &save); tok;
		    tok = strtok_r(NULL, ",\n", &save)) {
			long a = strtol(tok, &p, 10), b = a;

			if (*p == '-')
				b = strtol(p + 1, NULL, 10);
			for (; a <= b && a < n; a++)
				if (a >= 0) {
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

/* Opens the events of the session: the command, the whole system, or -p. */
static void
open_events(struct record *r)
{
	size_t i;
	int cpu, fd;

	if (r->child) {
		open_for_task(r, r->child, 0);
	} else if (r->opts.system_wide) {
		for (cpu = 0; cpu < r->ncpus; cpu++) {
			if (!r->online[cpu] || (fd = open_one(r, -1, cpu, 0)) < 0)
				continue;
			add_fd(r, fd);
			attach_ring(r, fd, cpu);
		}
	} else {
		for (i = 0; i < r->opts.npids; i++)
			if (open_for_pid(r, r->opts.pids[i]) == 0)
				errx(2, "process %d has no threads left",
				    (int)r->opts.pids[i]);
	}
}

/*
 * Sizes the per-CPU ring buffers to hold about a quarter of a second of
 * samples of one busy thread, so that a recorder that is descheduled for a
 * while loses nothing: 8 MiB for dwarf at 999 Hz with 16 KiB copies, up to
 * 64 MiB. A power of two, in pages.
 */
static size_t
ring_pages_for(const struct record_opts *o)
{
	size_t pgsz = (size_t)sysconf(_SC_PAGESIZE);
	double rate = o->period ? 1000.0 : (double)o->freq;
	double per = (o->dwarf ? o->stack_size + 1024.0 : 1024.0);
	size_t want = (size_t)(per * rate / 4 / pgsz), pages;

	for (pages = o->dwarf ? 2048 : 128; pages < want && pages < 16384; )
		pages *= 2;
	return pages;
}

int
record_run(struct record *r)
{
	struct sigaction sa;
	int go_fd = -1, err_fd = -1, status = 0, stopping = 0, tries;
	size_t want_pages;
	size_t i;
	double t0, deadline = 0;
	struct pollfd *pfd;
	int *pcpu, *hup;
	struct perf_opts po;
	long maxrate = perf_max_sample_rate();
	struct rusage ru;

	if (r->opts.mode != RECORD_CPU)
		errx(2, "%s: not available in this build yet",
		    r->opts.mode == RECORD_WALL ? "--wall" : "--off-cpu");
	if (r->opts.freq && !r->opts.period && maxrate > 0 &&
	    r->opts.freq > (uint64_t)maxrate)
		errx(2, "-F %" PRIu64 " is above kernel.perf_event_max_sample_rate "
		    "(%ld): lower -F, or raise it with sudo sysctl "
		    "kernel.perf_event_max_sample_rate=%" PRIu64, r->opts.freq,
		    maxrate, r->opts.freq);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);

	r->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (r->ncpus < 1)
		r->ncpus = 1;
	r->online = online_cpus(r->ncpus);
	r->rings = xcalloc(r->ncpus, sizeof(*r->rings));
	for (i = 0; i < (size_t)r->ncpus; i++)
		r->rings[i].fd = -1;
	r->ring_pages = want_pages = ring_pages_for(&r->opts);

	memset(&po, 0, sizeof(po));
	po.event = r->opts.event;
	po.freq = r->opts.freq;
	po.period = r->opts.period;
	po.dwarf = r->opts.dwarf;
	po.stack_size = r->opts.stack_size;
	po.inherit = !r->opts.system_wide;
	po.enable_on_exec = r->opts.argv != NULL;
	po.build_id = 1;
	po.sideband = 1;
	if (r->opts.argv)
		r->child = launch(r, &go_fd, &err_fd);
	/*
	 * The kernel may grant smaller ring buffers than asked (the mlock
	 * limit): then everything is opened again with the wake-up mark
	 * scaled to what was granted, or the buffers would overflow between
	 * two wake-ups.
	 */
	for (tries = 0; ; tries++) {
		size_t pages = r->ring_pages;
		int no_bid = tries > 0 && !r->attr.build_id;
		int no_kernel = r->attr.exclude_kernel;

		po.wakeup_bytes = (uint32_t)(r->ring_pages *
		    (size_t)sysconf(_SC_PAGESIZE) / 8);
		perf_attr_fill(&r->attr, &po);
		if (no_bid)
			r->attr.build_id = 0;
		if (no_kernel)
			r->attr.exclude_kernel = 1;
		open_events(r);
		if (r->ring_pages == pages || tries == 4)
			break;
		close_all(r);
	}
	if (r->ring_pages < want_pages)
		warnx("ring buffers cut to %zu KiB per CPU by "
		    "kernel.perf_event_mlock_kb: samples may be lost; raise it "
		    "with sudo sysctl kernel.perf_event_mlock_kb=%zu",
		    r->ring_pages * (size_t)sysconf(_SC_PAGESIZE) / 1024,
		    (want_pages * (size_t)sysconf(_SC_PAGESIZE) / 1024 + 4) *
		    (size_t)r->ncpus);
	if (r->user_only && !r->opts.quiet) {
		int p = perf_paranoid();

		warnx("kernel.perf_event_paranoid is %d: recording user space only "
		    "(for kernel stacks: sudo sysctl kernel.perf_event_paranoid=1)",
		    p == INT_MIN ? -1 : p);
	}
	write_header(r);

	t0 = now_mono();
	if (r->opts.duration > 0)
		deadline = t0 + r->opts.duration;
	if (r->child) {
		int e;
		ssize_t n;

		if (write(go_fd, "g", 1) != 1)
			err(2, "cannot start the command");
		close(go_fd);
		do
			n = read(err_fd, &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		close(err_fd);
		if (n == sizeof(e)) {
			waitpid(r->child, NULL, 0);
			check_output(r);
			if (e == ENOENT)
				errx(127, "'%s': command not found",
				    r->opts.argv[0]);
			errx(126, "'%s': %s", r->opts.argv[0], strerror(e));
		}
		comm_set(r, r->child, strrchr(r->opts.argv[0], '/') ?
		    strrchr(r->opts.argv[0], '/') + 1 : r->opts.argv[0]);
	} else {
		for (i = 0; i < r->nfds; i++)
			ioctl(r->fds[i], PERF_EVENT_IOC_ENABLE, 0);
		if (r->opts.system_wide)
			read_all_procs(r);
		for (i = 0; i < r->opts.npids; i++) {
			maps_read_proc(&r->maps, r->opts.pids[i]);
			read_task_comms(r, r->opts.pids[i]);
		}
	}
	check_output(r);

	pfd = xcalloc(r->ncpus, sizeof(*pfd));
	pcpu = xcalloc(r->ncpus, sizeof(*pcpu));
	hup = xcalloc(r->ncpus, sizeof(*hup));
	for (;;) {
		int timeout = 100, np = 0, cpu;
		uint64_t limit;

		/*
		 * An event whose thread has exited reports POLLHUP for good;
		 * its ring may still receive the records of other threads, so
		 * it is drained every round, but no longer polled.
		 */
		for (cpu = 0; cpu < r->ncpus; cpu++) {
			if (r->rings[cpu].base == NULL || hup[cpu])
				continue;
			pfd[np].fd = r->rings[cpu].fd;
			pfd[np].events = POLLIN;
			pfd[np].revents = 0;
			pcpu[np] = cpu;
			np++;
		}
		if (deadline > 0) {
			double left = deadline - now_mono();

			if (left <= 0)
				timeout = 0;
			else if (left < 0.1)
				timeout = (int)(left * 1000) + 1;
		}
		if (!stopping && timeout > 0 && !got_signal &&
		    poll(pfd, np, timeout) > 0) {
			int k;

			for (k = 0; k < np; k++)
				if (pfd[k].revents & (POLLHUP | POLLERR))
					hup[pcpu[k]] = 1;
		}
		limit = now_ns();
		drain_all(r, limit);
		check_output(r);

		if (got_signal && !stopping) {
			if (r->child && forward_signal)
				kill(r->child, forward_signal);
			if (!r->child)
				stopping = 1;
			got_signal = 0;
			forward_signal = 0;
		}
		if (deadline > 0 && now_mono() >= deadline && !stopping) {
			if (r->child)
				kill(r->child, SIGTERM);
			else
				stopping = 1;
			deadline = 0;
		}
		/*
		 * Nobody reads the stream: stop sampling. A command runs on to
		 * its end (it may be a build or a server doing real work); with
		 * -p and -a there is nothing left to wait for.
		 */
		if (r->write_failed && !stopping) {
			for (i = 0; i < r->nfds; i++)
				ioctl(r->fds[i], PERF_EVENT_IOC_DISABLE, 0);
			if (!r->child)
				stopping = 1;
		}
		if (r->child && !r->child_done) {
			pid_t w = waitpid(r->child, &r->child_status, WNOHANG);

			if (w == r->child)
				r->child_done = 1;
		}
		if (r->child && r->child_done)
			stopping = 1;
		if (!r->child && !r->opts.system_wide && !stopping) {
			int any = 0;

			for (i = 0; i < r->opts.npids; i++)
				any |= proc_alive(r->opts.pids[i]);
			if (!any)
				stopping = 1;
		}
		if (stopping)
			break;
	}
	for (i = 0; i < r->nfds; i++)
		ioctl(r->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	drain_all(r, UINT64_MAX);
	free(pfd);
	free(pcpu);
	free(hup);
	r->stats.seconds = now_mono() - t0;
	getrusage(RUSAGE_SELF, &ru);
	r->stats.cpu_seconds = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	for (i = 0; i < (size_t)r->ncpus; i++)
		r->stats.ring_bytes += r->rings[i].bytes;
	check_output(r);
	summary(r);

	if (r->write_failed)
		return 2;
	if (r->child) {
		if (WIFEXITED(r->child_status))
			status = WEXITSTATUS(r->child_status);
		else if (WIFSIGNALED(r->child_status))
			status = 128 + WTERMSIG(r->child_status);
		else
			status = 2;
		return status;
	}
	return r->rval;
}
