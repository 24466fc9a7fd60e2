/*
 * maptab: one process's mappings, sorted by address and never
 * overlapping, kept in chunks of at most MAPTAB_CHUNK that a fork shares
 * with its parent until either of them maps something: then the one that
 * writes copies the list of chunks and the chunk it changes, no more.
 * A fork costs nothing, and an mmap a binary search and one chunk's
 * worth of moving, whatever the number of mappings or of forks.
 *
 *	struct maptab t, child;
 *	maptab_init(&t);
 *	maptab_add(&t, &m);		(cuts away what m overlaps, as mmap(2))
 *	maptab_share(&child, &t);	(a fork)
 *	mp = maptab_find(&t, addr);
 *	maptab_release(&t);
 *
 * A struct maptab is a reference: assigning one to another moves it
 * (maps_exec), and only maptab_share makes a second.
 */
#ifndef FG_MAPTAB_H
#define FG_MAPTAB_H

#include <stddef.h>
#include <stdint.h>

#define MAPTAB_CHUNK	256	/* mappings in a chunk at most */

struct mapfile;

struct mapping {
	uint64_t	 start;
	uint64_t	 end;		/* one past the last byte */
	uint64_t	 pgoff;		/* file offset of start */
	struct mapfile	*file;		/* borrowed from struct maps */
};

struct maptab_body;

struct maptab {
	struct maptab_body *b;		/* a reference, or NULL: empty */
};

/* Makes an empty table in *t, which the caller holds. */
void	 maptab_init(struct maptab *);

/* Drops t's reference: frees what no other table shares. t is empty. */
void	 maptab_release(struct maptab *);

/* Makes *to (released first) share from's mappings: a fork. */
void	 maptab_share(struct maptab *to, const struct maptab *from);

/*
 * Adds m (copied), cutting away or splitting whatever it overlaps; an
 * empty m (end <= start) adds nothing.
 */
void	 maptab_add(struct maptab *, const struct mapping *m);

/*
 * Returns the mapping that holds addr, or NULL. Borrowed until the table
 * is next changed or released; it may be shared with another table, so
 * the caller does not change it.
 */
struct mapping *maptab_find(const struct maptab *, uint64_t addr);

/* How many mappings t holds. */
size_t	 maptab_count(const struct maptab *);

#endif
