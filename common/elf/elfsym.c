/*
 * elfsym: one sorted table of an ELF file's symbols (see elfsym.h).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elfsym.h"
#include "base/upper.h"
#include "base/xalloc.h"

#define RANK_PLT	(3 << 20)
#define RANK_INTERNAL	(4 << 20)
#define RANK_LABEL	(8 << 20)
#define RANK_DATA	(16 << 20)

int
elfsym_rank(const GElf_Sym *es, const char *name)
{
	const char *at = strchr(name, '@');
	size_t len = at != NULL && at > name ? (size_t)(at - name) : strlen(name);
	int r = 0, u = 0;

	switch (GELF_ST_BIND(es->st_info)) {
	case STB_GLOBAL:
		break;
	case STB_WEAK:
		r += 1 << 20;
		break;
	default:
		r += 2 << 20;
	}
	if (es->st_size == 0)
		r += 1 << 19;
	while (name[u] == '_')
		u++;
	r += (u > 15 ? 15 : u) << 14;
	/*
	 * A versioned name ("pthread_mutex_lock@@GLIBC_2.2.5", in libc's
	 * debug file) competes as the name callers wrote, and is shown
	 * without its version: pthread_mutex_lock, not ___pthread_mutex_lock
	 * or __GI___pthread_mutex_lock.
	 */
	r += len & 0x3fff;
	/* glibc's hidden internal aliases lose to any other name. */
	if (strncmp(name, "__GI_", 5) == 0)
		r += RANK_INTERNAL;
	return r;
}

static const char *
own(struct elfsym *t, char *name)
{
	GROW(t->owned, t->nowned + 1, t->ocap);
	t->owned[t->nowned++] = name;
	return name;
}

void
elfsym_add(struct elfsym *t, uint64_t addr, uint64_t size, const char *name,
    int rank, int code, int owned)
{
	if (owned)
		name = own(t, (char *)name);
	GROW(t->e, t->n + 1, t->cap);
	t->e[t->n++] = (struct elfsym_ent){ .addr = addr, .size = size,
	    .name = name, .rank = rank, .code = code };
}

/* Is section shndx of elf executable code? */
static int
in_code(Elf *elf, GElf_Word shndx)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (elf == NULL || shndx >= SHN_LORESERVE ||
	    (scn = elf_getscn(elf, shndx)) == NULL ||
	    gelf_getshdr(scn, &sh) == NULL)
		return 0;
	return (sh.sh_flags & SHF_EXECINSTR) != 0;
}

void
elfsym_add_sym(struct elfsym *t, Elf *elf, const GElf_Sym *es,
    GElf_Word shndx, const char *name, uint64_t vaddr, int data, int copy)
{
	int type = GELF_ST_TYPE(es->st_info), rank, code = 1;
	const char *at;

	if (name == NULL || name[0] == '\0' || name[0] == '$' ||
	    shndx == SHN_UNDEF || shndx == SHN_ABS || es->st_value == 0)
		return;
	rank = elfsym_rank(es, name);
	if (type == STT_NOTYPE) {
		if (name[0] == '.')
			return;		/* local labels: noise */
		/* Assembler labels such as ld.so's _start: untyped, in code. */
		if (in_code(elf, shndx))
			rank += RANK_LABEL;
		else
			code = 0;
	} else if (type == STT_OBJECT)
		code = 0;
	else if (type != STT_FUNC && type != STT_GNU_IFUNC)
		return;
	if (!code) {
		if (!data)
			return;
		rank += RANK_DATA;
	}
	/* "name@VERSION" and "name@@VERSION" are shown as "name". */
	if ((at = strchr(name, '@')) != NULL && at > name)
		elfsym_add(t, vaddr, es->st_size, xmemdup0(name, at - name),
		    rank, code, 1);
	else
		elfsym_add(t, vaddr, es->st_size, copy ? xstrdup(name) : name,
		    rank, code, copy);
}

void
elfsym_read_module(struct elfsym *t, Dwfl_Module *mod, Dwarf_Addr bias,
    int data)
{
	int k, nsym = dwfl_module_getsymtab(mod);

	for (k = 1; k < nsym; k++) {
		GElf_Sym es;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name;
		Elf *elf;

		name = dwfl_module_getsym_info(mod, k, &es, &addr, &shndx,
		    &elf, NULL);
		elfsym_add_sym(t, elf, &es, shndx, name, addr - bias, data, 0);
	}
}

void
elfsym_read_elf(struct elfsym *t, Elf *elf, int data, int copy)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *d;
		size_t i, n;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB) ||
		    sh.sh_entsize == 0 || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 1; i < n; i++) {
			GElf_Sym es;

			if (gelf_getsym(d, i, &es) == NULL)
				continue;
			elfsym_add_sym(t, elf, &es, es.st_shndx,
			    elf_strptr(elf, sh.sh_link, es.st_name),
			    es.st_value, data, copy);
		}
	}
}

void
elfsym_plt(struct elfsym *t, Elf *elf)
{
	Elf_Scn *scn = NULL, *rela = NULL, *plt = NULL, *pltsec = NULL;
	GElf_Shdr sh, rsh, psh, dsh;
	GElf_Ehdr eh;
	Elf_Data *rd, *dd;
	size_t shstrndx, i, n;
	uint64_t base;

	if (gelf_getehdr(elf, &eh) == NULL || eh.e_machine != EM_X86_64 ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *nm;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (nm = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL)
			continue;
		if (strcmp(nm, ".rela.plt") == 0 && sh.sh_type == SHT_RELA)
			rela = scn;
		else if (strcmp(nm, ".plt") == 0)
			plt = scn;
		else if (strcmp(nm, ".plt.sec") == 0)
			pltsec = scn;
	}
	if (rela == NULL || (plt == NULL && pltsec == NULL) ||
	    gelf_getshdr(rela, &rsh) == NULL ||
	    gelf_getshdr(pltsec ? pltsec : plt, &psh) == NULL ||
	    (rd = elf_getdata(rela, NULL)) == NULL || rsh.sh_entsize == 0)
		return;
	scn = elf_getscn(elf, rsh.sh_link);	/* .dynsym */
	if (scn == NULL || gelf_getshdr(scn, &dsh) == NULL ||
	    (dd = elf_getdata(scn, NULL)) == NULL)
		return;
	base = psh.sh_addr + (pltsec ? 0 : 16);
	n = rsh.sh_size / rsh.sh_entsize;
	for (i = 0; i < n && base + (i + 1) * 16 <= psh.sh_addr + psh.sh_size;
	    i++) {
		GElf_Rela r;
		GElf_Sym ds;
		const char *nm;
		char *name;

		if (gelf_getrela(rd, i, &r) == NULL ||
		    gelf_getsym(dd, GELF_R_SYM(r.r_info), &ds) == NULL ||
		    (nm = elf_strptr(elf, dsh.sh_link, ds.st_name)) == NULL ||
		    *nm == '\0')
			continue;
		name = xasprintf("%s@plt", nm);
		elfsym_add(t, base + i * 16, 16, name, RANK_PLT, 1, 1);
	}
}

static int
cmp_ent(const void *a, const void *b)
{
	const struct elfsym_ent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

void
elfsym_sort(struct elfsym *t)
{
	size_t i, j;

	if (t->n == 0)
		return;
	if (t->n > 1)
		qsort(t->e, t->n, sizeof(*t->e), cmp_ent);
	for (i = 0, j = 0; i < t->n; i++) {
		if (j > 0 && t->e[j - 1].addr == t->e[i].addr) {
			if (t->e[j - 1].size == 0)
				t->e[j - 1].size = t->e[i].size;
			continue;
		}
		t->e[j++] = t->e[i];
	}
	t->n = j;
}

const struct elfsym_ent *
elfsym_lookup(const struct elfsym *t, uint64_t addr, uint64_t *off, int code)
{
	size_t lo = UPPER(t->e, t->n, addr, addr), k, n = 0;
	const struct elfsym_ent *y;

	/* The last entry at or below addr, then a few before it (nesting). */
	for (k = lo; k > 0 && n < 9; k--) {
		y = &t->e[k - 1];
		if (code && !y->code)
			continue;
		if (y->size == 0 && n == 0) {
			*off = addr - y->addr;
			return y;
		}
		if (y->size != 0 && addr - y->addr < y->size) {
			*off = addr - y->addr;
			return y;
		}
		n++;
	}
	return NULL;
}

void
elfsym_release(struct elfsym *t)
{
	size_t i;

	for (i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	free(t->owned);
	free(t->e);
	memset(t, 0, sizeof(*t));
}
