/*
 * test_annotate: the annotate module on ELF files written here with
 * libelf, so that every byte is known: an x86-64 file with an undecodable
 * byte and a call, an aarch64 file (the machine comes from the ELF header,
 * not from the host), a function in a NOBITS section, a missing file, a
 * file that is not ELF, a JIT map, and a write error.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/annotate.h"
#include "unit.h"

struct tsym {
	const char	*name;
	uint64_t	 addr, size;
	int		 type;		/* STT_FUNC or STT_NOTYPE */
	int		 bss;		/* in .bss rather than .text */
};

#define TEXT_ADDR	0x401000
#define BSS_ADDR	0x404000

/*
 * Writes an ET_EXEC file with .text, .bss and a .symtab of syms. When
 * seg_vaddr is not 0, a PT_LOAD segment also maps .text's bytes at
 * seg_vaddr (memsz 0x10 more than filesz): at TEXT_ADDR as a linker
 * would, or where no section is, the way /proc/kcore presents the kernel.
 * With seg_vaddr 0 the file has no program headers, which libdwfl refuses.
 */
static int
make_elf_seg(const char *path, int machine, const void *text, size_t tlen,
    const struct tsym *syms, size_t nsyms, uint64_t seg_vaddr)
{
	static char shstr[] = "\0.text\0.bss\0.symtab\0.strtab\0.shstrtab";
	char strtab[512];
	Elf64_Sym symbuf[16];
	size_t slen = 1;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	Elf *e;
	Elf64_Ehdr *eh;
	Elf_Scn *scn;
	Elf_Data *d;
	Elf64_Shdr *sh;

	if (fd < 0 || nsyms + 1 > 16)
		return -1;
	elf_version(EV_CURRENT);
	if (!(e = elf_begin(fd, ELF_C_WRITE, NULL)) ||
	    !(eh = elf64_newehdr(e)))
		return -1;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_machine = machine;
	eh->e_type = ET_EXEC;
	eh->e_version = EV_CURRENT;

	memset(symbuf, 0, sizeof(symbuf));
	strtab[0] = '\0';
	for (size_t i = 0; i < nsyms; i++) {
		Elf64_Sym *s = &symbuf[i + 1];

		s->st_name = slen;
		memcpy(strtab + slen, syms[i].name, strlen(syms[i].name) + 1);
		slen += strlen(syms[i].name) + 1;
		s->st_value = syms[i].addr;
		s->st_size = syms[i].size;
		s->st_info = ELF64_ST_INFO(STB_GLOBAL, syms[i].type);
		s->st_shndx = syms[i].bss ? 2 : 1;
	}

	/* 1 .text */
	scn = elf_newscn(e);
	d = elf_newdata(scn);
	d->d_buf = (void *)text;
	d->d_size = tlen;
	d->d_type = ELF_T_BYTE;
	d->d_align = 16;
	sh = elf64_getshdr(scn);
	sh->sh_name = 1;
	sh->sh_type = SHT_PROGBITS;
	sh->sh_flags = SHF_ALLOC | SHF_EXECINSTR;
	sh->sh_addr = TEXT_ADDR;
	/* 2 .bss */
	scn = elf_newscn(e);
	d = elf_newdata(scn);
	d->d_buf = NULL;
	d->d_size = 0x100;
	d->d_type = ELF_T_BYTE;
	sh = elf64_getshdr(scn);
	sh->sh_name = 7;
	sh->sh_type = SHT_NOBITS;
	sh->sh_flags = SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR;
	sh->sh_addr = BSS_ADDR;
	sh->sh_size = 0x100;
	/* 3 .symtab */
	scn = elf_newscn(e);
	d = elf_newdata(scn);
	d->d_buf = symbuf;
	d->d_size = (nsyms + 1) * sizeof(Elf64_Sym);
	d->d_type = ELF_T_SYM;
	sh = elf64_getshdr(scn);
	sh->sh_name = 12;
	sh->sh_type = SHT_SYMTAB;
	sh->sh_link = 4;
	sh->sh_info = 1;
	sh->sh_entsize = sizeof(Elf64_Sym);
	/* 4 .strtab */
	scn = elf_newscn(e);
	d = elf_newdata(scn);
	d->d_buf = strtab;
	d->d_size = slen;
	d->d_type = ELF_T_BYTE;
	sh = elf64_getshdr(scn);
	sh->sh_name = 20;
	sh->sh_type = SHT_STRTAB;
	/* 5 .shstrtab */
	scn = elf_newscn(e);
	d = elf_newdata(scn);
	d->d_buf = shstr;
	d->d_size = sizeof(shstr);
	d->d_type = ELF_T_BYTE;
	sh = elf64_getshdr(scn);
	sh->sh_name = 28;
	sh->sh_type = SHT_STRTAB;
	eh->e_shstrndx = 5;

	if (seg_vaddr) {
		Elf64_Phdr *ph = elf64_newphdr(e, 1);
		Elf64_Shdr *tsh = elf64_getshdr(elf_getscn(e, 1));

		if (!ph || elf_update(e, ELF_C_NULL) < 0)
			return -1;
		ph->p_type = PT_LOAD;
		ph->p_flags = PF_R | PF_X;
		ph->p_offset = tsh->sh_offset;
		ph->p_vaddr = ph->p_paddr = seg_vaddr;
		ph->p_filesz = tlen;
		ph->p_memsz = tlen + 0x10;
		ph->p_align = 1;
		elf_flagphdr(e, ELF_C_SET, ELF_F_DIRTY);
	}
	if (elf_update(e, ELF_C_WRITE) < 0) {
		fprintf(stderr, "elf_update: %s\n", elf_errmsg(-1));
		return -1;
	}
	elf_end(e);
	return close(fd);
}

static int
make_elf(const char *path, int machine, const void *text, size_t tlen,
    const struct tsym *syms, size_t nsyms)
{
	return make_elf_seg(path, machine, text, tlen, syms, nsyms, TEXT_ADDR);
}

/* Runs annotate_write into a string; caller frees. */
static char *
listing(struct annotate *a, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	*rc = annotate_write(a, fp);
	fclose(fp);
	return buf;
}

/* The line of s that contains needle, as a new string; NULL if none. */
static char *
line_with(const char *s, const char *needle)
{
	const char *p = strstr(s, needle), *b, *e;

	if (!p)
		return NULL;
	for (b = p; b > s && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	return strndup(b, e ? (size_t)(e - b) : strlen(b));
}

static int
max_width(const char *s)
{
	int w = 0, c = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			c = 0;
			continue;
		}
		if (((unsigned char)*s & 0xc0) != 0x80 && ++c > w)
			w = c;
	}
	return w;
}

int
main(void)
{
	char dir[] = "/tmp/test_annotate.XXXXXX", x86[64], a64[64], txt[64],
	    map[64];
	struct annotate *a;
	char *out, *l;
	int rc;
	FILE *fp;

	if (!mkdtemp(dir))
		return 2;
	snprintf(x86, sizeof(x86), "%s/x86", dir);
	snprintf(a64, sizeof(a64), "%s/a64", dir);
	snprintf(txt, sizeof(txt), "%s/notelf", dir);
	/* Where perf writes maps; a pid above pid_max, so no process's. */
	snprintf(map, sizeof(map), "/tmp/perf-%ld.map", 4194304L + getpid());

	/*
	 * x86-64: hot at 0x401000
	 *   0  55              push %rbp
	 *   1  06              (bad in 64-bit mode)
	 *   2  90              nop           <- label "resume": resync point
	 *   3  e8 08 00 00 00  call 0x401010 <cold>
	 *   8  5d              pop %rbp
	 *   9  c3              ret
	 *   a  pad to 0x10
	 *  10  31 c0 c3        cold: xor %eax,%eax; ret
	 */
	static const unsigned char xtext[] = {
		0x55, 0x06, 0x90, 0xe8, 0x08, 0x00, 0x00, 0x00, 0x5d, 0xc3,
		0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0x31, 0xc0, 0xc3,
	};
	static const struct tsym xsyms[] = {
		{ "hot", TEXT_ADDR, 0x10, STT_FUNC, 0 },
		{ "resume", TEXT_ADDR + 2, 0, STT_NOTYPE, 0 },
		{ "cold", TEXT_ADDR + 0x10, 3, STT_FUNC, 0 },
		{ "bssfn", BSS_ADDR, 0x10, STT_FUNC, 1 },
	};
	CHECK(make_elf(x86, EM_X86_64, xtext, sizeof(xtext), xsyms, 4) == 0,
	    "x86-64 fixture written");

	a = annotate_new(&(struct annotate_opts){ .top = 5 });
	for (int i = 0; i < 6; i++)
		annotate_add(a, x86, TEXT_ADDR + 8);	/* pop: 6 */
	annotate_add(a, x86, TEXT_ADDR + 1);		/* (bad): 1 */
	annotate_add(a, x86, TEXT_ADDR + 5);		/* inside the call */
	annotate_add(a, x86, TEXT_ADDR + 0x11);		/* cold */
	annotate_add(a, x86, BSS_ADDR + 4);		/* bssfn */
	annotate_add(a, x86, 0x999999);			/* nowhere */
	out = listing(a, &rc);
	CHECK(rc == 0, "annotate_write returns 0");
	CHECK(strstr(out, "11 samples in 1 file, 3 functions") != NULL,
	    "summary counts samples, files and functions");
	l = line_with(out, "    1 ");
	CHECK(l && strstr(l, "8") && strstr(l, "hot (x86)"),
	    "hot is ranked first");
	free(l);
	l = line_with(out, "(bad)");
	CHECK(l && strstr(l, "401001:") && strstr(l, " 06") &&
	    strstr(l, "12.50%"), "undecodable byte shown as (bad) with its "
	    "bytes and count");
	free(l);
	l = line_with(out, "401002:");
	CHECK(l && strstr(l, "nop"), "decoding resyncs at the next label");
	free(l);
	l = line_with(out, "401003:");
	CHECK(l && strstr(l, "call") && strstr(l, "<cold>") &&
	    strstr(l, "12.50%"), "call target named; a sample inside an "
	    "instruction counts for it");
	free(l);
	l = line_with(out, "401008:");
	CHECK(l && strncmp(l, ">>", 2) == 0 && strstr(l, "75.00%"),
	    "hot instruction marked >> with its share of the function");
	free(l);
	CHECK(strstr(out, "'.bss' has no bytes in the file (NOBITS)") != NULL,
	    "a function in a NOBITS section is not disassembled");
	CHECK(strstr(out, "[not in any function] (x86)") != NULL,
	    "samples outside every function are counted apart");
	CHECK(strstr(out, "\033[") == NULL, "no colour unless asked");
	CHECK(max_width(out) <= 100, "100 columns at most");
	{
		char *again = listing(a, &rc);

		CHECK(rc == 0 && strcmp(out, again) == 0,
		    "a second write gives the same listing");
		free(again);
	}
	free(out);
	annotate_free(a);

	/* aarch64, chosen from the header: nop; bl g; ret; g: ret */
	static const unsigned char atext[] = {
		0x1f, 0x20, 0x03, 0xd5, 0x02, 0x00, 0x00, 0x94,
		0xc0, 0x03, 0x5f, 0xd6, 0xc0, 0x03, 0x5f, 0xd6,
	};
	static const struct tsym asyms[] = {
		{ "f", TEXT_ADDR, 12, STT_FUNC, 0 },
		{ "g", TEXT_ADDR + 12, 4, STT_FUNC, 0 },
	};
	CHECK(make_elf(a64, EM_AARCH64, atext, sizeof(atext), asyms, 2) == 0,
	    "aarch64 fixture written");
	a = annotate_new(&(struct annotate_opts){ .top = 1, .color = 1 });
	annotate_add(a, a64, TEXT_ADDR);
	annotate_add(a, a64, TEXT_ADDR + 4);
	annotate_add(a, a64, TEXT_ADDR + 4);
	annotate_add(a, a64, TEXT_ADDR + 12);
	out = listing(a, &rc);
	l = line_with(out, "401004:");
	CHECK(l && strstr(l, "bl ") && strstr(l, "<g>"),
	    "aarch64 disassembled, bl target named");
	CHECK(l && strstr(l, "\033[1;31m") != NULL, "hot line coloured");
	free(l);
	CHECK(strstr(out, "== 2.") == NULL, "top = 1 lists one function");
	free(out);
	annotate_free(a);

	/* bytes found through a program header only, as in /proc/kcore */
	static const struct tsym ssyms[] = {
		{ "cold", TEXT_ADDR + 0x10, 3, STT_FUNC, 0 },
		{ "seg_fn", 0x500010, 3, STT_FUNC, 0 },
		{ "past_filesz", 0x500000 + sizeof(xtext) + 4, 4, STT_FUNC, 0 },
	};
	CHECK(make_elf_seg(x86, EM_X86_64, xtext, sizeof(xtext), ssyms, 3,
	    0x500000) == 0, "fixture with a section-less segment written");
	a = annotate_new(NULL);
	annotate_add(a, x86, 0x500010);
	annotate_add(a, x86, 0x500010);
	annotate_add(a, x86, 0x500000 + sizeof(xtext) + 5);
	out = listing(a, &rc);
	l = line_with(out, "500010:");
	CHECK(l && strstr(l, "xorl") && strstr(l, "100.00%"),
	    "code read through the PT_LOAD segment when no section holds it");
	free(l);
	CHECK(strstr(out, "its segment has no bytes in the file") != NULL,
	    "an address past the segment's file size is said to have no bytes");
	free(out);
	annotate_free(a);

	/* no program headers: libdwfl refuses it, and that is said */
	CHECK(make_elf_seg(x86, EM_X86_64, xtext, sizeof(xtext), xsyms, 4, 0)
	    == 0, "fixture without program headers written");
	a = annotate_new(NULL);
	annotate_add(a, x86, TEXT_ADDR);
	out = listing(a, &rc);
	CHECK(rc == 0 && strstr(out, "': dwfl_report_elf: ") != NULL,
	    "a failed dwfl_report_elf is stated, quoting libdwfl");
	l = line_with(out, "401000:");
	CHECK(l && strstr(l, "push"), "and the code is listed all the same");
	free(l);
	CHECK(annotate_bad_files(a) == 1, "the file counts as used in part");
	free(out);
	annotate_free(a);
	CHECK(make_elf(x86, EM_X86_64, xtext, sizeof(xtext), xsyms, 4) == 0,
	    "fixture written again");

	/* a missing file, a file that is not ELF, a JIT map, the kernel */
	fp = fopen(txt, "w");
	fputs("hello\n", fp);
	fclose(fp);
	fp = fopen(map, "w");
	fputs("7f0000001000 40 LazyCompile:*jitted_fn app.js:1\n", fp);
	fclose(fp);
	a = annotate_new(NULL);
	annotate_add(a, "/nonexistent/libgone.so", 0x1234);
	annotate_add(a, txt, 0x1234);
	annotate_add(a, map, 0x7f0000001010);
	annotate_add(a, "[unknown]", 0x7f0000001010);
	out = listing(a, &rc);
	CHECK(rc == 0, "bad files are not write errors");
	CHECK(strstr(out, "cannot open '/nonexistent/libgone.so': No such "
	    "file or directory") != NULL, "missing file named in the listing");
	CHECK(strstr(out, "is not an ELF file") != NULL,
	    "file that is not ELF named in the listing");
	CHECK(strstr(out, "LazyCompile:*jitted_fn") != NULL &&
	    strstr(out, "JIT code: its bytes are in no file") != NULL,
	    "JIT function named from the perf map, no bytes claimed");
	CHECK(strstr(out, "'[unknown]' is no file") != NULL,
	    "[unknown] is said to be no file");
	free(out);
	annotate_free(a);

	/* no samples; a write error */
	a = annotate_new(NULL);
	out = listing(a, &rc);
	CHECK(rc == 0 && strstr(out, "no samples") != NULL,
	    "no samples: a one-line note");
	free(out);
	annotate_add(a, x86, TEXT_ADDR);
	if ((fp = fopen("/dev/full", "w"))) {
		errno = 0;
		rc = annotate_write(a, fp);
		CHECK(rc == -1 && errno == ENOSPC,
		    "write error returns -1 with errno");
		fclose(fp);
	}
	annotate_free(a);
	annotate_free(NULL);

	unlink(x86);
	unlink(a64);
	unlink(txt);
	unlink(map);
	rmdir(dir);
	return unit_done();
}
