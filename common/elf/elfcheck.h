/*
 * elfcheck: cheap sanity checks of an ELF file before its contents are
 * trusted, shared by fgsym's symbolizer (sym.c) and its annotator
 * (annotate.c). libelf and libdw read headers lazily and quietly tolerate
 * a file cut short or a debug section full of garbage; these checks turn
 * both into one clear diagnosis per file.
 */
#ifndef FG_ELFCHECK_H
#define FG_ELFCHECK_H

#include <stdint.h>

#include <elfutils/libdw.h>
#include <libelf.h>

/*
 * Returns 0 when the program headers, the section headers, every PT_LOAD
 * segment's bytes and every section's bytes (but SHT_NOBITS) lie within
 * the first size bytes; otherwise the number of bytes they need (at least
 * size + 1), so that a truncated file can be named as such. elf is
 * borrowed; size is the file's size from fstat(2).
 */
uint64_t elfcheck_need(Elf *elf, uint64_t size);

/*
 * Walks the headers of every unit in dw's .debug_info. Returns NULL when
 * they all parse, or libdw's message (static, borrowed) for the first that
 * does not: the DWARF is corrupt and should not be used. dw may be NULL
 * (no DWARF; returns NULL).
 */
const char *elfcheck_dwarf(Dwarf *dw);

#endif
