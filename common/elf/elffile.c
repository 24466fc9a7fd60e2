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

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <libelf.h>

#include "base/inroot.h"
#include "base/safeopen.h"
#include "base/str.h"
#include "base/xalloc.h"
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
	free(ef->note);
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
	ef->status = status;
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

/* elffile_open of path by inside's root when inside is not NULL. */
static int
open_as(struct elffile *ef, const char *path, const char *inside)
{
	struct stat st;

	elffile_release(ef);
	elf_version(EV_CURRENT);
	ef->path = xstrdup(path);
	ef->fd = inside != NULL ? inroot_open_inside(path, inside, &st) :
	    safeopen(path, &st);
	if (ef->fd == SAFEOPEN_NOTREG)
		return fail(ef, ELFFILE_NOTREG, "not a regular file");
	if (ef->fd < 0) {
		ef->errnum = errno;
		return fail(ef, ELFFILE_ERRNO, "%s", strerror(ef->errnum));
	}
	ef->size = (uint64_t)st.st_size;
	ef->dev = (uint64_t)st.st_dev;
	ef->ino = (uint64_t)st.st_ino;
	if (ef->size > ELFFILE_MAX_SIZE)
		return fail(ef, ELFFILE_TOOBIG, "larger than %" PRIu64 " GiB",
		    ELFFILE_MAX_SIZE >> 30);
	(void)elf_errno();	/* no stale error from an earlier file */
	ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP, NULL);
	return read_headers(ef, 1);
}

int
elffile_open(struct elffile *ef, const char *path)
{
	return open_as(ef, path, NULL);
}

int
elffile_open_inside(struct elffile *ef, const char *path, const char *inside)
{
	return open_as(ef, path, inside);
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
elffile_buildid(const struct elffile *ef)
{
	const void *id;
	ssize_t n;

	if (ef->elf == NULL || (n = dwelf_elf_gnu_build_id(ef->elf, &id)) <= 0)
		return NULL;
	return str_hexdup(id, (size_t)n);
}

char *
elffile_failure(const struct elffile *ef, const char *subject)
{
	switch (ef->status) {
	case ELFFILE_NOTREG:
		return xasprintf("'%s' is not a regular file", subject);
	case ELFFILE_NOTELF:
		return xasprintf("'%s' is not an ELF file (%s)", subject,
		    ef->why);
	case ELFFILE_REFUSED:
		return xstrdup(ef->why);
	case ELFFILE_TRUNCATED:
		return xasprintf("'%s' is truncated: %s", subject, ef->why);
	default:
		return xasprintf("'%s': %s", subject, ef->why);
	}
}
