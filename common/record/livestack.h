/*
 * livestack: the part of a thread's user stack that a sample's copy did
 * not hold, read from the live process (process_vm_readv: it only reads,
 * and neither stops nor writes to the thread), for the unwinder to go on
 * where the copy ran out (unwind_input's more).
 *
 * What is read is the stack now, not at the sample. It is the sample's
 * only while the frame where the copy ended is still on the stack: then
 * the frames older than it cannot have changed (the argument stitch.h
 * makes). The caller checks that with livestack_holds: the return
 * address slot just below that frame's stack pointer must still hold the
 * return address the copy saw, before the walk and after it.
 *
 * Reads are bounded by the thread's stack mapping (found once per thread
 * in /proc/PID/task/TID/maps) and cached per walk in LIVESTACK_CHUNK
 * pieces, at most LIVESTACK_CHUNKS of them: a walk past a 1 MiB frame
 * costs two or three system calls.
 *
 *	struct livestack ls;
 *	livestack_init(&ls);
 *	if (livestack_begin(&ls, pid, tid, copy_end) == 0 &&
 *	    livestack_holds(&ls, slot, ra) == 1) {
 *		in.more = livestack_read; in.more_arg = &ls;
 *		... walk ..., then livestack_holds again
 *	}
 *	livestack_forget(&ls, pid, tid);	(thread exit, exec)
 *	livestack_release(&ls);
 *
 * The ptrace sampler reads the same way while the thread is stopped
 * (record/ptsample_take.c): then what is read is the sample's, with no
 * check, and the reads begin small (step) so that the stop stays short.
 * What such a walk read is kept with the sample as pieces
 * (livestack_keep), for the session's own walk of it later
 * (livestack_pieces_read), which reads nothing from the process.
 */
#ifndef FG_LIVESTACK_H
#define FG_LIVESTACK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define LIVESTACK_CHUNK		(64u << 10)
#define LIVESTACK_CHUNKS	64	/* 4 MiB read at most per walk */
#define LIVESTACK_SLOTS		256	/* threads whose stack mapping is kept */

struct livestack_slot;

struct livestack {
	pid_t		 pid, tid;	/* the walk's thread */
	uint64_t	 lo, hi;	/* what it may read: [copy end, stack end) */
	unsigned char	*chunk[LIVESTACK_CHUNKS];	/* owned, made on demand */
	uint64_t	 base[LIVESTACK_CHUNKS];	/* each chunk's address */
	size_t		 len[LIVESTACK_CHUNKS];		/* and the bytes read */
	unsigned	 nchunks;	/* read in this walk */
	struct livestack_slot *slots;	/* owned: LIVESTACK_SLOTS threads' bounds */
	/*
	 * The first read's size, doubling with each read after it up to
	 * LIVESTACK_CHUNK; 0: LIVESTACK_CHUNK each. A power of two.
	 */
	size_t		 step;
	int		 err;		/* errno of the last read refused, or 0 */
	uint64_t	 reads;		/* process_vm_readv calls, for statistics */
};

/* Makes *ls, which the caller holds, with nothing read. */
void	 livestack_init(struct livestack *);
/* Frees the chunks and the bounds kept, not ls itself. */
void	 livestack_release(struct livestack *);

/*
 * Starts a walk on thread tid of process pid whose stack copy ends at
 * copy_end (its first address not copied): finds the stack mapping that
 * holds copy_end - 1 (kept for the thread after the first time, and
 * so is a refusal to read its maps) and forgets the chunks of the last
 * walk. Returns 0, or -1 when the thread's
 * maps cannot be read or copy_end is the end of its stack (ls->err set
 * to errno, or 0 when there is nothing more to read).
 */
int	 livestack_begin(struct livestack *, pid_t pid, pid_t tid,
	    uint64_t copy_end);

/*
 * unwind_more_fn: the 8 bytes at addr of the walk's thread (arg is the
 * struct livestack), read within [copy end, stack end) through the
 * chunk that holds it. Returns 0, or -1 (outside the bound, the chunks
 * all used, or the read refused: ls->err set).
 */
int	 livestack_read(void *arg, uint64_t addr, uint64_t *v);

/*
 * Whether the word at addr of the walk's thread holds want now, read
 * afresh (never from a chunk). Returns 1 when it does, 0 when it does
 * not, -1 when it cannot be read (ls->err set).
 */
int	 livestack_holds(struct livestack *, uint64_t addr, uint64_t want);

/*
 * Forgets the stack mapping kept for thread tid (its exit), or for every
 * thread of process pid when tid is 0 (an exec).
 */
void	 livestack_forget(struct livestack *, pid_t pid, pid_t tid);

/* What a walk read of a stopped thread: the chunks it read. */
struct livestack_pieces {
	unsigned	 n;
	uint64_t	 base[LIVESTACK_CHUNKS];
	size_t		 len[LIVESTACK_CHUNKS];
	unsigned char	*chunk[LIVESTACK_CHUNKS];	/* owned, or NULL */
};

/*
 * Takes the chunks ls read in its walk into p (which the caller holds,
 * all zero bytes the first time), giving ls p's old buffers in exchange:
 * no copy, so that a stop stays short. Returns the number of chunks.
 */
unsigned livestack_keep(struct livestack *, struct livestack_pieces *p);

/* Copies src into dst (all zero bytes), each chunk in len bytes. */
void	 livestack_pieces_copy(struct livestack_pieces *dst,
	    const struct livestack_pieces *src);

/*
 * unwind_more_fn over kept pieces (arg is the struct livestack_pieces):
 * the 8 bytes at addr when one piece holds them. Returns 0, or -1.
 */
int	 livestack_pieces_read(void *arg, uint64_t addr, uint64_t *v);

/* Frees p's bytes, not p itself. */
void	 livestack_pieces_release(struct livestack_pieces *p);

#endif
