#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perf/perfdecode.h"
#include "base/xalloc.h"
#include "perf/cursor.h"

/* PERF_RECORD_MMAP's fixed part, before the file name. */
struct mmap_head {
	uint32_t	 pid, tid;
	uint64_t	 addr, len, pgoff;
};

/* PERF_RECORD_MMAP2's: MMAP's, then the device or build ID, and prot. */
struct mmap2_head {
	uint32_t	 pid, tid;
	uint64_t	 addr, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		} dev;
		struct {
			uint8_t	 size;
			uint8_t	 reserved1;
			uint16_t reserved2;
			uint8_t	 id[20];
		} buildid;
	} u;
	uint32_t	 prot, flags;
};

/* PERF_RECORD_FORK and _EXIT. */
struct task_head {
	uint32_t	 pid, ppid, tid, ptid;
	uint64_t	 time;
};

/* fgrecord's own sample layout (perf_attr_fill). */
#define FG_SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
	    PERF_SAMPLE_CALLCHAIN)

void
perf_decoder_init(struct perf_decoder *d, int dwarf, const char *event)
{
	memset(d, 0, sizeof(*d));
	d->dwarf = dwarf;
	d->event = event;
	d->sample_type = FG_SAMPLE_TYPE;
	if (dwarf) {
		d->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		d->regs_user = PERF_REGS_MASK;
	}
	d->sample_id_all = 1;
}

void
perf_decoder_init_attr(struct perf_decoder *d,
    const struct perf_event_attr *attr, const char *event)
{
	memset(d, 0, sizeof(*d));
	d->event = event;
	d->sample_type = attr->sample_type;
	d->read_format = attr->read_format;
	d->regs_user = attr->sample_regs_user;
	d->regs_intr = attr->sample_regs_intr;
	d->branch_type = attr->branch_sample_type;
	d->sample_id_all = attr->sample_id_all;
	/* perf record -c N: every sample's period is N, and none says so */
	d->period = attr->freq ? 0 : attr->sample_period;
	d->dwarf = (attr->sample_type & PERF_SAMPLE_REGS_USER) &&
	    (attr->sample_type & PERF_SAMPLE_STACK_USER);
}

void
perf_decoder_release(struct perf_decoder *d)
{
	free(d->ips);
	memset(d, 0, sizeof(*d));
}

/* Two u32 (pid and tid, cpu and res) in one u64. */
static void
get32x2(struct cursor *c, uint32_t *a, uint32_t *b)
{
	uint64_t v = cursor_u64(c);
	uint32_t w[2];

	memcpy(w, &v, 8);
	*a = w[0];
	if (b)
		*b = w[1];
}

static int
nbits(uint64_t v)
{
	return __builtin_popcountll(v);
}

/* Skips a PERF_SAMPLE_READ value, laid out as read_format says. */
static void
skip_read(const struct perf_decoder *d, struct cursor *c)
{
	uint64_t f = d->read_format, each = 8, nr = 1;

	if (f & PERF_FORMAT_ID)
		each += 8;
	if (f & PERF_FORMAT_LOST)
		each += 8;
	if (f & PERF_FORMAT_GROUP)
		nr = cursor_u64(c);
	cursor_skip(c, 8 * (uint64_t)(((f & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0) +
	    ((f & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0)));
	if (nr > (uint64_t)(c->end - c->p) / each)
		c->bad = 1;
	else
		cursor_skip(c, nr * each);
}

/* Skips an { abi; regs[weight(mask)] } block, returning regs or NULL. */
static const unsigned char *
get_regs(struct cursor *c, uint64_t mask, uint64_t *abi)
{
	*abi = cursor_u64(c);
	if (*abi == PERF_SAMPLE_REGS_ABI_NONE)
		return NULL;
	return cursor_skip(c, 8 * (uint64_t)nbits(mask));
}

/*
 * Turns perf's packed PERF_REGS_MASK registers (AX BX CX DX SI DI BP SP
 * IP, then R8..R15: the mask's bit order) into DWARF's numbering.
 */
static void
regs_from_perf(const uint64_t *p, uint64_t *d)
{
	d[0] = p[0];	/* rax */
	d[1] = p[3];	/* rdx */
	d[2] = p[2];	/* rcx */
	d[3] = p[1];	/* rbx */
	d[4] = p[4];	/* rsi */
	d[5] = p[5];	/* rdi */
	d[6] = p[6];	/* rbp */
	d[7] = p[7];	/* rsp */
	for (int i = 0; i < 8; i++)
		d[8 + i] = p[9 + i];	/* r8..r15 */
	d[16] = p[8];	/* rip */
}

/*
 * Turns registers in mask's order into the unwinder's DWARF ones: those
 * of PERF_REGS_MASK that mask has. Returns the valid ones' bits.
 */
static uint32_t
regs_to_dwarf(const unsigned char *v, uint64_t mask, uint64_t *regs)
{
	uint64_t packed[PERF_REGS_COUNT], have[PERF_REGS_COUNT];
	uint64_t dhave[PERF_DWARF_NREGS];
	uint32_t valid = 0;
	int b, k = 0, i;

	for (b = 0; b < 64; b++) {
		if (!(PERF_REGS_MASK & (1ULL << b)))
			continue;
		have[k] = (mask >> b) & 1;
		packed[k] = 0;
		if (have[k])
			memcpy(&packed[k], v + 8 * nbits(mask & ((1ULL << b) -
			    1)), 8);
		k++;
	}
	regs_from_perf(packed, regs);
	regs_from_perf(have, dhave);
	for (i = 0; i < PERF_DWARF_NREGS; i++)
		if (dhave[i])
			valid |= 1u << i;
	return valid;
}

/* Keeps the callchain (or builds one) in d->ips; returns it. */
static uint64_t *
chain_room(struct perf_decoder *d, size_t n)
{
	GROW(d->ips, n ? n : 1, d->ips_cap);
	return d->ips;
}

/*
 * The callchain of an LBR call stack: the kernel part of the kernel's
 * chain, then PERF_CONTEXT_USER, the IP and the source of each call (one
 * past it: a return address's rule, looked up one byte back).
 */
static size_t
lbr_chain(struct perf_decoder *d, const unsigned char *chain, uint64_t nr,
    uint64_t ip, const unsigned char *lbr, uint64_t nlbr)
{
	uint64_t *ips, a;
	size_t n = 0, i;

	ips = chain_room(d, nr + nlbr + 2);
	for (i = 0; i < nr; i++) {
		memcpy(&a, chain + 8 * i, 8);
		if (a == PERF_CONTEXT_USER)
			break;
		ips[n++] = a;
	}
	ips[n++] = PERF_CONTEXT_USER;
	ips[n++] = ip;
	for (i = 0; i < nlbr; i++) {
		memcpy(&a, lbr + 24 * i, 8);	/* from, to, flags */
		ips[n++] = a + 1;
	}
	return n;
}

static int
decode_sample(struct perf_decoder *d, const struct perf_event_header *h,
    const unsigned char *p, const unsigned char *end,
    const struct source_sink *sink)
{
	uint64_t t = d->sample_type, ip = 0, nr = 0, nlbr = 0, abi, size;
	const unsigned char *chain = NULL, *lbr = NULL, *regs = NULL;
	struct cursor c = { p, end, 0 };
	struct source_event ev;
	struct source_sample *s = &ev.u.sample;
	uint32_t pid = 0, tid = 0;

	memset(&ev, 0, sizeof(ev));
	if (t & PERF_SAMPLE_IDENTIFIER)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_IP)
		ip = cursor_u64(&c);
	if (t & PERF_SAMPLE_TID)
		get32x2(&c, &pid, &tid);
	if (t & PERF_SAMPLE_TIME)
		ev.time = cursor_u64(&c);
	if (t & PERF_SAMPLE_ADDR)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_ID)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_STREAM_ID)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_CPU)
		get32x2(&c, &s->cpu, NULL);
	s->period = t & PERF_SAMPLE_PERIOD ? cursor_u64(&c) : d->period;
	if (t & PERF_SAMPLE_READ)
		skip_read(d, &c);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		nr = cursor_u64(&c);
		if (nr > (uint64_t)(end - c.p) / 8)
			return 0;
		chain = cursor_skip(&c, nr * 8);
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t rsz = 0;

		if ((p = cursor_skip(&c, 4)) != NULL)
			memcpy(&rsz, p, 4);
		cursor_skip(&c, rsz);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		nlbr = cursor_u64(&c);
		if (d->branch_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			cursor_u64(&c);
		if (nlbr > (uint64_t)(end - c.p) / 24)
			return 0;
		lbr = cursor_skip(&c, nlbr * 24);
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		regs = get_regs(&c, d->regs_user, &abi);
		if (abi != PERF_SAMPLE_REGS_ABI_64)
			regs = NULL;	/* none, or a 32-bit process's */
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		size = cursor_u64(&c);
		if (size) {
			uint64_t dyn;

			s->stack = cursor_skip(&c, size);
			dyn = cursor_u64(&c);
			s->stack_len = dyn > size ? size : dyn;
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		cursor_u64(&c);
	if (t & PERF_SAMPLE_DATA_SRC)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_TRANSACTION)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_REGS_INTR)
		get_regs(&c, d->regs_intr, &abi);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_CGROUP)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_AUX)
		cursor_skip(&c, cursor_u64(&c));
	if (c.bad)
		return 0;
	ev.kind = SOURCE_SAMPLE;
	ev.pid = (pid_t)pid;
	ev.tid = (pid_t)tid;
	s->event = d->event;
	if (d->ev_name != d->event) {	/* once per event name given */
		d->ev_name = d->event;
		d->ev = stream_ev_of(d->event, strlen(d->event));
	}
	s->ev = d->ev;
	if (lbr && nlbr > 0 && (d->branch_type &
	    PERF_SAMPLE_BRANCH_CALL_STACK) && ip < PERF_CONTEXT_MAX &&
	    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
	    PERF_RECORD_MISC_USER) {
		s->nr = lbr_chain(d, chain, nr, ip, lbr, nlbr);
		s->callchain = d->ips;
	} else if (chain) {
		memcpy(chain_room(d, nr), chain, nr * 8);
		s->callchain = d->ips;
		s->nr = nr;
		s->chain_cut = nr >= PERF_MAX_STACK;
	} else if (t & PERF_SAMPLE_IP) {
		/* no callchain: the IP alone, in its part */
		uint64_t *ips = chain_room(d, 2);
		uint16_t mode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		ips[0] = mode == PERF_RECORD_MISC_KERNEL ||
		    mode == PERF_RECORD_MISC_GUEST_KERNEL ?
		    PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER;
		ips[1] = ip;
		s->callchain = ips;
		s->nr = 2;
	}
	if (d->dwarf && regs)
		s->regs_valid = regs_to_dwarf(regs, d->regs_user, s->regs);
	if (!d->dwarf) {
		s->stack = NULL;
		s->stack_len = 0;
	}
	sink->fn(sink->arg, &ev);
	return 1;
}

/*
 * Reads a sample's identity, its fields from the first up to its CPU,
 * from c (at the sample's body) with the layout t.
 */
static void
sample_ids(uint64_t t, struct cursor *c, struct perf_record_ids *ids)
{
	if (t & PERF_SAMPLE_IDENTIFIER) {
		ids->id = cursor_u64(c);
		ids->has_id = 1;
	}
	if (t & PERF_SAMPLE_IP)
		cursor_u64(c);
	if (t & PERF_SAMPLE_TID)
		get32x2(c, &ids->pid, &ids->tid);
	if (t & PERF_SAMPLE_TIME) {
		ids->time = cursor_u64(c);
		ids->has_time = 1;
	}
	if (t & PERF_SAMPLE_ADDR)
		cursor_u64(c);
	if ((t & PERF_SAMPLE_ID) && !ids->has_id) {
		ids->id = cursor_u64(c);
		ids->has_id = 1;
	} else if (t & PERF_SAMPLE_ID) {
		cursor_u64(c);
	}
	if (t & PERF_SAMPLE_STREAM_ID)
		cursor_u64(c);
	if (t & PERF_SAMPLE_CPU)
		get32x2(c, &ids->cpu, NULL);
}

int
perf_decode_ids(const struct perf_decoder *d,
    const struct perf_event_header *rec, struct perf_record_ids *ids)
{
	struct perf_event_header h;
	uint64_t t = d->sample_type;
	const unsigned char *body = (const unsigned char *)rec + sizeof(h);
	struct cursor c;

	memcpy(&h, rec, sizeof(h));
	memset(ids, 0, sizeof(*ids));
	if (h.size < sizeof(h))
		return -1;
	c.end = (const unsigned char *)rec + h.size;
	c.bad = 0;
	if (h.type == PERF_RECORD_SAMPLE) {
		c.p = body;
		sample_ids(t, &c, ids);
		return c.bad ? -1 : 0;
	}
	if (!d->sample_id_all || h.type >= PERF_RECORD_MAX)
		return 0;
	/* the trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER */
	{
		uint64_t n = 8 * (uint64_t)(!!(t & PERF_SAMPLE_TID) +
		    !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ID) +
		    !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
		    !!(t & PERF_SAMPLE_IDENTIFIER));

		if ((uint64_t)(c.end - body) < n)
			return -1;
		c.p = c.end - n;
	}
	if (t & PERF_SAMPLE_TID)
		get32x2(&c, &ids->pid, &ids->tid);
	if (t & PERF_SAMPLE_TIME) {
		ids->time = cursor_u64(&c);
		ids->has_time = 1;
	}
	if (t & PERF_SAMPLE_ID) {
		ids->id = cursor_u64(&c);
		ids->has_id = 1;
	}
	if (t & PERF_SAMPLE_STREAM_ID)
		cursor_u64(&c);
	if (t & PERF_SAMPLE_CPU)
		get32x2(&c, &ids->cpu, NULL);
	if (t & PERF_SAMPLE_IDENTIFIER) {
		ids->id = cursor_u64(&c);
		ids->has_id = 1;
	}
	return 0;
}

uint64_t
perf_record_time(const struct perf_event_header *rec)
{
	static const struct perf_decoder fg = { .sample_type =
	    FG_SAMPLE_TYPE, .sample_id_all = 1 };
	struct perf_record_ids ids;

	if (perf_decode_ids(&fg, rec, &ids) != 0)
		return 0;
	return ids.time;
}

/*
 * Sets c at the word after the identity fields of sample rec (PERIOD,
 * then READ), read with d's layout, when rec is a sample that has every
 * bit of need in its layout. Returns 0, or -1 when it is not.
 */
static int
sample_after_ids(const struct perf_decoder *d,
    const struct perf_event_header *rec, uint64_t need, struct cursor *c)
{
	struct perf_event_header h;
	struct perf_record_ids ids;

	memcpy(&h, rec, sizeof(h));
	if (h.type != PERF_RECORD_SAMPLE || h.size < sizeof(h) ||
	    (d->sample_type & need) != need)
		return -1;
	cursor_init(c, (const unsigned char *)rec + sizeof(h),
	    h.size - sizeof(h));
	memset(&ids, 0, sizeof(ids));
	sample_ids(d->sample_type, c, &ids);
	return 0;
}

int
perf_sample_period(const struct perf_decoder *d,
    const struct perf_event_header *rec, uint64_t *period)
{
	struct cursor c;

	*period = 0;
	if (sample_after_ids(d, rec, PERF_SAMPLE_PERIOD, &c) != 0)
		return -1;
	*period = cursor_u64(&c);
	return c.bad ? -1 : 0;
}

int
perf_sample_count(const struct perf_decoder *d,
    const struct perf_event_header *rec, uint64_t *count)
{
	struct cursor c;

	*count = 0;
	if ((d->read_format & PERF_FORMAT_GROUP) ||
	    sample_after_ids(d, rec, PERF_SAMPLE_READ, &c) != 0)
		return -1;
	if (d->sample_type & PERF_SAMPLE_PERIOD)
		cursor_u64(&c);
	*count = cursor_u64(&c);
	if (c.bad)
		*count = 0;
	return c.bad ? -1 : 0;
}

pid_t
perf_record_tid(const struct perf_decoder *d,
    const struct perf_event_header *rec)
{
	struct perf_event_header h;
	struct perf_record_ids ids;
	struct task_head task;

	memcpy(&h, rec, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
	case PERF_RECORD_SWITCH:
		/* the sample's own, or the switch's sample_id; 0 if cut */
		perf_decode_ids(d, rec, &ids);
		return (pid_t)ids.tid;
	case PERF_RECORD_EXIT:
		/* the thread that exits, not the trailer's */
		if (h.size < sizeof(h) + offsetof(struct task_head, ptid))
			return 0;
		memcpy(&task, (const unsigned char *)rec + sizeof(h),
		    offsetof(struct task_head, ptid));
		return (pid_t)task.tid;
	}
	return 0;
}

/* Is there a NUL in [s, end)? */
static int
terminated(const unsigned char *s, const unsigned char *end)
{
	return s <= end && memchr(s, '\0', (size_t)(end - s)) != NULL;
}

int
perf_decode(struct perf_decoder *d, const struct perf_event_header *rec,
    const struct source_sink *sink)
{
	const unsigned char *p = (const unsigned char *)rec + sizeof(*rec);
	const unsigned char *end;
	struct perf_event_header h;
	struct source_event ev;
	uint32_t pid, tid;

	memcpy(&h, rec, sizeof(h));	/* any alignment */
	if (h.size < sizeof(h))
		return 0;
	end = (const unsigned char *)rec + h.size;
	if (h.type == PERF_RECORD_SAMPLE)
		return decode_sample(d, &h, p, end, sink);
	memset(&ev, 0, sizeof(ev));
	{
		struct perf_record_ids ids;

		if (perf_decode_ids(d, rec, &ids) == 0)
			ev.time = ids.time;
	}
	switch (h.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		/* MMAP's fixed part is the start of MMAP2's. */
		int two = h.type == PERF_RECORD_MMAP2;
		size_t fixed = two ? sizeof(struct mmap2_head) :
		    sizeof(struct mmap_head);
		const unsigned char *name = p + fixed;
		struct mmap2_head m;

		if ((size_t)(end - p) < fixed ||
		    (!two && (h.misc & PERF_RECORD_MISC_MMAP_DATA)))
			return 0;
		memset(&m, 0, sizeof(m));
		memcpy(&m, p, fixed);
		if ((two && !(m.prot & PROT_EXEC)) || m.pid == (uint32_t)-1 ||
		    !terminated(name, end))
			return 0;
		ev.kind = SOURCE_MMAP;
		ev.pid = (pid_t)m.pid;
		ev.tid = (pid_t)m.tid;
		ev.u.mmap.addr = m.addr;
		ev.u.mmap.len = m.len;
		ev.u.mmap.pgoff = m.pgoff;
		ev.u.mmap.path = (const char *)name;
		if (two && (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			ev.u.mmap.buildid = p + offsetof(struct mmap2_head,
			    u.buildid.id);
			ev.u.mmap.buildid_len = m.u.buildid.size >
			    sizeof(m.u.buildid.id) ? sizeof(m.u.buildid.id) :
			    m.u.buildid.size;
		} else if (two) {
			ev.u.mmap.have_ino = 1;
			ev.u.mmap.maj = m.u.dev.maj;
			ev.u.mmap.min = m.u.dev.min;
			ev.u.mmap.ino = m.u.dev.ino;
		}
		break;
	}
	case PERF_RECORD_COMM:
		/* pid, tid, then the name: at least its NUL */
		if ((size_t)(end - p) < 2 * sizeof(uint32_t) + 1 ||
		    !terminated(p + 8, end))
			return 0;
		memcpy(&pid, p, 4);
		memcpy(&tid, p + 4, 4);
		ev.kind = SOURCE_COMM;
		ev.pid = (pid_t)pid;
		ev.tid = (pid_t)tid;
		ev.u.comm.name = (const char *)(p + 8);
		ev.u.comm.exec = (h.misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct task_head t;

		if ((size_t)(end - p) < offsetof(struct task_head, time))
			return 0;
		memcpy(&t, p, offsetof(struct task_head, time));
		ev.kind = h.type == PERF_RECORD_FORK ? SOURCE_FORK : SOURCE_EXIT;
		ev.pid = (pid_t)t.pid;
		ev.tid = (pid_t)t.tid;
		ev.u.fork.ppid = (pid_t)t.ppid;
		ev.u.fork.ptid = (pid_t)t.ptid;
		break;
	}
	case PERF_RECORD_LOST:
		/* id, lost */
		if (end - p < 16)
			return 0;
		memcpy(&ev.u.lost, p + 8, 8);
		ev.kind = SOURCE_LOST;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (end - p < 8)
			return 0;
		memcpy(&ev.u.lost, p, 8);
		ev.kind = SOURCE_LOST;
		break;
	case PERF_RECORD_THROTTLE:
		ev.kind = SOURCE_THROTTLE;
		break;
	default:
		return 0;
	}
	sink->fn(sink->arg, &ev);
	return 1;
}
