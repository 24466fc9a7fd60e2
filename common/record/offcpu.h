/*
 * offcpu: pairs the moment a thread leaves the CPU with the moment it comes
 * back, to weigh the stack where it blocked by the time it was away.
 *
 * The perf sampler feeds it three kinds of records, in time order:
 * the sample taken when a thread is switched out (the context-switches
 * event with a period of 1: the stack where it blocks), the
 * PERF_RECORD_SWITCH record that follows it (whether the thread was
 * preempted, still runnable, rather than waiting), and the
 * PERF_RECORD_SWITCH record of its switch back in. The switch in gives the
 * held sample back, with the time between the two.
 *
 *	struct offcpu oc;
 *	offcpu_init(&oc, count_preempted);
 *	offcpu_block(&oc, tid, time, sample);	(on a context-switches sample)
 *	offcpu_preempted(&oc, tid);		(on a SWITCH_OUT_PREEMPT record)
 *	if ((h = offcpu_wake(&oc, tid, time, &ns)) != NULL)
 *		write h as an offcpu-time sample of period ns
 *	offcpu_flush(&oc, end, fn, arg);	(threads still away at the end)
 *	offcpu_release(&oc);
 *
 * It holds one sample per thread at most: a thread is switched out once
 * before it is switched in again. Each thread keeps its buffer for the
 * next switch out, so that tens of thousands of switches a second cost no
 * allocation. Nothing here prints.
 */
#ifndef FG_OFFCPU_H
#define FG_OFFCPU_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "base/hashtab.h"

struct offcpu_wait;

struct offcpu {
	struct offcpu_wait *tab;	/* owned: the threads, as met */
	size_t		 n, cap;
	struct hashtab	 idx;		/* hashtab_int(tid) -> tab */
	int		 count_preempted; /* a preempted thread's wait counts too */
	uint64_t	 preempted;	/* waits that were preemptions */
	uint64_t	 unmatched;	/* switches in with no sample held */
	uint64_t	 dropped;	/* samples let go by offcpu_drop */
};

/* Makes an empty pairing in *oc, which the caller holds. */
void	 offcpu_init(struct offcpu *, int count_preempted);
/* Frees the threads and the samples they hold, not oc itself. */
void	 offcpu_release(struct offcpu *);

/*
 * Thread tid was already away at time (ns), with no sample of where: it
 * was asleep when fgrecord attached (-p). The wait, from time to its
 * switch in, is owed to the stack of its next switch out, where a thread
 * that waits in a loop blocks again (offcpu_block returns it). A thread
 * still asleep at the end has no stack to weigh, and is not written.
 */
void	 offcpu_asleep(struct offcpu *, pid_t tid, uint64_t time);

/*
 * Holds a copy of sample, the stack thread tid blocked at, taken at time
 * (ns). A sample held from before for the same thread (its switch in was
 * lost) is replaced. Returns the wait owed since offcpu_asleep (ns, to be
 * written with this sample's stack now), or 0.
 */
uint64_t offcpu_block(struct offcpu *, pid_t tid, uint64_t time,
	    const struct perf_event_header *sample);

/* Marks the sample held for tid as a preemption: the thread was runnable. */
void	 offcpu_preempted(struct offcpu *, pid_t tid);

/*
 * Thread tid is back on a CPU at time (or has exited). Returns the sample
 * held for it and sets *ns to the time it was away; or NULL when nothing
 * is held, or when the wait was a preemption that is not counted. The
 * sample is borrowed until the thread's next offcpu_block, or
 * offcpu_release.
 */
const struct perf_event_header *offcpu_wake(struct offcpu *, pid_t tid,
	    uint64_t time, uint64_t *ns);

/* Thread tid has exited: frees its buffer (call after offcpu_wake). */
void	 offcpu_forget(struct offcpu *, pid_t tid);

/*
 * Lets go of every sample held, counting them in dropped: the kernel lost
 * records, and a held sample whose switch in was among them would
 * otherwise be paired with a later switch in, and weigh time the thread
 * spent running.
 */
void	 offcpu_drop(struct offcpu *);

/*
 * Calls fn for every sample still held, as offcpu_wake would give it back
 * at time end, in thread ID order, and forgets them.
 */
void	 offcpu_flush(struct offcpu *, uint64_t end,
	    void (*fn)(void *arg, const struct perf_event_header *sample,
	    uint64_t ns), void *arg);

#endif
