/*
 * elfsym: the symbols of an ELF file as a sorted table, one name per
 * address, for naming code addresses. fgsym's frames and the annotator's
 * functions both come from here, so that they name a function the same
 * way (malloc, not __libc_malloc; __libc_start_main_impl, not
 * __libc_start_main@@GLIBC_2.34).
 *
 *	struct elfsym t = { 0 };
 *	elfsym_read_module(&t, mod, bias, 0);	(or elfsym_read_elf)
 *	elfsym_plt(&t, elf);			("sym@plt" stubs)
 *	elfsym_sort(&t);
 *	e = elfsym_lookup(&t, vaddr, &off, 1);
 *	elfsym_release(&t);
 *
 * Aliases at one address are ranked (elfsym_rank): a function, then a
 * PLT stub, then a versioned function ("name@VERSION"), then a label in
 * code, then data; among each, global before weak before local, sized
 * before sizeless, fewer leading underscores, the shorter name, then the
 * first by strcmp. A versioned name that is the only one
 * at its address is shown without its "@VERSION".
 */
#ifndef FG_ELFSYM_H
#define FG_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdwfl.h>
#include <gelf.h>

struct elfsym_ent {
	uint64_t	 addr;		/* vaddr in the file */
	uint64_t	 size;		/* 0: up to the next symbol */
	const char	*name;		/* borrowed from the ELF, or owned by the table */
	int		 rank;		/* lower wins among aliases */
	int		 code;		/* a function, a label in code, a PLT stub */
};

struct elfsym {
	struct elfsym_ent *e;
	size_t		 n, cap;
	char		**owned;	/* names made or copied here */
	size_t		 nowned, ocap;
};

/*
 * An ELF file as fgsym has loaded it, lent to the annotator so that the
 * file is read once and its functions are named from the same table.
 * Everything is borrowed from the lender.
 */
struct elfsym_file {
	Elf		*elf;		/* the file itself */
	Dwfl_Module	*mod;		/* its module: DWARF, source lines */
	Dwarf_Addr	 bias;		/* module address = vaddr + bias */
	const struct elfsym *syms;	/* sorted; data symbols too */
};

/* The rank of the symbol es called name; lower wins (see above). */
int	elfsym_rank(const GElf_Sym *es, const char *name);

/*
 * Adds one entry as it is. When owned is nonzero, name is malloc'ed and
 * the table takes it. Call elfsym_sort() after the last add.
 */
void	elfsym_add(struct elfsym *t, uint64_t addr, uint64_t size,
	    const char *name, int rank, int code, int owned);

/*
 * Adds the symbol es (name, section shndx of elf, at vaddr) if it names
 * code: a function, or an untyped label in an executable section. With
 * data nonzero, objects and other labels are added too (code 0, ranked
 * last), for naming data references. Undefined and absolute symbols,
 * symbols at 0, ARM mapping symbols ($x) and local labels (.L) are not
 * added. With copy nonzero the name is copied (for an Elf about to end).
 */
void	elfsym_add_sym(struct elfsym *t, Elf *elf, const GElf_Sym *es,
	    GElf_Word shndx, const char *name, uint64_t vaddr, int data,
	    int copy);

/*
 * Adds the symbols libdwfl gives for mod (its .symtab, or its separate
 * debug file's, else its .dynsym); vaddr = address - bias.
 */
void	elfsym_read_module(struct elfsym *t, Dwfl_Module *mod,
	    Dwarf_Addr bias, int data);

/* Adds the symbols of every .symtab and .dynsym of elf. */
void	elfsym_read_elf(struct elfsym *t, Elf *elf, int data, int copy);

/*
 * Names the x86-64 PLT stubs "sym@plt", as perf and objdump do: the
 * entries of .plt.sec, or those of .plt after its first, in the order of
 * the .rela.plt relocations. Other machines: nothing.
 */
void	elfsym_plt(struct elfsym *t, Elf *elf);

/*
 * Sorts the table by address and keeps the best-ranked alias at each
 * address; a sized alias lends its size to a sizeless winner.
 */
void	elfsym_sort(struct elfsym *t);

/*
 * The entry that holds addr: the last at or below it when addr is inside
 * its size or it has none, else one of the few before it whose size
 * reaches addr. With code nonzero only code entries count. Sets *off to
 * addr minus its start; returns NULL when none holds addr.
 */
const struct elfsym_ent *elfsym_lookup(const struct elfsym *t, uint64_t addr,
	    uint64_t *off, int code);

/* Frees what t holds; t itself is the caller's, and may be reused. */
void	elfsym_release(struct elfsym *t);

#endif
