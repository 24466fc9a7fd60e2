/*
 * Unit tests for common/stream/dso.c: one classifier for fgrecord, fgsym and the
 * annotator, and fgfold's stackcollapse-perf.pl rules beside it.
 */
#include <string.h>

#include "stream/dso.h"
#include "unit.h"

static const struct {
	const char	*dso;
	enum dso_kind	 kind;
} cases[] = {
	{ "[kernel.kallsyms]", DSO_KERNEL_MAP },
	{ "[kernel.kallsyms]_text", DSO_KERNEL_MAP },
	{ "[ext4]", DSO_KERNEL_MAP },
	{ "[nf_tables]", DSO_KERNEL_MAP },
	{ "[unknown]", DSO_NONE },
	{ "[vsyscall]", DSO_NONE },
	{ "[heap]", DSO_NONE },
	{ "[stack]", DSO_NONE },
	{ "[stack:1234]", DSO_NONE },
	{ "[uprobes]", DSO_NONE },	/* user space: the annotator said so */
	{ "[vectors]", DSO_NONE },
	{ "[anon:dalvik]", DSO_NONE },
	{ "[jit]", DSO_NONE },
	{ "//anon", DSO_NONE },
	{ "", DSO_NONE },
	{ "[", DSO_NONE },
	{ "[]", DSO_NONE },
	{ "[vdso]", DSO_VDSO },
	{ "/tmp/perf-4242.map", DSO_PERFMAP },
	{ "/tmp/perf-.map", DSO_FILE },
	{ "/tmp/perf-42x.map", DSO_FILE },
	{ "/home/u/perf-42.map", DSO_FILE },	/* not where perf writes */
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", DSO_FILE },
	{ "a.out", DSO_FILE },
};

int
main(void)
{
	char what[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "'%s' classified", cases[i].dso);
		CHECK(dso_classify(cases[i].dso, strlen(cases[i].dso)) ==
		    cases[i].kind, what);
	}
	CHECK(dso_classify("[kernel.kallsyms]x", 17) == DSO_KERNEL_MAP,
	    "the length is honoured, not a NUL");
	CHECK(dso_is_module_path("/lib/modules/6.1/kernel/fs/ext4/ext4.ko"),
	    ".ko is a module");
	CHECK(dso_is_module_path("/lib/modules/6.1/ext4.ko.xz"),
	    ".ko.xz is a module");
	CHECK(!dso_is_module_path("/usr/lib/libkox.so"), "libkox.so is not");
	CHECK(!dso_is_module_path("/x.ko/lib.so"), "a .ko directory is not");
	CHECK(dso_fold_kernel("[kernel.kallsyms]", 17), "fold: kernel");
	CHECK(dso_fold_kernel("/boot/vmlinux", 13), "fold: vmlinux");
	CHECK(dso_fold_kernel("[uprobes]", 9),
	    "fold: any bracketed name, as stackcollapse-perf.pl");
	CHECK(!dso_fold_kernel("[unknown]", 9), "fold: not unknown");
	CHECK(dso_fold_kernel("/usr/lib/debug/boot/vmlinux-6.1.0-13-amd64", 42),
	    "fold: a versioned vmlinux");
	CHECK(dso_fold_kernel("/lib/modules/6.1/kernel/fs/ext4/ext4.ko.xz", 42),
	    "fold: a module file");
	CHECK(!dso_fold_kernel("/usr/lib/libvmlinux-tools.so", 28),
	    "fold: not a library named after vmlinux");
	CHECK(dso_fold_jit("/tmp/perf-12.map", 16), "fold: perf map");
	CHECK(dso_fold_jit("/root/.debug/jit/jitted-12-3.so", 31),
	    "fold: jitted-*.so");
	CHECK(!dso_fold_jit("/tmp/perf-.map", 14), "fold: no pid, no JIT");
	return unit_done();
}
