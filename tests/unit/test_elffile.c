/*
 * test_elffile: the one way ELF files are opened (elf/elffile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/str.h"
#include "elf/elfdwarf.h"
#include "elf/elffile.h"
#include "unit.h"

/* Copies the first n bytes of from (all of it when n is 0) to to. */
static int
copy(const char *from, const char *to, off_t n)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	off_t done = 0;
	ssize_t r;

	if (in < 0)
		return -1;
	if ((out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755)) < 0) {
		close(in);
		return -1;
	}
	while ((n == 0 || done < n) && (r = read(in, buf, n == 0 ||
	    n - done > (off_t)sizeof(buf) ? sizeof(buf) : (size_t)(n - done))) > 0) {
		if (write(out, buf, r) != r)
			break;
		done += r;
	}
	close(in);
	return close(out);
}

static void
test_self(void)
{
	struct elffile ef;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwfl *dwfl;
	char *id;

	elffile_init(&ef);
	CHECK(elffile_open(&ef, "/proc/self/exe") == ELFFILE_OK,
	    "this program opens");
	CHECK(ef.elf != NULL && ef.fd >= 0 && ef.nloads >= 2,
	    "its Elf, its descriptor and its PT_LOAD segments are kept");
	CHECK(ef.ehdr.e_type == ET_DYN || ef.ehdr.e_type == ET_EXEC,
	    "its ELF header is read");
	id = elffile_buildid(&ef);
	CHECK(id != NULL && strlen(id) >= 16 &&
	    strspn(id, "0123456789abcdef") == strlen(id),
	    "its build ID is lower-case hex");
	free(id);
	dwfl = elfdwarf_dwfl(&ef, "self", NULL, &mod, &bias);
	CHECK(dwfl != NULL && mod != NULL, "a libdwfl module from its descriptor");
	if (dwfl != NULL)
		dwfl_end(dwfl);
	elffile_close(&ef);
	CHECK(ef.elf == NULL && ef.fd == -1 && ef.nloads >= 2,
	    "closing keeps the segments");
	CHECK(elfdwarf_dwfl(&ef, "self", NULL, &mod, &bias) == NULL &&
	    mod == NULL && strstr(ef.why, "no file descriptor") != NULL,
	    "a closed file has no module to report");
	elffile_release(&ef);
	CHECK(ef.loads == NULL && ef.nloads == 0, "release frees the segments");
}

static void
test_bad(const char *dir)
{
	char path[256], trunc[256];
	struct elffile ef;
	struct stat st;
	static const uint64_t zero = 0;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwfl *dwfl;
	FILE *fp;
	char *why;

	elffile_init(&ef);
	snprintf(path, sizeof(path), "%s/copy", dir);
	snprintf(trunc, sizeof(trunc), "%s/trunc", dir);

	/* The descriptor, not the name: the file may be gone by then. */
	CHECK(copy("/proc/self/exe", path, 0) == 0, "a copy written");
	CHECK(elffile_open(&ef, path) == ELFFILE_OK, "the copy opens");
	unlink(path);
	dwfl = elfdwarf_dwfl(&ef, "copy", &zero, &mod, &bias);
	CHECK(dwfl != NULL && mod != NULL,
	    "libdwfl gets the checked file, even once its name is gone");
	if (dwfl != NULL)
		dwfl_end(dwfl);

	CHECK(stat("/proc/self/exe", &st) == 0 &&
	    copy("/proc/self/exe", trunc, st.st_size / 2) == 0,
	    "a truncated copy written");
	CHECK(elffile_open(&ef, trunc) == ELFFILE_TRUNCATED &&
	    ef.size == (uint64_t)st.st_size / 2 && ef.need > ef.size &&
	    strstr(ef.why, "bytes but its headers need") != NULL,
	    "a truncated file is refused, with the bytes it needs");
	why = elffile_failure(&ef, "t");
	CHECK(strncmp(why, "'t' is truncated: it has ", 25) == 0 &&
	    strstr(why, "bytes but its headers need") != NULL,
	    "said as truncated, with the bytes it has and needs");
	free(why);
	CHECK(ef.elf == NULL && ef.fd == -1, "and nothing stays open");
	unlink(trunc);

	fp = fopen(path, "w");
	fputs("#!/bin/sh\necho not ELF\n", fp);
	fclose(fp);
	CHECK(elffile_open(&ef, path) == ELFFILE_NOTELF &&
	    strcmp(ef.why, "wrong magic") == 0, "a script is not ELF");
	why = elffile_failure(&ef, "s");
	CHECK_STR(why, "'s' is not an ELF file (wrong magic)",
	    "said as no ELF file, with libelf's reason");
	free(why);
	unlink(path);

	CHECK(mkfifo(path, 0600) == 0, "a FIFO made");
	CHECK(elffile_open(&ef, path) == ELFFILE_NOTREG &&
	    strcmp(ef.why, "not a regular file") == 0,
	    "a FIFO is refused, without waiting for a writer");
	why = elffile_failure(&ef, "f");
	CHECK_STR(why, "'f' is not a regular file", "said as no regular file");
	free(why);
	unlink(path);
	CHECK(elffile_open(&ef, dir) == ELFFILE_NOTREG, "a directory is refused");
	CHECK(elffile_open(&ef, "/dev/null") == ELFFILE_NOTREG,
	    "a device is refused");
	CHECK(elffile_open(&ef, path) == ELFFILE_ERRNO && ef.errnum == ENOENT &&
	    strcmp(ef.why, strerror(ENOENT)) == 0,
	    "a missing file says ENOENT, with strerror");
	why = elffile_failure(&ef, "m");
	CHECK(strncmp(why, "'m': ", 5) == 0 &&
	    strcmp(why + 5, strerror(ENOENT)) == 0,
	    "said with strerror after its name");
	free(why);
	elffile_release(&ef);
}

static void
test_memory(void)
{
	struct elffile ef;
	struct stat st;
	char *img;
	int fd = open("/proc/self/exe", O_RDONLY);

	if (fd < 0 || fstat(fd, &st) != 0 ||
	    (img = malloc(st.st_size)) == NULL ||
	    read(fd, img, st.st_size) != st.st_size) {
		CHECK(0, "this program read into memory");
		return;
	}
	close(fd);
	elffile_init(&ef);
	CHECK(elffile_open_memory(&ef, img, st.st_size) == ELFFILE_OK &&
	    ef.nloads >= 2 && ef.fd == -1, "an image in memory opens");
	elffile_release(&ef);
	memset(img, 0, 16);
	CHECK(elffile_open_memory(&ef, img, st.st_size) == ELFFILE_NOTELF,
	    "an image without the magic is not ELF");
	elffile_release(&ef);
	free(img);
}

static void
test_vaddr(void)
{
	/*
	 * As lld lays a PIE out: the read-only segment from offset 0, the
	 * code right after it in the file (not page-aligned), at a vaddr a
	 * page further; then data in a second executable-free segment.
	 */
	struct elffile_load l[] = {
		{ .offset = 0, .vaddr = 0, .filesz = 0x5a4, .flags = PF_R },
		{ .offset = 0x5b0, .vaddr = 0x15b0, .filesz = 0x100,
		  .flags = PF_R | PF_X },
		{ .offset = 0x6b0, .vaddr = 0x26b0, .filesz = 0x50,
		  .flags = PF_R | PF_W },
	};
	/* A file whose first segment starts past offset 0. */
	struct elffile_load far[] = {
		{ .offset = 0x1000, .vaddr = 0x401000, .filesz = 0x200,
		  .flags = PF_R | PF_X },
	};
	/* Two segments that hold the same bytes (a hand-made file). */
	struct elffile_load both[] = {
		{ .offset = 0, .vaddr = 0x10000, .filesz = 0x2000, .flags = PF_R },
		{ .offset = 0x1000, .vaddr = 0x21000, .filesz = 0x100,
		  .flags = PF_R | PF_X },
	};
	struct elffile ef;
	uint64_t va = 0;
	char *hex;
	static const unsigned char raw[] = { 0x00, 0xab, 0x7f };

	elffile_init(&ef);
	ef.loads = l;
	ef.nloads = 3;
	CHECK(elffile_vaddr(&ef, 0x10, &va) == 0 && va == 0x10,
	    "an offset in the first segment");
	CHECK(elffile_vaddr(&ef, 0x5b0, &va) == 0 && va == 0x15b0,
	    "the first byte of the second segment: off - p_offset + p_vaddr");
	CHECK(elffile_vaddr(&ef, 0x6af, &va) == 0 && va == 0x16af,
	    "its last byte");
	CHECK(elffile_vaddr(&ef, 0x6b0, &va) == 0 && va == 0x26b0,
	    "the next byte is the third segment's");
	/*
	 * Between two segments: fgrecord once rounded segments out to whole
	 * pages and gave the first segment's vaddr (0x5a8), where the page
	 * mapped executable places these bytes at 0x15a8: neither is code.
	 */
	CHECK(elffile_vaddr(&ef, 0x5a8, &va) == -1,
	    "an offset between two segments is in neither");
	CHECK(elffile_vaddr(&ef, 0x700, &va) == -1,
	    "an offset beyond the last segment is in none");
	CHECK(elffile_offset(&ef, 0x15b0, &va) == 0 && va == 0x5b0,
	    "back: vaddr - p_vaddr + p_offset");
	CHECK(elffile_offset(&ef, 0x26ff, &va) == 0 && va == 0x6ff,
	    "the last file byte of the third segment");
	CHECK(elffile_offset(&ef, 0x2700, &va) == -1,
	    "past a segment's file bytes (its .bss) there is no offset");
	CHECK(elffile_offset(&ef, 0x1800, &va) == -1,
	    "nor between segments");
	ef.loads = far;
	ef.nloads = 1;
	CHECK(elffile_vaddr(&ef, 0x1010, &va) == 0 && va == 0x401010,
	    "a first segment past offset 0 converts from its own offset");
	CHECK(elffile_vaddr(&ef, 0x10, &va) == -1,
	    "the headers before it are in no segment");
	ef.loads = both;
	ef.nloads = 2;
	CHECK(elffile_vaddr(&ef, 0x1010, &va) == 0 && va == 0x21010,
	    "where two segments hold an offset, the executable one wins");
	CHECK(elffile_vaddr(&ef, 0x10, &va) == 0 && va == 0x10010,
	    "elsewhere the one that holds it");
	ef.loads = NULL;
	ef.nloads = 0;
	elffile_release(&ef);

	hex = str_hexdup(raw, sizeof(raw));
	CHECK_STR(hex, "00ab7f", "build IDs are written in lower-case hex");
	free(hex);
	hex = str_hexdup(raw, 0);
	CHECK_STR(hex, "", "no bytes, an empty string");
	free(hex);
}

/* The one judgement of "no DWARF for the sampled code" (elf/elfdwarf.h). */
static void
test_lack(void)
{
	CHECK(elfdwarf_lack_matters(1, 100) && elfdwarf_lack_matters(100, 100),
	    "1% of the samples is enough to be said");
	CHECK(!elfdwarf_lack_matters(99, 10000) && !elfdwarf_lack_matters(0, 7),
	    "less than 1% is not");
	CHECK(!elfdwarf_lack_matters(0, 0), "no samples, nothing to say");
}

int
main(void)
{
	char dir[] = "/tmp/test_elffile.XXXXXX";

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_self();
	test_bad(dir);
	test_memory();
	test_vaddr();
	test_lack();
	rmdir(dir);
	return unit_done();
}
