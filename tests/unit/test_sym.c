/*
 * Unit tests for common/sym/sym.c through its API, without a process: the
 * pass-through of every kind of line, kernel frames through a kallsyms
 * file, pc-1 for return addresses, the exit status of sym_finish() and
 * the leaf callback.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lineread.h"
#include "sym/sym.h"
#include "unit.h"

static char ks[] = "/tmp/test_sym_ks.XXXXXX";

/* Runs text through a symbolizer with opts; returns the malloc'd output. */
static char *
run(struct sym_opts *o, const char *text, int *status)
{
	char in[] = "/tmp/test_sym_in.XXXXXX";
	int fd = mkstemp(in);
	struct lineread lr;
	struct sym *s;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	lseek(fd, 0, SEEK_SET);
	o->kallsyms = ks;
	s = sym_new(o);
	lineread_init(&lr, fd, "in");
	sym_stream(s, &lr, out);
	lineread_release(&lr);
	*status = sym_finish(s);
	sym_free(s);
	fclose(out);
	close(fd);
	unlink(in);
	return buf;
}

static int nleaf;
static char leafdso[64];
static uint64_t leafaddr;

static void
leaf(void *arg, const char *dso, uint64_t vaddr)
{
	(void)arg;
	nleaf++;
	snprintf(leafdso, sizeof(leafdso), "%s", dso);
	leafaddr = vaddr;
}

int
main(void)
{
	struct sym_opts o = SYM_OPTS_DEFAULT;
	const char *pass =
	    "# a comment\n"
	    "odd line\n"
	    "app 1/1 [000] 1.0: 1 cpu-clock:\n"
	    "\t1234 main+0x4 (/nonexistent/app)\n"
	    "  app.c:12\n"
	    "\n";
	const char *kern =
	    "app 1/1 [000] 1.0: 1 cpu-clock:\n"
	    "\tffffffff81000010 [unknown] ([kernel.kallsyms])\n"
	    "\tffffffff81001000 [unknown] ([kernel.kallsyms])\n"
	    "\n";
	char *got;
	int st, fd = mkstemp(ks);
	const char *kt = "ffffffff81000000 T first\nffffffff81001000 T second\n";

	if (write(fd, kt, strlen(kt)) != (ssize_t)strlen(kt))
		abort();
	close(fd);

	got = run(&o, pass, &st);
	CHECK_STR(got, pass, "symbolized and other lines pass through");
	CHECK(st == 1, "nothing to resolve, an odd line passed on and said: status 1");
	free(got);

	got = run(&o, kern, &st);
	CHECK_STR(got,
	    "app 1/1 [000] 1.0: 1 cpu-clock:\n"
	    "\tffffffff81000010 first+0x10 ([kernel.kallsyms])\n"
	    "\tffffffff81001000 first+0x1000 ([kernel.kallsyms])\n"
	    "\n",
	    "leaf at pc, return address at pc-1 (the call before second)");
	CHECK(st == 0, "all resolved: status 0");
	free(got);

	got = run(&o, "app 1 1.0: 1 c:\n\t10 [unknown] (/nonexistent/x)\n\n", &st);
	CHECK(st == 0, "a frame left [unknown] (missing file): status 0");
	free(got);

	got = run(&o, "app 1 1.0: 1 c:\n\t123456789abcdef012 [unknown] (/x)\n\n",
	    &st);
	CHECK(st == 1, "a malformed frame address: status 1");
	free(got);

	got = run(&o, "app 1 1.0: 1 c:\n\tzz [unknown] (/nonexistent/x)\n\n", &st);
	CHECK_STR(got, "app 1 1.0: 1 c:\n\tzz [unknown] (/nonexistent/x)\n\n",
	    "a line that is not a frame passes through");
	free(got);

	o.leaf = leaf;
	got = run(&o, kern, &st);
	CHECK(nleaf == 1, "the leaf callback runs once per sample");
	CHECK_STR(leafdso, "[kernel.kallsyms]", "leaf: the kernel's DSO");
	CHECK(leafaddr == 0xffffffff81000010, "leaf: the absolute address");
	free(got);

	unlink(ks);
	return unit_done();
}
