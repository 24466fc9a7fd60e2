/*
 * demangle: C++ and Rust symbol names through libiberty (see demangle.h).
 */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "sym/demangle.h"
#include "base/xalloc.h"

/*
 * Does name[0..len) end like a Rust legacy symbol, "17h" and sixteen hex
 * digits and "E" (perhaps followed by a ".llvm.N" suffix)? Only those get DMGL_VERBOSE for FG_DEMANGLE_KEEP_HASH:
 * on a C++ name DMGL_VERBOSE would also spell out std::string in full.
 */
static int
rust_legacy(const char *name, size_t len)
{
	size_t i, k;

	if (len < 3 + 3 + 16 + 1 || strncmp(name, "_ZN", 3) != 0)
		return 0;
	/* The hash ends the name, or comes before a ".llvm.123" suffix. */
	for (i = 3; i + 20 <= len; i++) {
		if (name[i] != '1' || name[i + 1] != '7' || name[i + 2] != 'h' ||
		    name[i + 19] != 'E' ||
		    (i + 20 < len && name[i + 20] != '.'))
			continue;
		for (k = i + 3; k < i + 19; k++)
			if (strchr("0123456789abcdef", name[k]) == NULL)
				break;
		if (k == i + 19)
			return 1;
	}
	return 0;
}

char *
fg_demangle(const char *name, int flags)
{
	const char *at;
	char *base, *d, *out;
	size_t blen, dlen, alen;
	/*
	 * Without DMGL_PARAMS libiberty stops after the name of the
	 * outermost function: no return type, no parameters, no "const",
	 * no clone suffix, template arguments and the parameter lists of
	 * enclosing functions and lambdas kept, which is what perf prints.
	 */
	int opts = DMGL_ANSI | DMGL_AUTO |
	    (flags & FG_DEMANGLE_FULL ? DMGL_PARAMS : 0);

	if (name == NULL || name[0] != '_' ||
	    (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	at = strchr(name, '@');
	blen = at ? (size_t)(at - name) : strlen(name);
	if ((flags & FG_DEMANGLE_KEEP_HASH) && rust_legacy(name, blen))
		opts |= DMGL_VERBOSE;
	if (at == NULL)
		return cplus_demangle(name, opts);

	base = xmemdup0(name, blen);
	d = cplus_demangle(base, opts);
	free(base);
	if (d == NULL)
		return NULL;
	dlen = strlen(d);
	alen = strlen(at);
	out = xmalloc(dlen + alen + 1);
	memcpy(out, d, dlen);
	memcpy(out + dlen, at, alen + 1);
	free(d);
	return out;
}
