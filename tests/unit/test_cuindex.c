/*
 * test_cuindex: the compile units' address maps (sym/cuindex.h), on a
 * program built here with cc -g -O2 from two files: at every address of
 * its functions the chain of inlined calls is the one a plain walk of the
 * DIE tree finds (dwarf_getscopes is no judge: past an inlined call it
 * goes on with the abstract definition's scopes, not the caller's), a
 * function inlined twice deep reads innermost first, and each unit is
 * indexed once, whichever is asked first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "elf/elfdwarf.h"
#include "elf/elffile.h"
#include "sym/cuindex.h"
#include "ccfix.h"
#include "testsym.h"
#include "unit.h"

static const char prog_c[] =
    "static inline __attribute__((always_inline)) int\n"
    "leaf_fn(int x)\n"
    "{\n"
    "	return x * 3 + (x >> 2);\n"
    "}\n"
    "static inline __attribute__((always_inline)) int\n"
    "mid_fn(int x)\n"
    "{\n"
    "	int s = 0;\n"
    "	for (int i = 0; i < x; i++)\n"
    "		s += leaf_fn(x + i) ^ i;\n"
    "	return s;\n"
    "}\n"
    "__attribute__((noinline)) int\n"
    "outer(int x)\n"
    "{\n"
    "	return mid_fn(x) * 7 + 1;\n"
    "}\n"
    "int other_fn(int);\n"
    "int\n"
    "main(int argc, char **argv)\n"
    "{\n"
    "	(void)argv;\n"
    "	return outer(argc) + other_fn(argc);\n"
    "}\n";

static const char other_c[] =
    "static inline __attribute__((always_inline)) int\n"
    "twice(int x)\n"
    "{\n"
    "	return x * 2 + 5;\n"
    "}\n"
    "__attribute__((noinline)) int\n"
    "other_fn(int x)\n"
    "{\n"
    "	int s = 0;\n"
    "	for (int i = 0; i < x; i++)\n"
    "		s += twice(i) ^ x;\n"
    "	return s;\n"
    "}\n";

/*
 * The chain at pc under die, found the slow way: the first subprogram or
 * inlined call among its children (through blocks, namespaces and types)
 * whose ranges hold pc, then the same within it. Appends their DIE
 * offsets to path, outermost first (at most 16); returns the new count.
 */
static int
walk(Dwarf_Die *die, Dwarf_Addr pc, Dwarf_Off *path, int n)
{
	Dwarf_Die kid;
	int tag, m;

	if (n >= 16 || dwarf_child(die, &kid) != 0)
		return n;
	do {
		tag = dwarf_tag(&kid);
		if ((tag == DW_TAG_subprogram ||
		    tag == DW_TAG_inlined_subroutine) &&
		    dwarf_haspc(&kid, pc) > 0) {
			path[n] = dwarf_dieoffset(&kid);
			return walk(&kid, pc, path, n + 1);
		}
		if (tag == DW_TAG_lexical_block || tag == DW_TAG_namespace ||
		    tag == DW_TAG_structure_type || tag == DW_TAG_class_type) {
			if ((m = walk(&kid, pc, path, n)) > n)
				return m;
		}
	} while (dwarf_siblingof(&kid, &kid) == 0);
	return n;
}

/*
 * The chain the index must give at pc of cu, innermost first (the walk's,
 * reversed): sets *offs (the caller frees it); returns its length.
 */
static int
want_chain(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Off **offs)
{
	Dwarf_Off path[16];
	int n = walk(cu, pc, path, 0), i;

	*offs = calloc(n > 0 ? n : 1, sizeof(**offs));
	for (i = 0; i < n; i++)
		(*offs)[i] = path[n - 1 - i];
	return n;
}

/*
 * Compares the index with the walk at every address of the function name
 * (its symbol's range); returns how many addresses disagree, and sets
 * *deepest to the longest chain seen, its names in deep[] (innermost
 * first, up to 3).
 */
static int
compare_fn(struct cuindex *x, Dwfl_Module *mod, Dwarf_Addr bias,
    const char *path, const char *name, int *deepest, const char *deep[3])
{
	uint64_t start, size, a;
	int bad = 0;

	if (!elf_symbol(path, name, &start, &size))
		return -1;
	for (a = start; a < start + size; a++) {
		Dwarf_Addr cubias;
		Dwarf_Die *cu = dwfl_module_addrdie(mod, a + bias, &cubias);
		Dwarf_Die *got = NULL;
		Dwarf_Off *want;
		int n, m, i;

		if (cu == NULL)
			return -1;
		n = cuindex_scopes(x, cu, a + bias - cubias, &got);
		m = want_chain(cu, a + bias - cubias, &want);
		if (n != m)
			bad++;
		for (i = 0; n == m && i < n; i++)
			if (dwarf_dieoffset(&got[i]) != want[i]) {
				bad++;
				break;
			}
		if (n > *deepest && n <= 3) {
			*deepest = n;
			for (i = 0; i < n; i++)
				deep[i] = dwarf_diename(&got[i]);
		}
		free(got);
		free(want);
	}
	return bad;
}

int
main(void)
{
	char dir[] = "/tmp/test_cuindex.XXXXXX", prog[64], other[64], flags[96];
	char cmd[160];
	const char *deep[3] = { NULL, NULL, NULL };
	struct elffile ef;
	struct cuindex x;
	Dwfl_Module *mod = NULL;
	Dwarf_Addr bias = 0, cubias;
	Dwarf_Die *cu, *scopes;
	Dwfl *dwfl = NULL;
	uint64_t start, size;
	int deepest = 0, n;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(other, sizeof(other), "%s/other.c", dir);
	snprintf(flags, sizeof(flags), "-O2 '%s'", other);
	CHECK(write_file(other, other_c) == 0 &&
	    cc_fixture(dir, "prog", prog_c, flags) == 0,
	    "cc -g -O2 builds a program of two units");
	elffile_init(&ef);
	if (elffile_open(&ef, prog) == ELFFILE_OK)
		dwfl = elfdwarf_dwfl(&ef, "prog", NULL, &mod, &bias);
	CHECK(dwfl != NULL, "its DWARF is read");
	if (dwfl == NULL)
		return unit_done();
	cuindex_init(&x);

	/* The second unit first: the first is then put before it. */
	CHECK_INT(compare_fn(&x, mod, bias, prog, "other_fn", &deepest, deep),
	    0, "other_fn: the walk's chain at every address");
	CHECK_UINT(x.ncus, 1, "one unit indexed");
	CHECK_INT(compare_fn(&x, mod, bias, prog, "outer", &deepest, deep), 0,
	    "outer: the walk's chain at every address");
	CHECK_UINT(x.ncus, 2, "two units indexed");
	deepest = 0;
	CHECK_INT(compare_fn(&x, mod, bias, prog, "other_fn", &deepest, deep),
	    0, "other_fn again, its unit moved in the index: the same chains");
	CHECK_INT(compare_fn(&x, mod, bias, prog, "main", &deepest, deep), 0,
	    "main: the same");
	CHECK_UINT(x.ncus, 2, "each unit indexed once");
	deepest = 0;
	compare_fn(&x, mod, bias, prog, "outer", &deepest, deep);
	CHECK_INT(deepest, 3, "outer holds a call inlined in an inlined call");
	CHECK_STR(deep[0], "leaf_fn", "innermost first: leaf_fn");
	CHECK_STR(deep[1], "mid_fn", "then mid_fn, which inlined it");
	CHECK_STR(deep[2], "outer", "and last the subprogram");

	/* An address that no function of the unit holds. */
	CHECK(elf_symbol(prog, "outer", &start, &size), "outer has a symbol");
	cu = dwfl_module_addrdie(mod, start + bias, &cubias);
	scopes = (Dwarf_Die *)&x;
	n = cu ? cuindex_scopes(&x, cu, 0, &scopes) : -1;
	CHECK(n == 0 && scopes == NULL, "address 0: no chain, *scopes NULL");

	cuindex_release(&x);
	CHECK(x.cus == NULL && x.ncus == 0, "released, empty again");
	dwfl_end(dwfl);
	elffile_release(&ef);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	run(cmd);
	return unit_done();
}
