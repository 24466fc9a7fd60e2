/*
 * dwname: qualified C++ names from DWARF scopes (see dwname.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "sym/demangle.h"
#include "sym/dwname.h"
#include "base/xalloc.h"

struct dwname_slot {
	Dwarf		*dbg;		/* NULL: an empty slot */
	Dwarf_Off	 off;		/* the declaration's DIE offset */
	char		*prefix;	/* owned: "std::" or "" */
};

void
dwname_init(struct dwname *dn)
{
	memset(dn, 0, sizeof(*dn));
}

void
dwname_release(struct dwname *dn)
{
	size_t i;

	for (i = 0; i < dn->cap; i++)
		free(dn->slots[i].prefix);
	free(dn->slots);
	dwname_init(dn);
}

static size_t
slot_of(const struct dwname *dn, Dwarf *dbg, Dwarf_Off off)
{
	uint64_t h = (off ^ (uintptr_t)dbg) * UINT64_C(0x9e3779b97f4a7c15);
	size_t i = (size_t)(h >> 32) & (dn->cap - 1);

	while (dn->slots[i].dbg != NULL &&
	    (dn->slots[i].dbg != dbg || dn->slots[i].off != off))
		i = (i + 1) & (dn->cap - 1);
	return i;
}

/* Adds a slot for (dbg, off), growing the table at half full. */
static struct dwname_slot *
slot_add(struct dwname *dn, Dwarf *dbg, Dwarf_Off off)
{
	struct dwname_slot *old = dn->slots;
	size_t i, ocap = dn->cap;

	if (2 * (dn->n + 1) > dn->cap) {
		dn->cap = dn->cap ? 2 * dn->cap : 64;
		dn->slots = xcalloc(dn->cap, sizeof(*dn->slots));
		for (i = 0; i < ocap; i++)
			if (old[i].dbg != NULL)
				dn->slots[slot_of(dn, old[i].dbg,
				    old[i].off)] = old[i];
		free(old);
	}
	i = slot_of(dn, dbg, off);
	dn->slots[i].dbg = dbg;
	dn->slots[i].off = off;
	dn->n++;
	return &dn->slots[i];
}

static int
is_cxx(Dwarf_Die *die)
{
	Dwarf_Die cu;

	if (dwarf_diecu(die, &cu, NULL, NULL) == NULL)
		return 0;
	switch (dwarf_srclang(&cu)) {
	case DW_LANG_C_plus_plus:
	case DW_LANG_C_plus_plus_03:
	case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
		return 1;
	default:
		return 0;
	}
}

/* "ns::cls::" for the scopes around decl (innermost last), or "". */
static char *
prefix_of(Dwarf_Die *decl)
{
	Dwarf_Die *scopes = NULL;
	char *p = NULL;
	size_t len = 0;
	FILE *fp;
	int i, n;

	if ((fp = open_memstream(&p, &len)) == NULL)
		return xstrdup("");
	n = dwarf_getscopes_die(decl, &scopes);
	/* scopes[0] is decl itself, scopes[n - 1] the compilation unit. */
	for (i = n - 2; i >= 1; i--) {
		const char *nm = dwarf_diename(&scopes[i]);

		switch (dwarf_tag(&scopes[i])) {
		case DW_TAG_namespace:
			fprintf(fp, "%s::", nm ? nm : "(anonymous namespace)");
			break;
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_subprogram:
			if (nm != NULL)
				fprintf(fp, "%s::", nm);
			break;
		default:
			break;
		}
	}
	free(scopes);
	if (fclose(fp) != 0 || p == NULL) {
		free(p);
		return xstrdup("");
	}
	return p;
}

char *
dwname_qualify(struct dwname *dn, Dwarf_Die *die, const char *name)
{
	Dwarf_Die decl = *die, ref;
	Dwarf_Attribute a;
	struct dwname_slot *sl;
	Dwarf *dbg;
	int hops;

	if (!is_cxx(die))
		return xstrdup(name);
	/* To the declaration, through a bounded chain of references. */
	for (hops = 0; hops < 16; hops++) {
		if ((dwarf_attr(&decl, DW_AT_abstract_origin, &a) == NULL &&
		    dwarf_attr(&decl, DW_AT_specification, &a) == NULL) ||
		    dwarf_formref_die(&a, &ref) == NULL)
			break;
		decl = ref;
	}
	if ((dbg = dwarf_cu_getdwarf(decl.cu)) == NULL)
		return xstrdup(name);
	if (dn->cap > 0) {
		sl = &dn->slots[slot_of(dn, dbg, dwarf_dieoffset(&decl))];
		if (sl->dbg != NULL)
			goto found;
	}
	sl = slot_add(dn, dbg, dwarf_dieoffset(&decl));
	sl->prefix = prefix_of(&decl);
found:
	return xasprintf("%s%s", sl->prefix, name);
}

char *
dwname_of(struct dwname *dn, Dwarf_Die *die, int demangle, int dmflags)
{
	Dwarf_Attribute at;
	const char *link = NULL, *name = NULL;
	char *d;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at) != NULL ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at) != NULL)
		link = dwarf_formstring(&at);
	if (link != NULL && demangle && (d = fg_demangle(link, dmflags)) != NULL)
		return d;
	if (dwarf_attr_integrate(die, DW_AT_name, &at) != NULL &&
	    (name = dwarf_formstring(&at)) != NULL)
		return demangle ? dwname_qualify(dn, die, name) : xstrdup(name);
	return link != NULL ? xstrdup(link) : NULL;
}
