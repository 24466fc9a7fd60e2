/*
 * maps: the memory mappings of the processes being recorded, and the files
 * behind them.
 *
 * A mapfile is one file (or pseudo-file: [vdso], [kernel.kallsyms], an
 * anonymous executable region). It is opened lazily with libelf the first
 * time an address in it must be converted, and holds what fgrecord needs
 * from it: its PT_LOAD segments (to turn a file offset into an ELF
 * address), its build ID, and its CFI, for the unwinder.
 *
 * A process's mappings are a maptab: sorted by start address, a new
 * mapping replacing whatever it overlaps, as mmap(2) does. fork shares the
 * parent's table (copied on write); exec empties it.
 *
 *	struct maps m;
 *	maps_init(&m);
 *	maps_add(&m, pid, start, len, pgoff, "/usr/lib/.../libc.so.6", NULL, 0);
 *	mp = maps_find(&m, pid, addr);
 *	if (mp && mapping_vaddr(mp, addr, &vaddr) == 0) ...
 *	maps_release(&m);
 */
#ifndef FG_MAPS_H
#define FG_MAPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <elfutils/libdw.h>
#include <gelf.h>

#include "base/hashtab.h"
#include "elf/elffile.h"
#include "record/maptab.h"

enum mapfile_kind {
	MAPFILE_ELF,		/* a file on disk, or [vdso] read from memory */
	MAPFILE_ANON,		/* anonymous executable memory (JIT): absolute addresses */
};

/* How many sampled addresses of a file the summary checks for DWARF. */
#define MAPFILE_PROBES	8

struct filesearch;

struct mapfile {
	char		*path;		/* owned; the DSO name written in the stream */
	char		*inside;	/* owned: the name the process mapped it
					   by, when path is another (hostpath), or
					   NULL */
	int		 inside_written;	/* the stream has its # inside line */
	char		*alt;		/* owned; /proc/PID/map_files/... of its first
					   mapping: the mapped file itself */
	dev_t		 dev;		/* the mapped file's, when have_ino */
	ino_t		 ino;
	int		 have_ino;	/* alt could be followed when it was
					   mapped, or MMAP2 named them */
	int		 foreign;	/* mapped by a process under another
					   root or other mounts */
	enum mapfile_kind kind;
	unsigned	 id;		/* small unique number, for caches */
	int		 opened;	/* open was tried */
	int		 usable;	/* it opened and is ELF */
	struct elffile	 ef;		/* the file: its Elf and PT_LOAD segments */
	Elf		*elf;		/* borrowed from ef, or NULL */
	void		*image;		/* owned copy of an in-memory image ([vdso]) */
	size_t		 image_size;
	uint64_t	 entry;		/* e_entry: where the kernel starts a process */
	char		*buildid;	/* owned hex string, or NULL */
	int		 buildid_written;	/* the stream has its # buildid line */
	int		 buildid_mismatch;	/* file on disk is not what was mapped */
	int		 cfi_tried;
	Dwarf_CFI	*eh_cfi;	/* owned by elf; .eh_frame */
	Dwarf		*dwarf;		/* owned; for .debug_frame */
	Dwarf_CFI	*debug_cfi;	/* owned by dwarf */
	int		 warned;	/* the user was told it is unusable */
	uint64_t	 samples;	/* samples with a frame in it (record.c) */
	uint64_t	 own;		/* samples whose sampled code (innermost
					   frame out of the kernel) is in it */
	uint64_t	 sampled;	/* the number of the last of them */
	uint64_t	 probe[MAPFILE_PROBES];	/* some of its own sampled addresses */
	unsigned	 nprobe;	/* (ELF addresses, the first distinct) */
	char		 why[192];	/* why it is unusable: strerror, elf_errmsg */
	const struct filesearch *search;	/* borrowed: the maps' */
};

struct mapproc {
	pid_t		 pid;
	struct maptab	 v;		/* owned: its mappings */
	struct maptab	 prev;		/* owned: the mappings before the last exec */
};

struct maps {
	struct mapproc	**procs;	/* owned, in the order first seen */
	size_t		 nprocs, procs_cap;
	struct hashtab	 procidx;	/* of procs, by pid */
	struct mapfile	**files;	/* owned, in the order first seen */
	size_t		 nfiles, files_cap;
	struct hashtab	 fileidx;	/* of files, by path */
	unsigned	 next_id;
	const char	*root;		/* borrowed: a prefix for paths, or NULL */
	int		 offline;	/* a replay: no /proc of the pids (they are
					   not the recorded processes now) */
	/* borrowed: where a replay's files are looked for besides their
	   paths (fgsym's --symfs, --symbol-dir, debuginfod), or NULL */
	const struct filesearch *search;
};

/* Makes an empty table in *m, which the caller holds. */
void	 maps_init(struct maps *);
/* Frees the processes, their mappings and the files, not m itself. */
void	 maps_release(struct maps *);

/*
 * Records that pid mapped [start, start+len) of path at file offset pgoff.
 * buildid (raw bytes, bidlen of them) comes from an MMAP2 record, or is
 * NULL. Names in brackets other than [vdso] ([heap], [stack]), and
 * "//anon" style names, make an anonymous mapping. path is copied. When
 * pid sees another root or other mounts than fgrecord (chroot, a mount
 * namespace), the file is named by a path of fgrecord's that reaches the
 * same file (record/hostpath), path being kept as its inside name.
 */
void	 maps_add(struct maps *, pid_t pid, uint64_t start, uint64_t len,
	    uint64_t pgoff, const char *path, const unsigned char *buildid,
	    size_t bidlen);

/*
 * maps_add with the mapped file's device and inode (st_dev and st_ino of
 * *ino: MMAP2's, or /proc/PID/maps'), or NULL when the record has none.
 * A file of a process under another root or other mounts is opened by
 * its path only when its identity is checked: this device and inode,
 * its map_files link's, or the build ID the kernel reported.
 */
struct stat;
void	 maps_add_ino(struct maps *, pid_t pid, uint64_t start, uint64_t len,
	    uint64_t pgoff, const char *path, const unsigned char *buildid,
	    size_t bidlen, const struct stat *ino);

/*
 * Gives child parent's mappings (a new process from fork): shared until
 * either maps something, so a fork costs no copy.
 */
void	 maps_fork(struct maps *, pid_t parent, pid_t child);

/*
 * Starts a new, empty table for pid (it called exec). The old one is kept
 * for maps_find_prev, until the next exec or exit.
 */
void	 maps_exec(struct maps *, pid_t pid);

/* Forgets every mapping of pid and frees their memory (it exited). */
void	 maps_exit(struct maps *, pid_t pid);

/*
 * Reads /proc/PID/maps and adds its executable mappings; when the main
 * thread has exited (its maps file is empty), a live thread's. Returns 0,
 * or -1 with errno set when the file cannot be read.
 */
int	 maps_read_proc(struct maps *, pid_t pid);

/* Returns the mapping of pid that holds addr, or NULL. Borrowed. */
struct mapping *maps_find(struct maps *, pid_t pid, uint64_t addr);

/*
 * Returns the mapping that held addr in pid before its last exec, or NULL.
 * Samples the kernel takes while it runs an execve carry the user
 * registers of the program that called it. Borrowed.
 */
struct mapping *maps_find_prev(struct maps *, pid_t pid, uint64_t addr);

/*
 * Opens the mapping's file if that was not tried yet. Returns 1 when it is
 * a usable ELF file, 0 otherwise. The file the process mapped is read
 * through /proc/PID/map_files first (root can open it; it is the mapped
 * inode, whatever the name now points to), and by its name only when
 * that fails: then only a regular file (elffile), and only the mapped
 * inode when map_files told it (the program may have put a link to a
 * device, a FIFO or another user's file where its library was).
 */
int	 mapfile_open(struct mapfile *);

/*
 * Converts the run-time address addr inside mp into the address in the
 * file's own ELF address space (what nm and addr2line use), through the
 * PT_LOAD segment whose file bytes hold its file offset (elffile_vaddr).
 * For an anonymous mapping it is addr itself. Returns 0, or -1 when the file is unreadable or no
 * segment holds the offset.
 */
int	 mapping_vaddr(struct mapping *mp, uint64_t addr, uint64_t *vaddr);

/*
 * Converts an ELF address back to a run-time address in mp; the inverse of
 * mapping_vaddr. Returns 0, or -1.
 */
int	 mapping_runtime(struct mapping *mp, uint64_t vaddr, uint64_t *addr);

#endif
