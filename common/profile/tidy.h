/*
 * tidy: the rules that turn a frame's symbol, as perf script prints it,
 * into the name a folded stack holds. They follow stackcollapse-perf.pl's
 * tidy-up (so that its test corpus folds to the same bytes), except that a
 * '(' inside template brackets, as in std::function<void (int)>, does not
 * cut the name short.
 *
 * Each rule works on bytes that carry their length (not NUL-terminated),
 * borrows them for the call, and never makes a name longer, so that it can
 * work in place unless said otherwise.
 */
#ifndef FG_TIDY_H
#define FG_TIDY_H

#include <stddef.h>

/* C++'s name for the namespace of a translation unit: never an argument list. */
#define TIDY_ANON	"(anonymous namespace)"

/* Whether c may be part of a C identifier. */
static inline int
tidy_isident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/*
 * Cleans up one function name as stackcollapse-perf.pl's tidy-up does:
 * ';' becomes ':', the argument list goes (but not a '(' inside template
 * brackets, nor "(anonymous namespace)", nor a Go method's "(*T)"), and
 * quotes are removed. Writes into out, which must hold len + 1 bytes and
 * may be name itself; NUL-terminates it and returns the new length.
 */
size_t	tidy_name(const char *name, size_t len, char *out);

/*
 * Finishes, in place, a Rust legacy name that perf demangled only half:
 * "core::ptr::drop_in_place$LT$alloc..vec..Vec$LT$u8$GT$$GT$::h0123456789abcdef"
 * becomes "core::ptr::drop_in_place<alloc::vec::Vec<u8>>": the $..$
 * escapes are decoded, ".." becomes "::" and the hash goes. A name with
 * neither the hash nor an escape is left alone. Returns the new length
 * (never more than len).
 */
size_t	tidy_rust_legacy(char *s, size_t len);

/*
 * A Java class name as a JVM agent writes it, "Ljava/lang/Thread::run",
 * loses, in place, the 'L' that marks it as a class: only a name that
 * starts with 'L' and holds a '/' is one. Returns the new length.
 */
size_t	tidy_java(char *s, size_t len);

/*
 * The process name as a root frame, in place: ' ' becomes '_' and ';'
 * (the frame separator) becomes ':'.
 */
void	tidy_comm(char *s, size_t len);

/*
 * For fgfold --diff -s: copies s[0..len) to out with every "0x" followed
 * by hex digits (either case) replaced by "0x...", so that addresses that
 * differ between two runs fold together. out must hold 2 * len bytes; it is not NUL-terminated, and may not be s. Returns the length
 * written.
 */
size_t	tidy_strip_hex(const char *s, size_t len, char *out);

#endif
