/*
 * testsym.h: for the unit tests that check an address against the ELF
 * symbol table of a program: elf_symbol(path, name, &value, &size) finds
 * the sized symbol (a function or an object, not a label) called name in
 * the .symtab of path. Returns 1 when found.
 */
#ifndef FG_TEST_ELFSYM_H
#define FG_TEST_ELFSYM_H

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static int
elf_symbol(const char *path, const char *name, uint64_t *value, uint64_t *size)
{
	int fd = open(path, O_RDONLY), found = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; d && i < n; i++) {
			GElf_Sym sym;
			const char *s;

			if (gelf_getsym(d, (int)i, &sym) == NULL)
				continue;
			s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && strcmp(s, name) == 0 && sym.st_size) {
				*value = sym.st_value;
				*size = sym.st_size;
				found = 1;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

#endif
