#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "elf/elfdwarf.h"
#include "record/fpchain.h"

/* The ranges of a file's start functions kept at most. */
#define FPCHAIN_RANGES		16
/* Answers kept at most (16 bytes each, in twice as many slots), a bound
 * for long recordings. */
#define FPCHAIN_CACHE_MAX	(1 << 20)

/* An answer's bits beside unwind_code_info's. */
#define AT_START	16	/* in the C runtime's start, by name */
#define AT_NAMED	32	/* the names were asked */

struct fpchain_file {
	struct mapfile	*f;		/* borrowed from the maps; NULL: unseen */
	int		 tried;		/* its start functions were looked for */
	unsigned	 nrange;
	uint64_t	 lo[FPCHAIN_RANGES], hi[FPCHAIN_RANGES];
	uint64_t	 nofp;		/* chains that ended as FPCHAIN_NOFP in it */
};

/* An answer, in its slot of the table; file 0: a free slot. */
struct fpchain_addr {
	uint64_t	 vaddr;
	uint32_t	 file;		/* the mapfile's id + 1 */
	uint32_t	 info;		/* UNWIND_AT_* | AT_* */
};

/* The first slot for (file, vaddr). */
static inline size_t
addr_slot(const struct fpchain *c, uint32_t file, uint64_t vaddr)
{
	return (size_t)(hashtab_int(vaddr ^ (uint64_t)file << 48) >> 32) &
	    c->addr_mask;
}

/*
 * The functions of a C library (a file that defines __libc_start_main)
 * that start a program or a thread: glibc's, then musl's. On a chain,
 * each is the last frame that a program's frame pointers lead to.
 */
static const char *const libc_start[] = {
	"__libc_start_call_main", "__libc_start_main", "__libc_start_main_impl",
	"start_thread", "clone3", "__clone3", "clone", "__clone",
	"libc_start_main_stage2", "start", "start_c11",
	NULL
};

/* The same in any file: the entry point, musl's C part of it. */
static const char *const any_start[] = { "_start", "_start_c", NULL };

/* The static functions that call main or a thread's function. */
static const char *const libc_caller[] = {
	"__libc_start_call_main", "libc_start_main_stage2", "start_thread",
	"start", NULL
};

static int
named(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (strcmp(*list, name) == 0)
			return 1;
	return 0;
}

static void
range_add(struct fpchain_file *cf, uint64_t lo, uint64_t hi)
{
	unsigned i;

	if (hi <= lo || cf->nrange == FPCHAIN_RANGES)
		return;
	for (i = 0; i < cf->nrange; i++)
		if (cf->lo[i] == lo && cf->hi[i] == hi)
			return;
	cf->lo[cf->nrange] = lo;
	cf->hi[cf->nrange++] = hi;
}

/* What one pass over a file's symbols gathers. */
struct scan {
	struct fpchain_file *cf;
	uint64_t	 libc, libc_end;	/* __libc_start_main, or 0 */
	uint64_t	 before, after;	/* the nearest code around it */
	int		 callers;	/* a static caller of main was named */
};

/* Looks at one symbol (name, at vaddr in the file) in the pass s. */
static void
look(struct scan *s, const GElf_Sym *es, const char *name, uint64_t vaddr)
{
	int type = GELF_ST_TYPE(es->st_info);
	uint64_t end = vaddr + es->st_size;

	if (name == NULL || es->st_shndx == SHN_UNDEF || vaddr == 0 ||
	    (type != STT_FUNC && type != STT_GNU_IFUNC))
		return;
	if (s->libc == 0) {
		if (named(any_start, name))
			range_add(s->cf, vaddr, end);
		return;
	}
	if (named(any_start, name) || named(libc_start, name)) {
		range_add(s->cf, vaddr, end);
		s->callers |= named(libc_caller, name);
	}
	if (vaddr < s->libc && end > s->before)
		s->before = end < s->libc ? end : s->libc;
	if (vaddr >= s->libc_end && vaddr < s->after)
		s->after = vaddr;
}

/* Marks a C library: one that defines __libc_start_main. */
static void
mark_libc(struct scan *s, const GElf_Sym *es, const char *name,
    uint64_t vaddr)
{
	if (s->libc == 0 && name != NULL && es->st_shndx != SHN_UNDEF &&
	    vaddr != 0 && GELF_ST_TYPE(es->st_info) == STT_FUNC &&
	    strcmp(name, "__libc_start_main") == 0) {
		s->libc = vaddr;
		s->libc_end = vaddr + es->st_size;
	}
}

/*
 * Passes fn over each symbol of elf's .symtab and .dynsym; returns
 * whether it has a .symtab.
 */
static int
scan_elf(struct scan *s, Elf *elf, void (*fn)(struct scan *,
    const GElf_Sym *, const char *, uint64_t))
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym es;
	Elf_Data *d;
	size_t i, n;
	int symtab = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL ||
		    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB) ||
		    sh.sh_entsize == 0 || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		symtab |= sh.sh_type == SHT_SYMTAB;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 1; i < n; i++)
			if (gelf_getsym(d, (int)i, &es) != NULL)
				fn(s, &es, elf_strptr(elf, sh.sh_link,
				    es.st_name), es.st_value);
	}
	return symtab;
}

/*
 * Finds the start functions of cf's file by name: in its own symbol
 * tables, and for a C library without .symtab in its debug file's too
 * (the one search, elf/debuglink, through elfdwarf_dwfl_symbols); without
 * the static ones, the code beside __libc_start_main that no symbol
 * holds. One pass over the symbols, nothing kept but the ranges.
 */
static void
find_starts(struct fpchain_file *cf)
{
	struct mapfile *f = cf->f;
	struct scan s = { .cf = cf, .after = UINT64_MAX };
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwfl *dwfl;
	int i, n;

	cf->tried = 1;
	if (f->elf == NULL)
		return;
	(void)scan_elf(&s, f->elf, mark_libc);
	if (!scan_elf(&s, f->elf, look) && s.libc != 0 && f->path[0] == '/' &&
	    (dwfl = elfdwarf_dwfl_symbols(&f->ef, f->path, &mod, &bias)) !=
	    NULL) {
		n = dwfl_module_getsymtab(mod);
		for (i = 1; i < n; i++) {
			GElf_Sym es;
			GElf_Addr addr;
			const char *name;

			name = dwfl_module_getsym_info(mod, i, &es, &addr, NULL,
			    NULL, NULL);
			look(&s, &es, name, addr - bias);
		}
		dwfl_end(dwfl);
	}
	if (s.libc != 0 && !s.callers) {
		if (s.before != 0)
			range_add(cf, s.before, s.libc);
		if (s.after != UINT64_MAX && s.libc_end > s.libc)
			range_add(cf, s.libc_end, s.after);
	}
}

void
fpchain_init(struct fpchain *c, struct unwind *u)
{
	memset(c, 0, sizeof(*c));
	c->u = u;
	c->addr_mask = 1023;
	c->addr = xcalloc(c->addr_mask + 1, sizeof(*c->addr));
}

void
fpchain_release(struct fpchain *c)
{
	free(c->files);
	free(c->addr);
	memset(c, 0, sizeof(*c));
}

static struct fpchain_file *
file_get(struct fpchain *c, struct mapfile *f)
{
	if (f->id >= c->nfiles) {
		size_t n = f->id + 1 > c->nfiles * 2 ? f->id + 1 : c->nfiles * 2;

		c->files = xrealloc(c->files, n * sizeof(*c->files));
		memset(c->files + c->nfiles, 0, (n - c->nfiles) *
		    sizeof(*c->files));
		c->nfiles = n;
	}
	c->files[f->id].f = f;
	return &c->files[f->id];
}

/*
 * Doubles the answers' slots, or empties them when FPCHAIN_CACHE_MAX are
 * held (a bound for long recordings: they are computed again).
 */
static void
addr_grow(struct fpchain *c)
{
	struct fpchain_addr *old = c->addr;
	size_t n = c->addr_mask + 1, i, j;

	if (c->naddr >= FPCHAIN_CACHE_MAX) {
		memset(c->addr, 0, n * sizeof(*c->addr));
		c->naddr = 0;
		return;
	}
	c->addr = xcalloc(2 * n, sizeof(*c->addr));
	c->addr_mask = 2 * n - 1;
	for (i = 0; i < n; i++) {
		if (old[i].file == 0)
			continue;
		for (j = addr_slot(c, old[i].file, old[i].vaddr);
		    c->addr[j].file != 0; j = (j + 1) & c->addr_mask)
			;
		c->addr[j] = old[i];
	}
	free(old);
}

/*
 * The answer for vaddr in f, computed once (the names only when asked).
 * Borrowed until the next call: a new answer may move the others.
 */
static struct fpchain_addr *
answer(struct fpchain *c, struct mapfile *f, uint64_t vaddr)
{
	struct fpchain_addr *a;
	uint32_t file = f->id + 1;
	size_t i;

	for (i = addr_slot(c, file, vaddr); (a = &c->addr[i])->file != 0;
	    i = (i + 1) & c->addr_mask)
		if (a->vaddr == vaddr && a->file == file)
			return a;
	/* at most half full: probes stay short */
	if ((c->naddr + 1) * 2 > c->addr_mask + 1) {
		addr_grow(c);
		for (i = addr_slot(c, file, vaddr); c->addr[i].file != 0;
		    i = (i + 1) & c->addr_mask)
			;
		a = &c->addr[i];
	}
	a->vaddr = vaddr;
	a->file = file;
	a->info = (uint32_t)unwind_code_info(c->u, f, vaddr);
	c->naddr++;
	return a;
}

/* The ELF file and address of pc in pid, or NULL. */
static struct mapfile *
locate(struct fpchain *c, pid_t pid, uint64_t pc, uint64_t *vaddr)
{
	struct mapping *mp = maps_find(c->u->maps, pid, pc);

	if (mp == NULL || mp->file->kind != MAPFILE_ELF ||
	    mapping_vaddr(mp, pc, vaddr) != 0)
		return NULL;
	return mp->file;
}

enum fpchain_end
fpchain_judge(struct fpchain *c, pid_t pid, uint64_t pc, int exact)
{
	struct fpchain_file *cf;
	struct fpchain_addr *a;
	struct mapfile *f;
	uint64_t vaddr;
	unsigned i;

	if ((f = locate(c, pid, exact ? pc : pc - 1, &vaddr)) == NULL)
		return FPCHAIN_EARLY;
	a = answer(c, f, vaddr);
	if (a->info & UNWIND_AT_OUTERMOST)
		return FPCHAIN_START;
	cf = file_get(c, f);
	if (!(a->info & AT_NAMED)) {
		if (!cf->tried)
			find_starts(cf);
		a->info |= AT_NAMED;
		for (i = 0; i < cf->nrange; i++)
			if (vaddr >= cf->lo[i] && vaddr < cf->hi[i])
				a->info |= AT_START;
	}
	if (a->info & AT_START)
		return FPCHAIN_START;
	if ((a->info & UNWIND_AT_CFI) && !(a->info & UNWIND_AT_FP)) {
		cf->nofp++;
		return FPCHAIN_NOFP;
	}
	return FPCHAIN_EARLY;
}

int
fpchain_frameless(struct fpchain *c, pid_t pid, uint64_t pc)
{
	struct fpchain_addr *a;
	struct mapfile *f;
	uint64_t vaddr;

	if ((f = locate(c, pid, pc, &vaddr)) == NULL)
		return 0;
	a = answer(c, f, vaddr);
	return (a->info & UNWIND_AT_CFI) && !(a->info & UNWIND_AT_FP) &&
	    !(a->info & UNWIND_AT_OUTERMOST);
}

const char *
fpchain_top_nofp(const struct fpchain *c)
{
	const struct fpchain_file *top = NULL;
	size_t i;

	for (i = 0; i < c->nfiles; i++)
		if (c->files[i].nofp && (top == NULL ||
		    c->files[i].nofp > top->nofp))
			top = &c->files[i];
	return top ? top->f->path : NULL;
}
