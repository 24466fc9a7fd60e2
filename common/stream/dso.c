/*
 * dso: one classifier of DSO strings (see dso.h).
 */
#include <string.h>

#include "base/str.h"
#include "stream/dso.h"

/* "/tmp/perf-" digits ".map", exactly as perf writes the path. */
static int
is_perfmap(const char *p, size_t len)
{
	size_t i;

	if (len < 15 || !str_starts(p, len, "/tmp/perf-") ||
	    !str_ends(p, len, ".map"))
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
	static const char *const user[] = {
		STREAM_UNKNOWN, "[vsyscall]", "[heap]", "[stack", "[uprobes]",
		"[vectors]", "[anon", "[jit",
	};
	size_t i;

	if (str_starts(p, len, STREAM_KERNEL))
		return DSO_KERNEL_MAP;
	if (is_perfmap(p, len))
		return DSO_PERFMAP;
	if (str_is(p, len, STREAM_VDSO))
		return DSO_VDSO;
	if (len == 0 || str_starts(p, len, "//anon"))
		return DSO_NONE;
	if (p[0] != '[')
		return DSO_FILE;	/* absolute, or relative: try it */
	if (len < 3 || p[len - 1] != ']')
		return DSO_NONE;
	for (i = 0; i < sizeof(user) / sizeof(user[0]); i++)
		if (str_starts(p, len, user[i]))
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
	return str_starts(d, n, "[") || str_ends(d, n, "vmlinux") ||
	    str_starts(base, bn, "vmlinux-") || str_ends(d, n, ".ko") ||
	    str_ends(d, n, ".ko.xz") || str_ends(d, n, ".ko.zst") ||
	    str_ends(d, n, ".ko.gz");
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
	return memmem(d, n, "/jitted-", 8) != NULL && str_ends(d, n, ".so");
}

void
dso_unknown_base(const char *d, size_t n, const char **base, size_t *blen)
{
	const char *slash;

	if (str_is(d, n, STREAM_UNKNOWN)) {
		*base = "unknown";
		*blen = 7;
		return;
	}
	/* A file replaced since it was mapped is still itself. */
	if (str_ends(d, n, " (deleted)"))
		n -= 10;
	slash = memrchr(d, '/', n);
	*base = slash ? slash + 1 : d;
	*blen = n - (*base - d);
}
