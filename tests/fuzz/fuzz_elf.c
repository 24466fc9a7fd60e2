/*
 * fuzz_elf: fgsym and fgsym --annotate on a frame whose DSO is the input:
 * any bytes, so a file that is not ELF, a truncated one or a corrupt one
 * (program headers, section headers, symbol tables, notes, DWARF). The
 * file is a memfd named by its /proc/self/fd path; a small stream of
 * frames into it goes through sym_stream twice (as an fgrecord stream of
 * vaddrs, with inlines and source lines, and as a perf stream of file
 * offsets), then twice more parsed only, feeding the annotate module,
 * whose listing is written: once with the files it opens itself, once
 * with those the symbolizer lends it (sym_file).
 */
#include <stdlib.h>
#include <string.h>

#include "sym/annotate.h"
#include "fuzz.h"
#include "base/lineread.h"
#include "sym/sym.h"

static const uint64_t addrs[] = {
	0, 1, 0x40, 0x400, 0x1000, 0x1040, 0x1100, 0x1139, 0x1150, 0x1200,
	0x1400, 0x2000, 0x3000, 0x400000, 0x401000, 0x401126, 0x401136,
	0x7fffffff, 0xffffffffffffffffULL,
};

static void
leaf(void *arg, const char *dso, uint64_t vaddr)
{
	annotate_add(arg, dso, vaddr);
}

/* One stream naming path: every address of addrs[] as a sample leaf. */
static int
stream(const char *path, int fgrecord)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	size_t i;
	int fd;

	if (f == NULL)
		abort();
	if (fgrecord)
		fputs("# fgrecord 1\n# cmdline : fuzz\n", f);
	for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++)
		fprintf(f, "app 1/1 [000] 1.%06zu: 1 cpu-clock:\n"
		    "\t%jx [unknown] (%s)\n\t%jx [unknown] (%s)\n\n", i,
		    (uintmax_t)addrs[i], path,
		    (uintmax_t)addrs[(i + 3) % (sizeof(addrs) / sizeof(addrs[0]))],
		    path);
	fclose(f);
	fd = fuzz_fd((const uint8_t *)buf, len);
	free(buf);
	return fd;
}

static int
lend(void *arg, const char *dso, struct elfsym_file *ef)
{
	return sym_file(arg, dso, ef);
}

/*
 * One stream through sym_stream. With an annotation table an, the leaves
 * go to it and it is written with the files the symbolizer lends.
 */
static void
run(const char *path, int fgrecord, struct sym_opts *o, FILE *out,
    struct annotate *an)
{
	struct lineread lr;
	struct sym *s = sym_new(o);
	int fd = stream(path, fgrecord);

	if (an != NULL)
		annotate_files(an, lend, NULL, s);
	lineread_init(&lr, fd, "fuzz");
	sym_stream(s, &lr, out);
	lineread_release(&lr);
	sym_finish(s);
	if (an != NULL)
		annotate_write(an, fuzz_null());
	sym_free(s);
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts o = SYM_OPTS_DEFAULT;
	struct annotate *an;
	char path[64];
	int fd;

	unsetenv("DEBUGINFOD_URLS");
	fd = fuzz_file(data, size, path, sizeof(path));

	o.srcline = 1;
	o.kallsyms = "/dev/null";
	run(path, 1, &o, fuzz_null(), NULL);
	o.srcline = 0;
	o.inlines = 0;
	run(path, 0, &o, fuzz_null(), NULL);

	/* The annotator opening the file itself, then with fgsym's. */
	an = annotate_new(NULL);
	o.leaf = leaf;
	o.leaf_arg = an;
	run(path, 1, &o, NULL, NULL);
	annotate_write(an, fuzz_null());
	annotate_free(an);
	an = annotate_new(NULL);
	o.leaf_arg = an;
	run(path, 1, &o, NULL, an);
	annotate_free(an);
	close(fd);
	return 0;
}
