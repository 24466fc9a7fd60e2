/*
 * intern: byte strings interned, each with two counts: a hash table from
 * a key to its entry, the entries numbered in the order first seen (the
 * index of an entry in ents is its id). Its keys are folded stacks (frames
 * joined by ';': fgfold's table, fgsvg's --compare), and in profile/stacks
 * anything a profile numbers once: a frame group's text, a stack of
 * location ids, a thread, a build ID, a note. Keys are hashed with xxHash
 * (XXH3) and copied into an arena owned by the table, so memory grows with
 * the number of unique keys and their length, never with the input's size.
 *
 * Each entry holds two counts, for the two sides of a differential profile
 * (slot 0 is used otherwise), which a caller may use as its own fields
 * (profile/stacks keeps ids in them). A count is kept as an exact 64-bit
 * integer sum plus, for scaled input, a decimal part.
 */
#ifndef FG_INTERN_H
#define FG_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashtab.h"

struct intern_entry {
	const char	*key;		/* owned by the table; not NUL-terminated */
	size_t		 len;
	uint64_t	 u[2];		/* integer sums */
	double		 d[2];		/* decimal sums */
	int		 decimal;	/* some count added to it had a fraction */
};

struct intern {
	struct intern_entry *ents;	/* in insertion order */
	size_t		 n, cap;
	struct hashtab	 index;		/* of ents, by the key's XXH3 */
	char		*arena;		/* current arena block */
	size_t		 arena_used, arena_cap;
	char		**blocks;	/* all arena blocks, for release */
	size_t		 nblocks, blockcap;
};

/* Makes an empty table in *t, which the caller holds. */
void	intern_init(struct intern *);
/* Frees the entries and their keys (borrowed until then), not t itself. */
void	intern_release(struct intern *);

/*
 * Returns the entry for key[0..len), creating it with zero counts when it is
 * new. The pointer is borrowed and valid until the next intern_get or
 * intern_release.
 */
struct intern_entry *intern_get(struct intern *, const char *key,
		    size_t len);

/* Returns the entry for key[0..len), or NULL when there is none. */
struct intern_entry *intern_find(struct intern *, const char *key,
		    size_t len);

/*
 * Returns a newly allocated array of pointers to all entries, sorted by key
 * bytewise (as LC_ALL=C sort does). The caller frees the array, not the
 * entries.
 */
struct intern_entry **intern_sorted(struct intern *);

/* Writes the count in slot i as folded output does: integer, or decimal. */
int	intern_fmt_count(const struct intern_entry *, int i,
		    char *buf, size_t bufsz);

#endif
