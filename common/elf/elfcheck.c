/*
 * elfcheck: sanity checks of ELF files (see elfcheck.h).
 */
#include <stddef.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include "elf/elfcheck.h"

/* Raises *need to off + len when that is beyond it (saturating). */
static void
need_upto(uint64_t *need, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	if (end < off)
		end = UINT64_MAX;
	if (end > *need)
		*need = end;
}

uint64_t
elfcheck_need(Elf *elf, uint64_t size)
{
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	size_t i, n;
	uint64_t need = 0;

	if (gelf_getehdr(elf, &eh) == NULL)
		return 0;
	/* From the ELF header alone first: libelf gives up on tables cut off. */
	if (eh.e_phoff != 0)
		need_upto(&need, eh.e_phoff, (uint64_t)eh.e_phnum *
		    eh.e_phentsize);
	if (eh.e_shoff != 0)
		need_upto(&need, eh.e_shoff, (uint64_t)eh.e_shnum *
		    eh.e_shentsize);
	if (elf_getphdrnum(elf, &n) == 0 && n > 0) {
		need_upto(&need, eh.e_phoff, (uint64_t)n * eh.e_phentsize);
		for (i = 0; i < n && need <= size; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, i, &ph) != NULL &&
			    ph.p_type == PT_LOAD)
				need_upto(&need, ph.p_offset, ph.p_filesz);
		}
	}
	if (elf_getshdrnum(elf, &n) == 0 && n > 0 && eh.e_shoff != 0) {
		need_upto(&need, eh.e_shoff, (uint64_t)n * eh.e_shentsize);
		while (need <= size && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;

			if (gelf_getshdr(scn, &sh) != NULL &&
			    sh.sh_type != SHT_NOBITS)
				need_upto(&need, sh.sh_offset, sh.sh_size);
		}
	}
	return need > size ? need : 0;
}

const char *
elfcheck_dwarf(Dwarf *dw)
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
