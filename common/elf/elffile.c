/*
 * elffile: one ELF file opened the one safe way (see elffile.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>

#include "base/safeopen.h"
#include "base/xalloc.h"
#include "elf/debuglink.h"
#include "elf/elffile.h"

void
elffile_init(struct elffile *ef)
{
	memset(ef, 0, sizeof(*ef));
	ef->fd = -1;
}

void
elffile_close(struct elffile *ef)
{
	if (ef->elf != NULL)
		elf_end(ef->elf);
	if (ef->fd >= 0)
		close(ef->fd);
	ef->elf = NULL;
	ef->fd = -1;
}

void
elffile_release(struct elffile *ef)
{
	if (ef->altdw != NULL)
		dwarf_end(ef->altdw);
	if (ef->alt != NULL) {
		elffile_release(ef->alt);
		free(ef->alt);
	}
	elffile_close(ef);
	free(ef->loads);
	free(ef->path);
	elffile_init(ef);
}

/* Sets ef->why from a format, and returns status, for the failure paths. */
static int __attribute__((format(printf, 3, 4)))
fail(struct elffile *ef, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ef->why, sizeof(ef->why), fmt, ap);
	va_end(ap);
	elffile_close(ef);
	return status;
}

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

/*
 * Returns 0 when the program headers, the section headers, every PT_LOAD
 * segment's bytes and every section's bytes (but SHT_NOBITS) lie within
 * the first size bytes; otherwise the number of bytes they need (at least
 * size + 1). libelf and libdw read headers lazily and quietly tolerate a
 * file cut short: this turns that into one clear diagnosis.
 */
static uint64_t
truncated_need(Elf *elf, const GElf_Ehdr *eh, uint64_t size)
{
	Elf_Scn *scn = NULL;
	size_t i, n;
	uint64_t need = 0;

	/* From the ELF header alone first: libelf gives up on tables cut off. */
	if (eh->e_phoff != 0)
		need_upto(&need, eh->e_phoff, (uint64_t)eh->e_phnum *
		    eh->e_phentsize);
	if (eh->e_shoff != 0)
		need_upto(&need, eh->e_shoff, (uint64_t)eh->e_shnum *
		    eh->e_shentsize);
	if (elf_getphdrnum(elf, &n) == 0 && n > 0) {
		need_upto(&need, eh->e_phoff, (uint64_t)n * eh->e_phentsize);
		for (i = 0; i < n && need <= size; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, i, &ph) != NULL &&
			    ph.p_type == PT_LOAD)
				need_upto(&need, ph.p_offset, ph.p_filesz);
		}
	}
	if (elf_getshdrnum(elf, &n) == 0 && n > 0 && eh->e_shoff != 0) {
		need_upto(&need, eh->e_shoff, (uint64_t)n * eh->e_shentsize);
		while (need <= size && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;

			if (gelf_getshdr(scn, &sh) != NULL &&
			    sh.sh_type != SHT_NOBITS)
				need_upto(&need, sh.sh_offset, sh.sh_size);
		}
	}
	return need > size ? need : 0;
}

/*
 * Reads the ELF header and the PT_LOAD segments of ef->elf (which may be
 * NULL: elf_begin failed), checking the headers against ef->size when
 * check_size. Returns ELFFILE_OK or the failure's status.
 */
static int
read_headers(struct elffile *ef, int check_size)
{
	size_t i, nph;
	int e;

	if (ef->elf == NULL || elf_kind(ef->elf) != ELF_K_ELF ||
	    gelf_getehdr(ef->elf, &ef->ehdr) == NULL ||
	    elf_getphdrnum(ef->elf, &nph) != 0) {
		e = elf_errno();
		return fail(ef, ELFFILE_NOTELF, "%s",
		    e ? elf_errmsg(e) : "wrong magic");
	}
	if (check_size &&
	    (ef->need = truncated_need(ef->elf, &ef->ehdr, ef->size)) != 0)
		return fail(ef, ELFFILE_TRUNCATED, "it has %" PRIu64 " bytes "
		    "but its headers need %" PRIu64, ef->size, ef->need);
	ef->loads = xcalloc(nph + 1, sizeof(*ef->loads));
	for (i = 0; i < nph; i++) {
		struct elffile_load *l = &ef->loads[ef->nloads];
		GElf_Phdr ph;

		if (gelf_getphdr(ef->elf, i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		l->offset = ph.p_offset;
		l->vaddr = ph.p_vaddr;
		l->filesz = ph.p_filesz;
		l->memsz = ph.p_memsz;
		l->flags = ph.p_flags;
		ef->nloads++;
	}
	return ELFFILE_OK;
}

int
elffile_open(struct elffile *ef, const char *path)
{
	struct stat st;

	elffile_release(ef);
	elf_version(EV_CURRENT);
	ef->path = xstrdup(path);
	if ((ef->fd = safeopen(path, &st)) == SAFEOPEN_NOTREG)
		return fail(ef, ELFFILE_NOTREG, "not a regular file");
	if (ef->fd < 0) {
		ef->errnum = errno;
		return fail(ef, ELFFILE_ERRNO, "%s", strerror(ef->errnum));
	}
	ef->size = (uint64_t)st.st_size;
	if (ef->size > ELFFILE_MAX_SIZE)
		return fail(ef, ELFFILE_TOOBIG, "larger than %" PRIu64 " GiB",
		    ELFFILE_MAX_SIZE >> 30);
	(void)elf_errno();	/* no stale error from an earlier file */
	ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP, NULL);
	return read_headers(ef, 1);
}

int
elffile_open_memory(struct elffile *ef, void *image, size_t size)
{
	elffile_release(ef);
	elf_version(EV_CURRENT);
	ef->size = size;
	(void)elf_errno();
	ef->elf = elf_memory(image, size);
	return read_headers(ef, 0);
}

int
elffile_vaddr(const struct elffile *ef, uint64_t off, uint64_t *vaddr)
{
	size_t i;
	int found = 0;

	for (i = 0; i < ef->nloads; i++) {
		const struct elffile_load *l = &ef->loads[i];

		if (off < l->offset || off - l->offset >= l->filesz)
			continue;
		if (found && !(l->flags & PF_X))
			continue;
		*vaddr = off - l->offset + l->vaddr;
		found = 1;
		if (l->flags & PF_X)
			break;
	}
	return found ? 0 : -1;
}

int
elffile_offset(const struct elffile *ef, uint64_t vaddr, uint64_t *off)
{
	size_t i;

	for (i = 0; i < ef->nloads; i++) {
		const struct elffile_load *l = &ef->loads[i];

		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz) {
			*off = vaddr - l->vaddr + l->offset;
			return 0;
		}
	}
	return -1;
}

char *
elffile_hex(const unsigned char *id, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char *s = xmalloc(2 * len + 1);
	size_t i;

	for (i = 0; i < len; i++) {
		s[2 * i] = hex[id[i] >> 4];
		s[2 * i + 1] = hex[id[i] & 15];
	}
	s[2 * len] = '\0';
	return s;
}

char *
elffile_buildid(const struct elffile *ef)
{
	const void *id;
	ssize_t n;

	if (ef->elf == NULL || (n = dwelf_elf_gnu_build_id(ef->elf, &id)) <= 0)
		return NULL;
	return elffile_hex(id, (size_t)n);
}

Dwfl *
elffile_dwfl(struct elffile *ef, const char *name, const uint64_t *base,
    Dwfl_Module **mod, Dwarf_Addr *bias)
{
	const char *call = base == NULL ? "dwfl_report_offline" :
	    "dwfl_report_elf";
	const char *mainfile = NULL, *debugfile = NULL;
	Dwarf_Addr dwbias;
	void **userdata;
	Dwarf *dw;
	Dwfl *dwfl;
	int fd;

	*mod = NULL;
	if (ef->fd < 0) {
		snprintf(ef->why, sizeof(ef->why), "%s: no file descriptor "
		    "to report", call);
		return NULL;
	}
	if ((dwfl = dwfl_begin(&debuglink_offline_callbacks)) == NULL) {
		snprintf(ef->why, sizeof(ef->why), "dwfl_begin: %s",
		    dwfl_errmsg(-1));
		return NULL;
	}
	/* libdwfl consumes the descriptor it is given when it succeeds. */
	if ((fd = dup(ef->fd)) < 0) {
		snprintf(ef->why, sizeof(ef->why), "dup: %s", strerror(errno));
		dwfl_end(dwfl);
		return NULL;
	}
	dwfl_report_begin(dwfl);
	*mod = base == NULL ? dwfl_report_offline(dwfl, name, ef->path, fd) :
	    dwfl_report_elf(dwfl, name, ef->path, fd, *base, true);
	if (*mod == NULL) {
		snprintf(ef->why, sizeof(ef->why), "%s: %s", call,
		    dwfl_errmsg(-1));
		close(fd);
		dwfl_end(dwfl);
		return NULL;
	}
	if (dwfl_report_end(dwfl, NULL, NULL) != 0) {
		snprintf(ef->why, sizeof(ef->why), "dwfl_report_end: %s",
		    dwfl_errmsg(-1));
		goto fail;
	}
	if (dwfl_module_getelf(*mod, bias) == NULL) {
		snprintf(ef->why, sizeof(ef->why), "dwfl_module_getelf: %s",
		    dwfl_errmsg(-1));
		goto fail;
	}
	/* The debug file's search says what it refused in ef->note. */
	dwfl_module_info(*mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = &ef->note;
	if ((dw = dwfl_module_getdwarf(*mod, &dwbias)) != NULL) {
		dwfl_module_info(*mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
		    &debugfile);
		debuglink_setalt(dw, debugfile ? debugfile : mainfile,
		    &ef->alt, &ef->altdw, &ef->note);
	}
	return dwfl;
fail:
	*mod = NULL;
	dwfl_end(dwfl);
	return NULL;
}

int
elffile_cu_is_asm(Dwarf_Die *cu)
{
	Dwarf_Attribute am;
	const char *p;

	if (cu == NULL)
		return 0;
	if (dwarf_srclang(cu) == DW_LANG_Mips_Assembler)
		return 1;
	p = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &am));
	return p != NULL && strncmp(p, "GNU AS", 6) == 0;
}

/*
 * Whether a subprogram with code at pc lies under die (its children,
 * then theirs): a walk of the tree, since dwarf_getscopes misses the
 * functions rustc puts in namespaces. depth bounds a corrupt tree.
 */
static int
holds_below(Dwarf_Die *die, Dwarf_Addr pc, int depth)
{
	Dwarf_Die kid;
	int tag;

	if (depth > 64 || dwarf_child(die, &kid) != 0)
		return 0;
	do {
		tag = dwarf_tag(&kid);
		if ((tag == DW_TAG_subprogram ||
		    tag == DW_TAG_inlined_subroutine) &&
		    dwarf_haspc(&kid, pc) > 0)
			return 1;
		if ((tag == DW_TAG_namespace || tag == DW_TAG_module ||
		    tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
		    tag == DW_TAG_union_type || tag == DW_TAG_enumeration_type ||
		    tag == DW_TAG_lexical_block) &&
		    holds_below(&kid, pc, depth + 1))
			return 1;
	} while (dwarf_siblingof(&kid, &kid) == 0);
	return 0;
}

int
elffile_holds_function(Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = NULL;

	/*
	 * Every unit that says it holds addr, not dwfl_module_addrdie's
	 * one: without .debug_aranges (rustc writes none) that may be a
	 * standard library unit whose ranges claim the address.
	 */
	while ((cu = dwfl_module_nextcu(mod, cu, &bias)) != NULL) {
		if (dwarf_haspc(cu, addr - bias) <= 0)
			continue;
		if (elffile_cu_is_asm(cu) || holds_below(cu, addr - bias, 0))
			return 1;
	}
	return 0;
}
