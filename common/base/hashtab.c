#include <stdlib.h>
#include <string.h>

#include "base/hashtab.h"
#include "base/xalloc.h"

void
hashtab_init(struct hashtab *t, size_t n)
{
	size_t nslots = 16;

	while (nslots / 4 * 3 < n)
		nslots *= 2;
	t->slot = xcalloc(nslots, sizeof(*t->slot));
	t->mask = nslots - 1;
	t->count = 0;
}

void
hashtab_release(struct hashtab *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/*
 * Doubles the slots, placing each item by the hash half it keeps. The scan
 * starts after a free slot, so that it meets each run of slots from its
 * start, and items of one hash keep their order.
 */
void
hashtab_grow(struct hashtab *t)
{
	size_t oldn = t->mask + 1, mask = 2 * oldn - 1, free0, i, j;
	uint64_t *slot = xcalloc(oldn * 2, sizeof(*slot)), s;

	for (free0 = 0; t->slot[free0] != 0; free0++)
		;
	for (i = 1; i <= oldn; i++) {
		if ((s = t->slot[(free0 + i) & t->mask]) == 0)
			continue;
		for (j = (size_t)(s >> 32) & mask; slot[j] != 0;
		    j = (j + 1) & mask)
			;
		slot[j] = s;
	}
	free(t->slot);
	t->slot = slot;
	t->mask = mask;
}
