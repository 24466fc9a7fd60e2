/* Unit tests for common/elf/kallsyms.c. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elf/kallsyms.h"
#include "unit.h"

static char path[] = "/tmp/test_kallsyms.XXXXXX";

static void
write_file(const char *text)
{
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
}

int
main(void)
{
	struct kallsyms ks, *k = &ks;
	const char *name, *mod;
	uint64_t off = 0;
	int fd = mkstemp(path);

	kallsyms_init(k);
	close(fd);
	write_file("ffffffff81001000 t later\n"
	    "0000000000000000 A fixed_percpu_data\n"
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000000 T _text\n"
	    "ffffffff81002000 D some_data\n"
	    "garbage line\n"
	    "10000000000000000 T past_2_64\n"
	    "ffffffff81003000x T glued\n"
	    "ffffffff81004000  T two_spaces\n"
	    "ffffffffc0100000 t ext4_read\t[ext4]\n"
	    "ffffffffc0200000 W weak_one");	/* no final newline */
	CHECK(kallsyms_load(k, path) == 0, "loads a kallsyms file");
	CHECK(k->n == 5, "keeps only code symbols, skips bad lines");
	name = kallsyms_lookup(k, 0xffffffff81000010, &off, &mod);
	CHECK_STR(name, "_stext", "equal addresses: the first by name");
	CHECK(off == 0x10 && mod == NULL, "offset into the kernel symbol");
	name = kallsyms_lookup(k, 0xffffffff81001fff, &off, NULL);
	CHECK_STR(name, "later", "the highest start not above the address");
	name = kallsyms_lookup(k, 0xffffffffc0100008, &off, &mod);
	CHECK_STR(name, "ext4_read", "module symbol");
	CHECK_STR(mod, "ext4", "module name without brackets");
	name = kallsyms_lookup(k, 0xffffffffc0200001, &off, NULL);
	CHECK_STR(name, "weak_one", "last line without a newline");
	CHECK(kallsyms_lookup(k, 0x1000, &off, NULL) == NULL,
	    "below the first symbol: NULL");

	write_file("0000000000000000 T _stext\n0000000000000000 t foo\n");
	CHECK(kallsyms_load(k, path) == -2, "all-zero addresses: -2");
	CHECK(kallsyms_load(k, "/nonexistent/kallsyms") == -1,
	    "missing file: -1");
	kallsyms_release(k);
	unlink(path);
	return unit_done();
}
