/*
 * dwcheck: the sanity check of a file's DWARF (see dwcheck.h).
 */
#include <stddef.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "sym/dwcheck.h"

const char *
dwcheck_units(Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	Dwarf_Die die;
	size_t hsize;
	int rc, tag;

	if (dw == NULL)
		return NULL;
	while ((rc = dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL,
	    NULL)) == 0) {
		/* The unit's own DIE must read, and be a unit. */
		if (dwarf_offdie(dw, off + hsize, &die) == NULL)
			return dwarf_errmsg(-1);
		tag = dwarf_tag(&die);
		if (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit &&
		    tag != DW_TAG_type_unit && tag != DW_TAG_skeleton_unit)
			return "a unit that does not start with a unit DIE";
		off = next;
	}
	return rc < 0 ? dwarf_errmsg(-1) : NULL;
}
