/*
 * cuindex: the address maps of a file's DWARF compile units, for finding
 * the chain of inlined calls at an address fast.
 *
 *	struct cuindex x;
 *	cuindex_init(&x);
 *	cu = dwfl_module_addrdie(mod, addr, &bias);
 *	n = cuindex_scopes(&x, cu, addr - bias, &scopes);
 *	... scopes[0..n): innermost first, ending with the subprogram ...
 *	free(scopes);
 *	cuindex_release(&x);
 *
 * The first lookup in a CU walks its DIEs once and keeps every
 * subprogram and inlined call that has code, and a flat, sorted map from
 * address ranges to the innermost of them; every later lookup in that CU
 * is a binary search instead of a walk (what dwarf_getscopes() does on
 * every call). Badly nested ranges are clipped to their parent's.
 */
#ifndef FG_CUINDEX_H
#define FG_CUINDEX_H

#include <stddef.h>

#include <elfutils/libdw.h>

struct cuindex_cu;

struct cuindex {
	struct cuindex_cu *cus;		/* owned; sorted by CU offset */
	size_t		 ncus, cucap;
};

/* Makes an empty index. */
void	cuindex_init(struct cuindex *);

/*
 * Frees every CU's map. The DIEs handed out by cuindex_scopes() belong
 * to libdw (the Dwarf the CUs came from), not to the index.
 */
void	cuindex_release(struct cuindex *);

/*
 * Sets *scopes to the subprogram and inlined-call DIEs of the CU cu that
 * hold the DWARF address pc, innermost first, ending with the
 * subprogram: the concrete chain of inlined calls. Returns their count,
 * 0 when none (then *scopes is NULL). The caller frees *scopes. cu is
 * borrowed, and indexed on its first use; the Dwarf it belongs to must
 * outlive the index.
 */
int	cuindex_scopes(struct cuindex *, Dwarf_Die *cu, Dwarf_Addr pc,
	    Dwarf_Die **scopes);

#endif
