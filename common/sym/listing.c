/*
 * annotate: the hot instructions of the hot functions. See annotate.h.
 *
 * Adding is a hash update per sample: per file, an open-addressing table
 * from address to count. All the expensive work (opening files, symbol
 * tables, capstone, libdw) happens once per file in annotate_write().
 *
 * The write goes in four steps:
 *   1. load every file that has samples (struct afile): symbols, the
 *      capstone handle for its machine, a Dwfl module for source lines;
 *   2. attribute each sampled address to the function that holds it
 *      (struct afunc), or to a per-file bucket when it cannot be;
 *   3. print the summary, then the N hottest functions instruction by
 *      instruction;
 *   4. print the five hottest source lines of all samples.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>

#include "sym/annotate.h"
#include "sym/demangle.h"
#include "stream/dso.h"
#include "sym/dwname.h"
#include "sym/dwcheck.h"
#include "elf/elfdwarf.h"
#include "elf/elffile.h"
#include "elf/elfsym.h"
#include "base/buf.h"
#include "base/hashtab.h"
#include "elf/kallsyms.h"
#include "elf/perfmap.h"
#include "base/safeopen.h"
#include "base/xalloc.h"
#include "base/upper.h"

#define WIDTH		100	/* columns of the listing */
#define HOT_PCT		5.0	/* ">>" above this share of the function */
#define HOT_LINES	5	/* hottest source lines at the bottom */
#define COL_ADDR	20	/* where the address column starts */
#define KCORE		"/proc/kcore"
#define KALLSYMS	"/proc/kallsyms"
#define SRC_MAX		((size_t)64 << 20)	/* a source file larger is not shown */

#define C_HOT		"\033[1;31m"
#define C_WARM		"\033[32m"
#define C_SRC		"\033[36m"
#define C_HEAD		"\033[1m"
#define C_OFF		"\033[m"

/* One sampled address of a file and its count. */
struct aaddr {
	uint64_t	 vaddr;
	uint64_t	 count;
};

/* The samples of one file, as added. */
struct adso {
	char		*path;		/* owned */
	struct aaddr	*addrs;		/* owned; as added, or sorted */
	size_t		 naddrs, addrcap;
	struct hashtab	 index;		/* hashtab_int(vaddr) -> addrs */
	uint64_t	 total;
};

struct annotate {
	struct annotate_opts opts;
	struct adso	*dsos;		/* owned */
	size_t		 ndsos, capdsos;
	size_t		 last;		/* index of the last dso hit */
	uint64_t	 total;
	size_t		 nbad;		/* bad files in the last annotate_write */
	int		(*file)(void *, const char *, struct elfsym_file *);
	const struct kallsyms *(*kallsyms)(void *);
	void		*file_arg;
};

/* --- adding --------------------------------------------------------- */

struct annotate *
annotate_new(const struct annotate_opts *opts)
{
	struct annotate *a = xcalloc(1, sizeof(*a));

	if (opts)
		a->opts = *opts;
	if (a->opts.top <= 0)
		a->opts.top = 5;
	return a;
}

/* Files addrs[i] in the index, whose probes must not find its address. */
static void
adso_index(struct adso *d, size_t i)
{
	struct hashtab_probe p;

	hashtab_probe(&d->index, hashtab_int(d->addrs[i].vaddr), &p);
	while (hashtab_next(&d->index, &p) != HASHTAB_NONE)
		;
	hashtab_add(&d->index, &p, i);
}

static void
adso_add(struct adso *d, uint64_t vaddr)
{
	struct hashtab_probe p;
	uint32_t i;

	d->total++;
	hashtab_probe(&d->index, hashtab_int(vaddr), &p);
	while ((i = hashtab_next(&d->index, &p)) != HASHTAB_NONE)
		if (d->addrs[i].vaddr == vaddr) {
			d->addrs[i].count++;
			return;
		}
	GROW(d->addrs, d->naddrs + 1, d->addrcap);
	d->addrs[d->naddrs].vaddr = vaddr;
	d->addrs[d->naddrs].count = 1;
	hashtab_add(&d->index, &p, d->naddrs++);
}

void
annotate_add(struct annotate *a, const char *dso, uint64_t vaddr)
{
	struct adso *d = NULL;

	if (a->ndsos && strcmp(a->dsos[a->last].path, dso) == 0)
		d = &a->dsos[a->last];
	for (size_t i = 0; !d && i < a->ndsos; i++)
		if (strcmp(a->dsos[i].path, dso) == 0) {
			d = &a->dsos[i];
			a->last = i;
		}
	if (!d) {
		GROW(a->dsos, a->ndsos + 1, a->capdsos);
		d = &a->dsos[a->ndsos];
		memset(d, 0, sizeof(*d));
		d->path = xstrdup(dso);
		hashtab_init(&d->index, 48);
		a->last = a->ndsos++;
	}
	adso_add(d, vaddr);
	a->total++;
}

void
annotate_files(struct annotate *a,
    int (*file)(void *, const char *, struct elfsym_file *),
    const struct kallsyms *(*kallsyms)(void *), void *arg)
{
	a->file = file;
	a->kallsyms = kallsyms;
	a->file_arg = arg;
}

void
annotate_free(struct annotate *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->ndsos; i++) {
		free(a->dsos[i].path);
		free(a->dsos[i].addrs);
		hashtab_release(&a->dsos[i].index);
	}
	free(a->dsos);
	free(a);
}

/* --- output lines, at most WIDTH columns ---------------------------- */

/* The listing under construction: one line at a time, then out_line(). */
struct out {
	FILE		*fp;
	int		 color;
	int		 err;		/* errno of the first failed write, or 0 */
	struct buf	 line;		/* the current line; in memory */
};

/* Appends s with tabs expanded and control characters shown as '?'. */
static void
out_text(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '\t') {
			do
				buf_addc(&o->line, ' ');
			while (o->line.len % 8);
		} else if (c < 0x20 || c == 0x7f) {
			buf_addc(&o->line, '?');
		} else {
			buf_addc(&o->line, c);
		}
	}
}

static void
out_pad(struct out *o, size_t col)
{
	while (o->line.len < col)
		buf_addc(&o->line, ' ');
}

/*
 * Writes the current line, cut to WIDTH columns (UTF-8 aware; a cut line
 * ends in "..."), trailing blanks removed, in colour when asked, and
 * starts a new one.
 */
static void
out_line(struct out *o, const char *color)
{
	struct buf *b = &o->line;
	size_t cols = 0, i, cut = 0;

	if (b->p == NULL)
		BUF_ADDL(b, "");
	for (i = 0; i < b->len; i++) {
		if (((unsigned char)b->p[i] & 0xc0) == 0x80)
			continue;
		if (cols == WIDTH - 3)
			cut = i;
		if (++cols > WIDTH)
			break;
	}
	if (i < b->len) {
		b->len = cut;
		BUF_ADDL(b, "...");
	}
	while (b->len && b->p[b->len - 1] == ' ')
		b->p[--b->len] = '\0';
	if (!o->err) {
		int r;

		if (o->color && color && b->len)
			r = fprintf(o->fp, "%s%s%s\n", color, b->p, C_OFF);
		else
			r = fprintf(o->fp, "%s\n", b->p);
		if (r < 0)
			o->err = errno ? errno : EIO;
	}
	buf_reset(b);
}

/* --- files ---------------------------------------------------------- */

enum afile_kind { AF_ELF, AF_KERNEL, AF_PERFMAP, AF_NONE };

/* A file with samples, opened for the write. */
struct afile {
	const char	*path;		/* borrowed from adso */
	const char	*base;		/* its last component */
	enum afile_kind	 kind;
	char		*problem;	/* owned; why nothing or only part can be shown */
	int		 bad;		/* the file is missing, unreadable or corrupt */
	int		 missing;	/* no such file: said, but not bad input */
	char		*noscope;	/* owned; why no bytes can be shown */
	struct elffile	 ef;		/* the file, when it is not lent */
	int		 fd;		/* /proc/kcore, or -1 */
	Elf		*elf;		/* the file itself: ef's, fgsym's, or
					   kcore's (owned) for the kernel */
	int		 lent;		/* elf, mod and syms are fgsym's */
	int		 machine;	/* e_machine */
	csh		 cs;
	int		 cs_ok;
	Dwfl		*dwfl;
	Dwfl_Module	*mod;
	Dwarf_Addr	 bias;
	struct elfsym	 st;		/* owned; its symbols, sorted by address */
	struct kallsyms	*ks;		/* owned; the kernel's symbols */
	struct perfmap	*pm;		/* owned; a JIT's symbols */
	uint64_t	 unattributed;	/* samples outside every function */
	int		 dmflags;	/* fg_demangle() flags for its names */
	struct dwname	*dwn;		/* owned: C++ scopes of inlined names */
};

/* A sampled function. */
struct afunc {
	struct afile	*file;
	const char	*rawname;	/* borrowed from the file's symbols */
	char		*name;		/* owned; demangled or copied */
	uint64_t	 start, end;
	uint64_t	 samples;
	struct aaddr	*addrs;		/* borrowed: a sorted slice */
	size_t		 naddrs;
};

static const char *afile_section_of(const struct afile *, uint64_t,
    uint64_t *, uint64_t *);

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
afile_kernel(struct afile *f, const struct annotate *a)
{
	const char *path = a->opts.kallsyms ? a->opts.kallsyms : KALLSYMS;
	const struct kallsyms *ks = NULL;
	int rc = 0;

	f->kind = AF_KERNEL;
	/* fgsym's table when it has read one, else a read of our own. */
	if (a->kallsyms == NULL || (ks = a->kallsyms(a->file_arg)) == NULL) {
		f->ks = kallsyms_new();
		rc = kallsyms_load(f->ks, path);
		ks = f->ks;
	}
	if (rc == -1)
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
	if ((f->fd = open(KCORE, O_RDONLY | O_CLOEXEC)) < 0) {
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
	f->pm = perfmap_new();
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

/* Opens one file with samples. Problems go to f->problem / f->noscope. */
static void
afile_open(struct afile *f, const char *path, const struct annotate *a)
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
		afile_kernel(f, a);
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
	if (a->file != NULL && a->file(a->file_arg, path, &ef) == 0 &&
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

static void
afile_close(struct afile *f)
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

/*
 * Returns the symbol whose range holds addr, or NULL. code_only skips
 * data symbols.
 */
static const struct elfsym_ent *
afile_lookup(const struct afile *f, uint64_t addr, int code_only)
{
	const struct elfsym_ent *e;
	uint64_t off;

	e = elfsym_lookup(&f->st, addr, &off, code_only);
	return e != NULL && off < e->size ? e : NULL;
}

/* Names a section of the ELF file that holds addr, or NULL. */
static const char *
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

/*
 * Finds the bytes of [addr, addr + size) in the file. Returns a pointer
 * (into the mapping, or into *owned, which the caller frees) and sets *n,
 * or returns NULL and sets *why (owned by the caller).
 */
static const unsigned char *
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

/* --- source lines ----------------------------------------------------- */

/* A source position: file, line, and the inlined function it is in. */
struct srcpos {
	const char	*file;		/* borrowed from libdw; NULL: none */
	int		 line;
	char		*inl;		/* owned; innermost inlined function */
};

/* Looks up the source position of addr; sets p->file to NULL if none. */
static void
srcpos_get(const struct afile *f, uint64_t addr, struct srcpos *p,
    int want_inline)
{
	Dwfl_Line *l;
	Dwarf_Die *cu;
	Dwarf_Addr bias;
	int line = 0;

	p->file = NULL;
	p->line = 0;
	p->inl = NULL;
	if (!f->mod || !(l = dwfl_module_getsrc(f->mod, addr + f->bias)))
		return;
	p->file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	p->line = line;
	if (!p->file || !want_inline)
		return;
	if ((cu = dwfl_module_addrdie(f->mod, addr + f->bias, &bias))) {
		Dwarf_Die *scopes = NULL;
		int n = dwarf_getscopes(cu, addr + f->bias - bias, &scopes);

		for (int i = 0; i < n; i++)
			if (dwarf_tag(&scopes[i]) ==
			    DW_TAG_inlined_subroutine) {
				p->inl = dwname_of(f->dwn, &scopes[i], 1,
				    f->dmflags);
				break;
			}
		free(scopes);
	}
}

/* Text of source files, loaded on first use. */
struct srcfile {
	char	*path;		/* owned */
	char	*text;		/* owned; NULL when unreadable */
	size_t	*lines;		/* owned; offsets of line starts */
	size_t	 nlines;
};

struct srccache {
	struct srcfile	*files;
	size_t		 n, cap;
};

/* Returns line (1-based) of path, its length in *len, or NULL. */
static const char *
srccache_line(struct srccache *c, const char *path, int line, size_t *len)
{
	struct srcfile *s = NULL;

	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->files[i].path, path) == 0)
			s = &c->files[i];
	if (!s) {
		size_t tlen = 0, cap = 0;

		GROW(c->files, c->n + 1, c->cap);
		s = &c->files[c->n++];
		memset(s, 0, sizeof(*s));
		s->path = xstrdup(path);
		/* DWARF names the path: only a regular file, not too large. */
		if (safeopen_read(path, SRC_MAX, &s->text, &tlen) == 0) {
			GROW(s->lines, 1, cap);
			s->lines[s->nlines++] = 0;
			for (size_t i = 0; i < tlen; i++)
				if (s->text[i] == '\n' && i + 1 < tlen) {
					GROW(s->lines, s->nlines + 1, cap);
					s->lines[s->nlines++] = i + 1;
				}
		}
	}
	if (!s->text || line < 1 || (size_t)line > s->nlines)
		return NULL;
	{
		const char *p = s->text + s->lines[line - 1];

		*len = strcspn(p, "\n");
		while (*len && isspace((unsigned char)*p)) {
			p++;
			(*len)--;
		}
		while (*len && isspace((unsigned char)p[*len - 1]))
			(*len)--;
		return p;
	}
}

static void
srccache_release(struct srccache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->files[i].path);
		free(c->files[i].text);
		free(c->files[i].lines);
	}
	free(c->files);
}

static const char *
basename_of(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/* Appends "file:line", the file's path shortened from the left. */
static void
out_path(struct out *o, const char *f, int line)
{
	size_t fl = strlen(f);

	if (fl > 50) {
		f += fl - 47;
		BUF_ADDL(&o->line, "...");
	}
	buf_addf(&o->line, "%s:%d", f, line);
}

/*
 * Appends "file:line  [inlined name]  text" to the current line: the
 * source lines interleaved with the instructions.
 */
static void
out_srcpos(struct out *o, struct srccache *sc, const struct srcpos *p)
{
	const char *text;
	size_t tlen;

	buf_addf(&o->line, "%s:%d", basename_of(p->file), p->line);
	if (p->inl)
		buf_addf(&o->line, "  [inlined %s]", p->inl);
	if ((text = srccache_line(sc, p->file, p->line, &tlen))) {
		BUF_ADDL(&o->line, "  ");
		out_text(o, text, tlen);
	}
}

/* --- attributing samples to functions ---------------------------------- */

static int
aaddr_cmp(const void *pa, const void *pb)
{
	const struct aaddr *a = pa, *b = pb;

	return a->vaddr < b->vaddr ? -1 : a->vaddr > b->vaddr;
}

/* Hotter first; ties by name, file and address, so output is stable. */
static int
afunc_cmp(const void *pa, const void *pb)
{
	const struct afunc *a = pa, *b = pb;
	int c;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if ((c = strcmp(a->name, b->name)))
		return c;
	if ((c = strcmp(a->file->path, b->file->path)))
		return c;
	return a->start < b->start ? -1 : a->start > b->start;
}

/*
 * Sorts the addresses of d and files them again in its index, so that
 * later samples still add to them; returns how many there are.
 */
static size_t
adso_sorted(struct adso *d)
{
	if (d->naddrs > 1)
		qsort(d->addrs, d->naddrs, sizeof(*d->addrs), aaddr_cmp);
	hashtab_release(&d->index);
	hashtab_init(&d->index, d->naddrs);
	for (size_t i = 0; i < d->naddrs; i++)
		adso_index(d, i);
	return d->naddrs;
}

/* --- the listing ------------------------------------------------------- */

static double
pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Appends "sym+0xoff" for a target address, or nothing if unknown. */
static int
out_target(struct out *o, const struct afile *f, uint64_t addr)
{
	const struct elfsym_ent *s = afile_lookup(f, addr, 0);
	const char *sec;
	uint64_t start, end;
	char *d;

	if (!s || addr - s->addr >= s->size) {
		if (!(sec = afile_section_of(f, addr, &start, &end)))
			return 0;
		buf_addf(&o->line, " <%s+0x%" PRIx64 ">", sec, addr - start);
		return 1;
	}
	d = fg_demangle(s->name, f->dmflags);
	buf_addf(&o->line, " <%s", d ? d : s->name);
	free(d);
	if (addr != s->addr)
		buf_addf(&o->line, "+0x%" PRIx64, addr - s->addr);
	BUF_ADDL(&o->line, ">");
	return 1;
}

/* The immediate branch or call target of insn, if it has one. */
static int
insn_target(const struct afile *f, const cs_insn *in, uint64_t *target)
{
	const cs_detail *d = in->detail;
	int branch = 0;

	if (!d)
		return 0;
	for (int i = 0; i < d->groups_count; i++)
		if (d->groups[i] == CS_GRP_JUMP || d->groups[i] == CS_GRP_CALL ||
		    d->groups[i] == CS_GRP_BRANCH_RELATIVE)
			branch = 1;
	if (!branch)
		return 0;
	switch (f->machine) {
	case EM_X86_64:
	case EM_386:
		for (int i = 0; i < d->x86.op_count; i++)
			if (d->x86.operands[i].type == X86_OP_IMM) {
				*target = d->x86.operands[i].imm;
				return 1;
			}
		break;
	case EM_AARCH64:
		for (int i = 0; i < d->arm64.op_count; i++)
			if (d->arm64.operands[i].type == ARM64_OP_IMM) {
				*target = d->arm64.operands[i].imm;
				return 1;
			}
		break;
	case EM_PPC64:
		for (int i = 0; i < d->ppc.op_count; i++)
			if (d->ppc.operands[i].type == PPC_OP_IMM) {
				*target = d->ppc.operands[i].imm;
				return 1;
			}
		break;
	}
	return 0;
}

/* RIP-relative data reference of an x86-64 instruction, if any. */
static int
insn_ripref(const struct afile *f, const cs_insn *in, uint64_t *target)
{
	const cs_detail *d = in->detail;

	if (!d || f->machine != EM_X86_64)
		return 0;
	for (int i = 0; i < d->x86.op_count; i++)
		if (d->x86.operands[i].type == X86_OP_MEM &&
		    d->x86.operands[i].mem.base == X86_REG_RIP) {
			*target = in->address + in->size +
			    d->x86.operands[i].mem.disp;
			return 1;
		}
	return 0;
}

/* The listing state shared by all functions. */
struct listing {
	struct out	 o;
	struct srccache	 sc;
	uint64_t	 total;
};

/*
 * Appends the count columns of one line: marker, count, percentage of
 * the function, and returns the colour the line should get.
 */
static const char *
out_counts(struct out *o, uint64_t count, uint64_t fsamples)
{
	double p = pct(count, fsamples);

	if (count == 0) {
		buf_addf(&o->line, "%18s", "");
		return NULL;
	}
	buf_addf(&o->line, "%2s %7" PRIu64 " %6.2f%%", p > HOT_PCT ? ">>" : "",
	    count, p);
	return p > HOT_PCT ? C_HOT : C_WARM;
}


/* Source header line, when the position differs from the last one. */
static void
out_src_change(struct listing *L, const struct afile *f, uint64_t addr,
    struct srcpos *last)
{
	struct srcpos p;

	srcpos_get(f, addr, &p, 1);
	if (!p.file)
		return;
	if (last->file && p.line == last->line &&
	    strcmp(p.file, last->file) == 0 &&
	    ((!p.inl && !last->inl) || (p.inl && last->inl &&
	    strcmp(p.inl, last->inl) == 0))) {
		free(p.inl);
		return;
	}
	out_pad(&L->o, COL_ADDR);
	out_srcpos(&L->o, &L->sc, &p);
	out_line(&L->o, C_SRC);
	free(last->inl);
	*last = p;
}

/*
 * Collects the resync points of a function after a decode failure at
 * addr: the next symbol or line-table row. Returns the end when none.
 */
static uint64_t
resync_point(const struct afile *f, uint64_t addr, uint64_t end)
{
	uint64_t best = end;
	const struct elfsym_ent *s;
	size_t lo = UPPER(f->st.e, f->st.n, addr, addr);

	if (lo < f->st.n && (s = &f->st.e[lo])->addr < best)
		best = s->addr;
	if (f->mod) {
		Dwarf_Addr bias;
		Dwarf_Die *cu = dwfl_module_addrdie(f->mod, addr + f->bias,
		    &bias);
		Dwarf_Lines *lines;
		size_t nl;

		if (cu && dwarf_getsrclines(cu, &lines, &nl) == 0)
			for (size_t i = 0; i < nl; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr la;

				if (l && dwarf_lineaddr(l, &la) == 0) {
					/* DWARF space -> the file's vaddrs */
					la = la + bias - f->bias;
					if (la > addr && la < best)
						best = la;
				}
			}
	}
	return best;
}

/* Sum of the counts of fn's sampled addresses in [lo, hi), from *cur on. */
static uint64_t
take_counts(const struct afunc *fn, size_t *cur, uint64_t lo, uint64_t hi)
{
	uint64_t c = 0;

	while (*cur < fn->naddrs && fn->addrs[*cur].vaddr < hi) {
		if (fn->addrs[*cur].vaddr >= lo)
			c += fn->addrs[*cur].count;
		(*cur)++;
	}
	return c;
}

/* Lists the sampled addresses only, when there are no bytes to show. */
static void
list_addresses(struct listing *L, const struct afunc *fn, const char *why)
{
	struct srcpos last = { 0 };
	int aw = snprintf(NULL, 0, "%" PRIx64, fn->end - 1);

	buf_addf(&L->o.line, "   (no disassembly: %s)", why);
	out_line(&L->o, NULL);
	out_line(&L->o, NULL);
	for (size_t i = 0; i < fn->naddrs; i++) {
		const char *c;

		out_src_change(L, fn->file, fn->addrs[i].vaddr, &last);
		c = out_counts(&L->o, fn->addrs[i].count, fn->samples);
		buf_addf(&L->o.line, "  %*" PRIx64 ":  <%s+0x%" PRIx64 ">", aw,
		    fn->addrs[i].vaddr, fn->name,
		    fn->addrs[i].vaddr - fn->start);
		out_line(&L->o, c);
	}
	free(last.inl);
}

/* Disassembles one function with its counts and source lines. */
static void
list_function(struct listing *L, const struct afunc *fn, int rank)
{
	const struct afile *f = fn->file;
	const unsigned char *code;
	unsigned char *owned = NULL;
	char *why = NULL;
	size_t n = 0, cur = 0;
	struct srcpos last = { 0 };
	int aw = snprintf(NULL, 0, "%" PRIx64, fn->end - 1);
	uint64_t shown = 0;

	buf_addf(&L->o.line, "== %d. %s ", rank, fn->name);
	while (L->o.line.len < WIDTH)
		BUF_ADDL(&L->o.line, "=");
	out_line(&L->o, C_HEAD);
	buf_addf(&L->o.line, "   %s  %#" PRIx64 "..%#" PRIx64 " (%" PRIu64
	    " bytes)", f->path, fn->start, fn->end, fn->end - fn->start);
	out_line(&L->o, NULL);
	buf_addf(&L->o.line, "   %" PRIu64 " sample%s, %.2f%% of all", fn->samples,
	    fn->samples == 1 ? "" : "s", pct(fn->samples, L->total));
	out_line(&L->o, NULL);

	code = afile_bytes(f, fn->start, fn->end - fn->start, &n, &owned,
	    &why);
	if (!code) {
		list_addresses(L, fn, why);
		free(why);
		out_line(&L->o, NULL);
		return;
	}
	out_line(&L->o, NULL);
	buf_addf(&L->o.line, "%10s %7s  %-*s  %s", "samples", "percent", aw,
	    aw >= 7 ? "address" : "addr", "instruction");
	out_line(&L->o, NULL);

	cs_insn *in = cs_malloc(f->cs);
	const uint8_t *p = code;
	size_t left = n;
	uint64_t addr = fn->start;

	while (addr < fn->end) {
		uint64_t next;
		const char *c;

		out_src_change(L, f, addr, &last);
		if (left && cs_disasm_iter(f->cs, &p, &left, &addr, in)) {
			uint64_t cnt = take_counts(fn, &cur, in->address,
			    in->address + in->size), t;

			shown += cnt;
			c = out_counts(&L->o, cnt, fn->samples);
			buf_addf(&L->o.line, "  %*" PRIx64 ":  %-7s %s", aw,
			    in->address, in->mnemonic, in->op_str);
			if (insn_target(f, in, &t))
				out_target(&L->o, f, t);
			else if (insn_ripref(f, in, &t) &&
			    afile_lookup(f, t, 0)) {
				buf_addf(&L->o.line, "  # %#" PRIx64, t);
				out_target(&L->o, f, t);
			}
			out_line(&L->o, c);
			continue;
		}
		/* undecodable, or bytes end before the symbol does */
		next = left ? resync_point(f, addr, fn->end) : fn->end;
		if (next <= addr)
			next = addr + 1;
		{
			uint64_t cnt = take_counts(fn, &cur, addr, next);
			size_t nb = next - addr < left ? next - addr : left;

			shown += cnt;
			c = out_counts(&L->o, cnt, fn->samples);
			buf_addf(&L->o.line, "  %*" PRIx64 ":  %-7s", aw, addr,
			    left ? "(bad)" : "(end)");
			if (!left)
				buf_addf(&L->o.line, " no bytes in the file beyond "
				    "this point");
			for (size_t i = 0; i < nb && i < 16; i++)
				buf_addf(&L->o.line, " %02x", p[i]);
			if (nb > 16)
				buf_addf(&L->o.line, " ... (%zu bytes)", nb);
			out_line(&L->o, c);
			p += nb;
			left -= nb;
			addr = next;
		}
	}
	cs_free(in, 1);
	free(owned);
	free(last.inl);
	if (shown != fn->samples) {
		buf_addf(&L->o.line, "   (%" PRIu64 " samples fall outside the "
		    "decoded instructions)", fn->samples - shown);
		out_line(&L->o, NULL);
	}
	out_line(&L->o, NULL);
}

/* One row of the hottest source lines. */
struct hotline {
	const char	*file;		/* borrowed from libdw */
	int		 line;
	char		*inl;		/* owned */
	const char	*func;		/* borrowed from afunc */
	uint64_t	 count;
	const struct afunc *fn;		/* where addr is */
	uint64_t	 addr;		/* one address of the line */
};

static int
hotline_key_cmp(const void *pa, const void *pb)
{
	const struct hotline *a = pa, *b = pb;
	int c;

	if ((c = strcmp(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line - b->line;
	if ((c = strcmp(a->func, b->func)))
		return c;
	return strcmp(a->inl ? a->inl : "", b->inl ? b->inl : "");
}

static int
hotline_count_cmp(const void *pa, const void *pb)
{
	const struct hotline *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return hotline_key_cmp(pa, pb);
}

/* The five hottest source lines over every function with line info. */
static void
list_hot_lines(struct listing *L, struct afunc *fns, size_t nfns)
{
	struct hotline *h = NULL;
	size_t nh = 0, cap = 0, m = 0;

	for (size_t i = 0; i < nfns; i++)
		for (size_t j = 0; j < fns[i].naddrs; j++) {
			struct srcpos p;

			/* the inlined name waits for the five winners */
			srcpos_get(fns[i].file, fns[i].addrs[j].vaddr, &p, 0);
			if (!p.file)
				continue;
			GROW(h, nh + 1, cap);
			h[nh++] = (struct hotline){ p.file, p.line, NULL,
			    fns[i].name, fns[i].addrs[j].count, &fns[i],
			    fns[i].addrs[j].vaddr };
		}
	BUF_ADDL(&L->o.line, "== hottest source lines ");
	while (L->o.line.len < WIDTH)
		BUF_ADDL(&L->o.line, "=");
	out_line(&L->o, C_HEAD);
	if (nh == 0) {
		BUF_ADDL(&L->o.line, "   (no line information: build with -g)");
		out_line(&L->o, NULL);
		return;
	}
	if (nh > 1)
		qsort(h, nh, sizeof(*h), hotline_key_cmp);
	for (size_t i = 0; i < nh; i++) {
		if (m && hotline_key_cmp(&h[m - 1], &h[i]) == 0) {
			h[m - 1].count += h[i].count;
			free(h[i].inl);
			continue;
		}
		h[m++] = h[i];
	}
	if (m > 1)
		qsort(h, m, sizeof(*h), hotline_count_cmp);
	buf_addf(&L->o.line, "%10s %7s  %s", "samples", "share",
	    "file:line (function)");
	out_line(&L->o, NULL);
	for (size_t i = 0; i < m; i++) {
		if (i < HOT_LINES) {
			struct srcpos p;

			const char *text;
			size_t tlen;

			/* a line is in one function, inlined or not */
			srcpos_get(h[i].fn->file, h[i].addr, &p, 1);
			h[i].inl = p.inl;
			p.file = h[i].file;
			p.line = h[i].line;
			buf_addf(&L->o.line, "%10" PRIu64 " %6.2f%%  ", h[i].count,
			    pct(h[i].count, L->total));
			out_path(&L->o, p.file, p.line);
			buf_addf(&L->o.line, "  (%s", h[i].func);
			if (p.inl)
				buf_addf(&L->o.line, ", inlined %s", p.inl);
			BUF_ADDL(&L->o.line, ")");
			out_line(&L->o, NULL);
			if ((text = srccache_line(&L->sc, p.file, p.line,
			    &tlen))) {
				out_pad(&L->o, COL_ADDR);
				out_text(&L->o, text, tlen);
				out_line(&L->o, C_SRC);
			}
		}
		free(h[i].inl);
	}
	free(h);
}

int
annotate_write(struct annotate *a, FILE *out)
{
	struct listing L = { .o = { .fp = out, .color = a->opts.color },
	    .total = a->total };
	struct afile *files;
	struct afunc *fns = NULL;
	size_t nfns = 0, capfns = 0, nlisted, nnotes;

	buf_init(&L.o.line);
	elf_version(EV_CURRENT);
	a->nbad = 0;
	if (a->total == 0) {
		BUF_ADDL(&L.o.line, "fgsym annotate: no samples");
		out_line(&L.o, NULL);
		goto done;
	}

	/* 1. files, 2. functions */
	files = xcalloc(a->ndsos, sizeof(*files));
	for (size_t i = 0; i < a->ndsos; i++) {
		struct adso *d = &a->dsos[i];
		struct afile *f = &files[i];
		size_t n = adso_sorted(d);

		afile_open(f, d->path, a);
		f->dmflags = a->opts.full_names ? FG_DEMANGLE_FULL : 0;
		if (f->problem)
			warnx("%s", f->problem);
		/* A missing file is said, as a stripped one is, but it is
		 * not bad input (fgsym(1), EXIT STATUS). */
		if (f->bad && f->missing)
			f->bad = 0;
		a->nbad += f->bad;
		for (size_t j = 0; j < n; ) {
			const struct elfsym_ent *s = afile_lookup(f,
			    d->addrs[j].vaddr, 1);
			struct afunc *fn;

			if (!s) {
				f->unattributed += d->addrs[j++].count;
				continue;
			}
			GROW(fns, nfns + 1, capfns);
			fn = &fns[nfns++];
			memset(fn, 0, sizeof(*fn));
			fn->file = f;
			fn->rawname = s->name;
			fn->start = s->addr;
			fn->end = s->addr + s->size;
			/* A corrupt symbol table: a size past 2^64 ends there. */
			if (fn->end < fn->start)
				fn->end = UINT64_MAX;
			fn->addrs = &d->addrs[j];
			/* Slot j is the function's (afile_lookup said so), even
			 * at UINT64_MAX: the loop always moves on. */
			do {
				fn->samples += d->addrs[j].count;
				fn->naddrs++;
				j++;
			} while (j < n && d->addrs[j].vaddr >= fn->start &&
			    d->addrs[j].vaddr < fn->end);
			if ((fn->name = fg_demangle(fn->rawname,
			    fn->file->dmflags)) == NULL)
				fn->name = xstrdup(fn->rawname);
		}
	}
	if (nfns > 1)
		qsort(fns, nfns, sizeof(*fns), afunc_cmp);
	nlisted = nfns < (size_t)a->opts.top ? nfns : (size_t)a->opts.top;

	/* 3. summary */
	buf_addf(&L.o.line, "fgsym annotate: %" PRIu64 " sample%s in %zu file%s, "
	    "%zu function%s", a->total, a->total == 1 ? "" : "s", a->ndsos,
	    a->ndsos == 1 ? "" : "s", nfns, nfns == 1 ? "" : "s");
	if (nlisted)
		buf_addf(&L.o.line, "; the %zu hottest below", nlisted);
	out_line(&L.o, C_HEAD);
	out_line(&L.o, NULL);
	buf_addf(&L.o.line, "%5s %9s %7s  %s", "rank", "samples", "share",
	    "function (file)");
	out_line(&L.o, NULL);
	for (size_t i = 0; i < nfns && i < (size_t)a->opts.top + 10; i++) {
		buf_addf(&L.o.line, "%5zu %9" PRIu64 " %6.2f%%  %s (%s)", i + 1,
		    fns[i].samples, pct(fns[i].samples, a->total),
		    fns[i].name, fns[i].file->base);
		out_line(&L.o, NULL);
	}
	if (nfns > (size_t)a->opts.top + 10) {
		uint64_t rest = 0;

		for (size_t i = a->opts.top + 10; i < nfns; i++)
			rest += fns[i].samples;
		buf_addf(&L.o.line, "%5s %9" PRIu64 " %6.2f%%  (%zu more functions)",
		    "", rest, pct(rest, a->total), nfns - a->opts.top - 10);
		out_line(&L.o, NULL);
	}
	for (size_t i = 0; i < a->ndsos; i++) {
		struct afile *f = &files[i];

		if (!f->unattributed)
			continue;
		buf_addf(&L.o.line, "%5s %9" PRIu64 " %6.2f%%  %s (%s)", "-",
		    f->unattributed, pct(f->unattributed, a->total),
		    f->problem ? "[not annotated]" : "[not in any function]",
		    f->base);
		out_line(&L.o, NULL);
	}
	out_line(&L.o, NULL);
	nnotes = 0;
	for (size_t i = 0; i < a->ndsos; i++) {
		if (!files[i].problem)
			continue;
		if (nnotes++ == 0) {
			BUF_ADDL(&L.o.line, "notes:");
			out_line(&L.o, NULL);
		}
		buf_addf(&L.o.line, "   %s", files[i].problem);
		out_line(&L.o, NULL);
	}
	if (nnotes)
		out_line(&L.o, NULL);

	for (size_t i = 0; i < nlisted; i++)
		list_function(&L, &fns[i], (int)i + 1);

	/* 4. hottest source lines */
	list_hot_lines(&L, fns, nfns);

	for (size_t i = 0; i < nfns; i++)
		free(fns[i].name);
	free(fns);
	for (size_t i = 0; i < a->ndsos; i++)
		afile_close(&files[i]);
	free(files);
	srccache_release(&L.sc);
done:
	buf_release(&L.o.line);
	if (!L.o.err && fflush(out) != 0)
		L.o.err = errno ? errno : EIO;
	if (L.o.err) {
		errno = L.o.err;
		return -1;
	}
	return 0;
}

size_t
annotate_bad_files(const struct annotate *a)
{
	return a->nbad;
}
