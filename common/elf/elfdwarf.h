/*
 * elfdwarf: the DWARF of an ELF file opened through elf/elffile, and the
 * questions fgsym and fgrecord both ask of it.
 *
 *	dwfl = elfdwarf_dwfl(&ef, name, NULL, &mod, &bias);
 *	if (dwfl == NULL)
 *		warnx("'%s': %s", name, ef.why);
 *	else if (!elfdwarf_holds_function(mod, addr + bias)) ...
 *	dwfl_end(dwfl);
 *	elffile_release(&ef);
 *
 * The Dwfl is made from the checked descriptor, and its debug files are
 * found by elf/debuglink's own search, so that neither libdwfl nor libdw
 * opens a file by name. Whether a file's missing DWARF is worth a line
 * is judged here once (elfdwarf_lack_matters), so that fgrecord's summary
 * and fgsym name the same files.
 */
#ifndef FG_ELFDWARF_H
#define FG_ELFDWARF_H

#include <stdint.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "elf/elffile.h"

/*
 * The share of all samples, in percent, from which code that no DWARF
 * function holds is said at the end (elfdwarf_lack_matters).
 */
#define ELFDWARF_SHARE	1.0

/*
 * Reports the open file ef to a new Dwfl (debuglink_offline_callbacks) as
 * the module name (its debug file is looked for next to ef->path), from a
 * dup of its descriptor: with dwfl_report_offline when base is NULL (the
 * address libdwfl picks for an offline file), else with dwfl_report_elf
 * at *base. Checks dwfl_begin, the report, dwfl_report_end and
 * dwfl_module_getelf. Then loads its DWARF at once: the separate debug
 * file is found by debuglink_find_debuginfo, the alternate one by
 * debuglink_setalt (kept in ef->alt until elffile_release), so that
 * neither libdwfl nor libdw ever opens a file by name; what either
 * refused is said in ef->note (owned by ef). Returns the Dwfl (the caller
 * ends it with dwfl_end, before elffile_release) and sets *mod (owned by
 * the Dwfl) and *bias; or NULL with ef->why naming the call that failed
 * and quoting dwfl_errmsg ("dwfl_report_offline: ...").
 */
Dwfl	*elfdwarf_dwfl(struct elffile *ef, const char *name,
	    const uint64_t *base, Dwfl_Module **mod, Dwarf_Addr *bias);

/*
 * As elfdwarf_dwfl with base NULL, but without loading the DWARF: for a
 * question of names alone (dwfl_module_getsymtab: the file's .symtab, or
 * its debug file's, found by the same search, or its .dynsym), which
 * need not pay for libdw's reading of the debug sections (decompressing
 * libc6-dbg's took 0.13 s).
 */
Dwfl	*elfdwarf_dwfl_symbols(struct elffile *ef, const char *name,
	    Dwfl_Module **mod, Dwarf_Addr *bias);

/*
 * Whether cu (borrowed; may be NULL) is an assembler's, which has no
 * functions to inline (DW_LANG_Mips_Assembler, or GNU as as its producer).
 */
int	 elfdwarf_cu_is_asm(Dwarf_Die *cu);

/*
 * Whether a DWARF function (a subprogram or an inlined call) of mod
 * (borrowed) holds the address addr (mod's addresses, bias included), or
 * its unit is an assembler's. A Rust binary built with debug = false may
 * keep the standard library's units, which claim every address: the unit
 * alone does not say that the code there has DWARF.
 */
int	 elfdwarf_holds_function(Dwfl_Module *mod, Dwarf_Addr addr);

/*
 * The one judgement of "no DWARF for the sampled code": whether unheld
 * samples (those in a file's code that no DWARF function holds, all of
 * them when the file has no DWARF) are ELFDWARF_SHARE percent of total,
 * all the samples, or more; then the file is named, since fgsym will draw
 * its inlined functions as their callers. 0 when total is 0.
 */
int	 elfdwarf_lack_matters(uint64_t unheld, uint64_t total);

/*
 * Whether elf was built by rustc: "rustc version" in .comment (rustc
 * 1.73 and later), or the standard library's source paths in .rodata.
 * Both survive strip. For the build advice that fits the file (Cargo's
 * settings, or -g).
 */
int	 elfdwarf_is_rust(Elf *elf);

/*
 * Whether the symbol sym (as .symtab names it: Rust's legacy "_ZN" or v0
 * "_R" mangling, or a plain name) is code of Rust's prebuilt standard
 * library: ELFDWARF_STD for its own crates (std, core, alloc,
 * compiler_builtins, ...) and the shims rustc adds beside them
 * (__rust_alloc, __rdl_alloc, rust_eh_personality); ELFDWARF_STD_DEP for
 * the crates it is built from (hashbrown, gimli, addr2line, object,
 * miniz_oxide, rustc_demangle, memchr, libc, ...), which are std's only
 * when the crate's own code has DWARF (else a dependency of the crate's
 * may be, built as it was); else 0. Its code without DWARF in a binary
 * with DWARF is rustup's build, not the crate's. Of an impl, the crate
 * that wrote it counts ("<mycrate::T as core::fmt::Display>::fmt" is
 * mycrate's); of a trait's default method, the type's; generic code
 * that std instantiated (v0's instantiating crate) is ELFDWARF_STD.
 */
#define ELFDWARF_STD		1
#define ELFDWARF_STD_DEP	2

/*
 * How many DWARF units of mod (borrowed) are not rustup's prebuilt
 * standard library's: whose DW_AT_comp_dir is not "/rustc/<commit>",
 * "/rust/deps/..." (its dependencies) or Debian's "/usr/src/rustc-...".
 * 0 for a Rust binary whose crate was built without debug info but that
 * kept the standard library's units.
 */
int	 elfdwarf_crate_units(Dwfl_Module *mod);
int	 elfdwarf_rust_std(const char *sym);

#endif
