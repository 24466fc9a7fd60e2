/*
 * dso: one classifier of DSO strings (see dso.h).
 */
#include <string.h>

#include "stream/dso.h"

#define LIT(s)	s, sizeof(s) - 1

static int
starts(const char *p, size_t len, const char *s, size_t n)
{
	return len >= n && memcmp(p, s, n) == 0;
}

static int
ends(const char *p, size_t len, const char *s, size_t n)
{
	return len >= n && memcmp(p + len - n, s, n) == 0;
}

/* "/tmp/perf-" digits ".map", exactly as perf writes the path. */
static int
is_perfmap(const char *p, size_t len)
{
	size_t i;

	if (len < 15 || !starts(p, len, LIT("/tmp/perf-")) ||
	    !ends(p, len, LIT(".map")))
		return 0;
	for (i = 10; i < len - 4; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

enum dso_kind
dso_classify(const char *p, size_t len)
{
	/* Bracketed names of user-space mappings, matched as prefixes. */
	static const struct { const char *s; size_t n; } user[] = {
		{ LIT("[unknown]") }, { LIT("[vsyscall]") }, { LIT("[heap]") },
		{ LIT("[stack") }, { LIT("[uprobes]") }, { LIT("[vectors]") },
		{ LIT("[anon") }, { LIT("[jit") },
	};
	size_t i;

	if (starts(p, len, LIT(DSO_KERNEL)))
		return DSO_KERNEL_MAP;
	if (is_perfmap(p, len))
		return DSO_PERFMAP;
	if (len == 6 && memcmp(p, "[vdso]", 6) == 0)
		return DSO_VDSO;
	if (len == 0 || starts(p, len, LIT("//anon")))
		return DSO_NONE;
	if (p[0] != '[')
		return DSO_FILE;	/* absolute, or relative: try it */
	if (len < 3 || p[len - 1] != ']')
		return DSO_NONE;
	for (i = 0; i < sizeof(user) / sizeof(user[0]); i++)
		if (starts(p, len, user[i].s, user[i].n))
			return DSO_NONE;
	return DSO_KERNEL_MAP;		/* a kernel module: "[ext4]" */
}

int
dso_is_module_path(const char *path)
{
	const char *b = strrchr(path, '/'), *ko;

	b = b ? b + 1 : path;
	return (ko = strstr(b, ".ko")) != NULL &&
	    (strcmp(ko, ".ko") == 0 || strncmp(ko, ".ko.", 4) == 0);
}

int
dso_fold_kernel(const char *d, size_t n)
{
	const char *slash = memrchr(d, '/', n), *base = slash ? slash + 1 : d;
	size_t bn = n - (base - d);

	if (memmem(d, n, "unknown", 7) != NULL)
		return 0;
	return starts(d, n, LIT("[")) || ends(d, n, LIT("vmlinux")) ||
	    starts(base, bn, LIT("vmlinux-")) || ends(d, n, LIT(".ko")) ||
	    ends(d, n, LIT(".ko.xz")) || ends(d, n, LIT(".ko.zst")) ||
	    ends(d, n, LIT(".ko.gz"));
}

int
dso_fold_jit(const char *d, size_t n)
{
	const char *p = memmem(d, n, "/tmp/perf-", 10);

	if (p != NULL) {
		size_t i = p + 10 - d, j = i;

		while (j < n && d[j] >= '0' && d[j] <= '9')
			j++;
		if (j > i && n - j >= 4 && memcmp(d + j, ".map", 4) == 0)
			return 1;
	}
	return memmem(d, n, "/jitted-", 8) != NULL && ends(d, n, LIT(".so"));
}
