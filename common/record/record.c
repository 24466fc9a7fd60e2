#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stream/diag.h"
#include "stream/dso.h"
#include "stream/writer.h"
#include "elf/kallsyms.h"
#include "base/procfs.h"
#include "record/caps.h"
#include "record/comm.h"
#include "record/keepcopy.h"
#include "record/allocprep.h"
#include "record/record.h"
#include "record/summary.h"
#include "record/source.h"
#include "base/xalloc.h"
#include "stream/stream.h"

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

/* The monotonic clock in seconds, for the duration and the summary. */
static double
now_mono(void)
{
	return procfs_now_ns() / 1e9;
}

uint32_t
record_stack_size(uint64_t freq, uint64_t period)
{
	const uint64_t budget = 64ULL << 20;	/* bytes per second per CPU */
	uint64_t rate = period || freq == 0 ? 1000 : freq, size;

	size = budget / rate & ~7ULL;
	if (size > RECORD_STACK_MAX)
		size = RECORD_STACK_MAX;
	if (size < 8192)
		size = 8192;
	return (uint32_t)size;
}

void
record_init(struct record *r, const struct record_opts *opts)
{
	memset(r, 0, sizeof(*r));
	r->opts = *opts;
	maps_init(&r->maps);
	r->maps.search = opts->search;
	unwind_init(&r->unwind, &r->maps);
	fpchain_init(&r->fpchain, &r->unwind);
	comm_init(&r->comms);
	r->unwind.max_depth = (int)(opts->max_depth ? opts->max_depth :
	    RECORD_DEPTH_DEFAULT);
	r->pcs_cap = (size_t)r->unwind.max_depth;
	r->pcs = xmalloc(r->pcs_cap * sizeof(*r->pcs));
	r->sps = xmalloc(r->pcs_cap * sizeof(*r->sps));
	r->lpcs = xmalloc(r->pcs_cap * sizeof(*r->lpcs));
	r->lsps = xmalloc(r->pcs_cap * sizeof(*r->lsps));
	stitch_init(&r->stitch);
	livestack_init(&r->live);
}

void
record_release(struct record *r)
{
	if (r->src.ops && r->src.priv) {
		r->src.ops->close(&r->src);
		r->src.priv = NULL;
	}
	fpchain_release(&r->fpchain);
	unwind_release(&r->unwind);
	maps_release(&r->maps);
	comm_release(&r->comms);
	free(r->pcs);
	free(r->sps);
	free(r->lpcs);
	free(r->lsps);
	stitch_release(&r->stitch);
	livestack_release(&r->live);
	free(r->frames);
	free(r->files);
	memset(r, 0, sizeof(*r));
}

/* ---- the stream ---- */

/* Hands the sink one header line. */
static void
header(struct record *r, const struct sample_hdr *h)
{
	r->opts.sink.ops->header(r->opts.sink.arg, h);
}

static void
header_text(struct record *r, enum sample_hdr_kind kind, const char *key,
    const char *value)
{
	struct sample_hdr h = { .kind = kind, .key = key, .value = value };

	header(r, &h);
}

static void
header_event(struct record *r, const struct stream_event *ev)
{
	struct sample_hdr h = { .kind = SAMPLE_HDR_EVENT, .event = ev };

	header(r, &h);
}

/* The "# event" line of an event sampled as the options say. */
static void
write_event(struct record *r, const char *name, enum stream_rate kind,
    uint64_t rate)
{
	struct stream_event ev = { name, kind, rate, r->opts.cfg.dwarf,
	    r->opts.cfg.stack_size };

	header_event(r, &ev);
}

/*
 * The header of a recording its source describes (a replay's): what it
 * says it recorded. A perf.data file says no wall-clock start: no
 * "# start" line.
 */
static void
write_recorded_header(struct record *r)
{
	const struct source_info *in = r->src.info;
	struct sample_hdr h = { .kind = SAMPLE_HDR_BEGIN };
	size_t i;

	header(r, &h);
	if (in->cmdline)
		header_text(r, SAMPLE_HDR_TEXT, STREAM_KEY_CMDLINE, in->cmdline);
	for (i = 0; i < in->nevents; i++)
		header_event(r, &in->events[i]);
	header_text(r, SAMPLE_HDR_TEXT, STREAM_KEY_KERNEL, r->src.user_only ?
	    "excluded" : "included");
	if (!r->src.user_only && in->kernel_buildid)
		header_text(r, SAMPLE_HDR_BUILDID, STREAM_KERNEL,
		    in->kernel_buildid);
	h.kind = SAMPLE_HDR_FENCE;
	header(r, &h);
}

static void
write_header(struct record *r)
{
	struct stream_start st;
	struct sample_hdr h = { .kind = SAMPLE_HDR_BEGIN, .start = &st };
	struct timespec ts;
	char *kid;

	if (r->src.info) {
		write_recorded_header(r);
		return;
	}
	/* the start on both clocks: the sample heads' time, and the date */
	clock_gettime(CLOCK_REALTIME, &ts);
	st.clock_ns = procfs_now_ns();
	st.wall_ns = (uint64_t)ts.tv_sec * 1000000000U + (uint64_t)ts.tv_nsec;
	header(r, &h);
	header_text(r, SAMPLE_HDR_TEXT, STREAM_KEY_CMDLINE, r->opts.cmdline);
	if (r->opts.cfg.mode == RECORD_ALLOC) {
		write_event(r, STREAM_ALLOC_BYTES_EVENT, STREAM_RATE_PERIOD,
		    r->opts.cfg.period);
		write_event(r, STREAM_ALLOC_OBJECTS_EVENT, STREAM_RATE_NONE, 0);
		write_event(r, STREAM_INUSE_BYTES_EVENT, STREAM_RATE_NONE, 0);
		write_event(r, STREAM_INUSE_OBJECTS_EVENT, STREAM_RATE_NONE, 0);
	} else if (r->opts.cfg.mode != RECORD_OFFCPU)
		write_event(r, r->opts.cfg.event->name, r->opts.cfg.period ?
		    STREAM_RATE_PERIOD : STREAM_RATE_FREQ, r->opts.cfg.period ?
		    r->opts.cfg.period : r->opts.cfg.freq);
	if (r->opts.cfg.mode == RECORD_OFFCPU || r->opts.cfg.mode == RECORD_WALL)
		write_event(r, STREAM_OFFCPU_EVENT, STREAM_RATE_NONE, 0);
	header_text(r, SAMPLE_HDR_TEXT, STREAM_KEY_KERNEL, r->src.user_only ?
	    "excluded" : "included");
	/* so that fgsym can tell a stream recorded under another kernel */
	if (!r->src.user_only && (kid = kallsyms_buildid("/sys/kernel/notes"))) {
		header_text(r, SAMPLE_HDR_BUILDID, STREAM_KERNEL, kid);
		free(kid);
	}
	h.kind = SAMPLE_HDR_FENCE;
	header(r, &h);
}

/*
 * The DSO of anonymous code in process pid: its JIT's perf map,
 * /tmp/perf-PID.map, when there is one, else STREAM_UNKNOWN. One
 * access(2) per process while the map is there; while it is not, one
 * per sample, so that a map the JIT writes later is seen from then on.
 * Borrowed until the next call.
 */
static const char *
anon_dso(struct record *r, pid_t pid)
{
	if (pid != r->perfmap.pid || (!r->perfmap.exists &&
	    r->perfmap.checked != r->stats.samples)) {
		r->perfmap.pid = pid;
		r->perfmap.checked = r->stats.samples;
		snprintf(r->perfmap.name, sizeof(r->perfmap.name),
		    "/tmp/perf-%d.map", (int)pid);
		r->perfmap.exists = access(r->perfmap.name, R_OK) == 0;
	}
	return r->perfmap.exists ? r->perfmap.name : STREAM_UNKNOWN;
}

static void
frame_push(struct record *r, uint64_t addr, const char *dso, struct mapfile *f)
{
	GROW(r->frames, r->nframes + 1, r->frames_cap);
	GROW(r->files, r->nframes + 1, r->files_cap);
	r->frames[r->nframes].addr = addr;
	r->frames[r->nframes].dso = dso;
	r->frames[r->nframes].file = f != NULL ? f->id : 0;
	r->files[r->nframes] = f;
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
		frame_push(r, pc, STREAM_UNKNOWN, NULL);
		return;
	}
	if (mp->file->kind == MAPFILE_ANON) {
		frame_push(r, pc, anon_dso(r, pid), NULL);
		return;
	}
	if (mapping_vaddr(mp, pc - adj, &va) == 0) {
		frame_push(r, va + adj, mp->file->path, mp->file);
		return;
	}
	if (!mp->file->warned && !mp->file->usable) {
		mp->file->warned = 1;
		if (mp->file->buildid_mismatch)
			stream_warnx("'%s' was rebuilt after the program mapped "
			    "it (%s): its frames are written as [unknown]; "
			    "record again", mp->file->path, mp->file->why);
		else
			stream_warnx("cannot read '%s' (%s): its frames are "
			    "written as [unknown] absolute addresses%s",
			    mp->file->path, mp->file->why[0] ? mp->file->why :
			    "not ELF", r->opts.search == NULL ? "" :
			    " (recorded on another machine? give its files "
			    "with --symfs DIR, laid out as recorded, or "
			    "--symbol-dir DIR)");
	}
	r->stats.unknown++;
	if (!mp->file->usable)
		r->rval = 1;
	frame_push(r, pc, STREAM_UNKNOWN, NULL);
}

/* Counts a live read refused: errno e; a thread gone meanwhile is not. */
static void
live_refused(struct record *r, int e)
{
	if (e == 0 || e == ESRCH)
		return;
	if (r->stats.live_denied++ == 0)
		r->stats.live_errno = e;
}

/*
 * Whether the frame a walk ran off the copy in is still on the thread's
 * live stack: its return-address slot holds ra. Counts it stale or
 * refused when not.
 */
static int
live_still_there(struct record *r, uint64_t slot, uint64_t ra)
{
	int h = livestack_holds(&r->live, slot, ra);

	if (h == 0)
		r->stats.live_stale++;
	else if (h != 1)
		live_refused(r, r->live.err);
	return h == 1;
}

/*
 * Goes on with a walk that ran off the end of the stack copy (n frames in
 * r->pcs, the last where it stopped) in the thread's live stack
 * (livestack.h), when that frame is still there: the slot below its
 * stack pointer holds the return address the copy saw, before the walk
 * and after it. The walk is made again with the live reads beyond the
 * copy, in r->lpcs, and taken only when it went further through the same
 * frame. Returns the number of frames in r->pcs, with *why the new walk's
 * end.
 */
static size_t
live_stack(struct record *r, const struct source_event *ev,
    struct unwind_input *in, size_t n, enum unwind_end *why)
{
	uint64_t ra, slot;
	enum unwind_end e;
	size_t m;

	if (n < 2 || r->src.ops->offline || in->more != NULL)
		return n;	/* (the source read on when it took it) */
	ra = r->pcs[n - 1];
	slot = r->sps[n - 1] - 8;
	if (livestack_begin(&r->live, ev->pid, ev->tid,
	    in->regs[UNWIND_SP] + in->stack_len) != 0) {
		live_refused(r, r->live.err);
		return n;
	}
	if (!live_still_there(r, slot, ra))
		return n;
	in->more = livestack_read;
	in->more_arg = &r->live;
	m = unwind_stack_sp(&r->unwind, in, r->lpcs, r->lsps, r->pcs_cap, &e);
	in->more = NULL;
	if (m <= n || r->lpcs[n - 1] != ra || r->lsps[n - 1] != r->sps[n - 1])
		return n;
	if (!live_still_there(r, slot, ra))
		return n;
	memcpy(r->pcs + n, r->lpcs + n, (m - n) * sizeof(*r->pcs));
	memcpy(r->sps + n, r->lsps + n, (m - n) * sizeof(*r->sps));
	if (e == UNWIND_COMPLETE)
		r->stats.live++;
	else
		r->stats.live_partial++;
	*why = e;
	return m;
}

/*
 * Completes a walk that ran off the end of the stack copy (n frames in
 * r->pcs) from the user part of the kernel's callchain (a frame-pointer
 * walk, taken with the sample), when it is consistent with the walk: it
 * holds the walk's last two frames one after the other, and from there
 * goes on to the C runtime's start (fpchain.h) through code only. Code
 * without frame pointers gives a chain that is neither. Returns the
 * number of frames in r->pcs; *why complete when it completed it.
 */
static size_t
fp_stack(struct record *r, const struct source_event *ev, size_t n,
    enum unwind_end *why)
{
	const struct source_sample *s = &ev->u.sample;
	const uint64_t *u = NULL;
	size_t i, j, k = 0, m;

	for (i = 0; i < s->nr; i++) {
		if (s->callchain[i] < PERF_CONTEXT_MAX) {
			if (u)
				k++;
			continue;
		}
		if (u)
			break;
		if (s->callchain[i] == PERF_CONTEXT_USER)
			u = s->callchain + i + 1;
	}
	if (n < 2 || k < 3 || s->chain_cut)
		return n;
	for (j = 1; j < k; j++)
		if (u[j] == r->pcs[n - 1] && u[j - 1] == r->pcs[n - 2])
			break;
	if (j + 1 >= k || n + (k - j - 1) > r->pcs_cap)
		return n;
	for (i = j + 1; i < k; i++)
		if (!unwind_is_code(&r->unwind, ev->pid, u[i]))
			return n;
	if (fpchain_judge(&r->fpchain, ev->pid, u[k - 1], 0) != FPCHAIN_START)
		return n;
	for (i = j + 1, m = n; i < k; i++, m++) {
		r->pcs[m] = u[i];
		r->sps[m] = 0;		/* not known: never matched (stitch.h) */
	}
	r->stats.fp_completed++;
	*why = UNWIND_COMPLETE;
	return m;
}

/*
 * Completes a user stack that ran off the end of the stack copy: from
 * the same thread's last complete stacks (stitch.h), else from the
 * kernel's frame-pointer chain (fp_stack), else from its live stack
 * (live_stack); keeps a complete one for the stitching. Returns
 * the number of frames in r->pcs, and changes *why to complete when it
 * completed it.
 */
static size_t
complete_stack(struct record *r, const struct source_event *ev,
    struct unwind_input *in, size_t n, enum unwind_end *why)
{
	size_t m;

	if (r->opts.no_stitch)
		return n;
	if (*why == UNWIND_NOSTACK) {
		m = stitch_complete(&r->stitch, ev->tid, r->pcs, r->sps, n,
		    r->pcs_cap);
		if (m != n) {
			r->stats.stitched++;
			*why = UNWIND_COMPLETE;
			n = m;
		}
	}
	if (*why == UNWIND_NOSTACK) {
		n = fp_stack(r, ev, n, why);
		if (*why == UNWIND_COMPLETE)
			return n;	/* no stack pointers to keep it by */
	}
	if (*why == UNWIND_NOSTACK)
		n = live_stack(r, ev, in, n, why);
	if (*why == UNWIND_COMPLETE)
		stitch_save(&r->stitch, ev->pid, ev->tid, r->pcs, r->sps, n);
	return n;
}

/*
 * A thread's name: as learnt, else from /proc while recording; a replay's
 * pids are not the recorded processes now: ":TID", as perf says it, and
 * it never reads /proc. Borrowed until the next call.
 */
static const char *
comm_name(struct record *r, pid_t pid, pid_t tid)
{
	const char *name;
	char buf[32];

	if (!r->src.ops->offline)
		return comm_get(&r->comms, pid, tid);
	if (tid == 0)
		return "swapper";	/* the idle task, as perf names it */
	if (tid < 0) {
		/* an exiting thread, no TID: its process's name, if known */
		if (pid > 0 && (name = comm_find(&r->comms, pid)) != NULL)
			return name;
		snprintf(r->notid, sizeof(r->notid), ":%d", (int)tid);
		return r->notid;
	}
	if ((name = comm_find(&r->comms, tid)) != NULL)
		return name;
	snprintf(buf, sizeof(buf), ":%d", (int)tid);
	return comm_set(&r->comms, tid, buf);
}

/* Keeps addr among f's probes when it is new and there is room. */
static void
probe_add(struct mapfile *f, uint64_t addr)
{
	unsigned i;

	if (f->nprobe == MAPFILE_PROBES)
		return;
	for (i = 0; i < f->nprobe; i++)
		if (f->probe[i] == addr)
			return;
	f->probe[f->nprobe++] = addr;
}

/*
 * Why a frame-pointer chain of pid (nuser user frames from leaf to last)
 * ended: UNWIND_DEPTH when deep is nonzero (fgrecord's --max-depth, or
 * the kernel's limit, cut it); UNWIND_COMPLETE when it reached the C
 * runtime's start (fpchain.h), which keeps no frame pointer, so that a
 * program built with them is not called truncated; else UNWIND_NOCFI,
 * with *nofp set when it stopped in code that keeps no frame pointer.
 * A whole chain from code that keeps no frame is counted: it skipped the
 * caller of its leaf.
 */
static enum unwind_end
fp_end(struct record *r, pid_t pid, size_t nuser, int deep, uint64_t leaf,
    uint64_t last, int *nofp)
{
	*nofp = 0;
	if (deep)
		return UNWIND_DEPTH;
	switch (fpchain_judge(&r->fpchain, pid, last, nuser == 1)) {
	case FPCHAIN_START:
		if (nuser > 1 && fpchain_frameless(&r->fpchain, pid, leaf))
			r->stats.fp_skipped++;
		return UNWIND_COMPLETE;
	case FPCHAIN_NOFP:
		*nofp = 1;
		return UNWIND_NOCFI;
	default:
		return UNWIND_NOCFI;
	}
}

/* Writes a sample: its kernel frames, then its user stack, unwound. */
static void
on_sample(struct record *r, const struct source_event *ev)
{
	const struct source_sample *s = &ev->u.sample;
	struct sample smp;
	enum unwind_end why = UNWIND_COMPLETE;
	size_t i, nuser = 0;
	uint64_t leaf = 0, last = 0;
	int truncated = 0, in_kernel = 0, fp_cut = 0, nofp = 0, own;

	r->nframes = 0;
	/* Kernel frames, then the user frames of the kernel's callchain (fp). */
	for (i = 0; i < s->nr; i++) {
		uint64_t a = s->callchain[i];

		if (a >= PERF_CONTEXT_MAX) {
			in_kernel = a == PERF_CONTEXT_KERNEL;
			if (a == PERF_CONTEXT_USER)
				in_kernel = 0;
			continue;
		}
		if (in_kernel) {
			frame_push(r, a, STREAM_KERNEL, NULL);
		} else if (!r->opts.cfg.dwarf && !fp_cut) {
			if (nuser == r->pcs_cap) {
				fp_cut = UNWIND_DEPTH;
				continue;
			}
			if (nuser > 0 && !unwind_is_code(&r->unwind, ev->pid,
			    a)) {
				fp_cut = UNWIND_NOMAP;
				continue;
			}
			user_frame(r, ev->pid, a, nuser == 0);
			if (nuser++ == 0)
				leaf = a;
			last = a;
		}
	}
	if (!r->opts.cfg.dwarf && nuser > 0) {
		why = fp_end(r, ev->pid, nuser, fp_cut == UNWIND_DEPTH ||
		    s->chain_cut, leaf, last, &nofp);
		if (fp_cut == UNWIND_NOMAP && why == UNWIND_NOCFI && !nofp)
			why = UNWIND_NOMAP;
		truncated = why != UNWIND_COMPLETE;
	}
	if (r->opts.cfg.dwarf && s->regs_valid) {
		struct unwind_input in;
		size_t n;

		unwind_input_init(&in, ev->pid, s->regs, s->regs_valid,
		    s->stack, s->stack_len);
		in.more = s->more;
		in.more_arg = s->more_arg;
		n = unwind_stack_sp(&r->unwind, &in, r->pcs, r->sps,
		    r->pcs_cap, &why);
		if (s->more != NULL && why == UNWIND_COMPLETE)
			r->stats.stopped++;
		n = complete_stack(r, ev, &in, n, &why);
		for (i = 0; i < n; i++)
			user_frame(r, ev->pid, r->pcs[i], i == 0);
		if (why != UNWIND_COMPLETE)
			truncated = 1;
	}
	if (truncated) {
		r->stats.truncated++;
		if (nofp)
			r->stats.fp_nofp++;
		else
			r->stats.end_reason[why]++;
	}

	/* # buildid lines must precede the first sample that uses the file. */
	for (i = 0, own = 1; i < r->nframes; i++) {
		struct mapfile *f = r->files[i];

		/*
		 * Which files the samples were in, and where the sampled code
		 * was (the innermost frame out of the kernel): for the
		 * summary's DWARF check, which blames a file for its own time.
		 */
		if (f && f->sampled != r->stats.samples + 1) {
			f->sampled = r->stats.samples + 1;
			f->samples++;
		}
		if (own && strcmp(r->frames[i].dso, STREAM_KERNEL) != 0) {
			own = 0;
			if (f) {
				f->own++;
				probe_add(f, r->frames[i].addr - (i > 0));
			}
		}
		if (f && f->inside && !f->inside_written) {
			f->inside_written = 1;
			header_text(r, SAMPLE_HDR_INSIDE, f->path, f->inside);
		}
		if (f && f->buildid && !f->buildid_written) {
			f->buildid_written = 1;
			header_text(r, SAMPLE_HDR_BUILDID, f->path, f->buildid);
		}
	}
	smp.head.comm = comm_name(r, ev->pid, ev->tid);
	smp.head.pid = (uint32_t)ev->pid;
	smp.head.tid = (uint32_t)ev->tid;
	smp.head.cpu = s->cpu;
	smp.head.time = ev->time;
	smp.head.period = s->period;
	smp.head.event = s->event;
	smp.frames = r->frames;
	smp.nframes = r->nframes;
	smp.truncated = truncated;
	r->opts.sink.ops->sample(r->opts.sink.arg, &smp);
	if (r->stats.samples == 0 || ev->time < r->t_first)
		r->t_first = ev->time;
	if (ev->time > r->t_last)
		r->t_last = ev->time;
	r->stats.samples++;
	if (s->ev == STREAM_EV_OFFCPU) {
		r->stats.waits++;
		r->stats.wait_ns += s->period;
	}
}

/* The sink: what a source saw, in time order. */
static void
on_event(void *arg, const struct source_event *ev)
{
	struct record *r = arg;
	const char *name;

	switch (ev->kind) {
	case SOURCE_SAMPLE:
		on_sample(r, ev);
		break;
	case SOURCE_MMAP: {
		struct stat st;

		/* MMAP2's device and inode, when it has them */
		st.st_dev = makedev(ev->u.mmap.maj, ev->u.mmap.min);
		st.st_ino = (ino_t)ev->u.mmap.ino;
		maps_add_ino(&r->maps, ev->pid, ev->u.mmap.addr, ev->u.mmap.len,
		    ev->u.mmap.pgoff, ev->u.mmap.path, ev->u.mmap.buildid,
		    ev->u.mmap.buildid_len, ev->u.mmap.have_ino ? &st : NULL);
		break;
	}
	case SOURCE_COMM:
		if (ev->u.comm.exec) {
			maps_exec(&r->maps, ev->pid);
			stitch_forget(&r->stitch, ev->pid, 0);
			livestack_forget(&r->live, ev->pid, 0);
		}
		comm_set(&r->comms, ev->tid, ev->u.comm.name);
		break;
	case SOURCE_FORK:
		if (ev->pid != ev->u.fork.ppid)
			maps_fork(&r->maps, ev->u.fork.ppid, ev->pid);
		if ((name = comm_find(&r->comms, ev->u.fork.ptid)) != NULL)
			comm_set(&r->comms, ev->tid, name);
		break;
	case SOURCE_EXIT:
		stitch_forget(&r->stitch, ev->pid, ev->tid);
		livestack_forget(&r->live, ev->pid, ev->tid);
		/*
		 * A process is gone: events come in time order, so none of
		 * its samples can follow. Keeps long recordings of builds
		 * with many processes small. The main thread's exit is not
		 * the process's (pthread_exit): only a process that no longer
		 * exists at all is forgotten.
		 */
		if (ev->pid == ev->tid && ev->pid != r->child &&
		    (r->src.ops->offline ||
		    (kill(ev->pid, 0) != 0 && errno == ESRCH)))
			maps_exit(&r->maps, ev->pid);
		break;
	case SOURCE_LOST: {
		struct sample_hdr h = { .kind = SAMPLE_HDR_NUMBER,
		    .key = STREAM_KEY_LOST, .n = ev->u.lost };

		r->stats.lost += ev->u.lost;
		r->stats.lost_records++;
		header(r, &h);
		break;
	}
	case SOURCE_THROTTLE:
		r->stats.throttled++;
		break;
	}
}
static int	targets_gone(struct record *);

static void
check_output(struct record *r)
{
	int e;

	if (r->write_failed)
		return;
	if (r->opts.sink.ops->flush(r->opts.sink.arg) != 0) {
		e = errno;
		/* "waiting" only while the command runs */
		if (e == EPIPE && r->child && kill(r->child, 0) == 0 &&
		    !targets_gone(r))
			warnx("the reader of '%s' went away (%s): recording "
			    "stopped; waiting for '%s' to end (Ctrl-C ends it)",
			    r->opts.outname, strerror(EPIPE), r->opts.argv[0]);
		else if (e == EPIPE && r->child)
			warnx("the reader of '%s' went away (%s) before the end "
			    "of the stream", r->opts.outname, strerror(EPIPE));
		else if (e == EPIPE)
			warnx("the reader of '%s' went away (%s): recording "
			    "stopped", r->opts.outname, strerror(EPIPE));
		else if (e == ECANCELED)
			warnx("a signal ended the wait for the reader of '%s': "
			    "%.1f MiB of the stream it had not read yet are not "
			    "written", r->opts.outname,
			    r->opts.spool->stats.dropped / 1048576.0);
		else
			warnx("cannot write '%s': %s", r->opts.outname,
			    strerror(e));
		r->write_failed = 1;
	}
}

/*
 * Writes out all that the session handed its sink: the spool emptied,
 * however long its reader takes, then any failure said.
 */
static void
drain_output(struct record *r)
{
	check_output(r);
	if (r->opts.spool != NULL && !r->write_failed) {
		spool_finish(r->opts.spool);
		check_output(r);
	}
}

/* ---- the session ---- */

/*
 * Whether the command must run without gaining privileges: fgrecord was
 * not started by root. The kernel honours a set-user-ID bit under a
 * tracer that holds CAP_SYS_PTRACE (a copy of fgrecord given it with
 * setcap), and then the program's stack, with what it read as root,
 * would be copied into this user's stream; without the capability the
 * ptrace sampler would run it unprivileged anyway, and the perf sampler
 * would lose sight of it. no_new_privs makes both the same, and says so
 * first (noted once, before the command runs, unless nothing differs).
 */
static int
no_new_privs(const struct record *r)
{
	char *what;

	if (getuid() == 0 && geteuid() == 0)
		return 0;
	if (caps_setid(r->opts.argv[0], &what)) {
		warnx("'%s' is %s: under fgrecord, not run by root, it runs "
		    "without those privileges (a profiler gives no one more "
		    "than they had); run fgrecord as root to profile it with "
		    "them", r->opts.argv[0], what);
		free(what);
	}
	return 1;
}

static pid_t
launch(struct record *r, int *go_fd, int *err_fd)
{
	int go[2], ep[2], nnp = no_new_privs(r), afd = -1;
	pid_t pid;

	if (r->opts.source == &source_alloc)
		afd = allocprep_launch(&r->opts.cfg, r->opts.argv);
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
		if (nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
			_exit(126);
		execvp(r->opts.argv[0], r->opts.argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(ep[1]);
	if (afd >= 0)
		close(afd);
	*go_fd = go[1];
	*err_fd = ep[0];
	return pid;
}

static void
read_all_procs(struct record *r)
{
	struct procfs_walk w;
	pid_t pid;

	if (procfs_walk_procs(&w) != 0)
		return;
	while ((pid = procfs_walk_next(&w)) > 0) {
		char exe[64], link[8];
		int rc;

		errno = 0;
		rc = maps_read_proc(&r->maps, pid);
		if (rc != 0 && errno == ENOENT)
			continue;	/* gone */
		comm_read_tasks(&r->comms, pid);
		if (rc != 0 && (errno == EACCES || errno == EPERM)) {
			r->stats.procs++;
			r->stats.procs_denied++;
			continue;
		}
		/* a kernel thread, which has no user space, is not counted */
		snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
		if (readlink(exe, link, sizeof(link)) >= 0 || errno != ENOENT)
			r->stats.procs++;
	}
	procfs_walk_release(&w);
}

/* Catches the signals that end a session, and the command's end. */
static void
catch_signals(void)
{
	struct sigaction sa;

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
	/*
	 * SA_RESTART: a write to a slow reader that blocks when the command
	 * ends must go on, not fail with EINTR (the stream was cut and the
	 * exit was 2). Waits end all the same: poll and clock_nanosleep are
	 * never restarted.
	 */
	sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
}

/*
 * Puts fgrecord ahead of the threads it samples: at their priority, among
 * 16 busy threads on 2 CPUs it gets an eighth of a CPU at times and the
 * kernel's buffers overflow (11% of the samples lost at 10 kHz with 16 KiB
 * copies; none 5 steps higher). Only where allowed (root, CAP_SYS_NICE);
 * the command, forked before, keeps its own priority.
 */
static void
raise_priority(void)
{
	int cur;

	errno = 0;
	cur = getpriority(PRIO_PROCESS, 0);
	if (cur == -1 && errno != 0)
		return;
	if (setpriority(PRIO_PROCESS, 0, cur - 5 < -20 ? -20 : cur - 5) != 0) {
		/* not allowed: sampling works all the same */
	}
}

/* Opens the source for the session's command, processes or system. */
static void
open_source(struct record *r)
{
	r->opts.cfg.child = r->child;
	r->src.ops = r->opts.source;
	r->maps.offline = r->src.ops->offline;
	r->opts.cfg.max_depth = (unsigned)r->unwind.max_depth;
	r->src.ops->open(&r->src, &r->opts.cfg);
	if (r->src.partial)
		r->rval = 1;
	/* a recording says how it was recorded: its stacks are unwound so */
	if (r->src.info != NULL) {
		r->opts.cfg.dwarf = r->src.info->dwarf;
		r->opts.cfg.stack_size = 0;
		for (size_t i = 0; i < r->src.info->nevents; i++)
			if (r->src.info->events[i].stack_size >
			    r->opts.cfg.stack_size)
				r->opts.cfg.stack_size =
				    r->src.info->events[i].stack_size;
	}
}

/*
 * Starts the command (sampling starts at its exec), or starts sampling
 * and reads the mappings and names of what already runs. Exits 126 or
 * 127 when the command cannot be run.
 */
static void
start(struct record *r, int go_fd, int err_fd)
{
	size_t i;

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
			drain_output(r);
			if (e == ENOENT)
				errx(127, "'%s': command not found",
				    r->opts.argv[0]);
			errx(126, "'%s': %s", r->opts.argv[0], strerror(e));
		}
		comm_set(&r->comms, r->child, strrchr(r->opts.argv[0], '/') ?
		    strrchr(r->opts.argv[0], '/') + 1 : r->opts.argv[0]);
		r->src.ops->enable(&r->src);
		return;
	}
	r->src.ops->enable(&r->src);
	if (r->src.partial)
		r->rval = 1;
	if (r->opts.cfg.system_wide)
		read_all_procs(r);
	for (i = 0; i < r->opts.cfg.npids; i++) {
		maps_read_proc(&r->maps, r->opts.cfg.pids[i]);
		comm_read_tasks(&r->comms, r->opts.cfg.pids[i]);
	}
}

/* Has the session's command, or have all of its -p processes, ended? */
static int
targets_gone(struct record *r)
{
	size_t i;

	if (r->child) {
		siginfo_t si;

		/*
		 * Only an exit is reaped: a tracing source's stops are looked
		 * at (WNOWAIT) and left for it, or the thread would stay
		 * stopped.
		 */
		memset(&si, 0, sizeof(si));
		if (!r->child_done && waitid(P_PID, (id_t)r->child, &si,
		    WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == r->child &&
		    (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED ||
		    si.si_code == CLD_DUMPED) &&
		    waitpid(r->child, &r->child_status, 0) == r->child)
			r->child_done = 1;
		return r->child_done;
	}
	if (r->opts.cfg.system_wide)
		return 0;
	for (i = 0; i < r->opts.cfg.npids; i++)
		if (procfs_alive(r->opts.cfg.pids[i]))
			return 0;
	return 1;
}

/*
 * Samples until the command ends, the -p processes are gone, the
 * duration is over, or a signal or a closed output ends the session.
 */
static void
sample_loop(struct record *r, double t0)
{
	struct source_sink sink = { on_event, r };
	double deadline = r->opts.duration > 0 ? t0 + r->opts.duration : 0;
	int stopping = 0;

	while (!stopping) {
		int timeout = 100;

		if (deadline > 0) {
			double left = deadline - now_mono();

			if (left <= 0)
				timeout = 0;
			else if (left < 0.1)
				timeout = (int)(left * 1000) + 1;
		}
		if (timeout > 0 && !got_signal)
			r->src.ops->wait(&r->src, timeout);
		r->src.ops->drain(&r->src, procfs_now_ns(), &sink);
		check_output(r);

		if (got_signal) {
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
			r->src.ops->disable(&r->src);
			if (!r->child)
				stopping = 1;
		}
		if (!stopping && targets_gone(r))
			stopping = 1;
	}
}

/* Stops sampling, writes what is left, and the summary. */
static void
finish(struct record *r, double t0)
{
	struct source_sink sink = { on_event, r };
	struct rusage ru;

	r->src.ops->disable(&r->src);
	r->src.ops->drain(&r->src, UINT64_MAX, &sink);
	r->stats.seconds = r->src.ops->offline ?
	    (r->t_last - r->t_first) / 1e9 :
	    now_mono() - t0;
	getrusage(RUSAGE_SELF, &ru);
	r->stats.cpu_seconds = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->stats.ring_bytes = r->src.bytes;
	if (r->src.partial)
		r->rval = 1;
	drain_output(r);
	if (!r->opts.no_buildid_cache && !r->src.ops->offline)
		keepcopy_files(&r->maps, r->opts.cfg.quiet);
	record_summary(r);
}

int
record_run(struct record *r)
{
	int go_fd = -1, err_fd = -1;
	double t0;

	caps_check_owners(r->opts.cfg.pids, r->opts.cfg.npids, r->opts.any_user);
	/* a recording read back is a filter's work, done at its pace */
	if (!r->opts.source->offline) {
		catch_signals();
		/* a signal ends a wait for a reader that stopped reading */
		if (r->opts.spool != NULL)
			spool_stop_on(r->opts.spool, &got_signal);
	}
	if (r->opts.argv)
		r->child = launch(r, &go_fd, &err_fd);
	if (!r->opts.source->offline)
		raise_priority();
	open_source(r);
	if (r->src.failed)
		return r->src.failed;	/* a replay's file: said */
	write_header(r);
	t0 = now_mono();
	start(r, go_fd, err_fd);
	check_output(r);
	sample_loop(r, t0);
	finish(r, t0);

	if (r->write_failed)
		return 2;
	if (r->child) {
		if (WIFEXITED(r->child_status))
			return WEXITSTATUS(r->child_status);
		if (WIFSIGNALED(r->child_status))
			return 128 + WTERMSIG(r->child_status);
		return 2;
	}
	return r->rval;
}
