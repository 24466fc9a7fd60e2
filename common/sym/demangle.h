/*
 * demangle: turn linker symbol names back into source names, for C++ and
 * for Rust in both its legacy (_ZN...17h<hash>E) and its v0 (_R...) scheme,
 * through libiberty's cplus_demangle.
 *
 *	char *d = fg_demangle("_ZN2ns3fooIiEEvT_", 0);
 *	puts(d ? d : name);	-> "ns::foo<int>"
 *	free(d);
 *
 * By default a C++ name reads as perf(1) prints it: the qualified name with
 * its template arguments, without the return type and the parameter list.
 * FG_DEMANGLE_FULL gives what c++filt(1) prints.
 */
#ifndef FG_DEMANGLE_H
#define FG_DEMANGLE_H

/* Keep Rust's legacy "::h0123456789abcdef" hash suffix (dropped by default). */
#define FG_DEMANGLE_KEEP_HASH	0x1
/*
 * C++: the long form, with the return type of a template function, the
 * parameter list, "const" and clone suffixes (" [clone .cold]").
 */
#define FG_DEMANGLE_FULL	0x2

/*
 * Returns a malloc'd demangled name, or NULL when name is not mangled.
 * flags: FG_DEMANGLE_KEEP_HASH, FG_DEMANGLE_FULL.
 *
 * name is a NUL-terminated symbol name as the ELF symbol table spells it.
 * A symbol version suffix ("@GLIBC_2.2.5", "@@VER") is kept, after the
 * demangled name. C++ names come without return type, parameter list
 * and clone suffix ("ns::f<int>", "main::{lambda(int)#1}::operator()",
 * "S::~S"); with FG_DEMANGLE_FULL they come in full ("void ns::f<int>(int)",
 * clone suffixes as " [clone .cold]"). The caller frees
 * the result with free(3). NULL means "print name as it is": a C name, an
 * empty string, or a string the demangler rejects.
 */
char	*fg_demangle(const char *name, int flags);

#endif
