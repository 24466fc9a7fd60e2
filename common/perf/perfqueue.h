/*
 * perfqueue: perf records held and handed back in time order. The
 * kernel writes each CPU's records in order, but not the CPUs' among
 * themselves, and perf record writes its buffers one after the other:
 * both fgrecord's perf source and the perf.data reader put them back
 * in order here before decoding them.
 *
 *	struct perfqueue q;
 *	perfqueue_init(&q, bound);
 *	if (perfqueue_full(&q, len))
 *		perfqueue_flush(&q, 0, 1, fn, arg);	(the older half)
 *	perfqueue_add(&q, rec, len, time, off, tag);	(copied)
 *	perfqueue_flush(&q, limit, 0, fn, arg);		(time <= limit)
 *	perfqueue_release(&q);
 *
 * Records of equal time come back in the order they were added. The
 * records' bytes are kept in one arena, in the order they came, at any
 * alignment (a record's words are read with memcpy, or the records are
 * all multiples of 8 bytes long, as the kernel's ring buffer's are);
 * what a flush keeps moves down within it when the arena would
 * otherwise grow, so that no second arena is needed and the memory is
 * the bound's (and two scratch copies of the entries, for sorting).
 */
#ifndef FG_PERFQUEUE_H
#define FG_PERFQUEUE_H

#include <stddef.h>
#include <stdint.h>

/* A record waiting for its turn. */
struct perfqueue_rec {
	uint64_t	 time;
	uint64_t	 seq;		/* ties keep the order they came in */
	uint64_t	 off;		/* the caller's: where it was found */
	size_t		 at;		/* its bytes, in the arena */
	uint32_t	 len;
	int32_t		 tag;		/* the caller's: its event, its CPU */
};

struct perfqueue {
	struct perfqueue_rec *q;	/* owned: q[0..n) */
	size_t		 n, cap;
	unsigned char	*arena;		/* owned: the records' bytes */
	size_t		 alen;		/* the bytes of the records held */
	size_t		 aend, acap;	/* the arena's used end, its size */
	struct perfqueue_rec *s, *t;	/* owned: scratch for a flush's sort */
	size_t		 scap, tcap;
	uint64_t	 seq;
	size_t		 max;		/* the bound in bytes, or 0 for none */
};

/*
 * Called with each record handed back: rec is its bytes (len of them,
 * borrowed until the callback returns), r its entry.
 */
typedef void perfqueue_fn(void *arg, const void *rec,
	    const struct perfqueue_rec *r);

/*
 * An empty queue, whose records' bytes and entries together should stay
 * within max bytes (0: no bound; see perfqueue_full).
 */
void	 perfqueue_init(struct perfqueue *, size_t max);

/*
 * Whether adding a record of len bytes would take the queue past its
 * bound (never when it is empty): then the caller flushes half of it.
 */
int	 perfqueue_full(const struct perfqueue *, uint32_t len);

/*
 * Queues the record rec of len bytes (copied) under time; off and tag
 * are kept for the callback.
 */
void	 perfqueue_add(struct perfqueue *, const void *rec, uint32_t len,
	    uint64_t time, uint64_t off, int32_t tag);

/*
 * Hands the records of time up to limit (UINT64_MAX: all), or the older
 * half when half is set, to fn in time order, and keeps the others. With
 * fn NULL they are dropped. fn must not add to the queue.
 */
void	 perfqueue_flush(struct perfqueue *, uint64_t limit, int half,
	    perfqueue_fn *fn, void *arg);

/* Frees the records held (not handed back) and the queue's memory. */
void	 perfqueue_release(struct perfqueue *);

#endif
