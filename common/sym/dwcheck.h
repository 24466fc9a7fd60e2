/*
 * dwcheck: a cheap sanity check of a file's DWARF before it is trusted,
 * shared by fgsym's symbolizer (sym.c) and its annotator (annotate.c).
 * libdw reads lazily and quietly tolerates a debug section full of
 * garbage; this check turns that into one clear diagnosis per file. (The
 * check of a file cut short is elffile's, part of opening it.)
 */
#ifndef FG_DWCHECK_H
#define FG_DWCHECK_H

#include <elfutils/libdw.h>

/*
 * Walks the headers of every unit in dw's .debug_info. Returns NULL when
 * they all parse, or libdw's message (static, borrowed) for the first that
 * does not: the DWARF is corrupt and should not be used. dw may be NULL
 * (no DWARF; returns NULL).
 */
const char *dwcheck_units(Dwarf *dw);

#endif
