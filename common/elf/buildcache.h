/*
 * buildcache: perf's build-ID cache, where perf record (and perf
 * buildid-cache --add) keeps a copy of every binary it recorded, and where
 * the tarball of `perf archive` is unpacked on another machine:
 *
 *	DIR/.build-id/XX/REST -> ../../PATH/XXREST	(a directory)
 *	DIR/PATH/XXREST/elf				(the copy)
 *
 * XXREST being the build ID in hex. DIR is $PERF_BUILDID_DIR when set,
 * else the buildid.dir of perf's configuration ($HOME/.perfconfig over
 * /etc/perfconfig, as `perf config buildid.dir=DIR` writes it), else
 * $HOME/.debug. Older perf linked .build-id/XX/REST to the copy itself:
 * that is taken too.
 *
 * A copy is opened through elffile_open (regular files only, checked
 * before the open), and is used only when its own build ID is the one
 * asked for, and it is yours or root's and writable by no one else: a
 * cache entry is a name like any other in the input, and root (sudo
 * keeps $HOME) must not read what another user put there.
 *
 *	struct elffile ef;
 *	elffile_init(&ef);
 *	if (buildcache_open(&ef, "5f0c...e1") == ELFFILE_OK)
 *		... ef.path is the copy's path
 */
#ifndef FG_BUILDCACHE_H
#define FG_BUILDCACHE_H

struct elffile;

/*
 * The cache directory, as above: a new string (the caller frees it), or
 * NULL when none can be named (no $HOME, no setting).
 */
char	*buildcache_dir(void);

/*
 * Opens the cached copy of the binary whose build ID is id (hex, any
 * case) into ef (an elffile_init'ed one; an open one is released first).
 * Returns ELFFILE_OK with ef open on the copy (ef->path its path);
 * ELFFILE_ERRNO with ef->errnum ENOENT when the cache holds nothing under
 * that build ID; ELFFILE_REFUSED when what it holds is not used (not a
 * regular file, not ELF, another build ID, another user's, writable by
 * anyone), ef->why saying which in a phrase that names its path. Nothing
 * is left open but on ELFFILE_OK.
 */
int	 buildcache_open(struct elffile *ef, const char *id);

/*
 * Where fgrecord keeps its copies of the files of programs under another
 * root (record/keepcopy), in the cache directory: apart from perf's
 * .build-id, for such a file may claim any build ID, a program of the
 * machine's among them. Read for a file named on an "# inside" line
 * only.
 */
#define BUILDCACHE_FOREIGN	".build-id-foreign"

/*
 * buildcache_open of DIR/.build-id-foreign/XX/REST/elf, the same checks
 * made.
 */
int	 buildcache_open_foreign(struct elffile *ef, const char *id);

/*
 * The path of the cached copy that buildcache_open would open, for a
 * reader that opens files its own way (fgrecord's mappings): a new
 * string (the caller frees it), or NULL when there is none. The copy was
 * checked when found; the caller checks its build ID again when it opens
 * it.
 */
char	*buildcache_find(const char *id);

#endif
