/* Unit tests for common/elf/perfmap.c. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elf/perfmap.h"
#include "unit.h"

int
main(void)
{
	char path[] = "/tmp/test_perfmap.XXXXXX";
	struct perfmap pm, *m = &pm;
	const char *name;
	uint64_t off = 0;
	int fd = mkstemp(path);
	FILE *fp = fdopen(fd, "w");

	perfmap_init(m);
	fputs("7f0000001000 100 LazyCompile:~fib app.js:1\n"
	    "0x7f0000002000 0x40 Interpreter\n"
	    "\n"
	    "zz 10 bad\n"
	    "7f0000003000 0 zero size\n"
	    "7f0000001000 80 Reused code\n"
	    "7f0000005000 10000000000000000 size past 2^64-1\n"
	    " \t7F0000006000\t0X20 Upper case\n"
	    "7f0000007000 0x no digits\n"
	    "7f0000008000 10x glued\n"
	    "7f0000004000 10 no newline", fp);
	fclose(fp);
	CHECK(perfmap_load(m, path) == 0, "loads a perf map");
	CHECK(m->n == 4, "four good entries after merging a reused start");
	CHECK(m->bad == 5 && m->first_bad == 4, "bad lines counted, first named");
	name = perfmap_lookup(m, 0x7f0000001010, &off);
	CHECK_STR(name, "Reused code", "a later line for the same start wins");
	CHECK(off == 0x10, "offset into the entry");
	CHECK(perfmap_lookup(m, 0x7f0000001090, &off) == NULL,
	    "past the end of the entry: NULL");
	name = perfmap_lookup(m, 0x7f000000203f, &off);
	CHECK_STR(name, "Interpreter", "0x prefixes accepted");
	name = perfmap_lookup(m, 0x7f000000601f, &off);
	CHECK_STR(name, "Upper case", "blanks before, tabs between, upper case");
	name = perfmap_lookup(m, 0x7f0000004001, &off);
	CHECK_STR(name, "no newline", "last line without newline");
	CHECK(perfmap_lookup(m, 0x1000, &off) == NULL, "below all: NULL");
	perfmap_release(m);
	CHECK(m->n == 0 && m->syms == NULL, "released: empty again");
	CHECK(perfmap_load(m, "/nonexistent/perf-1.map") == -1, "missing: -1");
	perfmap_release(m);
	unlink(path);
	return unit_done();
}
