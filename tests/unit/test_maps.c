/*
 * test_maps: the mapping table (overlaps, fork, exec, lookup at the
 * edges) and the conversion of run-time addresses to ELF addresses, on
 * this test program itself: the address of a function, converted, must be
 * the value of its symbol in the ELF symbol table.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/str.h"
#include "record/maps.h"
#include "unit.h"
#include "testsym.h"

__attribute__((noinline)) int
unit_marker(int x)
{
	return x * 3 + 1;
}

static void
test_table(void)
{
	struct maps m;
	struct mapping *mp;

	maps_init(&m);
	maps_add(&m, 10, 0x1000, 0x3000, 0, "/a", NULL, 0);
	maps_add(&m, 10, 0x8000, 0x1000, 0x2000, "/b", NULL, 0);
	mp = maps_find(&m, 10, 0x1000);
	CHECK(mp && strcmp(mp->file->path, "/a") == 0, "the first byte of a mapping is in it");
	CHECK(maps_find(&m, 10, 0x3fff) == mp, "the last byte of a mapping is in it");
	CHECK(maps_find(&m, 10, 0x4000) == NULL, "the byte after it is not");
	CHECK(maps_find(&m, 10, 0xfff) == NULL, "the byte before it is not");
	CHECK(maps_find(&m, 11, 0x1000) == NULL, "another process has no mappings");

	/* A new mapping in the middle of /a splits it in two. */
	maps_add(&m, 10, 0x2000, 0x1000, 0x5000, "/c", NULL, 0);
	mp = maps_find(&m, 10, 0x1800);
	CHECK(mp && strcmp(mp->file->path, "/a") == 0 && mp->end == 0x2000,
	    "the head of a split mapping keeps its start");
	mp = maps_find(&m, 10, 0x2800);
	CHECK(mp && strcmp(mp->file->path, "/c") == 0 && mp->pgoff == 0x5000,
	    "the new mapping wins where it overlaps");
	mp = maps_find(&m, 10, 0x3800);
	CHECK(mp && strcmp(mp->file->path, "/a") == 0 && mp->start == 0x3000 &&
	    mp->pgoff == 0x2000, "the tail of a split mapping has its offset moved");

	maps_fork(&m, 10, 20);
	mp = maps_find(&m, 20, 0x8000);
	CHECK(mp && strcmp(mp->file->path, "/b") == 0, "a forked child has its parent's mappings");
	maps_exec(&m, 20);
	CHECK(maps_find(&m, 20, 0x8000) == NULL, "exec empties the table");
	mp = maps_find_prev(&m, 20, 0x8000);
	CHECK(mp && strcmp(mp->file->path, "/b") == 0,
	    "and keeps the old one for samples taken during the exec");
	CHECK(maps_find(&m, 10, 0x8000) != NULL, "and leaves the parent's alone");

	maps_exit(&m, 20);
	CHECK(maps_find(&m, 20, 0x8000) == NULL, "an exited process has no mappings");
	maps_fork(&m, 10, 21);
	maps_exit(&m, 21);
	maps_add(&m, 21, 0x9000, 0x1000, 0, "/d", NULL, 0);
	CHECK(maps_find(&m, 21, 0x9000) != NULL, "a PID reused after exit starts afresh");

	maps_add(&m, 10, 0x7f000000, 0x1000, 0, "//anon", NULL, 0);
	mp = maps_find(&m, 10, 0x7f000010);
	{
		uint64_t va = 0;

		CHECK(mp && mp->file->kind == MAPFILE_ANON &&
		    mapping_vaddr(mp, 0x7f000010, &va) == 0 && va == 0x7f000010,
		    "anonymous memory keeps absolute addresses");
	}
	mp = maps_find(&m, 10, 0x1000);
	{
		uint64_t va;

		CHECK(mp && mapping_vaddr(mp, 0x1000, &va) == -1,
		    "a file that cannot be opened converts nothing");
	}
	/* Many processes and files: the hash tables grow. */
	for (int i = 0; i < 500; i++) {
		char name[32];

		snprintf(name, sizeof(name), "/lib/%d.so", i);
		maps_add(&m, 1000 + i, 0x10000, 0x1000, 0, name, NULL, 0);
	}
	mp = maps_find(&m, 1000 + 321, 0x10000);
	CHECK(mp && strcmp(mp->file->path, "/lib/321.so") == 0,
	    "500 processes later, each still finds its own mapping");
	maps_release(&m);
}

/*
 * Mappings added out of order land sorted: each is found from its first
 * byte to its last, and the gaps between them hold none.
 */
static void
test_order(void)
{
	struct maps m;
	struct mapping *mp;
	int bad = 0;

	maps_init(&m);
	for (int i = 0; i < 61; i++) {
		uint64_t k = (uint64_t)(i * 37 % 61);	/* 0..60, shuffled */

		maps_add(&m, 7, 0x10000 + k * 0x3000, 0x2000, k, "/o", NULL, 0);
	}
	for (uint64_t k = 0; k < 61; k++) {
		uint64_t start = 0x10000 + k * 0x3000;

		mp = maps_find(&m, 7, start);
		bad += mp == NULL || mp->start != start || mp->pgoff != k;
		mp = maps_find(&m, 7, start + 0x1fff);
		bad += mp == NULL || mp->start != start;
		bad += maps_find(&m, 7, start + 0x2000) != NULL;
		bad += maps_find(&m, 7, start - 1) != NULL;
	}
	CHECK(bad == 0, "61 mappings added out of order are each found, "
	    "from first byte to last, and no gap is");
	maps_release(&m);
}

static void
test_self(void)
{
	struct maps m;
	struct mapping *mp;
	uint64_t va = 0, sym = 0, size = 0, back = 0;
	char exe[4096];
	ssize_t n;
	uint64_t addr = (uint64_t)(uintptr_t)&unit_marker;
	char *hex;
	unsigned char raw[3] = { 0x00, 0xab, 0x7f };

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0, "readlink /proc/self/exe");
	if (n <= 0)
		return;
	exe[n] = '\0';
	maps_init(&m);
	CHECK(maps_read_proc(&m, getpid()) == 0, "reads /proc/PID/maps");
	mp = maps_find(&m, getpid(), addr);
	CHECK(mp != NULL && strcmp(mp->file->path, exe) == 0,
	    "a function of this program is in a mapping of its file");
	CHECK(elf_symbol(exe, "unit_marker", &sym, &size), "the symbol table has unit_marker");
	CHECK(mp && mapping_vaddr(mp, addr, &va) == 0 && va == sym,
	    "its run-time address converts to its ELF symbol value");
	CHECK(mp && mapping_runtime(mp, va, &back) == 0 && back == addr,
	    "and back");
	CHECK(mp && mp->file->buildid && strlen(mp->file->buildid) >= 16,
	    "the build ID is read from the note section");
	CHECK(maps_find(&m, getpid(), 0) == NULL, "address 0 is in no mapping");
	maps_release(&m);

	hex = str_hexdup(raw, 3);
	CHECK_STR(hex, "00ab7f", "build IDs are written in lower-case hex");
	free(hex);
}

int
main(void)
{
	test_table();
	test_order();
	test_self();
	(void)unit_marker(1);
	return unit_done();
}
