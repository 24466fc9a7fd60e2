/*
 * spool: fgrecord's stream held between the session and its output, so
 * that a reader slow to start or to read (fgsym indexing a large binary's
 * DWARF before it reads a line) never stops the draining of the kernel's
 * rings: a write to a full pipe blocked the session, the rings filled and
 * the kernel dropped samples (about half of them behind a reader 2 s
 * late).
 *
 *	struct spool sp;
 *	spool_init(&sp, fd, name);	(fd borrowed: the real output)
 *	spool_sink(&sp, &opts.sink);	the stream writer into the spool
 *	... the session writes ...
 *	if (spool_finish(&sp) != 0)	every byte written out, or errno
 *		...
 *	spool_release(&sp);
 *
 * The bytes go, in order, into a queue of segments of SPOOL_SEGMENT
 * bytes: in memory up to SPOOL_MEMORY, then in a temporary file, unlinked
 * (O_TMPFILE, or mkstemp then unlink), in $TMPDIR or /tmp, up to
 * SPOOL_DISK (the rest of the memory is a few buffers: a spare segment,
 * the stream writer's 256 KiB, the writer's segment read back from the
 * file), and only while its file system keeps SPOOL_RESERVE free (asked
 * of fstatvfs before each new segment of the file: a tmpfs is memory the
 * OOM killer cannot take back, and a full /tmp breaks other programs);
 * a writer thread, which blocks every signal (they are the
 * session's: SIGCHLD, ^C, the ptrace sampler's SIGALRM), writes them to
 * the output at the output's pace. Only when both are full (or the file
 * cannot be made or written) does the session wait for the output, as it
 * did without a spool, and that is counted. A failed write (EPIPE,
 * ENOSPC) ends the writer: the bytes held and any later are dropped
 * (counted in stats.dropped, the oldest one's wait in stats.max_lag_ns),
 * and the sink's flush says the write's errno from then on.
 */
#ifndef FG_SPOOL_H
#define FG_SPOOL_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "stream/sample.h"

#define SPOOL_SEGMENT	(1u << 20)		/* bytes per segment */
#define SPOOL_MEMORY	(64u << 20)		/* bytes held in memory at most */
#define SPOOL_DISK	(4ULL << 30)		/* and in the file */
/*
 * The room the file leaves free on its file system: a tenth of it, at
 * most SPOOL_RESERVE_MAX (a tenth of a small tmpfs, 1 GiB of a disk).
 */
#define SPOOL_RESERVE(total) ((total) / 10 < SPOOL_RESERVE_MAX ? \
	(total) / 10 : SPOOL_RESERVE_MAX)
#define SPOOL_RESERVE_MAX (1ULL << 30)

/* How far the output lagged behind the session. */
struct spool_stats {
	uint64_t	 bytes;		/* handed to the spool */
	uint64_t	 max_held;	/* bytes not yet written out, at worst */
	uint64_t	 max_lag_ns;	/* a byte's wait to be written, at worst */
	uint64_t	 spilled;	/* bytes that went through the file */
	uint64_t	 waits;		/* writes that waited for room */
	uint64_t	 wait_ns;	/* how long, in all */
	uint64_t	 dropped;	/* bytes never written: a signal ended
					   the wait for the reader, or the
					   output failed (EPIPE: the reader
					   went away), counted from then on */
	int		 drop_errno;	/* why: ECANCELED (a signal), or the
					   failed write's errno; 0: none */
};

struct spool_seg;

struct spool {
	pthread_mutex_t	 lock;
	pthread_cond_t	 more;		/* for the writer: bytes, or the end */
	pthread_cond_t	 room;		/* for the session: bytes written out */
	pthread_t	 thread;
	int		 running;	/* the writer thread runs */
	int		 sync;		/* no thread: written in place */
	int		 closing;	/* spool_finish: write all, then end */
	int		 fd;		/* the output, borrowed */
	const char	*name;		/* borrowed: for messages */
	FILE		*file;		/* owned: what the stream writer writes to */
	char		*fbuf;		/* owned: its buffer */
	struct spool_seg *head, *tail;	/* owned: the bytes held, in order */
	struct spool_seg *spare;	/* owned: a memory segment kept for reuse */
	uint64_t	 mem;		/* bytes of memory segments */
	uint64_t	 disk;		/* bytes reserved in the file */
	uint64_t	 held;		/* bytes not yet written out */
	int		 tmp;		/* the temporary file, or -1 */
	uint64_t	 tmp_end;	/* its end: offsets past it are free */
	uint64_t	 free[SPOOL_DISK / SPOOL_SEGMENT];
					/* offsets before it given back */
	size_t		 nfree;
	const char	*tmp_dir;	/* where it is: $TMPDIR's value, or "/tmp" */
	int		 tmp_failed;	/* it could not be made or written */
	int		 tmp_full;	/* its file system reached the reserve:
					   said once, checked again per segment */
	char		*rbuf;		/* owned: the writer's, for the file's bytes */
	int		 error;		/* errno of the output's failed write, or 0 */
	int		 ended;		/* the writer thread returned */
	int		 abandoned;	/* a signal ended a wait: see abandon() */
	volatile sig_atomic_t *stop;	/* borrowed: set by a signal, or NULL */
	struct spool_stats stats;
};

/*
 * An empty spool that writes to fd (borrowed; name, borrowed, names it
 * in messages). The writer thread starts with the first bytes; when it
 * cannot, the bytes are written in place, as without a spool.
 */
void	 spool_init(struct spool *, int fd, const char *name);

/*
 * Makes every wait for the reader (spool_finish's, and a write's when the
 * spool is full) end within 100 ms of *flag becoming non-zero (a signal
 * handler's flag, borrowed): the bytes still held are then dropped,
 * counted in stats.dropped, and the output fails with ECANCELED.
 */
static inline void
spool_stop_on(struct spool *s, volatile sig_atomic_t *flag)
{
	s->stop = flag;
}

/* Makes *sink the stream writer (stream/sample.h) into the spool. */
void	 spool_sink(struct spool *, struct sample_sink *sink);

/*
 * Writes out everything the stream writer was given, waits until the
 * output has taken it and ends the writer thread (new bytes would start
 * it again). Returns 0, or -1 with errno the failed write's.
 */
int	 spool_finish(struct spool *);

/*
 * Frees what the spool owns, the file among it. Call spool_finish first:
 * otherwise bytes still held are dropped, after a write in progress ends.
 */
void	 spool_release(struct spool *);

#endif
