#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perf/perf.h"
#include "base/xalloc.h"

static const struct perf_event_desc events[] = {
	{ "cpu-clock",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0 },
	{ "task-clock",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0 },
	{ "page-faults",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0 },
	{ "faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0 },
	{ "context-switches",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0 },
	{ "cs",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0 },
	{ "cycles",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1 },
	{ "instructions",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1 },
	{ "cache-misses",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 1 },
	{ "branch-misses",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 1 },
};

const struct perf_event_desc *
perf_event_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (strcmp(events[i].name, name) == 0)
			return &events[i];
	return NULL;
}

const char *
perf_event_name(uint32_t type, uint64_t config)
{
	size_t i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (events[i].type == type && events[i].config == config)
			return events[i].name;
	return NULL;
}

const char *
perf_event_names(void)
{
	return "cpu-clock, task-clock, page-faults, context-switches, "
	    "cycles, instructions, cache-misses, branch-misses";
}

void
perf_attr_fill(struct perf_event_attr *attr, const struct perf_opts *o)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = o->event->type;
	attr->config = o->event->config;
	if (o->period) {
		attr->sample_period = o->period;
	} else {
		attr->freq = 1;
		attr->sample_freq = o->freq;
	}
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
	    PERF_SAMPLE_CALLCHAIN;
	if (o->read_count)
		attr->sample_type |= PERF_SAMPLE_READ;	/* read_format 0 */
	if (o->dwarf) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER |
		    PERF_SAMPLE_STACK_USER;
		attr->sample_regs_user = PERF_REGS_MASK;
		attr->sample_stack_user = o->stack_size;
		/*
		 * The kernel's user callchain too: where the copy runs out
		 * and the live stack cannot be read, a program with frame
		 * pointers is completed from it (record.c, fp_stack).
		 */
	}
	attr->disabled = 1;
	attr->inherit = o->inherit ? 1 : 0;
	attr->enable_on_exec = o->enable_on_exec ? 1 : 0;
	attr->exclude_kernel = o->exclude_kernel ? 1 : 0;
	attr->exclude_hv = 1;
	attr->sample_id_all = 1;
	if (o->sideband) {
		attr->mmap = 1;
		attr->mmap2 = 1;
		attr->comm = 1;
		attr->comm_exec = 1;
		attr->task = 1;
		attr->build_id = o->build_id ? 1 : 0;
	}
	attr->context_switch = o->context_switch ? 1 : 0;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	if (o->wakeup_bytes) {
		attr->watermark = 1;
		attr->wakeup_watermark = o->wakeup_bytes;
	} else {
		attr->wakeup_events = 1;
	}
}

int
perf_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	long fd;

	fd = syscall(SYS_perf_event_open, attr, pid, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
	return (int)fd;
}

static long
read_sysctl(const char *path, long missing)
{
	FILE *f;
	long v;

	if ((f = fopen(path, "re")) == NULL)
		return missing;
	if (fscanf(f, "%ld", &v) != 1)
		v = missing;
	fclose(f);
	return v;
}

int
perf_paranoid(void)
{
	return (int)read_sysctl("/proc/sys/kernel/perf_event_paranoid", INT_MIN);
}

long
perf_max_sample_rate(void)
{
	return read_sysctl("/proc/sys/kernel/perf_event_max_sample_rate", 0);
}

int
perf_ring_map(struct perf_ring *ring, int fd, int cpu, size_t *pages)
{
	size_t pgsz = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	memset(ring, 0, sizeof(*ring));
	ring->fd = fd;
	ring->cpu = cpu;
	for (;;) {
		size_t len = (*pages + 1) * pgsz;

		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p != MAP_FAILED) {
			ring->base = p;
			ring->map_size = len;
			ring->data = (unsigned char *)p + pgsz;
			ring->data_size = *pages * pgsz;
			return 0;
		}
		if ((errno != EPERM && errno != ENOMEM) || *pages <= 8)
			return -1;
		*pages /= 2;
	}
}

void
perf_ring_unmap(struct perf_ring *ring)
{
	if (ring->base)
		munmap(ring->base, ring->map_size);
	free(ring->scratch);
	memset(ring, 0, sizeof(*ring));
	ring->fd = -1;
}

int
perf_ring_pending(const struct perf_ring *ring)
{
	const struct perf_event_mmap_page *pg = (const void *)ring->base;
	uint64_t head, tail;

	if (ring->base == NULL)
		return 0;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	return head != tail;
}

size_t
perf_ring_drain(struct perf_ring *ring,
    void (*fn)(void *, const struct perf_event_header *, int), void *arg)
{
	struct perf_event_mmap_page *pg = (void *)ring->base;
	uint64_t head, tail, mask = ring->data_size - 1;
	size_t n = 0;

	if (ring->base == NULL)
		return 0;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head) {
		struct perf_event_header h;
		size_t off = tail & mask, first;
		const struct perf_event_header *rec;

		/* The header itself may straddle the end. */
		first = ring->data_size - off;
		if (first >= sizeof(h)) {
			memcpy(&h, ring->data + off, sizeof(h));
		} else {
			memcpy(&h, ring->data + off, first);
			memcpy((char *)&h + first, ring->data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail)
			break;		/* cannot happen with a sane kernel */
		if (first >= h.size) {
			rec = (const void *)(ring->data + off);
		} else {
			if (ring->scratch_cap < h.size) {
				ring->scratch_cap = h.size;
				ring->scratch = xrealloc(ring->scratch, h.size);
			}
			memcpy(ring->scratch, ring->data + off, first);
			memcpy(ring->scratch + first, ring->data, h.size - first);
			rec = (const void *)ring->scratch;
		}
		fn(arg, rec, ring->cpu);
		tail += h.size;
		ring->bytes += h.size;
		n++;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	return n;
}
