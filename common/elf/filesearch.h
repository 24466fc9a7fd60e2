/*
 * filesearch: where a recorded file, and its debug file, are looked for
 * besides the path the recording names: a root the recorded paths are
 * under (--symfs), folders of files found by build ID or base name
 * (--symbol-dir), and debuginfod servers (elf/dbgfetch).
 *
 *	struct filesearch fs = { .symfs = "/mnt/theirs" };
 *	elffile_init(&ef);
 *	rc = filesearch_open(&fs, &ef, "/usr/bin/app", recorded_id, &note);
 *
 * Every candidate is opened through elffile_open (a regular file, size
 * bounded, by descriptor), and one found in a folder by build ID or base
 * name is taken only when its build ID is the recorded one (when the
 * recording names one). The debug file's search (elf/debuglink) reads the
 * same struct through the elffile's search.
 */
#ifndef FG_FILESEARCH_H
#define FG_FILESEARCH_H

#include <stddef.h>

struct dbgfetch;
struct elffile;

struct filesearch {
	const char	*symfs;		/* borrowed: the root every recorded
					   path is looked for under first;
					   NULL: none */
	const char *const *dirs;	/* borrowed: folders of files by build
					   ID (.build-id/XX/REST, or a file
					   named by the whole ID) or by base
					   name */
	size_t		 ndirs;
	struct dbgfetch	*fetch;		/* borrowed: debuginfod, or NULL: no
					   server is asked */
};

/*
 * The DIR of an option (opt: "--symfs", "--symbol-dir"): 0 when dir is a
 * directory, a trailing '/' taken off (dir is written: "DIR/" and "DIR"
 * are one root, for paths that start with '/'); else 2 and *why (the
 * caller frees it), one line naming opt and dir.
 */
int	filesearch_opt_dir(const char *opt, char *dir, char **why);

/*
 * Opens into ef (elffile_init'ed) the file that stands for the recorded
 * path, whose recorded build ID is id (hex; NULL when unknown): path under
 * fs->symfs, then path itself, then in each of fs->dirs
 * .build-id/XX/REST, the file named by the ID, and the file of path's base
 * name. The first that opens and whose build ID is id (any, when id is
 * NULL) is taken. When none is, and path under the symfs or path itself
 * opened, that one is left open (its build ID tells the caller it was
 * rebuilt); else ef's status is the failure of the first candidate that
 * exists (ELFFILE_ERRNO, ENOENT, when none does). fs may be NULL: path
 * alone. A folder's file of another build ID is said in *note (when note
 * is not NULL and *note is NULL), a new string the caller frees.
 * Returns ef->status.
 */
int	filesearch_open(const struct filesearch *fs, struct elffile *ef,
	    const char *path, const char *id, char **note);

/*
 * The same for a path that names the file a process under another root
 * calls inside (fg-stream(5)'s "# inside" line): path itself is opened
 * beneath that root (elffile_open_inside), never through a link out of
 * it. inside NULL: filesearch_open.
 */
int	filesearch_open_inside(const struct filesearch *fs, struct elffile *ef,
	    const char *path, const char *inside, const char *id, char **note);

/*
 * The path of the file that filesearch_open would take for path and id
 * with a build ID that is id (any, when id is NULL), or else, when id is
 * not NULL, of the executable of build ID id that fs->fetch's servers
 * have: a new string the caller frees (and opens and checks again), or
 * NULL. For a reader that opens files its own way (fgrecord's mappings,
 * in fgsym's replay of perf.data).
 */
char	*filesearch_find(const struct filesearch *fs, const char *path,
	    const char *id);

/*
 * The candidates for a debug file in fs's folders and root, for the
 * debug file search: under fs->symfs, dbgdir (/usr/lib/debug's build-ID
 * path) as a new string in *out[0]; in each folder .build-id/XX/REST.debug
 * and link (the .gnu_debuglink name, or NULL). Returns how many it put in
 * out (new strings the caller frees), at most max.
 */
size_t	filesearch_debug_paths(const struct filesearch *fs, const char *id,
	    const char *dbgpath, const char *link, char **out, size_t max);

#endif
