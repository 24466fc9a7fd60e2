/*
 * svgmap: a map from byte strings to byte strings, for the lookup tables of
 * fgsvg (the --cp palette file, the --nameattr file). Keys and values are
 * copied in; they may hold any byte, NUL included.
 *
 *	struct svgmap m;
 *	svgmap_init(&m);
 *	svgmap_put(&m, "main", 4, "rgb(1,2,3)", 10);
 *	v = svgmap_get(&m, "main", 4, &vlen);
 *	svgmap_release(&m);
 */
#ifndef FG_SVGMAP_H
#define FG_SVGMAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashtab.h"

struct svgmap_entry {
	char		*key;		/* owned, NUL-terminated copy */
	size_t		 klen;
	char		*val;		/* owned, NUL-terminated copy */
	size_t		 vlen;
};

struct svgmap {
	struct svgmap_entry *ents;	/* in the order first put */
	size_t		 count, cap;
	struct hashtab	 index;		/* of ents, by the key's XXH3 */
};

/* Makes an empty map in *m, which the caller holds. */
void	 svgmap_init(struct svgmap *);
/* Frees the entries (keys and values) and the index, not m itself. */
void	 svgmap_release(struct svgmap *);

/*
 * Sets the value of a key, replacing any earlier value. Both are copied; the
 * map owns the copies until svgmap_release.
 */
void	 svgmap_put(struct svgmap *, const char *key, size_t klen,
	    const char *val, size_t vlen);

/*
 * Returns the value of a key, borrowed until the next svgmap_put or
 * svgmap_release, and stores its length in *vlen when vlen is not NULL; or
 * returns NULL when the key is absent.
 */
const char *svgmap_get(const struct svgmap *, const char *key, size_t klen,
	    size_t *vlen);

/*
 * Returns a newly allocated array of pointers to the map's entries, sorted
 * bytewise by key (shorter first on a common prefix), and stores their
 * number in *n. The caller frees the array, not the entries.
 */
struct svgmap_entry **svgmap_sorted(const struct svgmap *, size_t *n);

#endif
