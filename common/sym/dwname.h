/*
 * dwname: the qualified name of a C++ function from its DWARF, for the
 * DIEs that have no linkage name to demangle. GCC gives none to functions
 * whose template arguments are local types, such as every std::sort
 * internal instantiated for a lambda comparator; their DW_AT_name is
 * only "__unguarded_partition<...>". dwname puts the namespaces, classes
 * and functions around the declaration in front:
 * "std::__unguarded_partition<...>".
 *
 *	struct dwname dn;
 *	dwname_init(&dn);
 *	char *q = dwname_qualify(&dn, die, "__sort<...>");	-> "std::__sort<...>"
 *	free(q);
 *	dwname_release(&dn);
 *
 * Finding the scopes of a DIE walks its compilation unit from the start
 * (dwarf_getscopes_die), so the prefix is cached per declaration.
 */
#ifndef FG_DWNAME_H
#define FG_DWNAME_H

#include <stddef.h>

#include <elfutils/libdw.h>

struct dwname_slot;

struct dwname {
	struct dwname_slot *slots;	/* owned; open addressing */
	size_t		 cap, n;	/* capacity (0 or a power of two), used */
};

/* Makes dn an empty cache. */
void	dwname_init(struct dwname *dn);

/*
 * Returns name qualified by the scopes of die's declaration (die's
 * DW_AT_abstract_origin and DW_AT_specification are followed to it), as a
 * malloc'd string the caller frees. Namespaces, classes, structures,
 * unions and enclosing functions are joined by "::"; an anonymous
 * namespace reads "(anonymous namespace)". Outside C++ compilation units,
 * or where the scopes cannot be found, the result is a copy of name.
 * name is borrowed (NUL-terminated); die is not changed.
 */
char	*dwname_qualify(struct dwname *dn, Dwarf_Die *die, const char *name);

/*
 * The name of a function's DIE, as fgsym prints it and the annotator
 * lists it: its linkage name demangled by fg_demangle() with dmflags,
 * else its DW_AT_name qualified as dwname_qualify() does. Without
 * demangle, DW_AT_name (else the linkage name) as it is. A malloc'd
 * string the caller frees, or NULL when the DIE has no name.
 */
char	*dwname_of(struct dwname *dn, Dwarf_Die *die, int demangle, int dmflags);

/* Frees what dn owns; dn may then be dwname_init()ed again. */
void	dwname_release(struct dwname *dn);

#endif
