/*
 * demangle: C++ and Rust symbol names through libiberty (see demangle.h).
 */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "demangle.h"
#include "xalloc.h"

/*
 * Does name[0..len) end like a Rust legacy symbol, "17h" and sixteen hex
 * digits and "E"? Only those get DMGL_VERBOSE for FG_DEMANGLE_KEEP_HASH:
 * on a C++ name DMGL_VERBOSE would also spell out std::string in full.
 */
static int
rust_legacy(const char *name, size_t len)
{
	const char *p;
	size_t i;

	if (len < 3 + 3 + 16 + 1 || strncmp(name, "_ZN", 3) != 0)
		return 0;
	/* A ".llvm.123" style suffix may follow the E. */
	p = memchr(name, '.', len);
	if (p != NULL)
		len = p - name;
	if (len < 3 + 3 + 16 + 1 || name[len - 1] != 'E')
		return 0;
	p = name + len - 1 - 16 - 3;
	if (strncmp(p, "17h", 3) != 0)
		return 0;
	for (i = 3; i < 19; i++)
		if (strchr("0123456789abcdef", p[i]) == NULL)
			return 0;
	return 1;
}

char *
fg_demangle(const char *name, int flags)
{
	const char *at;
	char *base, *d, *out;
	size_t blen, dlen, alen;
	int opts = DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO;

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
