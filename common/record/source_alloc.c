/*
 * source_alloc: the source behind fgrecord --alloc. The command was
 * launched with libfgalloc.so preloaded (record/allocprep.c), which sends
 * a message for each sampled allocation, each free of one, each fork and
 * each new image, with its maps (record/allocmsg.h); this file turns them
 * into source events.
 *
 * A sampled allocation of s bytes, at a mean of R bytes between samples,
 * was sampled with probability 1 - exp(-s/R): it stands for
 * 1/(1 - exp(-s/R)) allocations and s times that many bytes, written as
 * an alloc-bytes and an alloc-objects sample (fg-stream(5)), whose
 * registers and stack copy the session unwinds as it unwinds a perf
 * sample. The message is kept while the block lives; at the end each
 * block not freed is written again as the inuse-bytes and inuse-objects
 * pair, with its allocation's time. A process that exec'd lost its
 * blocks with its image; a forked child starts with its parent's.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/hashtab.h"
#include "base/procfs.h"
#include "base/xalloc.h"
#include "record/allocmsg.h"
#include "record/allocprep.h"
#include "record/source.h"

#define MSG_MAX	(sizeof(struct allocmsg) + 2 * RECORD_ALLOC_STACK_MAX)
#define BATCH_NS	5000000	/* a wait's time for more messages */
#define NAP_MAX		(64u << 10)	/* no nap after a drain this large */
#define COMPACT_SLACK	4096	/* dead blocks kept beyond the live ones */

/* A sampled block: the message that reported it, kept until it is freed. */
struct block {
	pid_t		 pid;
	uint64_t	 ptr;
	int		 dead;		/* freed, or its process exec'd */
	unsigned char	*msg;		/* owned: allocmsg and the stack copy */
	size_t		 len;
	uint64_t	 bytes, objects;	/* what it stands for */
};

struct asrc {
	struct source	*src;		/* borrowed */
	int		 fd;
	int		 disabled, ended;
	size_t		 last_drain;	/* bytes the last drain read */
	double		 period;
	unsigned char	*buf;		/* owned: one message */
	struct block	*blocks;	/* owned */
	size_t		 nblocks, blocks_cap, nlive, ndead;
	struct hashtab	 idx;		/* of blocks, by pid and pointer */
	uint64_t	 rng;		/* the rounding of allocation counts */
	uint64_t	 hellos, samples, untracked, unmatched;
	uint64_t	 bytes, objects;	/* what the samples stand for */
	pid_t		 comm_tid;	/* the last name said */
	char		 comm[16];
};

static uint64_t
key(pid_t pid, uint64_t ptr)
{
	return hashtab_int(ptr ^ ((uint64_t)(uint32_t)pid << 47));
}

static struct block *
find_live(struct asrc *a, pid_t pid, uint64_t ptr)
{
	struct hashtab_probe p;
	uint32_t it;

	hashtab_probe(&a->idx, key(pid, ptr), &p);
	while ((it = hashtab_next(&a->idx, &p)) != HASHTAB_NONE) {
		struct block *b = &a->blocks[it];

		if (!b->dead && b->pid == pid && b->ptr == ptr)
			return b;
	}
	return NULL;
}

/*
 * A block for pid's ptr: the entry of that pointer's last block when it
 * died, used again, or a new one. The index then holds one entry per
 * pointer, whatever the number of times the program reused it (a
 * malloc and free in a loop: the chain of its dead blocks made each look
 * up as long as the run was, quadratic at -c 1).
 */
static struct block *
add_block(struct asrc *a, pid_t pid, uint64_t ptr, const void *msg, size_t len)
{
	struct hashtab_probe p;
	struct block *b = NULL;
	uint32_t it;

	hashtab_probe(&a->idx, key(pid, ptr), &p);
	while ((it = hashtab_next(&a->idx, &p)) != HASHTAB_NONE)
		if (b == NULL && a->blocks[it].dead &&
		    a->blocks[it].pid == pid && a->blocks[it].ptr == ptr)
			b = &a->blocks[it];
	if (b == NULL) {
		GROW(a->blocks, a->nblocks + 1, a->blocks_cap);
		b = &a->blocks[a->nblocks];
		hashtab_add(&a->idx, &p, (uint32_t)a->nblocks++);
	} else
		a->ndead--;
	memset(b, 0, sizeof(*b));
	b->pid = pid;
	b->ptr = ptr;
	b->msg = xmalloc(len);
	memcpy(b->msg, msg, len);
	b->len = len;
	a->nlive++;
	return b;
}

/*
 * The dead blocks dropped and the index made again, once they outnumber
 * the live ones by COMPACT_SLACK: a program that frees at fresh
 * addresses leaves no more dead than live (and the loops over all
 * blocks, at a fork or an exec, no longer than twice the live ones).
 */
static void
compact(struct asrc *a)
{
	struct hashtab_probe p;
	size_t i, n = 0;

	if (a->ndead <= a->nlive + COMPACT_SLACK)
		return;
	hashtab_release(&a->idx);
	hashtab_init(&a->idx, a->nlive + 1024);
	for (i = 0; i < a->nblocks; i++) {
		if (a->blocks[i].dead)
			continue;
		a->blocks[n] = a->blocks[i];
		hashtab_probe(&a->idx, key(a->blocks[n].pid,
		    a->blocks[n].ptr), &p);
		while (hashtab_next(&a->idx, &p) != HASHTAB_NONE)
			;
		hashtab_add(&a->idx, &p, (uint32_t)n++);
	}
	a->nblocks = n;
	a->ndead = 0;
}

static void
kill_block(struct asrc *a, struct block *b)
{
	b->dead = 1;
	free(b->msg);
	b->msg = NULL;
	a->nlive--;
	a->ndead++;
}

/* A uniform number in [0, 1), for rounding counts without a bias. */
static double
uniform(struct asrc *a)
{
	a->rng ^= a->rng >> 12;
	a->rng ^= a->rng << 25;
	a->rng ^= a->rng >> 27;
	return (double)((a->rng * 0x2545f4914f6cdd1dULL) >> 11) /
	    9007199254740992.0;
}

/* Emits the two samples of a block: its allocation, or what is left of it. */
static void
emit_pair(struct asrc *a, const struct block *b, const char *ev_bytes,
    const char *ev_objects, const struct source_sink *sink)
{
	struct source_event ev;
	struct allocmsg m;
	struct source_sample *s = &ev.u.sample;

	(void)a;
	memcpy(&m, b->msg, sizeof(m));
	memset(&ev, 0, sizeof(ev));
	ev.kind = SOURCE_SAMPLE;
	ev.pid = m.pid;
	ev.tid = m.tid;
	ev.time = m.time;
	s->regs[UNWIND_SP] = m.sp;
	s->regs[UNWIND_BP] = m.bp;
	s->regs[UNWIND_RA] = m.ip;
	s->regs_valid = (1u << UNWIND_SP) | (1u << UNWIND_BP) |
	    (1u << UNWIND_RA);
	s->stack = b->msg + sizeof(m);
	s->stack_len = b->len - sizeof(m);
	s->event = ev_bytes;
	s->period = b->bytes;
	sink->fn(sink->arg, &ev);
	s->event = ev_objects;
	s->period = b->objects;
	sink->fn(sink->arg, &ev);
}

/* The executable mappings in lines of a maps file, as mmap events. */
static void
on_maps(pid_t pid, char *text, size_t len, const struct source_sink *sink)
{
	char *line = text, *end = text + len, *nl;
	struct procfs_map m;

	while (line < end) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		*nl = '\0';
		if (procfs_map_line(line, &m) && m.end > m.start &&
		    strchr(m.perms, 'x') && m.name[0] != '\0') {
			struct source_event ev;

			memset(&ev, 0, sizeof(ev));
			ev.kind = SOURCE_MMAP;
			ev.pid = ev.tid = pid;
			ev.u.mmap.addr = m.start;
			ev.u.mmap.len = m.end - m.start;
			ev.u.mmap.pgoff = m.pgoff;
			ev.u.mmap.path = m.name;
			ev.u.mmap.have_ino = m.ino != 0;
			ev.u.mmap.maj = m.maj;
			ev.u.mmap.min = m.min;
			ev.u.mmap.ino = m.ino;
			sink->fn(sink->arg, &ev);
		}
		line = nl + 1;
	}
}

static void
say_comm(struct asrc *a, const struct allocmsg *m, int exec,
    const struct source_sink *sink)
{
	struct source_event ev;
	char name[17];

	if (!exec && m->tid == a->comm_tid &&
	    memcmp(m->comm, a->comm, sizeof(a->comm)) == 0)
		return;
	a->comm_tid = m->tid;
	memcpy(a->comm, m->comm, sizeof(a->comm));
	memcpy(name, m->comm, 16);
	name[16] = '\0';
	memset(&ev, 0, sizeof(ev));
	ev.kind = SOURCE_COMM;
	ev.pid = m->pid;
	ev.tid = m->tid;
	ev.time = m->time;
	ev.u.comm.name = name;
	ev.u.comm.exec = exec;
	sink->fn(sink->arg, &ev);
}

static void
on_alloc(struct asrc *a, const struct allocmsg *m, size_t len,
    const struct source_sink *sink)
{
	struct block *b, tmp;
	double s = (double)m->size, p, objects;

	/* the same block again: its free was not seen (a foreign free) */
	if ((b = find_live(a, m->pid, m->ptr)) != NULL)
		kill_block(a, b);
	p = -expm1(-s / a->period);
	objects = p > 0 ? 1 / p : 1;
	say_comm(a, m, 0, sink);
	memset(&tmp, 0, sizeof(tmp));
	tmp.msg = (unsigned char *)m;
	tmp.len = len;
	tmp.bytes = (uint64_t)llround(s * objects);
	tmp.objects = (uint64_t)objects;
	if (uniform(a) < objects - (double)tmp.objects)
		tmp.objects++;
	a->samples++;
	a->bytes += tmp.bytes;
	a->objects += tmp.objects;
	emit_pair(a, &tmp, STREAM_ALLOC_BYTES_EVENT, STREAM_ALLOC_OBJECTS_EVENT,
	    sink);
	if (m->flags & ALLOCMSG_UNTRACKED) {
		a->untracked++;
		return;
	}
	b = add_block(a, m->pid, m->ptr, m, len);
	b->bytes = tmp.bytes;
	b->objects = tmp.objects;
}

static void
on_fork(struct asrc *a, const struct allocmsg *m, const struct source_sink *sink)
{
	struct source_event ev;
	pid_t parent = (pid_t)m->arg;
	size_t i, n = a->nblocks;

	memset(&ev, 0, sizeof(ev));
	ev.kind = SOURCE_FORK;
	ev.pid = ev.tid = m->pid;
	ev.time = m->time;
	ev.u.fork.ppid = ev.u.fork.ptid = parent;
	sink->fn(sink->arg, &ev);
	for (i = 0; i < n; i++) {
		struct block *b = &a->blocks[i], *c;
		struct allocmsg pm;

		if (b->dead || b->pid != parent)
			continue;
		memcpy(&pm, b->msg, sizeof(pm));
		pm.pid = m->pid;
		c = add_block(a, m->pid, pm.ptr, b->msg, b->len);
		b = &a->blocks[i];	/* add_block may have moved it */
		memcpy(c->msg, &pm, sizeof(pm));
		c->bytes = b->bytes;
		c->objects = b->objects;
	}
}

/* A new image in pid: its blocks went with the old one. */
static void
on_hello(struct asrc *a, const struct allocmsg *m, const struct source_sink *sink)
{
	size_t i;

	a->hellos++;
	for (i = 0; i < a->nblocks; i++)
		if (!a->blocks[i].dead && a->blocks[i].pid == m->pid)
			kill_block(a, &a->blocks[i]);
	say_comm(a, m, 1, sink);
}

static void
on_message(struct asrc *a, size_t len, const struct source_sink *sink)
{
	struct allocmsg m;
	struct block *b;

	if (len < sizeof(m))
		return;
	memcpy(&m, a->buf, sizeof(m));
	switch (m.kind) {
	case ALLOCMSG_HELLO:
		on_hello(a, &m, sink);
		break;
	case ALLOCMSG_MAPS:
		on_maps(m.pid, (char *)a->buf + sizeof(m), len - sizeof(m),
		    sink);
		break;
	case ALLOCMSG_ALLOC:
		on_alloc(a, (const struct allocmsg *)a->buf, len, sink);
		break;
	case ALLOCMSG_FREE:
		if ((b = find_live(a, m.pid, m.ptr)) != NULL)
			kill_block(a, b);
		else
			a->unmatched++;
		break;
	case ALLOCMSG_FORK:
		on_fork(a, &m, sink);
		break;
	}
	compact(a);
}

static void
alloc_open(struct source *src, const struct source_config *cfg)
{
	struct asrc *a = xcalloc(1, sizeof(*a));

	a->src = src;
	a->fd = cfg->alloc_fd;
	a->period = cfg->period ? (double)cfg->period : RECORD_ALLOC_PERIOD;
	/* 8 bytes aligned: the message is read through its struct */
	a->buf = xmalloc(MSG_MAX + 8);
	a->rng = 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
	hashtab_init(&a->idx, 1024);
	src->priv = a;
	src->user_only = 1;
}

static void
alloc_enable(struct source *src)
{
	(void)src;
}

static void
alloc_wait(struct source *src, int timeout_ms)
{
	struct asrc *a = src->priv;
	struct pollfd pf = { .fd = a->fd, .events = POLLIN };

	if (a->ended)
		return;
	/*
	 * Then a few milliseconds more, for the messages to gather: a
	 * wake-up per message cost the program as much as the sampling
	 * (context switches, in a virtual machine above all), and the
	 * socket's buffer holds hundreds of them. Not when the last drain
	 * was large: messages come faster than a nap's worth fits in the
	 * buffer (208 KiB for a user who cannot raise it), and the program
	 * would wait on a full socket while fgrecord sleeps (-c 1).
	 */
	if (poll(&pf, 1, timeout_ms) == 1 && !a->disabled &&
	    a->last_drain < NAP_MAX)
		nanosleep(&(struct timespec){ 0, BATCH_NS }, NULL);
}

static void
alloc_drain(struct source *src, uint64_t limit, const struct source_sink *sink)
{
	struct asrc *a = src->priv;
	size_t i;

	(void)limit;	/* messages come in the order they were sent */
	a->last_drain = 0;
	while (!a->ended) {
		ssize_t n = recv(a->fd, a->buf, MSG_MAX, MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			a->ended = 1;	/* every copy of the other end closed */
			break;
		}
		a->last_drain += (size_t)n;
		on_message(a, (size_t)n, sink);
	}
	if (!a->disabled || limit != UINT64_MAX)
		return;
	for (i = 0; i < a->nblocks; i++)
		if (!a->blocks[i].dead)
			emit_pair(a, &a->blocks[i], STREAM_INUSE_BYTES_EVENT,
			    STREAM_INUSE_OBJECTS_EVENT, sink);
	a->ended = 1;
	if (a->hellos == 0)
		src->partial = 1;
}

static void
alloc_disable(struct source *src)
{
	struct asrc *a = src->priv;

	a->disabled = 1;
}

/*
 * The summary's first line, in the words of a heap profile: how many
 * allocations were sampled, what they stand for, and what was still
 * allocated at the end. Then what went wrong.
 */
static void
alloc_summary(const struct source *src, uint64_t throttled)
{
	const struct asrc *a = src->priv;
	uint64_t in_bytes = 0, in_objects = 0;
	size_t i;

	(void)throttled;
	for (i = 0; i < a->nblocks; i++)
		if (!a->blocks[i].dead) {
			in_bytes += a->blocks[i].bytes;
			in_objects += a->blocks[i].objects;
		}
	allocprep_say(a->samples, a->period, a->bytes, a->objects, in_bytes,
	    in_objects);
	if (a->hellos == 0)
		warnx("--alloc: the program never loaded libfgalloc.so, so no "
		    "allocation was seen (LD_PRELOAD cleared, a set-user-ID "
		    "program, or its descriptor %s closed)", ALLOCMSG_ENV_FD);
	else if (a->samples == 0 && !src->ops->offline)
		warnx("--alloc: no allocation sampled (-c %.0f bytes between "
		    "samples on average; a program with its own allocator, "
		    "jemalloc or mimalloc linked in, is not seen through "
		    "malloc)", a->period);
	if (a->untracked)
		warnx("--alloc: %" PRIu64 " sampled allocations could not be "
		    "kept in the live table: they are not in the inuse "
		    "events", a->untracked);
}

static void
alloc_close(struct source *src)
{
	struct asrc *a = src->priv;
	size_t i;

	for (i = 0; i < a->nblocks; i++)
		free(a->blocks[i].msg);
	free(a->blocks);
	hashtab_release(&a->idx);
	free(a->buf);
	if (a->fd >= 0)
		close(a->fd);
	free(a);
}

const struct source_ops source_alloc = {
	.name = "alloc",
	.measures = "heap allocations",
	.limits = "a launched, dynamically linked command only",
	.alloc = 1,
	.open = alloc_open,
	.enable = alloc_enable,
	.wait = alloc_wait,
	.drain = alloc_drain,
	.disable = alloc_disable,
	.summary = alloc_summary,
	.close = alloc_close,
};
