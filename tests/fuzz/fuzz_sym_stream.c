/*
 * fuzz_sym_stream: fgsym's pass over a stream of any text, with real files
 * behind the frames that name them (/bin/true, libc, the vDSO, a kallsyms
 * file the harness writes). The first byte picks the options; the rest is
 * the stream, symbolized to a null output and then (when bits 5 and 6 of
 * the first byte are set) parsed again feeding the annotate module.
 */
#include <stdlib.h>
#include <string.h>

#include "sym/annotate.h"
#include "fuzz.h"
#include "base/lineread.h"
#include "sym/sym.h"

static const char kallsyms[] =
    "ffffffff81000000 T _stext\n"
    "ffffffff81000100 t do_one_initcall\n"
    "ffffffff81000200 T do_syscall_64\n"
    "ffffffff81000300 T entry_SYSCALL_64\n"
    "ffffffffc0001000 t ext4_map_blocks\t[ext4]\n";

static void
leaf(void *arg, const char *dso, uint64_t vaddr)
{
	annotate_add(arg, dso, vaddr);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char kpath[64];
	struct sym_opts o = SYM_OPTS_DEFAULT;
	struct annotate *an;
	struct lineread lr;
	struct sym *s;
	int fd;

	if (size < 1)
		return 0;
	unsetenv("DEBUGINFOD_URLS");
	if (kpath[0] == '\0')
		(void)fuzz_file((const uint8_t *)kallsyms, sizeof(kallsyms) - 1,
		    kpath, sizeof(kpath));
	o.kallsyms = kpath;
	o.inlines = data[0] & 1;
	o.srcline = data[0] & 2;
	o.full_path = data[0] & 4;
	o.demangle = data[0] & 8;
	o.keep_hash = data[0] & 16;

	fd = fuzz_fd(data + 1, size - 1);
	s = sym_new(&o);
	lineread_init(&lr, fd, "fuzz");
	sym_stream(s, &lr, fuzz_null());
	lineread_release(&lr);
	sym_finish(s);
	sym_free(s);

	/* Annotating reads all of /proc/kallsyms for a kernel leaf: 1 in 4. */
	if ((data[0] & 96) == 96) {
		an = annotate_new(NULL);
		o.leaf = leaf;
		o.leaf_arg = an;
		lseek(fd, 0, SEEK_SET);
		s = sym_new(&o);
		lineread_init(&lr, fd, "fuzz");
		sym_stream(s, &lr, NULL);
		lineread_release(&lr);
		sym_finish(s);
		sym_free(s);
		annotate_write(an, fuzz_null());
		annotate_free(an);
	}
	close(fd);
	return 0;
}
