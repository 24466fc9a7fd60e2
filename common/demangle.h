/*
 * demangle: turn linker symbol names back into source names, for C++ and
 * for Rust in both its legacy (_ZN...17h<hash>E) and its v0 (_R...) scheme,
 * through libiberty's cplus_demangle.
 *
 *	char *d = fg_demangle("_ZN2ns3fooIiEEvT_", 0);
 *	puts(d ? d : name);	-> "void ns::foo<int>(int)"
 *	free(d);
 */
#ifndef FG_DEMANGLE_H
#define FG_DEMANGLE_H

/* Keep Rust's legacy "::h0123456789abcdef" hash suffix (dropped by default). */
#define FG_DEMANGLE_KEEP_HASH	0x1

/*
 * Returns a malloc'd demangled name, or NULL when name is not mangled.
 * flags: FG_DEMANGLE_KEEP_HASH.
 *
 * name is a NUL-terminated symbol name as the ELF symbol table spells it.
 * A symbol version suffix ("@GLIBC_2.2.5", "@@VER") is kept, after the
 * demangled name. C++ names come with their parameter lists
 * ("ns::f(int)"); clone suffixes read " [clone .cold]". The caller frees
 * the result with free(3). NULL means "print name as it is": a C name, an
 * empty string, or a string the demangler rejects.
 */
char	*fg_demangle(const char *name, int flags);

#endif
