/*
 * elfdwarf: the DWARF of an ELF file, and the questions asked of it (see
 * elfdwarf.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "base/num.h"
#include "elf/debuglink.h"
#include "elf/elfdwarf.h"
#include "elf/elffile.h"

/* elfdwarf_dwfl up to its DWARF: the module reported, its Elf read. */
static Dwfl *
report(struct elffile *ef, const char *name, const uint64_t *base,
    Dwfl_Module **mod, Dwarf_Addr *bias)
{
	const char *call = base == NULL ? "dwfl_report_offline" :
	    "dwfl_report_elf";
	void **userdata;
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
	*userdata = ef;
	return dwfl;
fail:
	*mod = NULL;
	dwfl_end(dwfl);
	return NULL;
}

Dwfl *
elfdwarf_dwfl(struct elffile *ef, const char *name, const uint64_t *base,
    Dwfl_Module **mod, Dwarf_Addr *bias)
{
	const char *mainfile = NULL, *debugfile = NULL;
	Dwarf_Addr dwbias;
	Dwarf *dw;
	Dwfl *dwfl;

	if ((dwfl = report(ef, name, base, mod, bias)) != NULL &&
	    (dw = dwfl_module_getdwarf(*mod, &dwbias)) != NULL) {
		dwfl_module_info(*mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
		    &debugfile);
		debuglink_setalt(dw, debugfile ? debugfile : mainfile,
		    ef->search, &ef->alt, &ef->altdw, &ef->note);
	}
	return dwfl;
}

Dwfl *
elfdwarf_dwfl_symbols(struct elffile *ef, const char *name,
    Dwfl_Module **mod, Dwarf_Addr *bias)
{
	return report(ef, name, NULL, mod, bias);
}

int
elfdwarf_cu_is_asm(Dwarf_Die *cu)
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
elfdwarf_holds_function(Dwfl_Module *mod, Dwarf_Addr addr)
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
		if (elfdwarf_cu_is_asm(cu) || holds_below(cu, addr - bias, 0))
			return 1;
	}
	return 0;
}

int
elfdwarf_lack_matters(uint64_t unheld, uint64_t total)
{
	return total > 0 && 100.0 * unheld >= ELFDWARF_SHARE * total;
}

/*
 * Was elf built by rustc? rustc writes "rustc version" into .comment
 * (since 1.73); older binaries still hold the "/rustc/<commit>/library/"
 * paths of the standard library's panic locations in .rodata, which
 * Debian's rustc writes "/usr/src/rustc-<version>/library/" instead:
 * "/library/core/src/" is in both. All survive strip.
 */
int
elfdwarf_is_rust(Elf *elf)
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
 * The crates of Rust's prebuilt standard library and rustc's shims'
 * (ELFDWARF_STD), then those it is built from, which a crate may depend
 * on too (ELFDWARF_STD_DEP).
 */
static const char *const std_crates[] = {
	"std", "core", "alloc", "compiler_builtins", "panic_unwind",
	"panic_abort", "unwind", "std_detect", "rustc_std_workspace_core",
	"rustc_std_workspace_alloc", "rustc_std_workspace_std", "__rustc",
};
static const char *const dep_crates[] = {
	"hashbrown", "rustc_demangle", "addr2line", "gimli", "object",
	"miniz_oxide", "adler", "adler2", "memchr", "libc", "cfg_if",
};

static int
std_crate(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(std_crates) / sizeof(std_crates[0]); i++)
		if (strlen(std_crates[i]) == len &&
		    memcmp(std_crates[i], name, len) == 0)
			return ELFDWARF_STD;
	for (i = 0; i < sizeof(dep_crates) / sizeof(dep_crates[0]); i++)
		if (strlen(dep_crates[i]) == len &&
		    memcmp(dep_crates[i], name, len) == 0)
			return ELFDWARF_STD_DEP;
	return 0;
}

/* A v0 "s<base-62>_" disambiguator at *p, passed over. */
static void
v0_disamb(const char **p)
{
	const char *q = *p;

	if (*q != 's')
		return;
	for (q++; isalnum((unsigned char)*q); q++)
		;
	if (*q == '_')
		*p = q + 1;
}

/*
 * The crate of the v0 path at p (its root, leftmost: of an impl, the
 * path where the impl is): *len bytes at the return, or NULL.
 */
static const char *
v0_crate(const char *p, size_t *len, int depth)
{
	uint64_t n;

	if (depth > 32)
		return NULL;
	switch (*p) {
	case 'N':	/* N <namespace> <path> <identifier> */
		return *++p != '\0' ? v0_crate(p + 1, len, depth + 1) : NULL;
	case 'I':	/* I <path> <generic-args> E */
		return v0_crate(p + 1, len, depth + 1);
	case 'M':	/* M <impl-path> <type>: the impl's place */
	case 'X':	/* X <impl-path> <type> <trait path> */
		p++;
		v0_disamb(&p);
		return v0_crate(p, len, depth + 1);
	case 'C':	/* C [<disambiguator>] <identifier> */
		p++;
		v0_disamb(&p);
		if (*p == 'u')
			p++;
		if (num_next(&p, 10, &n) != NUM_OK || n == 0 || n > 256)
			return NULL;
		if (*p == '_')
			p++;
		if (strnlen(p, n) < n)
			return NULL;
		*len = n;
		return p;
	case 'Y':	/* Y <type> <trait path>: a default method, the type's */
		return v0_crate(p + 1, len, depth + 1);
	default:	/* a back reference, a type that is no path */
		return NULL;
	}
}

int
elfdwarf_rust_std(const char *sym)
{
	const char *p, *c;
	uint64_t len;
	size_t n;

	if (strncmp(sym, "__rust_", 7) == 0 || strncmp(sym, "__rdl_", 6) == 0 ||
	    strncmp(sym, "__rg_", 5) == 0 || strcmp(sym,
	    "rust_eh_personality") == 0 || strcmp(sym, "rust_begin_unwind") == 0)
		return ELFDWARF_STD;
	if (strncmp(sym, "_R", 2) == 0) {
		static const char *const by[] = { "_3std", "_4core", "_5alloc" };
		size_t i, k, end = strcspn(sym, ".");	/* no ".llvm.N" */

		/*
		 * Generic code instantiated by std (the instantiating crate
		 * at the end, "...Cs<hash>_3std") is rustup's build too,
		 * whatever crate wrote it.
		 */
		for (i = 0; i < sizeof(by) / sizeof(by[0]); i++) {
			k = strlen(by[i]);
			if (end > k + 2 && memcmp(sym + end - k, by[i], k) == 0)
				return ELFDWARF_STD;
		}
		p = sym + 2;
		while (isdigit((unsigned char)*p))	/* a version */
			p++;
		return (c = v0_crate(p, &n, 0)) != NULL ? std_crate(c, n) : 0;
	}
	/* Legacy: _ZN <length><name> ...; an impl "<alloc..x..T as ...>". */
	if (strncmp(sym, "_ZN", 3) != 0)
		return 0;
	c = sym + 3;
	if (num_next(&c, 10, &len) != NUM_OK || len == 0 || len > SIZE_MAX ||
	    strnlen(c, (size_t)len) < (size_t)len)
		return 0;
	n = (size_t)len;
	if (strncmp(c, "_$LT$", 5) == 0 || strncmp(c, "$LT$", 4) == 0) {
		const char *e = c + n, *dots;

		c += c[0] == '_' ? 5 : 4;
		if (c >= e)
			return 0;
		dots = memmem(c, (size_t)(e - c), "..", 2);
		n = dots != NULL ? (size_t)(dots - c) : 0;
		if (n == 0)
			return 0;
	}
	return std_crate(c, n);
}

int
elfdwarf_crate_units(Dwfl_Module *mod)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Attribute at;
	Dwarf_Addr bias;
	const char *dir;
	int n = 0;

	while ((cu = dwfl_module_nextcu(mod, cu, &bias)) != NULL) {
		dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at));
		if (dir != NULL && (strncmp(dir, "/rustc/", 7) == 0 ||
		    strncmp(dir, "/rust/deps/", 11) == 0 ||
		    strncmp(dir, "/usr/src/rustc-", 15) == 0))
			continue;
		n++;
	}
	return n;
}
