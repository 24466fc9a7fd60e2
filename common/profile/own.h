/*
 * own: which functions are a Rust crate's own, by their names, for the
 * tables that put a program's own code first (fgfold --top --own and
 * --compare --own, cargo fg's summaries); and the mark that profile/fold
 * puts on an inlined frame's name (--inline-mark), by which code inlined
 * into a crate's function is counted as its own time.
 */
#ifndef FG_OWN_H
#define FG_OWN_H

#include <stddef.h>

#define OWN_INLINE_MARK	"_[i]"	/* fgfold --inline-mark's suffix */

/*
 * Whether the function name[0..len) is crate c's own: "c::f", "<c::T>::f",
 * or an impl of one of c's traits, "<T as c::Trait>::f".
 */
int	own_match(const char *name, size_t len, const char *c);

/* Whether it is the own of any of the n crates c[0..n). */
int	own_any(const char *name, size_t len, char *const *c, size_t n);

#endif
