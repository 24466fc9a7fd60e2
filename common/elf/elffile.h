/*
 * elffile: one ELF file opened the one safe way, for every reader here
 * (fgsym's symbolizer and annotator, fgrecord's mappings).
 *
 *	struct elffile ef;
 *	elffile_init(&ef);
 *	if (elffile_open(&ef, path) != ELFFILE_OK)
 *		warnx("'%s': %s", path, ef.why);
 *	else if (elffile_vaddr(&ef, off, &vaddr) == 0) ...
 *	elffile_release(&ef);
 *
 * The path is opened through safeopen(3): only a regular file, checked
 * before anything opens it (no FIFO waits, no device driver runs), and no
 * larger than ELFFILE_MAX_SIZE. Then libelf reads it from that descriptor,
 * and its headers are checked against its size: a file cut short is
 * refused as truncated before libelf or libdw trust what is not there.
 * What the readers need is kept: the ELF header, the PT_LOAD segments, the
 * build ID. elf/elfdwarf makes a libdwfl module from the same descriptor
 * (a dup of it), so libdwfl never opens the file by name again: what it
 * reads is what was checked.
 *
 * Every failure says why in ef.why, quoting libelf's, libdwfl's or the
 * system's own message.
 */
#ifndef FG_ELFFILE_H
#define FG_ELFFILE_H

#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

struct filesearch;

/* A file larger is refused (ELFFILE_TOOBIG): 64 GiB, beyond any real DSO. */
#define ELFFILE_MAX_SIZE	((uint64_t)64 << 30)

enum elffile_status {
	ELFFILE_OK = 0,
	ELFFILE_ERRNO,		/* open(2) failed: errnum says why (ENOENT, ...) */
	ELFFILE_NOTREG,		/* a FIFO, a device, a directory: never opened */
	ELFFILE_TOOBIG,		/* larger than ELFFILE_MAX_SIZE */
	ELFFILE_NOTELF,		/* not ELF, or libelf cannot read its headers */
	ELFFILE_TRUNCATED,	/* its headers need more bytes than it has */
	ELFFILE_REFUSED,	/* refused by its reader (buildcache_open):
				   why says why, naming it */
};

/* A PT_LOAD program header: what turns a file offset into an address. */
struct elffile_load {
	uint64_t	 offset;	/* p_offset */
	uint64_t	 vaddr;		/* p_vaddr */
	uint64_t	 filesz;	/* p_filesz */
	uint64_t	 memsz;		/* p_memsz */
	uint32_t	 flags;		/* p_flags: PF_X, PF_W, PF_R */
};

struct elffile {
	char		*path;		/* owned copy; NULL for an image in memory */
	int		 fd;		/* owned; -1 when closed or in memory */
	Elf		*elf;		/* owned; NULL when closed */
	GElf_Ehdr	 ehdr;		/* valid once opened */
	uint64_t	 size;		/* bytes of the file (or the image) */
	uint64_t	 dev, ino;	/* the file's st_dev and st_ino; 0 in memory */
	struct elffile_load *loads;	/* owned; in program header order */
	size_t		 nloads;
	int		 status;	/* of the last open: ELFFILE_OK or not */
	int		 errnum;	/* ELFFILE_ERRNO: the errno */
	uint64_t	 need;		/* ELFFILE_TRUNCATED: bytes its headers need */
	char		 why[192];	/* the last failure in words, or "" */
	/* From elfdwarf_dwfl: what the debug file search refused. */
	char		*note;		/* owned: in words, or NULL */
	struct elffile	*alt;		/* owned: the alternate debug file, or NULL */
	Dwarf		*altdw;		/* owned: its Dwarf, or NULL */
	/*
	 * For elfdwarf_dwfl, set by the caller after the open: where its
	 * debug files are looked for besides the usual places (--symfs,
	 * --symbol-dir, debuginfod; elf/filesearch), borrowed; NULL: the
	 * usual places only. elffile_release clears it.
	 */
	const struct filesearch *search;
};

/* Makes an empty, closed elffile. */
void	 elffile_init(struct elffile *);

/*
 * Opens path (see above) and reads its ELF header and PT_LOAD segments.
 * Returns ELFFILE_OK, or the status of the failure with ef->why set
 * ("not a regular file", strerror, "wrong magic" or elf_errmsg, "it has N
 * bytes but its headers need M"); nothing stays open then. An elffile
 * already open is released first.
 */
int	 elffile_open(struct elffile *, const char *path);

/*
 * The same for path, fgrecord's name for the file that a process under
 * another root calls inside (fg-stream(5)'s "# inside" line): resolved
 * beneath that root (base/inroot), never following a link out of it.
 */
int	 elffile_open_inside(struct elffile *, const char *path,
	    const char *inside);

/*
 * The same for an ELF image in memory (the vDSO): image is borrowed and
 * must outlive the elffile; there is no descriptor, so no libdwfl module
 * and no truncation check beyond libelf's own.
 */
int	 elffile_open_memory(struct elffile *, void *image, size_t size);

/*
 * Ends the Elf and closes the descriptor, keeping what was read (ehdr,
 * loads): for a file whose headers are all that is still needed, or
 * whose descriptor libdwfl now holds a copy of.
 */
void	 elffile_close(struct elffile *);

/*
 * Closes the file and frees the segments, the note and the alternate
 * debug file (after the Dwfl of elfdwarf_dwfl has ended); elffile_init
 * makes it usable again.
 */
void	 elffile_release(struct elffile *);

/*
 * Converts the file offset off to the address in the file's own ELF
 * address space (what nm and addr2line use), through the PT_LOAD segment
 * whose file bytes hold it: off - p_offset + p_vaddr. Where two segments
 * hold it (a hand-made file), the executable one wins. An offset between
 * segments, or beyond the last, is in no segment. Returns 0 and sets
 * *vaddr, or -1.
 */
int	 elffile_vaddr(const struct elffile *, uint64_t off, uint64_t *vaddr);

/*
 * The inverse: the file offset of address vaddr of the file's own ELF
 * address space, through the PT_LOAD segment whose file bytes hold it:
 * vaddr - p_vaddr + p_offset. An address in no segment's file bytes (a
 * .bss, a gap) has none. Returns 0 and sets *off, or -1.
 */
int	 elffile_offset(const struct elffile *, uint64_t vaddr, uint64_t *off);

/*
 * The GNU build ID of the open file, as lower-case hex. Returns a new
 * string (the caller frees it), or NULL when it has none.
 */
char	*elffile_buildid(const struct elffile *);

/*
 * The failure of the last elffile_open or elffile_open_memory of ef, as
 * the one sentence every reader says of it, about subject (the path as
 * the caller names it): "'P' is not a regular file", "'P' is not an ELF
 * file (wrong magic)", "'P' is truncated: it has N bytes but its headers
 * need M", else "'P': " and ef->why (strerror, "larger than 64 GiB"). The
 * caller adds what follows for its frames or samples. A new string; the
 * caller frees it.
 */
char	*elffile_failure(const struct elffile *, const char *subject);

#endif
