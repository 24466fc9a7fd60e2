/*
 * afile: one file with samples, opened for fgsym --annotate (see afile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <capstone/capstone.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>

#include "base/safeopen.h"
#include "base/xalloc.h"
#include "elf/elfdwarf.h"
#include "elf/elffile.h"
#include "elf/elfsym.h"
#include "elf/kallsyms.h"
#include "elf/perfmap.h"
#include "stream/dso.h"
#include "sym/afile.h"
#include "sym/dwcheck.h"
#include "sym/dwname.h"

#define KCORE		"/proc/kcore"
#define KALLSYMS	"/proc/kallsyms"

/*
 * Gives every symbol a size for the listing: one without a size ends at
 * its section's end, or at the next symbol when that comes first.
 */
static void
afile_fill_sizes(struct afile *f)
{
	struct elfsym_ent *e = f->st.e;

	for (size_t i = 0; i < f->st.n; i++) {
		uint64_t start, end;

		if (e[i].size != 0)
			continue;
		if (afile_section_of(f, e[i].addr, &start, &end))
			e[i].size = end - e[i].addr;
		if (i + 1 < f->st.n && (e[i].size == 0 ||
		    e[i].addr + e[i].size > e[i + 1].addr))
			e[i].size = e[i + 1].addr - e[i].addr;
	}
}

/*
 * Loads the symbols of an ELF file as fgsym does (elfsym.h): its .symtab,
 * else the separate debug file's, else its .dynsym, and its PLT stubs;
 * data symbols too, to name the data an instruction refers to.
 */
static void
afile_elf_syms(struct afile *f)
{
	if (f->mod)
		elfsym_read_module(&f->st, f->mod, f->bias, 1);
	else
		elfsym_read_elf(&f->st, f->elf, 1, 0);
	elfsym_plt(&f->st, f->elf);
	elfsym_sort(&f->st);
	afile_fill_sizes(f);
}

/* Opens capstone for the ELF machine; sets f->noscope when it cannot. */
static void
afile_capstone(struct afile *f, int machine, int bigendian)
{
	cs_arch arch;
	cs_mode mode = bigendian ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN;
	cs_err e;

	f->machine = machine;
	switch (machine) {
	case EM_X86_64:
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
		break;
	case EM_386:
		arch = CS_ARCH_X86;
		mode = CS_MODE_32;
		break;
	case EM_AARCH64:
		arch = CS_ARCH_ARM64;
		break;
	case EM_PPC64:
		arch = CS_ARCH_PPC;
		mode |= CS_MODE_64;
		break;
	case EM_S390:
		arch = CS_ARCH_SYSZ;
		mode = CS_MODE_BIG_ENDIAN;
		break;
	default:
		f->noscope = xasprintf("no disassembler for ELF machine %d",
		    machine);
		return;
	}
	if (!cs_support(arch)) {
		f->noscope = xasprintf("this capstone cannot disassemble ELF "
		    "machine %d; install a capstone built with it", machine);
		return;
	}
	if ((e = cs_open(arch, mode, &f->cs)) != CS_ERR_OK) {
		f->noscope = xasprintf("cs_open: %s", cs_strerror(e));
		return;
	}
	cs_option(f->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (arch == CS_ARCH_X86)
		cs_option(f->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	f->cs_ok = 1;
}

/* Kernel: symbols from kallsyms (/proc's, or --kallsyms), bytes from /proc/kcore. */
static void
afile_kernel(struct afile *f, const struct afile_lend *lend)
{
	const char *path = lend->kallsyms_path ? lend->kallsyms_path :
	    KALLSYMS;
	const struct kallsyms *ks = NULL;
	int rc = 0;

	f->kind = AF_KERNEL;
	/* fgsym's table when it has read one, else a read of our own. */
	if (lend->kallsyms == NULL ||
	    (ks = lend->kallsyms(lend->arg)) == NULL) {
		f->ks = xmalloc(sizeof(*f->ks));
		kallsyms_init(f->ks);
		rc = kallsyms_load(f->ks, path);
		ks = f->ks;
	}
	if (rc == KALLSYMS_NOTREG)
		f->problem = xasprintf("cannot read '%s': not a regular file; "
		    "kernel samples are counted but not named", path);
	else if (rc == -1)
		f->problem = xasprintf("cannot read '%s': %s; kernel samples "
		    "are counted but not named", path, strerror(errno));
	else if (rc != 0)
		f->problem = xasprintf("'%s' shows no addresses; set "
		    "sysctl kernel.kptr_restrict=0 to name kernel "
		    "functions", path);
	else {
		/* Aliases: the first by name wins, as kallsyms_lookup() says. */
		for (size_t i = 0; i < ks->n; i++)
			elfsym_add(&f->st, ks->syms[i].addr, 0,
			    ks->syms[i].name, 0, 1, 0);
		elfsym_sort(&f->st);
		afile_fill_sizes(f);
		/* the last symbol has no successor: give it one page */
		if (f->st.n && f->st.e[f->st.n - 1].size == 0)
			f->st.e[f->st.n - 1].size = 4096;
	}
	if ((f->fd = safeopen(KCORE, NULL)) < 0) {
		f->noscope = xasprintf("the kernel text is not readable: "
		    "'%s': %s", KCORE, strerror(errno));
		return;
	}
	if (!(f->elf = elf_begin(f->fd, ELF_C_READ, NULL)) ||
	    elf_kind(f->elf) != ELF_K_ELF) {
		f->noscope = xasprintf("the kernel text is not readable: "
		    "'%s': %s", KCORE, elf_errmsg(-1));
		return;
	}
	{
		GElf_Ehdr eh;

		if (!gelf_getehdr(f->elf, &eh)) {
			f->noscope = xasprintf("the kernel text is not "
			    "readable: '%s': %s", KCORE, elf_errmsg(-1));
			return;
		}
		afile_capstone(f, eh.e_machine,
		    eh.e_ident[EI_DATA] == ELFDATA2MSB);
	}
}

/* JIT: function names from a perf map file; there are no bytes. */
static void
afile_perfmap(struct afile *f)
{
	int rc;

	f->kind = AF_PERFMAP;
	f->noscope = xasprintf("JIT code: its bytes are in no file");
	f->pm = xmalloc(sizeof(*f->pm));
	perfmap_init(f->pm);
	if ((rc = perfmap_load(f->pm, f->path)) != 0) {
		f->problem = xasprintf("cannot read '%s': %s", f->path,
		    perfmap_strerror(f->pm, rc));
		return;
	}
	for (size_t i = 0; i < f->pm->n; i++)
		elfsym_add(&f->st, f->pm->syms[i].start, f->pm->syms[i].size,
		    f->pm->syms[i].name, 0, 1, 0);
	elfsym_sort(&f->st);
}

/*
 * The rest of opening an ELF file, its own or lent: capstone, and the
 * problems with its symbols and DWARF.
 */
static void
afile_elf_checks(struct afile *f, const GElf_Ehdr *eh)
{
	Dwarf_Addr dbias;
	const char *why;

	f->bad = 0;
	f->kind = AF_ELF;
	afile_capstone(f, eh->e_machine, eh->e_ident[EI_DATA] == ELFDATA2MSB);
	if (f->st.n == 0)
		f->problem = xasprintf("'%s' has no function symbols; its "
		    "samples are not named", f->path);
	else if (f->mod && (why = dwcheck_units(dwfl_module_getdwarf(f->mod,
	    &dbias))) != NULL) {
		/* Corrupt DWARF: symbols and code only, no source lines. */
		f->problem = xasprintf("'%s' has corrupt DWARF debug info (%s); "
		    "its source lines are not shown", f->path, why);
		f->bad = 1;
		f->mod = NULL;
	}
}

void
afile_init(struct afile *f, const char *path, const struct afile_lend *lend)
{
	static const uint64_t zero = 0;
	struct elfsym_file ef;
	char *dwfl_why = NULL;
	GElf_Ehdr eh;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	elffile_init(&f->ef);
	f->path = path;
	f->dwn = xmalloc(sizeof(*f->dwn));
	dwname_init(f->dwn);
	f->base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	switch (dso_classify(path, strlen(path))) {
	case DSO_KERNEL_MAP:
		afile_kernel(f, lend);
		return;
	case DSO_PERFMAP:
		afile_perfmap(f);
		return;
	case DSO_FILE:
		break;
	default:
		f->kind = AF_NONE;
		f->problem = xasprintf("'%s' is no file to read symbols and "
		    "code from; its samples are not annotated", path);
		return;
	}
	f->kind = AF_NONE;
	if (lend->file != NULL && lend->file(lend->arg, path, &ef) == 0 &&
	    gelf_getehdr(ef.elf, &eh) != NULL) {
		/* fgsym's file: read once, named from the same table. */
		f->lent = 1;
		f->kind = AF_ELF;	/* afile_fill_sizes() reads sections */
		f->elf = ef.elf;
		f->mod = ef.mod;
		f->bias = ef.bias;
		f->st.e = xmalloc((ef.syms->n + 1) * sizeof(*f->st.e));
		if (ef.syms->n > 0)
			memcpy(f->st.e, ef.syms->e,
			    ef.syms->n * sizeof(*f->st.e));
		f->st.n = f->st.cap = ef.syms->n;
		afile_fill_sizes(f);
		afile_elf_checks(f, &eh);
		return;
	}
	/* Only a regular file is opened: never a FIFO, never a device. */
	f->bad = 1;
	switch (elffile_open(&f->ef, path)) {
	case ELFFILE_OK:
		break;
	case ELFFILE_ERRNO:
		f->missing = f->ef.errnum == ENOENT;
		f->problem = xasprintf("cannot open '%s': %s; run where the "
		    "profiled files are", path, f->ef.why);
		return;
	default: {
		char *why = elffile_failure(&f->ef, path);

		f->problem = xasprintf("%s; its samples are not annotated",
		    why);
		free(why);
		return;
	}
	}
	f->elf = f->ef.elf;
	eh = f->ef.ehdr;
	/* The file checked above, not the path again. */
	f->dwfl = elfdwarf_dwfl(&f->ef, f->base, &zero, &f->mod, &f->bias);
	if (f->dwfl == NULL)
		dwfl_why = xstrdup(f->ef.why);
	f->kind = AF_ELF;	/* afile_fill_sizes() reads sections */
	afile_elf_syms(f);
	afile_elf_checks(f, &eh);
	/* Symbols and code still, from libelf: no source lines. */
	if (dwfl_why != NULL) {
		if (f->problem == NULL)
			f->problem = xasprintf("'%s': %s; its source lines are "
			    "not shown", path, dwfl_why);
		f->bad = 1;
		free(dwfl_why);
	}
}

void
afile_release(struct afile *f)
{
	if (f->cs_ok)
		cs_close(&f->cs);
	if (f->dwfl)
		dwfl_end(f->dwfl);
	if (f->elf && !f->lent && f->elf != f->ef.elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	elffile_release(&f->ef);
	elfsym_release(&f->st);
	kallsyms_free(f->ks);
	perfmap_free(f->pm);
	free(f->problem);
	free(f->noscope);
	if (f->dwn != NULL)
		dwname_release(f->dwn);
	free(f->dwn);
}

const struct elfsym_ent *
afile_lookup(const struct afile *f, uint64_t addr, int code_only)
{
	const struct elfsym_ent *e;
	uint64_t off;

	e = elfsym_lookup(&f->st, addr, &off, code_only);
	return e != NULL && off < e->size ? e : NULL;
}

const char *
afile_section_of(const struct afile *f, uint64_t addr, uint64_t *start,
    uint64_t *end)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (f->kind != AF_ELF || elf_getshdrstrndx(f->elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (addr >= sh.sh_addr && addr - sh.sh_addr < sh.sh_size) {
			*start = sh.sh_addr;
			*end = sh.sh_addr + sh.sh_size;
			return elf_strptr(f->elf, shstrndx, sh.sh_name);
		}
	}
	return NULL;
}

const unsigned char *
afile_bytes(const struct afile *f, uint64_t addr, uint64_t size,
    size_t *n, unsigned char **owned, char **why)
{
	Elf_Scn *scn = NULL;
	size_t nph, shstrndx = 0;

	*owned = NULL;
	if (f->noscope) {
		*why = xstrdup(f->noscope);
		return NULL;
	}
	if (f->kind == AF_ELF && elf_getshdrstrndx(f->elf, &shstrndx) == 0) {
		while ((scn = elf_nextscn(f->elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;
			const char *sn;

			if (!gelf_getshdr(scn, &sh) ||
			    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
			    addr - sh.sh_addr >= sh.sh_size)
				continue;
			sn = elf_strptr(f->elf, shstrndx, sh.sh_name);
			if (sh.sh_type == SHT_NOBITS) {
				*why = xasprintf("its section '%s' has no bytes "
				    "in the file (NOBITS)", sn ? sn : "?");
				return NULL;
			}
			if (!(d = elf_rawdata(scn, NULL)) || !d->d_buf) {
				*why = xasprintf("cannot read section '%s': %s",
				    sn ? sn : "?", elf_errmsg(-1));
				return NULL;
			}
			*n = d->d_size - (addr - sh.sh_addr);
			if (*n > size)
				*n = size;
			return (const unsigned char *)d->d_buf +
			    (addr - sh.sh_addr);
		}
	}
	/* no section: the program headers (kcore, section-less files) */
	if (elf_getphdrnum(f->elf, &nph) != 0) {
		*why = xasprintf("no section or segment holds it: %s",
		    elf_errmsg(-1));
		return NULL;
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		ssize_t got;

		if (!gelf_getphdr(f->elf, i, &ph) || ph.p_type != PT_LOAD ||
		    addr < ph.p_vaddr || addr - ph.p_vaddr >= ph.p_memsz)
			continue;
		if (addr - ph.p_vaddr >= ph.p_filesz) {
			*why = xasprintf("its segment has no bytes in the "
			    "file");
			return NULL;
		}
		*n = ph.p_filesz - (addr - ph.p_vaddr);
		if (*n > size)
			*n = size;
		*owned = xmalloc(*n ? *n : 1);
		if (f->fd < 0) {	/* lent: no descriptor of ours */
			Elf_Data *d = elf_getdata_rawchunk(f->elf, ph.p_offset +
			    (addr - ph.p_vaddr), *n, ELF_T_BYTE);

			if ((got = d ? (ssize_t)d->d_size : -1) > 0)
				memcpy(*owned, d->d_buf, got);
			else
				errno = EIO;
		} else
			got = pread(f->fd, *owned, *n, ph.p_offset +
			    (addr - ph.p_vaddr));
		if (got <= 0) {
			*why = xasprintf("cannot read '%s': %s", f->kind ==
			    AF_KERNEL ? KCORE : f->path, got < 0 ?
			    strerror(errno) : "end of file");
			free(*owned);
			*owned = NULL;
			return NULL;
		}
		*n = got;
		return *owned;
	}
	*why = xasprintf("no section or segment of the file holds it");
	return NULL;
}
