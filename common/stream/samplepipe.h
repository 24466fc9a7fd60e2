/*
 * samplepipe: a sample sink that hands what it is given to another
 * thread's sink, in order, so that the producer (a recording session
 * replaying perf.data: reading, unwinding) and the consumer (the
 * symbolizer: names, writing) run on two CPUs at once, as the two
 * processes of a pipe would, with structs in between instead of text.
 *
 *	struct samplepipe p;
 *	samplepipe_init(&p, &consumer);	(consumer: the other thread's sink)
 *	thread A: producer writes to p.sink ... then samplepipe_close(&p);
 *	thread B: samplepipe_run(&p);	(returns once A closed it, all passed)
 *	samplepipe_release(&p);
 *
 * Each header and sample is copied (its strings and frames) into a batch;
 * at most SAMPLEPIPE_BATCHES full batches wait, then the producer waits.
 * The sink's flush waits until the consumer has passed on all before it,
 * and returns the consumer sink's flush, run in the consumer's thread
 * (its stream is the consumer's alone).
 */
#ifndef FG_SAMPLEPIPE_H
#define FG_SAMPLEPIPE_H

#include <pthread.h>
#include <stddef.h>

#include "stream/sample.h"

#define SAMPLEPIPE_BATCHES	4

struct samplepipe_batch;

struct samplepipe {
	struct sample_sink sink;	/* the producer's end */
	struct sample_sink consumer;	/* borrowed */
	pthread_mutex_t	 lock;
	pthread_cond_t	 changed;
	struct samplepipe_batch *fill;	/* the producer's, owned */
	struct samplepipe_batch *queue[SAMPLEPIPE_BATCHES];
	size_t		 head, count;	/* the queue's first and length */
	int		 closed;
	struct samplepipe_batch *spares;	/* passed on, for reuse */
	unsigned long	 flushes_asked, flushes_done;
	int		 flush_rc, flush_errno;
};

/* Makes p a pipe to consumer (borrowed). */
void	 samplepipe_init(struct samplepipe *p, const struct sample_sink *consumer);

/* The producer is done: what it gave is passed on, then run returns. */
void	 samplepipe_close(struct samplepipe *p);

/* Passes everything on to the consumer, until the producer closed p. */
void	 samplepipe_run(struct samplepipe *p);

/* Frees what p holds; both threads must be done with it. */
void	 samplepipe_release(struct samplepipe *p);

#endif
