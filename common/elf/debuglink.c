/*
 * debuglink: separate debug files found by our own code, each opened the
 * one safe way (see debuglink.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elf.h>
#include <elfutils/libdwelf.h>
#include <zlib.h>

#include "base/str.h"
#include "base/xalloc.h"
#include "elf/dbgfetch.h"
#include "elf/debuglink.h"
#include "elf/elffile.h"
#include "elf/filesearch.h"

#define DEBUGDIR	"/usr/lib/debug"

/*
 * Keeps msg (a new string, taken) in *note as the first refusal, when
 * note is not NULL and holds none yet; else frees it. The message carries
 * its length: a long path is never cut.
 */
static void
refuse(char **note, char *msg)
{
	if (note != NULL && *note == NULL)
		*note = msg;
	else
		free(msg);
}

/* The CRC-32 of the size bytes of fd, as .gnu_debuglink has it; -1 on a read error. */
static int64_t
file_crc(int fd, uint64_t size)
{
	static unsigned char buf[1 << 20];
	uLong crc = crc32(0L, Z_NULL, 0);
	uint64_t off = 0;

	while (off < size) {
		size_t want = size - off < sizeof(buf) ? size - off : sizeof(buf);
		ssize_t n = pread(fd, buf, want, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		crc = crc32(crc, buf, (uInt)n);
		off += (uint64_t)n;
	}
	return (int64_t)(crc & 0xffffffffu);
}

/*
 * Opens path as a debug file candidate: regular, within the bounds, an
 * ELF file, not the main file itself (main, may be NULL), with the build
 * ID id (hex) or, when id is NULL and check_crc, the CRC crc. Returns a
 * descriptor of it (the caller closes it) or -1; a file that is there but
 * refused is said in note.
 */
static int
try_debug(const char *path, const char *id, int check_crc, uint32_t crc,
    const struct stat *mainst, char **note)
{
	struct elffile ef;
	struct stat st;
	int fd = -1;

	elffile_init(&ef);
	switch (elffile_open(&ef, path)) {
	case ELFFILE_OK:
		break;
	case ELFFILE_NOTELF:
		/* The debuginfod client's cache notes a miss as an empty file. */
		if (ef.size == 0 && stat(path, &st) == 0 && st.st_size == 0)
			goto out;
		refuse(note, xasprintf("debug file '%s' refused: %s", path,
		    ef.why));
		goto out;
	case ELFFILE_ERRNO:
		if (ef.errnum != ENOENT && ef.errnum != ENOTDIR)
			refuse(note, xasprintf("debug file '%s' refused: %s",
			    path, ef.why));
		goto out;
	default:
		refuse(note, xasprintf("debug file '%s' refused: %s", path,
		    ef.why));
		goto out;
	}
	if (mainst != NULL && fstat(ef.fd, &st) == 0 &&
	    st.st_dev == mainst->st_dev &&
	    st.st_ino == mainst->st_ino)
		goto out;
	if (id != NULL) {
		char *mine = elffile_buildid(&ef);
		int same = mine != NULL && strcmp(mine, id) == 0;

		free(mine);
		if (!same)
			goto out;
	} else if (check_crc) {
		if (ef.size > DEBUGLINK_CRC_MAX) {
			refuse(note, xasprintf("debug file '%s' refused: %"
			    PRIu64 " bytes and no build ID: its CRC is checked "
			    "up to %" PRIu64 " GiB", path, ef.size,
			    DEBUGLINK_CRC_MAX >> 30));
			goto out;
		}
		if (file_crc(ef.fd, ef.size) != (int64_t)crc)
			goto out;
	}
	fd = dup(ef.fd);
out:
	elffile_release(&ef);
	return fd;
}

/* A new string: dir, "/", sub and "/" when sub is not NULL, file. */
static char *
join(const char *dir, const char *sub, const char *file)
{
	return xasprintf("%s/%s%s%s", dir, sub ? sub : "", sub ? "/" : "",
	    file);
}

/* The directory of path, as a new string ("." when it has none). */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

/* The build-id path of the hex ID id: a new string, or NULL for an odd one. */
static char *
buildid_path(const char *id)
{
	size_t n = strlen(id);

	/* libdw's own bounds: 3 to 64 bytes. */
	if (n < 6 || n > 128)
		return NULL;
	return xasprintf(DEBUGDIR "/.build-id/%.2s/%s.debug", id, id + 2);
}

/*
 * The debug file of the hex build ID id in the debuginfod client's cache,
 * where `debuginfod-find debuginfo FILE` puts it: $DEBUGINFOD_CACHE_PATH,
 * else $XDG_CACHE_HOME/debuginfod_client, else ~/.cache/debuginfod_client,
 * then ID/debuginfo. A new string, or NULL when there is no cache to name.
 * fgsym reads the cache and never asks a server itself.
 */
static char *
cache_path(const char *id)
{
	const char *d;

	if ((d = getenv("DEBUGINFOD_CACHE_PATH")) != NULL && d[0] == '/')
		return xasprintf("%s/%s/debuginfo", d, id);
	if ((d = getenv("XDG_CACHE_HOME")) != NULL && d[0] == '/')
		return xasprintf("%s/debuginfod_client/%s/debuginfo", d, id);
	if ((d = getenv("HOME")) != NULL && d[0] == '/')
		return xasprintf("%s/.cache/debuginfod_client/%s/debuginfo", d,
		    id);
	return NULL;
}

/*
 * Tries link beside file_name, in its .debug, and under /usr/lib/debug
 * followed by each tail of its directory. Returns a descriptor and sets
 * *found, or -1.
 */
static int
try_dirs(const char *file_name, const char *link, const char *id,
    int check_crc, uint32_t crc, const struct stat *mainst,
    char **note, char **found)
{
	char *dir = dir_of(file_name), *path;
	const char *sub;
	int fd = -1, k;

	for (k = 0; fd < 0 && k < 2; k++) {
		path = join(dir, k ? ".debug" : NULL, link);
		if ((fd = try_debug(path, id, check_crc, crc, mainst, note)) >= 0)
			*found = path;
		else
			free(path);
	}
	for (sub = dir; fd < 0 && dir[0] == '/' && sub != NULL; ) {
		if ((sub = strchr(sub, '/')) == NULL || *++sub == '\0')
			break;
		path = join(DEBUGDIR, sub, link);
		if ((fd = try_debug(path, id, check_crc, crc, mainst, note)) >= 0)
			*found = path;
		else
			free(path);
	}
	free(dir);
	return fd;
}

int
debuglink_find_debuginfo(Dwfl_Module *mod, void **userdata,
    const char *modname, Dwarf_Addr base, const char *file_name,
    const char *debuglink_file, GElf_Word debuglink_crc,
    char **debuginfo_file_name)
{
	struct elffile *ef = userdata ? *userdata : NULL;
	char **note = ef != NULL ? &ef->note : NULL;
	const struct filesearch *fs = ef != NULL ? ef->search : NULL;
	char **more;
	size_t nmore = 0, nmax, i;
	const unsigned char *bits;
	const char *own = NULL, *base_name;
	char *id = NULL, *link, *path, *canon = NULL, *found = NULL;
	GElf_Addr vaddr;
	GElf_Word owncrc = 0;
	Dwarf_Addr bias;
	struct stat mst, *mainst = NULL;
	Elf *elf;
	int n, fd = -1;

	(void)base;
	errno = 0;
	if ((elf = dwfl_module_getelf(mod, &bias)) != NULL)
		own = dwelf_elf_gnu_debuglink(elf, &owncrc);
	/* libdwfl asks for a .gnu_debugaltlink's file: debuglink_setalt's job. */
	if (debuglink_file != NULL && (own == NULL ||
	    strcmp(own, debuglink_file) != 0 || owncrc != debuglink_crc))
		return -1;
	if ((n = dwfl_module_build_id(mod, &bits, &vaddr)) > 0)
		id = str_hexdup(bits, (size_t)n);
	if (file_name != NULL && stat(file_name, &mst) == 0)
		mainst = &mst;
	/*
	 * By build ID: /usr/lib/debug's tree, the same under --symfs, the
	 * --symbol-dir folders' trees, then debuginfod's cache.
	 */
	link = debuglink_file != NULL ? xstrdup(debuglink_file) : NULL;
	nmax = 3 + 2 * (fs != NULL ? fs->ndirs : 0);
	more = xcalloc(nmax, sizeof(*more));
	if (id != NULL) {
		char *dbgpath = buildid_path(id);

		if (dbgpath != NULL)
			more[nmore++] = dbgpath;
		nmore += filesearch_debug_paths(fs, id, dbgpath, NULL,
		    more + nmore, nmax - 2);
		if ((path = cache_path(id)) != NULL)
			more[nmore++] = path;
	}
	for (i = 0; i < nmore; i++) {
		if (fd < 0 && (fd = try_debug(more[i], id, 0, 0, mainst,
		    note)) >= 0)
			found = more[i];
		else
			free(more[i]);
	}
	if (fd < 0 && file_name != NULL) {
		if (link == NULL) {
			base_name = strrchr(file_name, '/');
			link = xasprintf("%s.debug", base_name ? base_name + 1 :
			    file_name);
		}
		/* As libdwfl: a CRC of 0 is none to check. */
		fd = try_dirs(file_name, link, id, debuglink_crc != 0,
		    debuglink_crc, mainst, note, &found);
		/* A file reached through a symbolic link: beside its target too. */
		if (fd < 0 && (canon = realpath(file_name, NULL)) != NULL &&
		    strcmp(canon, file_name) != 0)
			fd = try_dirs(canon, link, id, debuglink_crc != 0,
			    debuglink_crc, mainst, note, &found);
		free(canon);
	}
	/* The --symbol-dir folders by the link's name. */
	if (fd < 0 && link != NULL) {
		nmore = filesearch_debug_paths(fs, NULL, NULL, link, more,
		    nmax);
		for (i = 0; i < nmore; i++) {
			if (fd < 0 && (fd = try_debug(more[i], id,
			    debuglink_crc != 0, debuglink_crc, mainst,
			    note)) >= 0)
				found = more[i];
			else
				free(more[i]);
		}
	}
	free(link);
	free(more);
	/* Last, the debuginfod servers, by build ID: only when asked to. */
	if (fd < 0 && id != NULL && fs != NULL && fs->fetch != NULL &&
	    (path = dbgfetch_find(fs->fetch, DBGFETCH_DEBUGINFO, id,
	    file_name != NULL ? file_name : modname)) != NULL) {
		if ((fd = try_debug(path, id, 0, 0, mainst, note)) >= 0)
			found = path;
		else
			free(path);
	}
	free(id);
	if (fd < 0) {
		errno = 0;
		return -1;
	}
	*debuginfo_file_name = found;
	return fd;
}

/*
 * The stand-in alternate file: an ELF image in memory with one empty
 * compilation unit and no string table, so that every alternate string
 * or reference is an error of libdw's (no name), never a search.
 */
static struct {
	Elf64_Ehdr	eh;
	Elf64_Shdr	sh[3];
	char		shstr[24];
	unsigned char	info[11];
} standin_image;

static Dwarf *
standin(void)
{
	static const char names[] = "\0.shstrtab\0.debug_info";
	/* unit_length 7, version 4, abbrev offset 0, address size 8 */
	static const unsigned char cu[11] = { 7, 0, 0, 0, 4, 0, 0, 0, 0, 0, 8 };
	static Dwarf *dw;
	static int tried;
	Elf64_Ehdr *eh = &standin_image.eh;
	Elf *elf;

	if (tried)
		return dw;
	tried = 1;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
	    ELFDATA2MSB : ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_REL;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shoff = offsetof(__typeof__(standin_image), sh);
	eh->e_shnum = 3;
	eh->e_shstrndx = 1;
	memcpy(standin_image.shstr, names, sizeof(names));
	memcpy(standin_image.info, cu, sizeof(cu));
	standin_image.sh[1].sh_name = 1;
	standin_image.sh[1].sh_type = SHT_STRTAB;
	standin_image.sh[1].sh_offset = offsetof(__typeof__(standin_image), shstr);
	standin_image.sh[1].sh_size = sizeof(names);
	standin_image.sh[1].sh_addralign = 1;
	standin_image.sh[2].sh_name = 11;
	standin_image.sh[2].sh_type = SHT_PROGBITS;
	standin_image.sh[2].sh_offset = offsetof(__typeof__(standin_image), info);
	standin_image.sh[2].sh_size = sizeof(cu);
	standin_image.sh[2].sh_addralign = 1;
	elf_version(EV_CURRENT);
	if ((elf = elf_memory((char *)&standin_image, sizeof(standin_image))) != NULL &&
	    (dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)) == NULL)
		elf_end(elf);
	return dw;
}

void
debuglink_setalt(Dwarf *dw, const char *path, const struct filesearch *fs,
    struct elffile **alt, Dwarf **altdw, char **note)
{
	const char *name;
	const void *bits;
	char *id, *cand[4] = { NULL, NULL, NULL, NULL }, *dir;
	ssize_t n;
	size_t i;

	*alt = NULL;
	*altdw = NULL;
	if (dw == NULL || (n = dwelf_dwarf_gnu_debugaltlink(dw, &name, &bits)) <= 0)
		return;
	id = str_hexdup(bits, (size_t)n);
	cand[0] = buildid_path(id);
	cand[2] = cache_path(id);
	if (name[0] == '/') {
		cand[1] = xstrdup(name);
	} else if (path != NULL) {
		dir = dir_of(path);
		cand[1] = join(dir, NULL, name);
		free(dir);
	}
	for (i = 0; i < 4 && *altdw == NULL; i++) {
		struct elffile *ef;
		char *mine;
		int st;

		/* Last, the debuginfod servers: only when asked to. */
		if (i == 3 && fs != NULL)
			cand[3] = dbgfetch_find(fs->fetch, DBGFETCH_DEBUGINFO,
			    id, name);
		if (cand[i] == NULL)
			continue;
		ef = xmalloc(sizeof(*ef));
		elffile_init(ef);
		st = elffile_open(ef, cand[i]);
		if (st != ELFFILE_OK && !(st == ELFFILE_ERRNO &&
		    (ef->errnum == ENOENT || ef->errnum == ENOTDIR)))
			refuse(note, xasprintf("alternate debug file '%s' "
			    "refused: %s", cand[i], ef->why));
		mine = st == ELFFILE_OK ? elffile_buildid(ef) : NULL;
		if (mine != NULL && strcmp(mine, id) == 0 &&
		    (*altdw = dwarf_begin_elf(ef->elf, DWARF_C_READ, NULL)) != NULL) {
			*alt = ef;
		} else {
			elffile_release(ef);
			free(ef);
		}
		free(mine);
	}
	dwarf_setalt(dw, *altdw != NULL ? *altdw : standin());
	for (i = 0; i < 4; i++)
		free(cand[i]);
	free(id);
}

static char *debuginfo_path;

const Dwfl_Callbacks debuglink_offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = debuglink_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};
