/*
 * sym: symbolize a sample stream in process with libelf and libdwfl (see
 * sym.h).
 *
 * Two tables carry the work. The file table maps a DSO string, as the
 * stream prints it, to a struct sfile that is opened lazily: its program
 * headers and build ID on the first frame (cheap), its libdwfl module on
 * the first lookup, its DWARF when a lookup needs inlines or lines. The
 * address cache maps (file, address, is-return) to the finished text of
 * that frame: the inlined names, the symbol with its offset, the source
 * lines. Both are arrays indexed by a struct hashtab keyed with xxHash.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>
#include <xxhash.h>

#include "sym/cuindex.h"
#include "sym/demangle.h"
#include "stream/dso.h"
#include "sym/dwname.h"
#include "sym/pkgowner.h"
#include "sym/dwcheck.h"
#include "elf/buildcache.h"
#include "elf/elfdwarf.h"
#include "elf/elffile.h"
#include "elf/elfsym.h"
#include "base/hashtab.h"
#include "elf/kallsyms.h"
#include "elf/perfmap.h"
#include "stream/stream.h"
#include "stream/diag.h"
#include "stream/reader.h"
#include "sym/sym.h"
#include "base/xalloc.h"
#include "elf/vdso.h"

/* The lowest kernel address on x86-64 (and arm64): the upper half. */
#define KERNEL_START	0xffff800000000000ULL


struct sfile {
	char		*dso;		/* as printed in the stream, owned */
	size_t		 dsolen;
	enum dso_kind	 kind;
	int		 opened;	/* 1 ok, -1 unusable, 0 not yet */
	int		 loaded;	/* libdwfl: 1 ok, -1 failed, 0 not yet */
	struct elffile	 ef;		/* its headers; closed once libdwfl has it */
	char		*buildid;	/* hex, from the ELF note; owned */
	char		*recorded;	/* hex, from "# buildid"; owned */
	Dwfl		*dwfl;
	Dwfl_Module	*mod;
	Dwarf_Addr	 bias;		/* dwfl address = vaddr + bias */
	struct cuindex	 cus;		/* its CUs' address maps, built on use */
	struct elfsym	 syms;		/* functions sorted by address */
	int		 exec_vaddr;	/* perf printed vaddrs for this ET_EXEC */
	int		 rebuilt;	/* its build ID is not the recorded one */
	int		 o0_checked;
	int		 nodwarf_warned;	/* its lack of DWARF was said, or
					   a stripped or refused file's */
	int		 nodwarf;	/* no DWARF, its own or a debug file's */
	int		 dwarf_checked;
	int		 dwarf_bad;	/* its DWARF is corrupt: not used */
	int		 missing;	/* no such file: not an input error */
	struct dwname	 dwn;		/* C++ scopes of unmangled DIEs */
	struct perfmap	*pm;
	unsigned long	 frames;	/* frames that needed a name */
	unsigned long	 unresolved;	/* ... and did not get one */
	unsigned long	 nocu;		/* samples whose innermost frame in it
					   no DWARF function holds (sres.nocu) */
	unsigned long	 stamp;		/* sym.samples at the last of them */
};

/* The text of one resolved frame: entries innermost first. */
struct sent {
	char		*text;		/* "name+0x1f", or an inlined name */
	char		*src;		/* "file.c:12", or NULL */
};

struct sres {
	uint32_t	 n;		/* 0: unresolved; else n-1 inlined + 1 */
	uint32_t	 nocu;		/* no DWARF function holds it (nor an
					   assembler's unit): inlined frames
					   were looked for and missed */
	struct sent	 e[];
};

struct cslot {
	uint64_t	 addr;
	uint32_t	 file;
	uint32_t	 ret;
	struct sres	*res;
};

struct sym {
	struct sym_opts	 o;
	struct sfile	**files;
	size_t		 nfiles, filecap;
	struct hashtab	 fileidx;	/* XXH3 of the DSO string -> file */
	struct cslot	*cache;		/* in the order resolved */
	size_t		 cn, ccap;
	struct hashtab	 cacheidx;	/* see cache_hash() */
	struct kallsyms	*ks;
	int		 ks_state;	/* 1 loaded, -1 failed, 0 not yet */
	unsigned long	 frames, unresolved, samples, badlines;
	unsigned long	 oneline;	/* one-line samples left [unknown] */
	int		 any_bad;
	int		 kernel_other;	/* recorded under another kernel */
	/* progress */
	struct timespec	 t0, tlast;
	int		 progress_shown;
	unsigned long	 loaded;
};

/*
 * The progress line is on the terminal (stderr) until something else is
 * written there: warnings clear it first. The state of the screen is one
 * thing per process, hence a file-static flag.
 */
static int progress_on_screen;

static void
progress_clear(void)
{
	if (progress_on_screen) {
		fputs("\r\033[K", stderr);
		progress_on_screen = 0;
	}
}

static void __attribute__((format(printf, 1, 2)))
swarnx(const char *fmt, ...)
{
	va_list ap;

	progress_clear();
	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 1, 2)))
swarn(const char *fmt, ...)
{
	va_list ap;

	progress_clear();
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

static struct sres unresolved_res = { .n = 0 };

struct sym *
sym_new(const struct sym_opts *opts)
{
	struct sym *s = xcalloc(1, sizeof(*s));

	s->o = *opts;
	hashtab_init(&s->fileidx, 32);
	hashtab_init(&s->cacheidx, 1024);
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	elf_version(EV_CURRENT);
	return s;
}

static void
sres_free(struct sres *r)
{
	uint32_t i;

	if (r == NULL || r == &unresolved_res)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->e[i].text);
		free(r->e[i].src);
	}
	free(r);
}

static void
sfile_free(struct sfile *f)
{
	if (f->dwfl != NULL)
		dwfl_end(f->dwfl);
	cuindex_release(&f->cus);
	elfsym_release(&f->syms);
	perfmap_free(f->pm);
	dwname_release(&f->dwn);
	elffile_release(&f->ef);
	free(f->buildid);
	free(f->recorded);
	free(f->dso);
	free(f);
}

void
sym_free(struct sym *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->cn; i++)
		sres_free(s->cache[i].res);
	for (i = 0; i < s->nfiles; i++)
		sfile_free(s->files[i]);
	kallsyms_free(s->ks);
	free(s->cache);
	hashtab_release(&s->cacheidx);
	hashtab_release(&s->fileidx);
	free(s->files);
	free(s);
}

/* ---- the file table ---- */

/* Returns the file number for dso[0..len), adding it when new. */
static uint32_t
file_get(struct sym *s, const char *dso, size_t len)
{
	struct hashtab_probe p;
	struct sfile *f;
	uint32_t n;

	hashtab_probe(&s->fileidx, XXH3_64bits(dso, len), &p);
	while ((n = hashtab_next(&s->fileidx, &p)) != HASHTAB_NONE) {
		f = s->files[n];
		if (f->dsolen == len && memcmp(f->dso, dso, len) == 0)
			return n;
	}
	f = xcalloc(1, sizeof(*f));
	f->dso = xmemdup0(dso, len);
	f->dsolen = len;
	elffile_init(&f->ef);
	cuindex_init(&f->cus);
	f->kind = dso_classify(dso, len);
	GROW(s->files, s->nfiles + 1, s->filecap);
	n = s->nfiles++;
	s->files[n] = f;
	hashtab_add(&s->fileidx, &p, n);
	return n;
}

/*
 * Opens instead the copy of the recorded build that perf's build-ID cache
 * holds (elf/buildcache), for a file gone from its path or rebuilt since
 * (what says which); says so. Returns 1 when f->ef is that copy, else 0
 * with f->ef closed.
 */
static int
file_cached(struct sfile *f, const char *what)
{
	if (f->recorded == NULL ||
	    buildcache_open(&f->ef, f->recorded) != ELFFILE_OK)
		return 0;
	swarnx("'%s' %s: its frames are named from the recorded build's copy "
	    "in perf's build-ID cache, '%s'", f->dso, what, f->ef.path);
	return 1;
}

/*
 * Opens an ELF file's headers: its type, its PT_LOAD segments and its
 * build ID, and checks that against the recorded one. Warns once and marks
 * the file unusable on failure.
 */
static void
file_open(struct sfile *f)
{
	f->opened = -1;
	/* Only a regular file is opened: never a FIFO, never a device. */
	switch (elffile_open(&f->ef, f->dso)) {
	case ELFFILE_OK:
		break;
	case ELFFILE_ERRNO: {
		static unsigned nmissing;
		int e = f->ef.errnum;

		if (e == ENOENT && file_cached(f, "is gone"))
			break;
		f->missing = e == ENOENT;
		/* Named one by one up to ten; a stream from another machine
		 * may name thousands, and the summary sums them up. */
		if (e == ENOENT && ++nmissing <= 10)
			swarnx("'%s': no such file: its frames stay [unknown] "
			    "(recorded on another machine? copy the file to "
			    "that path, or symbolize where it was recorded)",
			    f->dso);
		else if (e == ENOENT && nmissing == 11)
			swarnx("more files are missing; the summary at the end "
			    "names those with the most frames");
		if (e == ENOENT)
			return;
	}
	/* FALLTHROUGH */
	default: {
		char *why = elffile_failure(&f->ef, f->dso);

		swarnx("%s: its frames stay [unknown]%s", why, f->ef.status ==
		    ELFFILE_TRUNCATED ? "; copy the whole file again" : "");
		free(why);
		return;
	}
	}
	f->buildid = elffile_buildid(&f->ef);
	if (f->recorded != NULL && (f->buildid == NULL ||
	    strcasecmp(f->recorded, f->buildid) != 0) &&
	    file_cached(f, "was rebuilt after the recording")) {
		free(f->buildid);
		f->buildid = elffile_buildid(&f->ef);
	}

	if (f->recorded != NULL && f->buildid != NULL &&
	    strcasecmp(f->recorded, f->buildid) != 0) {
		swarnx("'%s' was rebuilt after the recording (build ID %s, "
		    "recorded %s): its frames stay [unknown]; record the "
		    "profile again", f->dso, f->buildid, f->recorded);
		f->rebuilt = 1;
		elffile_release(&f->ef);
		return;
	}
	if (f->recorded != NULL && f->buildid == NULL) {
		swarnx("'%s' has no build ID but the recording names one (%s): "
		    "its frames stay [unknown]; record the profile again",
		    f->dso, f->recorded);
		f->rebuilt = 1;
		elffile_release(&f->ef);
		return;
	}
	if (strstr(f->dso, "/target/debug/") != NULL)
		swarnx("'%s' is a Cargo debug build: its profile will mislead "
		    "(unoptimized code spends its time elsewhere); profile "
		    "the release build (cargo build --release, with "
		    "[profile.release] debug = true)", f->dso);
	f->opened = 1;
}

/* Does the ELF file elf have a section of type SHT_SYMTAB? */
static int
has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_SYMTAB)
			return 1;
	return 0;
}

/*
 * Was elf built by rustc? rustc writes "rustc version" into .comment
 * (since 1.73); older binaries still hold the "/rustc/<commit>/library/"
 * paths of the standard library's panic locations in .rodata, which
 * Debian's rustc writes "/usr/src/rustc-<version>/library/" instead:
 * "/library/core/src/" is in both. All survive strip.
 */
static int
is_rust(Elf *elf)
{
	static const char comment[] = "rustc version", path[] = "/rustc/",
	    core[] = "/library/core/src/";
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *nm;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS ||
		    (nm = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL ||
		    (strcmp(nm, ".comment") != 0 && strcmp(nm, ".rodata") != 0) ||
		    (d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL)
			continue;
		if (nm[1] == 'c' ? memmem(d->d_buf, d->d_size, comment,
		    sizeof(comment) - 1) != NULL : memmem(d->d_buf, d->d_size,
		    path, sizeof(path) - 1) != NULL || memmem(d->d_buf,
		    d->d_size, core, sizeof(core) - 1) != NULL)
			return 1;
	}
	return 0;
}

/*
 * How to get the debug info of the file f, whose ELF is elf, in a few
 * words (caller frees): for a file of a Debian package its debug package
 * or debuginfod, for a Rust binary Cargo's settings, for anything else
 * (the user's own C or C++ build) the compiler flag; when stripped, and
 * not to strip it.
 */
static char *
debug_fix(const struct sfile *f, Elf *elf, int stripped)
{
	char *pkg, *r;

	if ((pkg = pkgowner_find(NULL, f->dso)) != NULL) {
		r = pkgowner_advice(pkg, NULL);
		free(pkg);
		return r;
	}
	if (is_rust(elf))
		return xasprintf("build it with [profile.release] debug = true "
		    "(or CARGO_PROFILE_RELEASE_DEBUG=true)%s", stripped ?
		    " and no strip" : "");
	return xasprintf("rebuild it with -g%s", stripped ?
	    " and without -s or strip" : "");
}

/*
 * Builds f->syms from the module's symbol table (.symtab, of the file or
 * its debug file, else .dynsym) and its PLT: every defined function,
 * sorted, one per address. dwfl_module_addrinfo() would do, but it scans
 * the whole table on every call.
 */
static void
symtab_build(struct sfile *f, Elf *elf)
{
	/* Data symbols too, for the annotator (sym_file); lookups skip them. */
	elfsym_read_module(&f->syms, f->mod, f->bias, 1);
	elfsym_plt(&f->syms, elf);
	elfsym_sort(&f->syms);
}

/* The name of the function that holds vaddr, and *off in it, or NULL. */
static const char *
symtab_lookup(const struct sfile *f, uint64_t vaddr, uint64_t *off)
{
	const struct elfsym_ent *e = elfsym_lookup(&f->syms, vaddr, off, 1);

	return e != NULL ? e->name : NULL;
}

/*
 * Opens the vDSO of this process, the same code as the recorded one's when
 * the kernel is the same: its program headers and its function symbols.
 */
static void
vdso_open(struct sym *s, struct sfile *f)
{
	size_t size;
	char *img;

	f->opened = -1;
	f->loaded = -1;
	if ((img = vdso_any(&size)) == NULL) {
		swarnx("[vdso]: no vDSO to read: %s has none of its own "
		    "(under valgrind?), nor have its parent and init",
		    program_invocation_short_name);
		return;
	}
	if (elffile_open_memory(&f->ef, img, size) != ELFFILE_OK) {
		swarnx("[vdso]: elf_memory: %s", f->ef.why);
		free(img);
		return;
	}
	/* Another kernel's vDSO is other code: names would be wrong. */
	if (f->recorded != NULL) {
		char *mine = elffile_buildid(&f->ef);

		if (mine == NULL || strcasecmp(mine, f->recorded) != 0) {
			swarnx("[vdso]: recorded under another kernel (build ID "
			    "%s; this machine's is %s): its frames stay "
			    "[unknown]; symbolize where it was recorded",
			    f->recorded, mine ? mine : "unknown");
			f->rebuilt = 1;
			free(mine);
			elffile_release(&f->ef);
			free(img);
			return;
		}
		free(mine);
	}
	elfsym_read_elf(&f->syms, f->ef.elf, 0, 1);
	elffile_close(&f->ef);
	free(img);
	elfsym_sort(&f->syms);
	f->opened = f->loaded = 1;
	s->loaded++;
}

/* Reports the file to libdwfl and checks what symbols it has. */
static void
file_load(struct sym *s, struct sfile *f)
{
	const char *mainfile = NULL, *debugfile = NULL;
	Elf *elf;
	int nsym;

	f->loaded = -1;
	/* The checked file itself goes to libdwfl, not its path again. */
	f->dwfl = elfdwarf_dwfl(&f->ef, f->dso, NULL, &f->mod, &f->bias);
	/* libdwfl holds its own descriptor now: ours is not needed. */
	elffile_close(&f->ef);
	if (f->dwfl == NULL) {
		swarnx("'%s': %s", f->dso, f->ef.why);
		return;
	}
	elf = dwfl_module_getelf(f->mod, &f->bias);
	s->loaded++;
	f->loaded = 1;
	nsym = dwfl_module_getsymtab(f->mod);
	symtab_build(f, elf);
	dwfl_module_info(f->mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
	    &debugfile);
	if (nsym <= 0 || (!has_symtab(elf) && debugfile == NULL)) {
		char *fix = debug_fix(f, elf, 1);

		swarnx("'%s' is stripped%s: %s", f->dso, nsym <= 0 ?
		    " (no symbols at all)" : "", fix);
		free(fix);
		/* One line per file: that fix brings the DWARF too. */
		f->nodwarf_warned = 1;
	}
	/* A debug file that was there but refused (a FIFO, too large). */
	if (f->ef.note != NULL) {
		swarnx("'%s': %s; its debug info is not read from there",
		    f->dso, f->ef.note);
		f->nodwarf_warned = 1;
	}
}

int
sym_file(struct sym *s, const char *dso, struct elfsym_file *ef)
{
	struct sfile *f = s->files[file_get(s, dso, strlen(dso))];

	if (f->kind != DSO_FILE)
		return -1;
	if (f->opened == 0)
		file_open(f);
	if (f->opened < 0 || f->rebuilt)
		return -1;
	if (f->loaded == 0)
		file_load(s, f);
	if (f->loaded < 0 ||
	    (ef->elf = dwfl_module_getelf(f->mod, &ef->bias)) == NULL)
		return -1;
	ef->mod = f->mod;
	ef->syms = &f->syms;
	return 0;
}

const struct kallsyms *
sym_kallsyms(const struct sym *s)
{
	return s->ks_state > 0 ? s->ks : NULL;
}

/* ---- resolving ---- */

/*
 * Converts the address perf script printed for a frame of f to a vaddr.
 * Returns 0, or -1 when it fits no segment.
 *
 * For shared objects and PIE executables perf prints the file offset. For
 * ET_EXEC files perf 6.x prints the file offset too, and older versions
 * printed the absolute address, which is the vaddr. An address that only
 * one reading places inside a segment settles it for the file; where both
 * readings fit (only in executables larger than their load address, 4 MiB
 * on x86-64), the file's settled reading is used, the offset by default.
 */
static int
perf_addr(struct sfile *f, uint64_t addr, uint64_t *vaddr)
{
	uint64_t conv = 0;
	int in_off, in_va = 0;
	size_t i;

	in_off = elffile_vaddr(&f->ef, addr, &conv) == 0;
	if (f->ef.ehdr.e_type != ET_EXEC) {
		*vaddr = conv;
		return in_off ? 0 : -1;
	}
	for (i = 0; i < f->ef.nloads; i++)
		if (addr >= f->ef.loads[i].vaddr &&
		    addr - f->ef.loads[i].vaddr < f->ef.loads[i].memsz)
			in_va = 1;
	if (in_va && !in_off)
		f->exec_vaddr = 1;
	else if (in_off && !in_va)
		f->exec_vaddr = 0;
	if (!in_off && !in_va)
		return -1;
	*vaddr = in_va && (!in_off || f->exec_vaddr) ? addr : conv;
	return 0;
}

/* The fg_demangle() flags the options ask for. */
static int
dm_flags(const struct sym *s)
{
	return (s->o.keep_hash ? FG_DEMANGLE_KEEP_HASH : 0) |
	    (s->o.full_names ? FG_DEMANGLE_FULL : 0);
}

static char *
name_dup(const struct sym *s, const char *name)
{
	char *d = NULL;

	if (s->o.demangle)
		d = fg_demangle(name, dm_flags(s));
	return d != NULL ? d : xstrdup(name);
}

static char *
name_off(const struct sym *s, const char *name, uint64_t off)
{
	char *d = name_dup(s, name), *r;

	r = xasprintf("%s+0x%" PRIx64, d, off);
	free(d);
	return r;
}

static char *
src_text(const struct sym *s, const char *file, int line)
{
	const char *b = file;

	if (file == NULL || line <= 0)
		return NULL;
	if (!s->o.full_path && (b = strrchr(file, '/')) != NULL)
		b++;
	else
		b = file;
	return xasprintf("%s:%d", b, line);
}

/* The name of a function's DIE in f (dwname_of), or "??". */
static char *
die_name(const struct sym *s, struct sfile *f, Dwarf_Die *die)
{
	char *n = dwname_of(&f->dwn, die, s->o.demangle, dm_flags(s));

	return n != NULL ? n : xstrdup("??");
}

/* The call site of an inlined DIE as "file:line", or NULL. */
static char *
call_site(const struct sym *s, Dwarf_Die *cu, Dwarf_Die *inl)
{
	Dwarf_Attribute am;
	Dwarf_Word fileno, line;
	Dwarf_Files *files;
	size_t nfiles;
	const char *file;

	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &am), &fileno) != 0 ||
	    dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &am), &line) != 0)
		return NULL;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || fileno >= nfiles)
		return NULL;
	if ((file = dwarf_filesrc(files, fileno, NULL, NULL)) == NULL)
		return NULL;
	return src_text(s, file, (int)line);
}

/* Warns once when a CU's producer shows an unoptimized build. */
static void
check_o0(struct sfile *f, Dwarf_Die *cu)
{
	Dwarf_Attribute am;
	const char *p;

	if ((p = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &am))) == NULL)
		return;
	if (elfdwarf_cu_is_asm(cu))
		return;		/* assembler: says nothing about -O */
	f->o0_checked = 1;
	/*
	 * GCC records its switches (unless -gno-record-gcc-switches): -O0,
	 * or switches without any -O, is an unoptimized build.
	 */
	if (strstr(p, " -O0") != NULL ||
	    (strncmp(p, "GNU ", 4) == 0 && strstr(p, " -") != NULL &&
	     strstr(p, " -O") == NULL))
		swarnx("'%s' looks like an unoptimized build (DW_AT_producer "
		    "\"%s\"): its profile will mislead; profile the optimized "
		    "build (-O2 -g)", f->dso, p);
}

struct chain {
	struct sent	*e;
	size_t		 n, cap;
};

static void
chain_add(struct chain *c, char *text, char *src)
{
	GROW(c->e, c->n + 1, c->cap);
	c->e[c->n].text = text;
	c->e[c->n].src = src;
	c->n++;
}

static struct sres *
chain_res(struct chain *c)
{
	struct sres *r = xmalloc(sizeof(*r) + c->n * sizeof(r->e[0]));

	r->n = c->n;
	r->nocu = 0;
	memcpy(r->e, c->e, c->n * sizeof(r->e[0]));
	free(c->e);
	return r;
}

/* Resolves vaddr in an ELF file; a is the lookup address (pc or pc-1). */
static struct sres *
resolve_elf(struct sym *s, struct sfile *f, uint64_t vaddr, uint64_t a)
{
	struct chain c = { 0 };
	uint64_t off = 0;
	const char *name;
	Dwarf_Addr da, cubias;
	Dwarf_Die *cu = NULL, *scopes = NULL;
	char *fnname = NULL, *leafsrc = NULL;
	struct sres *r;
	int nscopes = 0, i, ninl = 0, nocu;

	if (f->loaded == 0)
		file_load(s, f);
	if (f->loaded < 0)
		return &unresolved_res;
	da = a + f->bias;
	name = symtab_lookup(f, a, &off);

	if (!f->dwarf_checked) {
		Dwarf *dw = dwfl_module_getdwarf(f->mod, &cubias);
		const char *why;

		f->dwarf_checked = 1;
		/* said at the end (nodwarf_say), if the file matters */
		f->nodwarf = dw == NULL;
		why = dwcheck_units(dw);
		if (why != NULL) {
			f->dwarf_bad = 1;
			swarnx("'%s' has corrupt DWARF debug info (%s): no source "
			    "lines, inlined frames or names from it; rebuild "
			    "the file or reinstall its debug package", f->dso,
			    why);
		}
	}
	if (!f->dwarf_bad && !f->nodwarf && (s->o.inlines || s->o.srcline ||
	    !f->o0_checked || name == NULL))
		cu = dwfl_module_addrdie(f->mod, da, &cubias);
	if (cu != NULL) {
		if (!f->o0_checked)
			check_o0(f, cu);
		if (s->o.inlines || s->o.srcline || name == NULL)
			nscopes = cuindex_scopes(&f->cus, cu, da - cubias,
			    &scopes);
	}
	/* scopes: innermost first; inlined_subroutines up to the subprogram. */
	for (i = 0; i < nscopes; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_inlined_subroutine)
			ninl++;
		else if (tag == DW_TAG_subprogram) {
			Dwarf_Addr low;

			if (name == NULL &&
			    dwarf_lowpc(&scopes[i], &low) == 0 &&
			    da - cubias >= low) {
				fnname = die_name(s, f, &scopes[i]);
				off = da - cubias - low;
			}
			break;
		}
	}
	/*
	 * No function of the DWARF holds it (a file without DWARF; a Rust
	 * binary with only the standard library's, whose units claim all
	 * addresses; a C object built without -g), and it is no
	 * assembler's code: its inlined frames were looked for and missed.
	 */
	nocu = (s->o.inlines || s->o.srcline) && !f->dwarf_bad &&
	    i == nscopes && !elfdwarf_cu_is_asm(cu);
	if (name == NULL && fnname == NULL) {
		free(scopes);
		return &unresolved_res;
	}
	if (s->o.srcline && !f->dwarf_bad) {
		Dwfl_Line *l = dwfl_module_getsrc(f->mod, da);
		int line = 0;
		const char *file;

		if (l != NULL &&
		    (file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL)) != NULL)
			leafsrc = src_text(s, file, line);
	}
	if (s->o.inlines && ninl > 0) {
		int k = 0;
		char *src = leafsrc;

		for (i = 0; i < nscopes && k < ninl; i++) {
			if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
				continue;
			chain_add(&c, die_name(s, f, &scopes[i]), src);
			src = s->o.srcline ? call_site(s, cu, &scopes[i]) : NULL;
			k++;
		}
		leafsrc = src;
	} else if (s->o.srcline && ninl > 0) {
		/* No inlined lines: the real frame's line is the outermost call site. */
		for (i = nscopes - 1; i >= 0; i--)
			if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
				break;
		if (i >= 0) {
			free(leafsrc);
			leafsrc = call_site(s, cu, &scopes[i]);
		}
	}
	free(scopes);
	if (name != NULL)
		chain_add(&c, name_off(s, name, off + (vaddr - a)), leafsrc);
	else {
		char *t;

		t = xasprintf("%s+0x%" PRIx64, fnname, off + (vaddr - a));
		chain_add(&c, t, leafsrc);
	}
	free(fnname);
	r = chain_res(&c);
	r->nocu = (uint32_t)nocu;
	return r;
}

static struct sres *
one_name(const struct sym *s, const char *name, uint64_t off, int demangle)
{
	struct chain c = { 0 };
	char *t;

	if (demangle)
		t = name_off(s, name, off);
	else
		t = xasprintf("%s+0x%" PRIx64, name, off);
	chain_add(&c, t, NULL);
	return chain_res(&c);
}

static struct sres *
resolve_kernel(struct sym *s, uint64_t addr, uint64_t a)
{
	const char *path = s->o.kallsyms ? s->o.kallsyms : "/proc/kallsyms";
	const char *name;
	uint64_t off;
	int rc;

	if (s->ks_state == 0) {
		s->ks = kallsyms_new();
		rc = kallsyms_load(s->ks, path);
		s->ks_state = rc == 0 ? 1 : -1;
		if (rc == -1) {
			swarn("'%s': kernel frames stay [unknown]", path);
			/* A file the user named is input; /proc is not. */
			if (s->o.kallsyms != NULL)
				s->any_bad = 1;
		}
		else if (rc == -2)
			swarnx("'%s' shows no addresses: kernel frames stay "
			    "[unknown]; run as root or set "
			    "sysctl kernel.kptr_restrict=0", path);
		else
			s->loaded++;
	}
	if (s->ks_state < 0)
		return &unresolved_res;
	/*
	 * kallsyms has no sizes: an address a megabyte past the symbol below
	 * it is in something kallsyms does not list (a hidden module), not
	 * in that symbol.
	 */
	if ((name = kallsyms_lookup(s->ks, a, &off, NULL)) == NULL ||
	    off >= (1 << 20))
		return &unresolved_res;
	return one_name(s, name, off + (addr - a), 0);
}

static struct sres *
resolve_perfmap(struct sym *s, struct sfile *f, uint64_t addr, uint64_t a)
{
	const char *name;
	uint64_t off;

	if (f->loaded == 0) {
		int rc;

		f->pm = perfmap_new();
		rc = perfmap_load(f->pm, f->dso);
		if (rc != 0) {
			if (rc == -1)
				f->missing = errno == ENOENT;
			swarnx("'%s': %s: its frames stay [unknown]", f->dso,
			    perfmap_strerror(f->pm, rc));
			f->loaded = -1;
		} else {
			f->loaded = 1;
			s->loaded++;
			if (f->pm->bad > 0) {
				s->any_bad = 1;
				swarnx("%s:%lu: not a perf map line (START SIZE "
				    "NAME, in hex): skipped %lu such lines",
				    f->dso, f->pm->first_bad, f->pm->bad);
			}
		}
	}
	if (f->loaded < 0)
		return &unresolved_res;
	if ((name = perfmap_lookup(f->pm, a, &off)) == NULL)
		return &unresolved_res;
	return one_name(s, name, off + (addr - a), s->o.demangle);
}

/* The address seeded with the file number and the return bit. */
static uint64_t
cache_hash(uint32_t fn, uint64_t vaddr, int ret)
{
	return XXH3_64bits_withSeed(&vaddr, sizeof(vaddr),
	    (uint64_t)fn << 1 | (ret != 0));
}

/*
 * Returns the cached text for (file fn, vaddr, ret), resolving it on a miss.
 * Never returns NULL.
 */
static struct sres *
lookup(struct sym *s, uint32_t fn, uint64_t vaddr, int ret)
{
	struct sfile *f = s->files[fn];
	uint64_t a = ret && vaddr > 0 ? vaddr - 1 : vaddr;
	struct hashtab_probe p;
	struct cslot *c;
	struct sres *r;
	uint32_t i;

	/* resolving below never adds to the cache: the probe stays good */
	hashtab_probe(&s->cacheidx, cache_hash(fn, vaddr, ret), &p);
	while ((i = hashtab_next(&s->cacheidx, &p)) != HASHTAB_NONE) {
		c = &s->cache[i];
		if (c->addr == vaddr && c->file == fn &&
		    c->ret == (uint32_t)ret)
			return c->res;
	}
again:
	switch (f->kind) {
	case DSO_FILE:
		r = resolve_elf(s, f, vaddr, a);
		break;
	case DSO_KERNEL_MAP:
		r = resolve_kernel(s, vaddr, a);
		break;
	case DSO_PERFMAP:
		r = resolve_perfmap(s, f, vaddr, a);
		break;
	case DSO_VDSO: {
		const char *name;
		uint64_t off;

		name = symtab_lookup(f, a, &off);
		r = name ? one_name(s, name, off + (vaddr - a), 0) :
		    &unresolved_res;
		break;
	}
	default:
		r = &unresolved_res;
	}
	/*
	 * The frame above a signal frame "returns" to the first byte of the
	 * signal trampoline (__restore_rt), so pc-1 falls before it: when
	 * pc-1 finds nothing, pc itself is the answer.
	 */
	if (r == &unresolved_res && a != vaddr) {
		a = vaddr;
		goto again;
	}
	GROW(s->cache, s->cn + 1, s->ccap);
	c = &s->cache[s->cn];
	c->addr = vaddr;
	c->file = fn;
	c->ret = (uint32_t)ret;
	c->res = r;
	hashtab_add(&s->cacheidx, &p, s->cn++);
	return r;
}

/*
 * Checks once, at the first kernel frame, that this is the kernel that
 * recorded the stream (its "# buildid ... [kernel.kallsyms]" line):
 * another kernel's symbols would name every kernel frame wrongly. With
 * --kallsyms the symbols are the user's choice, and are not checked.
 */
static void
kernel_check(struct sym *s)
{
	struct sfile *k = s->files[file_get(s, STREAM_KERNEL, strlen(STREAM_KERNEL))];
	char *cur;

	if (k->opened != 0)
		return;
	k->opened = 1;
	/* --kallsyms: the user brought the recording kernel's symbols */
	if (k->recorded == NULL || s->o.kallsyms != NULL ||
	    (cur = kallsyms_buildid("/sys/kernel/notes")) == NULL)
		return;
	if (strcasecmp(cur, k->recorded) != 0) {
		swarnx("[kernel.kallsyms]: recorded under another kernel (build "
		    "ID %s; this one's is %s): kernel frames stay [unknown]; "
		    "symbolize on the machine and kernel that recorded",
		    k->recorded, cur);
		k->rebuilt = 1;
		s->kernel_other = 1;
	}
	free(cur);
}

/* ---- the stream ---- */

struct sstate {
	int		 fgrecord;	/* vaddr stream */
	unsigned long	 fi;		/* frame index in the sample */
	int		 prev_kernel;
	int		 drop_src;	/* drop input srclines after our own */
	char		 pid[24];	/* of the current sample */
	char		 map_pid[24];	/* the last pid checked for a perf map */
	int		 map_fn;	/* its map's file number, or -1 */
};

static void
buildid_header(struct sym *s, const struct stream_header_read *h)
{
	uint32_t fn;
	struct sfile *f;

	/* "ID PATH": PATH may hold spaces. */
	if (h->key != STREAM_HDR_BUILDID || !h->ok)
		return;
	fn = file_get(s, h->u.buildid.path.p, h->u.buildid.path.len);
	f = s->files[fn];
	if (f->opened != 0)
		return;		/* already checked against an earlier header */
	free(f->recorded);
	f->recorded = xmemdup0(h->u.buildid.id.p, h->u.buildid.id.len);
}

static void
progress(struct sym *s)
{
	struct timespec now;
	double el, since;

	clock_gettime(CLOCK_MONOTONIC, &now);
	el = (now.tv_sec - s->t0.tv_sec) + (now.tv_nsec - s->t0.tv_nsec) / 1e9;
	since = (now.tv_sec - s->tlast.tv_sec) +
	    (now.tv_nsec - s->tlast.tv_nsec) / 1e9;
	if (el < 1.0 || (s->progress_shown && since < 0.2))
		return;
	s->tlast = now;
	s->progress_shown = 1;
	progress_on_screen = 1;
	fprintf(stderr, "\r%s: %lu samples, %lu files loaded\033[K",
	    program_invocation_short_name, s->samples, s->loaded);
}

static int
emit(FILE *out, const char *p, size_t n)
{
	return fwrite_unlocked(p, 1, n, out) == n ? 0 : -1;
}

/* Writes line[0..len) and a newline. Errors show in ferror(out). */
static void
emit_line(FILE *out, const char *line, size_t len)
{
	emit(out, line, len);
	putc_unlocked('\n', out);
}

/* Writes the lines of a resolved frame. */
static void
emit_frame(struct sym *s, FILE *out, const struct stream_frame *fr,
    const struct sres *r)
{
	uint32_t i;

	for (i = 0; i < r->n; i++) {
		const struct sent *e = &r->e[i];

		emit(out, fr->indent.p, fr->indent.len);
		emit(out, fr->addr.p, fr->addr.len);
		putc_unlocked(' ', out);
		fputs_unlocked(e->text, out);
		if (i + 1 < r->n)
			fputs_unlocked(" (inlined)\n", out);
		else {
			emit(out, " (", 2);
			emit(out, fr->dso.p, fr->dso.len);
			emit(out, ")\n", 2);
		}
		if (s->o.srcline && e->src != NULL) {
			emit(out, "  ", 2);
			fputs_unlocked(e->src, out);
			putc_unlocked('\n', out);
		}
	}
}

static void
do_frame(struct sym *s, struct sstate *st, struct lineread *in,
    const char *line, size_t len, struct stream_frame *fr, FILE *out)
{
	int is_kernel, ret, unknown, conv;
	uint32_t fn;
	struct sfile *f;
	uint64_t vaddr;
	struct sres *r;

	st->drop_src = 0;
	if (stream_str_eq(fr->dso, "inlined")) {
		if (out != NULL)
			emit_line(out, line, len);
		return;
	}
	/* perf's end-of-stack marker, "ffffffffffffffff [unknown]
	   ([unknown])": no frame, not counted, passed on */
	if (fr->addr_ok && fr->addrval == UINT64_MAX &&
	    stream_str_eq(fr->dso, STREAM_UNKNOWN)) {
		if (out != NULL)
			emit_line(out, line, len);
		return;
	}
	is_kernel = fr->addrval >= KERNEL_START;
	ret = st->fi > 0 && is_kernel == st->prev_kernel;
	st->prev_kernel = is_kernel;
	unknown = stream_str_eq(fr->sym, STREAM_UNKNOWN);
	if (!fr->addr_ok) {
		if (unknown) {
			s->frames++;
			s->unresolved++;
		}
		if (s->badlines++ < 10)
			swarnx("%s:%lu: frame address '%.*s' is not a 64-bit hex "
			    "number: passed through unresolved", in->name,
			    in->lineno, (int)fr->addr.len, fr->addr.p);
		s->any_bad = 1;
		if (out != NULL)
			emit_line(out, line, len);
		st->fi++;
		return;
	}
	if (!unknown && !(st->fi == 0 && s->o.leaf != NULL)) {
		if (out != NULL)
			emit_line(out, line, len);
		st->fi++;
		return;
	}

	fn = file_get(s, fr->dso.p, fr->dso.len);
	f = s->files[fn];
	/* [unknown] code of a process with a perf map: JIT code. */
	if (f->kind == DSO_NONE && st->pid[0] != '\0' &&
	    stream_str_eq(fr->dso, STREAM_UNKNOWN) && !is_kernel) {
		if (strcmp(st->pid, st->map_pid) != 0) {
			char path[64];

			/* One access(2) per process, not per frame. */
			snprintf(st->map_pid, sizeof(st->map_pid), "%s", st->pid);
			snprintf(path, sizeof(path), "/tmp/perf-%s.map", st->pid);
			st->map_fn = access(path, R_OK) == 0 ?
			    (int)file_get(s, path, strlen(path)) : -1;
		}
		if (st->map_fn >= 0) {
			fn = st->map_fn;
			f = s->files[fn];
		}
	}
	/*
	 * A module perf names by its path, "/lib/modules/.../ext4.ko", and a
	 * kernel address perf could not place.
	 */
	if (is_kernel && ((f->kind == DSO_FILE && dso_is_module_path(f->dso)) ||
	    stream_str_eq(fr->dso, STREAM_UNKNOWN))) {
		fn = file_get(s, STREAM_KERNEL, strlen(STREAM_KERNEL));
		f = s->files[fn];
	}
	vaddr = fr->addrval;
	conv = 1;
	if (f->kind == DSO_KERNEL_MAP)
		kernel_check(s);
	if (f->kind == DSO_FILE || f->kind == DSO_VDSO) {
		if (f->opened == 0 && f->kind == DSO_FILE)
			file_open(f);
		else if (f->opened == 0)
			vdso_open(s, f);
		if (f->opened > 0 && !st->fgrecord &&
		    perf_addr(f, fr->addrval, &vaddr) != 0)
			conv = 0;
	}
	/* A rebuilt file's bytes are not the recorded ones: no annotation. */
	if (st->fi == 0 && s->o.leaf != NULL && conv && !f->rebuilt) {
		if (f->kind == DSO_FILE)
			s->o.leaf(s->o.leaf_arg, f->dso, vaddr);
		else if (f->kind == DSO_KERNEL_MAP && !s->kernel_other)
			s->o.leaf(s->o.leaf_arg, STREAM_KERNEL, vaddr);
	}
	st->fi++;
	if (out == NULL)
		return;
	if (!unknown) {
		emit_line(out, line, len);
		return;
	}
	s->frames++;
	f->frames++;
	if (((f->kind == DSO_FILE || f->kind == DSO_VDSO) && f->opened < 0) ||
	    !conv || (f->kind == DSO_KERNEL_MAP && s->kernel_other))
		r = &unresolved_res;
	else
		r = lookup(s, fn, vaddr, ret);
	if (r->n == 0) {
		s->unresolved++;
		f->unresolved++;
		emit_line(out, line, len);
		return;
	}
	/* The sample's innermost frame in f: is it where DWARF is missing? */
	if (f->stamp != s->samples) {
		f->stamp = s->samples;
		f->nocu += r->nocu;
	}
	emit_frame(s, out, fr, r);
	st->drop_src = s->o.srcline;
}

/* The reader's hook: its messages go on lines of their own. */
static void
progress_off(void *arg)
{
	(void)arg;
	progress_clear();
}

int
sym_stream(struct sym *s, struct lineread *in, FILE *out)
{
	struct sstate st = { 0 };
	struct stream_reader_opts ro = { 1, progress_off, NULL };
	struct stream_reader r;
	struct stream_diag diag;
	struct stream_item it;

	/* Every line is passed on (fgsym | fgsym is fgsym); bad ones are
	   said, in the words fgfold and fgpprof use. */
	stream_diag_init(&diag, in->name);
	stream_reader_init(&r, in, &diag, &ro);
	while (stream_reader_next(&r, &it) != STREAM_ITEM_EOF) {
		switch (it.kind) {
		case STREAM_ITEM_FRAME:
			do_frame(s, &st, in, it.line, it.len, &it.frame, out);
			continue;
		case STREAM_ITEM_SRCLINE:
			if (st.drop_src)
				continue;
			break;
		case STREAM_ITEM_HEAD: {
			struct stream_str p = it.head.pid.len ? it.head.pid :
			    it.head.tid;

			st.fi = 0;
			st.drop_src = 0;
			if (p.len < sizeof(st.pid)) {
				memcpy(st.pid, p.p, p.len);
				st.pid[p.len] = '\0';
			} else
				st.pid[0] = '\0';
			if ((++s->samples & 255) == 0 && s->o.progress)
				progress(s);
			/* Its address is a run-time one: see sym_finish. */
			if (it.head.has_frame &&
			    stream_str_eq(it.head.frame.sym, STREAM_UNKNOWN))
				s->oneline++;
			break;
		}
		case STREAM_ITEM_BAD:
			s->any_bad = 1;
			st.drop_src = 0;
			break;
		case STREAM_ITEM_MAGIC:
			/* "# fgrecord" among the comments before the first
			   sample: ELF addresses */
			st.fgrecord = r.fgrecord;
			st.drop_src = 0;
			break;
		case STREAM_ITEM_HEADER:
			buildid_header(s, &it.hdr);
			/* FALLTHROUGH */
		default:
			if (it.kind == STREAM_ITEM_BLANK)
				st.fi = 0;
			st.drop_src = 0;
			break;
		}
		if (out != NULL) {
			emit(out, it.line, it.len);
			if (!in->partial)
				putc_unlocked('\n', out);
		}
	}
	if (in->error != 0)
		return -2;
	if (stream_reader_finish(&r))
		s->any_bad = 1;
	if (out != NULL && (fflush(out) != 0 || ferror(out)))
		return -1;
	return 0;
}

static int
cmp_unres(const void *a, const void *b)
{
	const struct sfile *x = *(struct sfile *const *)a;
	const struct sfile *y = *(struct sfile *const *)b;

	if (x->unresolved != y->unresolved)
		return x->unresolved > y->unresolved ? -1 : 1;
	return strcmp(x->dso, y->dso);
}

/*
 * Says, once per file whose code on enough of the samples (with
 * --srcline: on any; elfdwarf_lack_matters) no DWARF unit holds, that its
 * inlined functions are drawn as their callers, and how to get the DWARF:
 * the file has none, or only some of its units (Rust's standard library,
 * one object built with -g) have it. A stripped file, or one whose debug
 * file was refused, was said already, in its own words; with --no-inline
 * and no --srcline nothing is looked for, and nothing is missed.
 */
static void
nodwarf_say(struct sym *s)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++) {
		struct sfile *f = s->files[i];
		double share = s->samples ? 100.0 * f->nocu / s->samples : 0;
		Dwarf_Addr bias;
		char *fix;

		if (f->kind != DSO_FILE || f->loaded <= 0 || f->nocu == 0 ||
		    f->nodwarf_warned || (!s->o.srcline &&
		    !elfdwarf_lack_matters(f->nocu, s->samples)))
			continue;
		f->nodwarf_warned = 1;
		fix = debug_fix(f, dwfl_module_getelf(f->mod, &bias), 0);
		fprintf(stderr, "%s: '%s' has no DWARF debug info%s: its "
		    "inlined functions are drawn as their callers%s, on %.1f%% "
		    "of the samples; %s\n", program_invocation_short_name,
		    f->dso, f->nodwarf ? "" : " for the sampled code (only "
		    "some of its units have it)", s->o.srcline ? ", with no "
		    "source lines" : "", share, fix);
		free(fix);
	}
}

int
sym_finish(struct sym *s)
{
	struct sfile **v;
	size_t i, n = 0;

	progress_clear();
	/*
	 * Exit status 1 means malformed or unreadable input: bad stream
	 * lines, and files that exist but cannot be read or parsed (not a
	 * regular file, not ELF, truncated, corrupt DWARF, bad perf map
	 * lines). Frames that merely stay [unknown] (a missing, stripped or
	 * rebuilt file, another kernel) were said on stderr and are no error.
	 */
	for (i = 0; i < s->nfiles; i++) {
		const struct sfile *f = s->files[i];

		if (((f->kind == DSO_FILE || f->kind == DSO_PERFMAP) &&
		    !f->missing && !f->rebuilt &&
		    (f->opened < 0 || f->loaded < 0)) || f->dwarf_bad)
			s->any_bad = 1;
	}
	if (s->oneline > 0)
		fprintf(stderr, "%s: %lu one-line sample%s (perf record "
		    "without -g) left [unknown]: perf script gives such an "
		    "address as the process saw it, which no file places; "
		    "record with -g, or with fgrecord\n",
		    program_invocation_short_name, s->oneline,
		    s->oneline == 1 ? "" : "s");
	if (s->frames == 0)
		return s->any_bad;
	nodwarf_say(s);
	if (s->unresolved == 0) {
		fprintf(stderr, "%s: resolved all %lu frames\n",
		    program_invocation_short_name, s->frames);
		return s->any_bad;
	}
	v = xcalloc(s->nfiles + 1, sizeof(*v));
	for (i = 0; i < s->nfiles; i++)
		if (s->files[i]->unresolved > 0)
			v[n++] = s->files[i];
	qsort(v, n, sizeof(*v), cmp_unres);
	fprintf(stderr, "%s: resolved %lu of %lu frames (%.1f%%); unresolved "
	    "frames are in", program_invocation_short_name,
	    s->frames - s->unresolved, s->frames,
	    100.0 * (s->frames - s->unresolved) / s->frames);
	for (i = 0; i < n && i < 5; i++)
		fprintf(stderr, "%s %s (%lu)", i ? "," : "",
		    v[i]->dsolen ? v[i]->dso : "''", v[i]->unresolved);
	if (n > 5)
		fprintf(stderr, " and %zu more files", n - 5);
	if (s->badlines > 0)
		fprintf(stderr, "%s lines with a bad address (%lu)",
		    n ? "," : "", s->badlines);
	fputc('\n', stderr);
	free(v);
	return s->any_bad;
}
