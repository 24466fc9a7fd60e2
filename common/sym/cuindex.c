/*
 * cuindex: the address maps of a file's DWARF compile units (see
 * cuindex.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "base/upper.h"
#include "base/xalloc.h"
#include "sym/cuindex.h"

/* A subprogram or inlined call with code. */
struct cuent {
	Dwarf_Die	 die;
	int		 parent;	/* enclosing entry, or -1 */
	int		 is_sub;	/* DW_TAG_subprogram */
};

/* An address range and the innermost entry that holds it. */
struct cuseg {
	uint64_t	 lo, hi;	/* DWARF addresses */
	int		 ent;
};

/* One CU: its entries and the flat map of its ranges, sorted. */
struct cuindex_cu {
	Dwarf_Off	 off;		/* of the CU DIE */
	struct cuent	*ents;
	size_t		 nents, entcap;
	struct cuseg	*segs;
	size_t		 nsegs;
};

void
cuindex_init(struct cuindex *ci)
{
	memset(ci, 0, sizeof(*ci));
}

void
cuindex_release(struct cuindex *ci)
{
	size_t i;

	for (i = 0; i < ci->ncus; i++) {
		free(ci->cus[i].ents);
		free(ci->cus[i].segs);
	}
	free(ci->cus);
	cuindex_init(ci);
}

struct ivl {
	uint64_t	 lo, hi;
	int		 ent, depth;
};

struct walk {
	struct cuindex_cu	*x;
	struct ivl	*iv;
	size_t		 niv, ivcap;
};

/* Collects the subprograms and inlined calls with code under die. */
static void
cu_walk(struct walk *w, Dwarf_Die *die, int parent, int depth)
{
	Dwarf_Die child;

	if (depth > 256 || dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child), p = parent, descend = 0;

		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine: {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t o = 0;
			int ent = -1;

			while ((o = dwarf_ranges(&child, o, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (ent < 0) {
					struct cuindex_cu *x = w->x;

					GROW(x->ents, x->nents + 1, x->entcap);
					x->ents[x->nents].die = child;
					x->ents[x->nents].parent = parent;
					x->ents[x->nents].is_sub =
					    tag == DW_TAG_subprogram;
					ent = x->nents++;
				}
				GROW(w->iv, w->niv + 1, w->ivcap);
				w->iv[w->niv].lo = lo;
				w->iv[w->niv].hi = hi;
				w->iv[w->niv].ent = ent;
				w->iv[w->niv].depth = depth;
				w->niv++;
			}
			if (ent >= 0) {
				p = ent;
				descend = 1;
			}
			break;
		}
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			descend = 1;
			break;
		}
		if (descend)
			cu_walk(w, &child, p, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int
cmp_ivl(const void *a, const void *b)
{
	const struct ivl *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;	/* outer first */
	return x->depth - y->depth;
}

static void
seg_add(struct cuindex_cu *x, size_t *cap, uint64_t lo, uint64_t hi, int ent)
{
	if (lo >= hi)
		return;
	GROW(x->segs, x->nsegs + 1, *cap);
	x->segs[x->nsegs].lo = lo;
	x->segs[x->nsegs].hi = hi;
	x->segs[x->nsegs].ent = ent;
	x->nsegs++;
}

/* Builds the index of the CU cu in *x: its entries and flat segment map. */
static void
cu_build(struct cuindex_cu *x, Dwarf_Die *cu)
{
	struct walk w = { .x = x };
	struct ivl *stk;
	size_t i, sp = 0, segcap = 0;
	uint64_t cur = 0;

	x->off = dwarf_dieoffset(cu);
	cu_walk(&w, cu, -1, 0);
	if (w.niv > 1)
		qsort(w.iv, w.niv, sizeof(*w.iv), cmp_ivl);
	/* Sweep: a stack of open ranges; the top is the innermost. */
	stk = xmalloc((w.niv + 1) * sizeof(*stk));
	for (i = 0; i < w.niv; i++) {
		struct ivl v = w.iv[i];

		while (sp > 0 && stk[sp - 1].hi <= v.lo) {
			sp--;
			seg_add(x, &segcap, cur, stk[sp].hi, stk[sp].ent);
			if (cur < stk[sp].hi)
				cur = stk[sp].hi;
		}
		if (sp > 0) {
			seg_add(x, &segcap, cur, v.lo, stk[sp - 1].ent);
			if (v.hi > stk[sp - 1].hi)	/* bad nesting: clip */
				v.hi = stk[sp - 1].hi;
		}
		cur = v.lo;
		stk[sp++] = v;
	}
	while (sp > 0) {
		sp--;
		seg_add(x, &segcap, cur, stk[sp].hi, stk[sp].ent);
		if (cur < stk[sp].hi)
			cur = stk[sp].hi;
	}
	free(stk);
	free(w.iv);
}

/*
 * Returns the map of the CU cu, building it on first use: borrowed, and
 * valid until the next cu_get (the array moves as it grows).
 */
static struct cuindex_cu *
cu_get(struct cuindex *ci, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	size_t i = UPPER(ci->cus, ci->ncus, off, off);

	if (i > 0 && ci->cus[i - 1].off == off)
		return &ci->cus[i - 1];
	GROW(ci->cus, ci->ncus + 1, ci->cucap);
	memmove(ci->cus + i + 1, ci->cus + i,
	    (ci->ncus - i) * sizeof(*ci->cus));
	memset(&ci->cus[i], 0, sizeof(ci->cus[i]));
	cu_build(&ci->cus[i], cu);
	ci->ncus++;
	return &ci->cus[i];
}

int
cuindex_scopes(struct cuindex *ci, Dwarf_Die *cu, Dwarf_Addr pc,
    Dwarf_Die **scopes)
{
	struct cuindex_cu *x = cu_get(ci, cu);
	size_t lo = UPPER(x->segs, x->nsegs, pc, lo);
	int e, n = 0;

	*scopes = NULL;
	if (lo == 0 || pc >= x->segs[lo - 1].hi)
		return 0;
	for (e = x->segs[lo - 1].ent; e >= 0; e = x->ents[e].parent) {
		*scopes = xrealloc(*scopes, (n + 1) * sizeof(**scopes));
		(*scopes)[n++] = x->ents[e].die;
		if (x->ents[e].is_sub)
			break;
	}
	return n;
}
