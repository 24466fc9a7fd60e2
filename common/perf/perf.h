/*
 * perf: the thin layer over perf_event_open(2): the events fgrecord knows
 * by name, the attribute it fills in, and the memory-mapped ring buffer
 * that the kernel writes records into.
 *
 *	struct perf_ring ring;
 *	fd = perf_open(&attr, pid, cpu);
 *	perf_ring_map(&ring, fd, cpu, &pages);
 *	perf_ring_drain(&ring, fn, arg);	(fn sees each record once)
 *	perf_ring_unmap(&ring);
 *
 * Nothing here prints: failures come back as -1 with errno set, and the
 * caller explains them (source_perf.c knows what the user asked for).
 */
#ifndef FG_PERF_H
#define FG_PERF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

/* One event that -e accepts. */
struct perf_event_desc {
	const char	*name;		/* "cpu-clock" */
	uint32_t	 type;		/* PERF_TYPE_SOFTWARE or _HARDWARE */
	uint64_t	 config;
	int		 hardware;	/* needs a PMU, absent in most VMs */
};

/*
 * Returns the event called name, or NULL when there is none. The result
 * points into a static table.
 */
const struct perf_event_desc *perf_event_find(const char *name);

/*
 * Returns the name of the event of type and config (the inverse of
 * perf_event_find), or NULL when it is none of the known ones. Static.
 */
const char	*perf_event_name(uint32_t type, uint64_t config);

/* Returns the known event names, comma-separated, for messages (static). */
const char	*perf_event_names(void);

/* What to ask the kernel for: the options of one recording. */
struct perf_opts {
	const struct perf_event_desc *event;
	uint64_t	 freq;		/* samples per second, used when period is 0 */
	uint64_t	 period;	/* a fixed sampling period, or 0 */
	int		 dwarf;		/* copy user registers and stack */
	uint32_t	 stack_size;	/* bytes of user stack per sample, multiple of 8 */
	int		 exclude_kernel;
	int		 inherit;	/* follow threads and children */
	int		 enable_on_exec;
	int		 build_id;	/* build IDs in MMAP2 records (Linux 5.12) */
	int		 sideband;	/* this event also reports mmap/comm/task */
	int		 context_switch; /* and PERF_RECORD_SWITCH records */
	uint32_t	 wakeup_bytes;	/* wake a poll(2) after this much data,
					   or at every sample when 0 */
	int		 read_count;	/* each sample carries the event's count */
};

/* The user registers fgrecord asks for: all general-purpose ones. */
#define PERF_REGS_MASK	0xff01ffULL	/* AX..IP, R8..R15; not FLAGS or segments */
#define PERF_REGS_COUNT	17

/*
 * Those registers in DWARF's numbering for x86-64, as a sample carries
 * them (struct source_sample) and the unwinder reads them: RAX, RDX, RCX,
 * RBX, RSI, RDI, RBP, RSP, R8..R15, then the return address (RIP).
 */
#define PERF_DWARF_NREGS	17
#define PERF_DWARF_RA	16
#define PERF_DWARF_SP	7
#define PERF_DWARF_BP	6

/*
 * Fills *attr from *opts, zeroing it first. The sample layout is fixed:
 * IP, TID, TIME, CPU, PERIOD, READ (one u64, the event's count, when
 * opts->read_count), CALLCHAIN, and REGS_USER and STACK_USER when
 * opts->dwarf; times are CLOCK_MONOTONIC.
 */
void	 perf_attr_fill(struct perf_event_attr *attr, const struct perf_opts *opts);

/*
 * Opens one event for pid (a thread, or -1 with a cpu for the whole CPU)
 * on cpu (-1 for any), close-on-exec. Returns the descriptor, or -1 with
 * errno set.
 */
int	 perf_open(struct perf_event_attr *attr, pid_t pid, int cpu);

/* Reads kernel.perf_event_paranoid; returns INT_MIN when it is absent. */
int	 perf_paranoid(void);

/* Reads kernel.perf_event_max_sample_rate; returns 0 when it is absent. */
long	 perf_max_sample_rate(void);

/* A ring buffer: the first page is the control page, then 2^n data pages. */
struct perf_ring {
	int		 fd;		/* borrowed: the event that owns the buffer */
	int		 cpu;
	unsigned char	*base;		/* the whole mapping */
	size_t		 map_size;
	unsigned char	*data;		/* the data area */
	size_t		 data_size;	/* a power of two */
	unsigned char	*scratch;	/* for records that wrap around */
	size_t		 scratch_cap;
	uint64_t	 bytes;		/* read so far */
};

/*
 * Maps a ring buffer of *pages data pages (a power of two) for fd. When the
 * kernel refuses for lack of lockable memory (EPERM, ENOMEM), it halves
 * *pages and retries, down to 8 pages; *pages then holds what it got.
 * Returns 0, or -1 with errno set.
 */
int	 perf_ring_map(struct perf_ring *ring, int fd, int cpu, size_t *pages);

/* Unmaps the buffer and frees the scratch space; it does not close fd. */
void	 perf_ring_unmap(struct perf_ring *ring);

/*
 * Calls fn once for every record the kernel has written since the last
 * call, in order, then gives the space back to the kernel. The record is
 * contiguous and borrowed for the duration of the call only. Returns the
 * number of records.
 */
size_t	 perf_ring_drain(struct perf_ring *ring,
	    void (*fn)(void *arg, const struct perf_event_header *rec, int cpu),
	    void *arg);

/* Whether the ring holds unread data. */
int	 perf_ring_pending(const struct perf_ring *ring);

#endif
