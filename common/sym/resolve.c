/*
 * resolve: the text of a frame (symstate.h): its function and offset from
 * the symbol table or DWARF, the functions inlined at it and the source
 * lines from DWARF, the kernel's and perf maps' names; each (file,
 * address, is-return) resolved once and cached.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "base/xalloc.h"
#include "elf/elfdwarf.h"
#include "elf/elffile.h"
#include "elf/kallsyms.h"
#include "elf/perfmap.h"
#include "stream/dso.h"
#include "sym/cuindex.h"
#include "sym/demangle.h"
#include "sym/dwcheck.h"
#include "sym/dwname.h"
#include "sym/symstate.h"

/* An unresolved frame: shared, never freed. */
struct sres sym_unresolved = { .n = 0 };
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
		sym_warnx("'%s' looks like an unoptimized build (DW_AT_producer "
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
	c->e[c->n].textlen = strlen(text);
	c->e[c->n].src = src;
	c->n++;
}

static struct sres *
chain_res(struct chain *c)
{
	struct sres *r = xmalloc(sizeof(*r) + c->n * sizeof(r->e[0]));

	r->n = c->n;
	r->nocu = 0;
	r->rstd = 0;
	memcpy(r->e, c->e, c->n * sizeof(r->e[0]));
	free(c->e);
	return r;
}

/* Whether name is a PLT stub's, as elfsym_plt names them ("free@plt"). */
static int
is_plt(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 4 && strcmp(name + n - 4, "@plt") == 0;
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
		sfile_load(s, f);
	if (f->loaded < 0)
		return &sym_unresolved;
	da = a + f->bias;
	name = sfile_symbol(f, a, &off);

	if (!f->dwarf_checked) {
		Dwarf *dw = dwfl_module_getdwarf(f->mod, &cubias);
		const char *why;

		f->dwarf_checked = 1;
		/* said at the end (nodwarf_say), if the file matters */
		f->nodwarf = dw == NULL;
		why = dwcheck_units(dw);
		if (why != NULL) {
			f->dwarf_bad = 1;
			sym_warnx("'%s' has corrupt DWARF debug info (%s): no source "
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
	 * assembler's code, nor a PLT stub (the linker's, never in DWARF):
	 * its inlined frames were looked for and missed.
	 */
	nocu = (s->o.inlines || s->o.srcline) && !f->dwarf_bad &&
	    i == nscopes && !elfdwarf_cu_is_asm(cu) && !is_plt(name);
	if (name == NULL && fnname == NULL) {
		free(scopes);
		return &sym_unresolved;
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
	/* Rust's prebuilt standard library: not the crate's build. */
	if (name != NULL && (s->o.inlines || s->o.srcline) &&
	    !f->dwarf_bad) {
		Dwarf_Addr b;

		if (f->rust == 0)
			f->rust = elfdwarf_is_rust(dwfl_module_getelf(f->mod,
			    &b)) ? 1 : -1;
		if (f->rust > 0)
			r->rstd = (uint32_t)elfdwarf_rust_std(name);
	}
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
		s->ks = xmalloc(sizeof(*s->ks));
		kallsyms_init(s->ks);
		rc = kallsyms_load(s->ks, path);
		s->ks_state = rc == 0 ? 1 : -1;
		if (rc == KALLSYMS_NOTREG)
			sym_warnx("'%s' is not a regular file: kernel frames "
			    "stay [unknown]; give a copy of /proc/kallsyms",
			    path);
		if (rc == -1)
			sym_warn("'%s': kernel frames stay [unknown]", path);
		if (rc == -1 || rc == KALLSYMS_NOTREG) {
			/* A file the user named is input; /proc is not. */
			if (s->o.kallsyms != NULL)
				s->any_bad = 1;
		}
		else if (rc == -2)
			sym_warnx("'%s' shows no addresses: kernel frames stay "
			    "[unknown]; run as root or set "
			    "sysctl kernel.kptr_restrict=0", path);
		else
			s->loaded++;
	}
	if (s->ks_state < 0)
		return &sym_unresolved;
	/*
	 * kallsyms has no sizes: an address a megabyte past the symbol below
	 * it is in something kallsyms does not list (a hidden module), not
	 * in that symbol.
	 */
	if ((name = kallsyms_lookup(s->ks, a, &off, NULL)) == NULL ||
	    off >= (1 << 20))
		return &sym_unresolved;
	return one_name(s, name, off + (addr - a), 0);
}

static struct sres *
resolve_perfmap(struct sym *s, struct sfile *f, uint64_t addr, uint64_t a)
{
	const char *name;
	uint64_t off;

	if (f->loaded == 0) {
		int rc;

		f->pm = xmalloc(sizeof(*f->pm));
		perfmap_init(f->pm);
		rc = perfmap_load(f->pm, f->dso);
		if (rc != 0) {
			if (rc == -1)
				f->missing = errno == ENOENT;
			sym_warnx("'%s': %s: its frames stay [unknown]", f->dso,
			    perfmap_strerror(f->pm, rc));
			f->loaded = -1;
		} else {
			f->loaded = 1;
			s->loaded++;
			if (f->pm->bad > 0) {
				s->any_bad = 1;
				sym_warnx("%s:%lu: not a perf map line (START SIZE "
				    "NAME, in hex): skipped %lu such lines",
				    f->dso, f->pm->first_bad, f->pm->bad);
			}
		}
	}
	if (f->loaded < 0)
		return &sym_unresolved;
	if ((name = perfmap_lookup(f->pm, a, &off)) == NULL)
		return &sym_unresolved;
	return one_name(s, name, off + (addr - a), s->o.demangle);
}

/* The slot of (vaddr, key) in a table of mask + 1: a multiplicative hash. */
static inline size_t
cache_slot(uint64_t vaddr, uint32_t key, size_t mask)
{
	uint64_t h = (vaddr ^ (uint64_t)key << 47) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32 ^ h) & mask;
}

/* Doubles the address cache's table, placing each entry anew. */
static void
cache_grow(struct sym *s)
{
	size_t n = s->cmask + 1, mask = 2 * n - 1, i, j;
	struct cslot *t = xcalloc(2 * n, sizeof(*t));

	for (i = 0; i < n; i++) {
		const struct cslot *c = &s->cache[i];

		if (c->res == NULL)
			continue;
		for (j = cache_slot(c->addr, c->file << 1 | c->ret, mask);
		    t[j].res != NULL; j = (j + 1) & mask)
			;
		t[j] = *c;
	}
	free(s->cache);
	s->cache = t;
	s->cmask = mask;
}

/* The front slot of (vaddr, key): a multiplicative hash's high bits. */
static inline size_t
front_slot(uint64_t vaddr, uint32_t key)
{
	return (size_t)(((vaddr ^ (uint64_t)key << 47) *
	    0x9e3779b97f4a7c15ULL) >> (64 - SYM_FRONT_BITS));
}

/*
 * Returns the cached text for (file fn, vaddr, ret), resolving it on a miss.
 * Never returns NULL.
 */
struct sres *
sym_lookup(struct sym *s, uint32_t fn, uint64_t vaddr, int ret)
{
	struct sfile *f = s->files[fn];
	uint64_t a = ret && vaddr > 0 ? vaddr - 1 : vaddr;
	uint32_t key = fn << 1 | (ret != 0);
	struct cfront *fr = &s->front[front_slot(vaddr, key)];
	struct cslot *c;
	struct sres *r;
	size_t i;

	if (fr->res != NULL && fr->addr == vaddr && fr->key == key)
		return fr->res;
	/* resolving below never adds to the cache: the slot stays free */
	for (i = cache_slot(vaddr, key, s->cmask); s->cache[i].res != NULL;
	    i = (i + 1) & s->cmask) {
		c = &s->cache[i];
		if (c->addr == vaddr && c->file == fn &&
		    c->ret == (uint32_t)ret) {
			fr->addr = vaddr;
			fr->key = key;
			return fr->res = c->res;
		}
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

		name = sfile_symbol(f, a, &off);
		r = name ? one_name(s, name, off + (vaddr - a), 0) :
		    &sym_unresolved;
		break;
	}
	default:
		r = &sym_unresolved;
	}
	/*
	 * The frame above a signal frame "returns" to the first byte of the
	 * signal trampoline (__restore_rt), so pc-1 falls before it: when
	 * pc-1 finds nothing, pc itself is the answer.
	 */
	if (r == &sym_unresolved && a != vaddr) {
		a = vaddr;
		goto again;
	}
	c = &s->cache[i];
	c->addr = vaddr;
	c->file = fn;
	c->ret = (uint32_t)ret;
	c->res = r;
	if (++s->cn * 2 > s->cmask + 1)
		cache_grow(s);
	fr->addr = vaddr;
	fr->key = key;
	return fr->res = r;
}
