/*
 * dso: what a DSO string of a stream names, decided in one place for
 * fgrecord, fgsym and its annotator: the kernel, a JIT's perf map, the
 * vDSO, a file, or a mapping with no file behind it.
 *
 * fgfold does not use dso_classify(): for compatibility its --kernel and
 * --jit marks follow stackcollapse-perf.pl's own, looser rules, which are
 * dso_fold_kernel() and dso_fold_jit() here.
 */
#ifndef FG_DSO_H
#define FG_DSO_H

#include <stddef.h>

#include "stream/stream.h"


enum dso_kind {
	DSO_FILE,	/* a path (absolute, or relative) to an ELF file */
	DSO_KERNEL_MAP,	/* [kernel.kallsyms] (and "..._text"), a module "[ext4]" */
	DSO_PERFMAP,	/* /tmp/perf-PID.map, a JIT's symbols */
	DSO_VDSO,	/* [vdso] */
	DSO_NONE	/* [unknown], [heap], [stack], [vsyscall], [uprobes],
			   [vectors], [anon:...], //anon, "": no file */
};

/*
 * Classifies the DSO p[0..len) (not NUL-terminated). A bracketed name
 * that is not a user-space mapping is a kernel module, as perf prints
 * them.
 */
enum dso_kind dso_classify(const char *p, size_t len);

/* Does path name a kernel module file (".ko", perhaps compressed)? */
int	dso_is_module_path(const char *path);

/*
 * stackcollapse-perf.pl's rules, for fgfold: a kernel frame's DSO starts
 * with '[' or ends in "vmlinux" (fgfold adds a versioned vmlinux-VERSION
 * and a module file, ".ko", compressed or not) and does not contain
 * "unknown"; a JIT frame's holds "/tmp/perf-PID.map", or is a
 * "/jitted-*.so".
 */
int	dso_fold_kernel(const char *d, size_t n);
int	dso_fold_jit(const char *d, size_t n);

/*
 * The name of a frame with no symbol in the DSO d[0..n) is "[BASE]"
 * (FlameGraph's rule, which fgfold and fgpprof follow): sets *base and
 * *blen to BASE, the DSO's last path component without " (deleted)"
 * ("[[vdso]]", "[libc.so.6]"), or "unknown" when d is STREAM_UNKNOWN.
 * *base points into d, or is static.
 */
void	dso_unknown_base(const char *d, size_t n, const char **base,
	    size_t *blen);

#endif
