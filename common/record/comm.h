/*
 * comm: the names of the threads a session has seen, as the stream's
 * sample heads give them ("make 1234/1234 ...").
 *
 *	struct comm c;
 *	comm_init(&c);
 *	comm_set(&c, tid, name);		(a comm event, an exec)
 *	comm_read_tasks(&c, pid);		(what runs already, -p and -a)
 *	name = comm_get(&c, pid, tid);		(for a sample)
 *	comm_release(&c);
 *
 * A name is learnt from the source's events, or failing that read from
 * /proc when a sample first needs it. Names are kept as the thread
 * gave them (cut at 23 bytes): the stream writer (stream/writer.h) makes
 * them safe to print in a sample head. The table only grows (an
 * append-only array, indexed by a struct hashtab).
 */
#ifndef FG_COMM_H
#define FG_COMM_H

#include <stddef.h>
#include <sys/types.h>

#include "base/hashtab.h"

struct comm_ent {
	pid_t		 tid;
	char		 name[24];	/* cut at 23 bytes */
};

struct comm {
	struct comm_ent	*v;		/* owned: in the order learnt */
	size_t		 n, cap;
	struct hashtab	 idx;		/* hashtab_int(tid) -> v */
};

/* Makes an empty table in *c, which the caller holds. */
void	 comm_init(struct comm *);
/* Frees the entries and the index, not c itself. */
void	 comm_release(struct comm *);

/*
 * Returns the name learnt for tid, or NULL. Borrowed: valid until the
 * next comm_set, comm_get or comm_read_tasks (the table may move).
 */
const char *comm_find(struct comm *, pid_t tid);

/*
 * Names thread tid name (copied and cut), replacing what it was
 * called; name may be one that comm_find returned. Does nothing for a
 * tid that is not positive or an empty name. Returns the name as kept
 * (borrowed as comm_find's), or NULL when nothing was done.
 */
const char *comm_set(struct comm *, pid_t tid, const char *name);

/*
 * Returns the name of thread tid of process pid, for a sample: the one
 * learnt; else read from /proc (and learnt), or ":TID" when the thread
 * is gone; "swapper", as perf calls the idle task, for tid 0 or less.
 * A tid of -1 with a pid (the kernel's for a thread that is exiting) is
 * named by its process.
 * Never NULL; borrowed as comm_find's.
 */
const char *comm_get(struct comm *, pid_t pid, pid_t tid);

/* Learns the names of every thread of pid from /proc; a gone pid is none. */
void	 comm_read_tasks(struct comm *, pid_t pid);

#endif
