#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "record/perfdecode.h"
#include "base/xalloc.h"

/*
 * The fixed head of a sample: IP, TID (pid, tid), TIME, CPU (cpu, res),
 * PERIOD, and the callchain's length; then the callchain, and with dwarf
 * the registers' ABI, the registers, the stack copy's size, the copy and
 * its dynamic size.
 */
struct sample_head {
	uint64_t	 ip;
	uint32_t	 pid, tid;
	uint64_t	 time;
	uint32_t	 cpu, res;
	uint64_t	 period;
	uint64_t	 nr;
};

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

/* The sample_id_all trailer of side-band records: TID, TIME, CPU. */
#define ID_TRAILER	24

void
perf_decoder_init(struct perf_decoder *d, int dwarf, const char *event)
{
	memset(d, 0, sizeof(*d));
	d->dwarf = dwarf;
	d->event = event;
}

void
perf_decoder_release(struct perf_decoder *d)
{
	free(d->ips);
	memset(d, 0, sizeof(*d));
}

static uint64_t
rd64(const unsigned char **p)
{
	uint64_t v;

	memcpy(&v, *p, 8);
	*p += 8;
	return v;
}

uint64_t
perf_record_time(const struct perf_event_header *rec)
{
	struct perf_event_header h;
	uint64_t t;

	memcpy(&h, rec, sizeof(h));
	if (h.size < sizeof(h) + ID_TRAILER)
		return 0;
	if (h.type == PERF_RECORD_SAMPLE)
		memcpy(&t, (const char *)rec + sizeof(h) +
		    offsetof(struct sample_head, time), 8);
	else
		memcpy(&t, (const char *)rec + h.size - 16, 8);
	return t;
}

/* Is there a NUL in [s, end)? */
static int
terminated(const unsigned char *s, const unsigned char *end)
{
	return s <= end && memchr(s, '\0', (size_t)(end - s)) != NULL;
}

static int
decode_sample(struct perf_decoder *d, const unsigned char *p,
    const unsigned char *end, const struct source_sink *sink)
{
	struct source_event ev;
	struct source_sample *s = &ev.u.sample;
	struct sample_head sh;
	uint64_t perf_regs[PERF_REGS_COUNT];

	if ((size_t)(end - p) < sizeof(sh))
		return 0;
	memcpy(&sh, p, sizeof(sh));
	p += sizeof(sh);
	if (sh.nr > (uint64_t)(end - p) / 8)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.kind = SOURCE_SAMPLE;
	ev.pid = (pid_t)sh.pid;
	ev.tid = (pid_t)sh.tid;
	ev.time = sh.time;
	s->cpu = sh.cpu;
	s->period = sh.period;
	s->event = d->event;
	GROW(d->ips, sh.nr ? sh.nr : 1, d->ips_cap);
	memcpy(d->ips, p, sh.nr * 8);
	p += sh.nr * 8;
	s->callchain = d->ips;
	s->nr = sh.nr;
	s->chain_cut = sh.nr >= PERF_MAX_STACK;
	if (d->dwarf) {
		uint64_t abi, size, dyn;

		if (end - p < 8)
			return 0;
		abi = rd64(&p);
		if (abi != PERF_SAMPLE_REGS_ABI_NONE) {
			if ((size_t)(end - p) < sizeof(perf_regs))
				return 0;
			memcpy(perf_regs, p, sizeof(perf_regs));
			p += sizeof(perf_regs);
			unwind_regs_from_perf(perf_regs, s->regs);
			s->regs_valid = (1u << UNWIND_NREGS) - 1;
		}
		if (end - p < 8)
			return 0;
		size = rd64(&p);
		if (size) {
			if ((uint64_t)(end - p) < 8 ||
			    size > (uint64_t)(end - p) - 8)
				return 0;
			s->stack = p;
			p += size;
			dyn = rd64(&p);
			s->stack_len = dyn > size ? size : dyn;
		}
	}
	sink->fn(sink->arg, &ev);
	return 1;
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
		return decode_sample(d, p, end, sink);
	memset(&ev, 0, sizeof(ev));
	ev.time = perf_record_time(rec);
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
