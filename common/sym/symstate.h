/*
 * symstate: what the files of the symbolizer share (sym.c, the stream;
 * symfile.c, the file table; resolve.c, a frame's text and its cache;
 * symsummary.c, the end; symsink.c, samples handed over as structs). Not
 * for the symbolizer's users: sym.h is theirs.
 *
 * Two tables carry the work. The file table maps a DSO string, as the
 * stream prints it, to a struct sfile that is opened lazily: its program
 * headers and build ID on the first frame (cheap), its libdwfl module on
 * the first lookup, its DWARF when a lookup needs inlines or lines. The
 * address cache maps (file, address, is-return) to the finished text of
 * that frame: the inlined names, the symbol with its offset, the source
 * lines. The file table is an array indexed by a struct hashtab keyed
 * with xxHash; the address cache is one table of slots, probed linearly,
 * the address in the slot, so that a look-up is one cache miss, not two.
 */
#ifndef FG_SYMSTATE_H
#define FG_SYMSTATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <elfutils/libdwfl.h>
#include <libelf.h>

#include "base/hashtab.h"
#include "base/lineread.h"
#include "elf/elffile.h"
#include "elf/elfsym.h"
#include "elf/filesearch.h"
#include "elf/kallsyms.h"
#include "elf/perfmap.h"
#include "stream/dso.h"
#include "stream/stream.h"
#include "sym/cuindex.h"
#include "sym/dwname.h"
#include "sym/sym.h"


/*
 * The file table holds this many names at most (an entry is 600 bytes and
 * its name): a stream that names more (a hostile one, or another machine
 * of thousands of containers) has their frames left [unknown], in one
 * file of this name.
 */
#define SYM_FILES_MAX	65536
#define SYM_TOOMANY	"[more files than fgsym holds]"

struct sfile {
	char		*dso;		/* as printed in the stream, owned */
	size_t		 dsolen;
	enum dso_kind	 kind;
	int		 opened;	/* 1 ok, -1 unusable, 0 not yet */
	int		 loaded;	/* libdwfl: 1 ok, -1 failed, 0 not yet */
	struct elffile	 ef;		/* its headers; closed once libdwfl has it */
	char		*buildid;	/* hex, from the ELF note; owned */
	char		*recorded;	/* hex, from "# buildid"; owned */
	char		*inside;	/* from "# inside": the name its
					   process used under another root,
					   beneath which it is opened; owned */
	Dwfl		*dwfl;
	Dwfl_Module	*mod;
	Dwarf_Addr	 bias;		/* dwfl address = vaddr + bias */
	struct cuindex	 cus;		/* its CUs' address maps, built on use */
	struct elfsym	 syms;		/* functions sorted by address */
	int		 exec_vaddr;	/* perf printed vaddrs for this ET_EXEC */
	int		 rebuilt;	/* its build ID is not the recorded one */
	int		 fetched;	/* f->ef came from a debuginfod server */
	int		 o0_checked;
	int		 nodwarf_warned;	/* its lack of DWARF was said, or
					   a stripped or refused file's */
	int		 nodwarf;	/* no DWARF, its own or a debug file's */
	int		 dwarf_checked;
	int		 dwarf_bad;	/* its DWARF is corrupt: not used */
	int		 missing;	/* no such file: not an input error */
	uint32_t	 same;		/* the file number + 1 of the spelling
					   of this file opened first, whose
					   tables serve it; 0: none */
	uint64_t	 dev, ino;	/* of the file opened, once opened */
	struct dwname	 dwn;		/* C++ scopes of unmangled DIEs */
	struct perfmap	*pm;
	unsigned long	 frames;	/* frames that needed a name */
	unsigned long	 unresolved;	/* ... and did not get one */
	unsigned long	 own;		/* samples whose sampled code (innermost
					   frame out of the kernel) is in it */
	unsigned long	 nocu;		/* of them, those whose sampled code no
					   DWARF function holds (sres.nocu) */
	unsigned long	 nocu_std;	/* of those, in Rust's standard
					   library (ELFDWARF_STD) */
	unsigned long	 nocu_dep;	/* in the crates it is built from,
					   (ELFDWARF_STD_DEP): std's if the
					   crate has DWARF units of its own */
	int		 rust;		/* built by rustc: 1, not: -1, not
					   asked yet: 0 (elfdwarf_is_rust) */
	int		 stripped;	/* no .symtab of its own nor a debug
					   file's: said at the end */
};

/* The text of one resolved frame: entries innermost first. */
struct sent {
	char		*text;		/* "name+0x1f", or an inlined name */
	size_t		 textlen;	/* strlen(text) */
	char		*src;		/* "file.c:12", or NULL */
};

struct sres {
	uint32_t	 n;		/* 0: unresolved; else n-1 inlined + 1 */
	uint32_t	 nocu;		/* no DWARF function holds it (nor an
					   assembler's unit): inlined frames
					   were looked for and missed */
	uint32_t	 rstd;		/* of a Rust file, elfdwarf_rust_std */
	struct sent	 e[];
};

struct cslot {
	uint64_t	 addr;
	uint32_t	 file;
	uint32_t	 ret;
	struct sres	*res;
};

/*
 * The address cache's front: a few thousand of its slots, direct-mapped by
 * the address, in 64 KiB. Most frames are a hot address seen a moment
 * ago; this answers them from the CPU's cache, where the hash table's
 * probe and the slot it finds are two misses each. res NULL: empty.
 */
#define SYM_FRONT_BITS	12
struct cfront {
	uint64_t	 addr;
	uint32_t	 key;		/* file << 1 | ret */
	struct sres	*res;
};

struct sym {
	struct sym_opts	 o;
	struct sfile	**files;
	size_t		 nfiles, filecap;
	struct hashtab	 fileidx;	/* XXH3 of the DSO string -> file */
	struct hashtab	 inoidx;	/* device and inode -> the file
					   opened first under that inode */
	uint32_t	 last_file;	/* file_get's last find + 1, or 0 */
	uint32_t	 toomany;	/* SYM_TOOMANY's file number + 1, or 0 */
	struct cslot	*cache;		/* open addressing, res NULL: free */
	size_t		 cn, cmask;	/* entries; slots - 1 (a power of 2) */
	struct cfront	*front;		/* 1 << SYM_FRONT_BITS slots */
	struct filesearch search;	/* the options' folders, and the
					   debuginfod client (owned) */
	struct kallsyms	*ks;
	int		 ks_state;	/* 1 loaded, -1 failed, 0 not yet */
	unsigned long	 frames, unresolved, samples, badlines;
	unsigned long	 oneline;	/* one-line samples left [unknown] */
	unsigned	 nmissing;	/* files found missing: ten are named */
	int		 any_bad;
	int		 kernel_other;	/* recorded under another kernel */
	int		 marked;	/* "# symbolized" written (sym_mark) */
	/* progress */
	struct timespec	 t0, tlast;
	int		 progress_shown;
	unsigned long	 loaded;
};

/* What a stream's reading keeps between frames (sym.c, symsink.c). */
struct sstate {
	int		 fgrecord;	/* vaddr stream */
	unsigned long	 fi;		/* frame index in the sample */
	int		 prev_kernel;
	int		 drop_src;	/* drop input srclines after our own */
	char		 pid[24];	/* of the current sample */
	char		 map_pid[24];	/* the last pid checked for a perf map */
	int		 map_fn;	/* its map's file number, or -1 */
	unsigned long	 own_at;	/* sym.samples when its sampled user
					   code was last counted (sfile.own) */
	uint32_t	 fn_given;	/* the frame's file number + 1, known
					   by the sample's producer; 0: none,
					   looked up by its DSO */
};

/*
 * Where the frames sym_frame names go: a stream's text on fp, or, when
 * to is set, handed on as structs (sym_sink_named).
 */
struct symout {
	FILE		*fp;
	const struct sym_named *to;	/* static */
	void		*arg;
};

/* sym.c */

/*
 * Names the frame fr of the sample being read (line[0..len) its text, or
 * NULL for a frame handed over as a struct: fr's sym and dso then
 * NUL-terminated) and hands its lines to out; out NULL hands nothing and
 * calls opts.leaf. in names the input in messages (NULL for structs).
 */
void	 sym_frame(struct sym *s, struct sstate *st, struct lineread *in,
	    const char *line, size_t len, struct stream_frame *fr,
	    const struct symout *out);
/* Writes "# symbolized : fgsym VERSION" once a run; out NULL: nothing. */
void	 sym_mark(struct sym *s, FILE *out);
/* Shows the progress line when it is due. */
void	 sym_progress(struct sym *s);


/*
 * symwarn.c: the progress line and the warnings that clear it. Its state is
 * the process's (the terminal). progress_clear removes the line when it is
 * on the screen; progress_show writes it anew, from fmt.
 */
void	 progress_clear(void);
void	 progress_show(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* warnx(3) and warn(3), after clearing the progress line. */
void	 sym_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	 sym_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The result of every frame that found no name: static, never freed. */
extern struct sres sym_unresolved;

/* symfile.c */

/* Returns the file number of dso[0..len), adding it (not opened) when new. */
uint32_t file_get(struct sym *s, const char *dso, size_t len);
/*
 * Opens the ELF headers and build ID of file fn, checked against the
 * recorded one: its opened 1, or -1 (said once) when it cannot be used.
 * When another name of the file (its device and inode) was opened
 * first, its same says which, and that file's tables serve both.
 */
void	 sfile_open(struct sym *s, uint32_t fn);
/* Opens the vDSO of this process for f: f->opened and f->loaded. */
void	 sfile_vdso_open(struct sym *s, struct sfile *f);
/* Reports f to libdwfl, builds its symbol table: f->loaded 1 or -1. */
void	 sfile_load(struct sym *s, struct sfile *f);
/* How to get f's debug info (elf: its ELF), in a few words; caller frees. */
char	*sfile_debug_fix(const struct sfile *f, Elf *elf, int stripped);
/* The function of f that holds vaddr, and *off in it; or NULL. Borrowed. */
const char *sfile_symbol(const struct sfile *f, uint64_t vaddr, uint64_t *off);
/*
 * Converts the address perf script printed for a frame of f to *vaddr:
 * 0, or -1 when it fits no segment.
 */
int	 sfile_perf_addr(struct sfile *f, uint64_t addr, uint64_t *vaddr);
/* Checks once that this is the kernel that recorded the stream. */
void	 sym_kernel_check(struct sym *s);

/* resolve.c */

/*
 * The text of the frame at vaddr in file fn (ret: a return address,
 * looked up at vaddr-1), resolved on the first call and cached: borrowed
 * until sym_free. Never NULL; sym_unresolved when nothing names it.
 */
struct sres *sym_lookup(struct sym *s, uint32_t fn, uint64_t vaddr, int ret);

#endif
