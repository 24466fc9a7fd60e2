/*
 * afile: one file with samples, opened for fgsym --annotate's listing:
 * its symbols (an ELF file's .symtab, its debug file's, .dynsym and PLT
 * stubs; the kernel's kallsyms; a JIT's perf map), the bytes of its code
 * (its sections or segments; /proc/kcore for the kernel), capstone for
 * its own machine (from the ELF header, not the host's), and a libdwfl
 * module for source lines. An ELF file fgsym has read already is lent,
 * not read again (struct afile_lend).
 *
 *	struct afile f;
 *	afile_init(&f, path, &lend);
 *	if (f.problem != NULL)
 *		warnx("%s", f.problem);
 *	s = afile_lookup(&f, addr, 1);
 *	code = afile_bytes(&f, s->addr, s->size, &n, &owned, &why);
 *	afile_release(&f);
 *
 * Nothing here is fatal: what cannot be read is said in f.problem (one
 * line, for stderr and the listing) and f.noscope (why no bytes).
 */
#ifndef FG_AFILE_H
#define FG_AFILE_H

#include <stdint.h>

#include <capstone/capstone.h>
#include <elfutils/libdwfl.h>
#include <libelf.h>

#include "elf/elffile.h"
#include "elf/elfsym.h"

struct dwname;
struct kallsyms;
struct perfmap;

/*
 * What fgsym lends instead of a read of its own (annotate_files): file
 * (arg, dso, &ef) returns 0 and fills ef with fgsym's ELF file and
 * symbols; kallsyms(arg) returns fgsym's kernel symbols, or NULL. Either
 * may be NULL. What is lent must outlive the afile.
 */
struct afile_lend {
	int		(*file)(void *arg, const char *dso,
			    struct elfsym_file *ef);
	const struct kallsyms *(*kallsyms)(void *arg);
	void		*arg;
	const char	*kallsyms_path;	/* borrowed; NULL: /proc/kallsyms */
};

enum afile_kind { AF_ELF, AF_KERNEL, AF_PERFMAP, AF_NONE };

struct afile {
	const char	*path;		/* borrowed from afile_init's caller */
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

/*
 * Makes f, which the caller holds, the opened file path (borrowed: it
 * must outlive f): the kernel ("[kernel.kallsyms]"), a perf map, or an
 * ELF file, lent by lend or opened through elf/elffile. Problems go to
 * f->problem (and f->bad when the file is unreadable or corrupt,
 * f->missing when it is not there) and f->noscope. Whatever happened,
 * the caller releases f with afile_release.
 */
void	afile_init(struct afile *f, const char *path,
	    const struct afile_lend *lend);

/*
 * Frees what f owns (what was lent stays), not f itself; afile_init
 * makes it usable again.
 */
void	afile_release(struct afile *f);

/*
 * Returns the symbol whose range holds addr (borrowed from f), or NULL.
 * code_only skips data symbols.
 */
const struct elfsym_ent *afile_lookup(const struct afile *f, uint64_t addr,
	    int code_only);

/*
 * Names the ELF section that holds addr (the name is borrowed from
 * libelf) and sets [*start, *end) to its addresses; or returns NULL.
 */
const char *afile_section_of(const struct afile *f, uint64_t addr,
	    uint64_t *start, uint64_t *end);

/*
 * Finds the bytes of [addr, addr + size) in the file. Returns a pointer
 * (into the mapping, or into *owned, which the caller frees) and sets *n,
 * or returns NULL and sets *why (owned by the caller).
 */
const unsigned char *afile_bytes(const struct afile *f, uint64_t addr,
	    uint64_t size, size_t *n, unsigned char **owned, char **why);

#endif
