/*
 * debuglink: separate debug files found by our own code, never by
 * libdwfl's or libdw's. Their searches open files by name with a plain
 * open(2): a FIFO named by a .gnu_debuglink or a .gnu_debugaltlink blocked
 * them for good, a device's driver ran, a path like "/sub/../../fifo" or a
 * binary reached through a symbolic link led them where no check had
 * looked, and a huge sparse "debug file" without a build ID kept them
 * computing its CRC.
 *
 * Here every candidate goes through elffile_open (regular files only,
 * checked before the open, size bounded), is checked (the build ID, or
 * else the CRC, read within DEBUGLINK_CRC_MAX), and libdwfl is handed the
 * descriptor. The alternate file of a .gnu_debugaltlink is found the same
 * way and given to libdw with dwarf_setalt; when there is none, libdw gets
 * an empty stand-in, so that dwarf_getalt() never searches by itself.
 */
#ifndef FG_DEBUGLINK_H
#define FG_DEBUGLINK_H
#include <stdint.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

/* A debug file without a build ID larger is not read for its CRC: 4 GiB. */
#define DEBUGLINK_CRC_MAX	((uint64_t)4 << 30)

/*
 * A find_debuginfo callback (libdwfl's contract) that searches where
 * dwfl_standard_find_debuginfo would (/usr/lib/debug/.build-id/ by the
 * module's build ID, then the debuginfod client's cache by it, which
 * `debuginfod-find debuginfo FILE` fills; then for the link, or FILE.debug when there is none:
 * beside the file, in its .debug directory, under /usr/lib/debug; then the
 * same beside the file's real path) and never calls it. Returns the
 * descriptor of the first candidate that is a regular ELF file within the
 * bounds and whose build ID (or, without one, CRC) matches, with
 * *debuginfo_file_name a new copy of its path; or -1 (errno 0) with
 * *debuginfo_file_name untouched, so that libdwfl opens nothing by name.
 * A call for a .gnu_debugaltlink (the link is not the module's own
 * .gnu_debuglink) returns -1 at once: debuglink_setalt does that search.
 * Then, with the struct filesearch of the file (ef->search), under its
 * --symfs root's /usr/lib/debug/.build-id/, in its --symbol-dir folders
 * (.build-id/XX/REST.debug, then the link's name), and last from the
 * debuginfod servers of its fetch, by build ID.
 * *userdata, when not NULL, is the struct elffile * of the file
 * (elfdwarf_dwfl's): its search, and its note (NULL or a refusal
 * already) that gets the first refusal, a new string the caller frees
 * ("debug file 'P' refused: not a regular file").
 */
int	debuglink_find_debuginfo(Dwfl_Module *mod, void **userdata,
	    const char *modname, Dwarf_Addr base, const char *file_name,
	    const char *debuglink_file, GElf_Word debuglink_crc,
	    char **debuginfo_file_name);

struct elffile;
struct filesearch;

/*
 * Gives dw (read from the file path) its alternate debug file, when its
 * .gnu_debugaltlink names one: the first of /usr/lib/debug/.build-id/
 * by the link's build ID, the link's path (relative to path's
 * directory), the debuginfod client's cache by the build ID, and last
 * the debuginfod servers of fs->fetch (fs may be NULL), that opens
 * through elffile_open and has that build ID. Then
 * *alt is that file (new, the caller frees it with elffile_release and
 * free after dwarf_end of *altdw and of dw) and *altdw its Dwarf; else
 * both are NULL and dw gets the stand-in (shared, never freed). A
 * refusal is said in *note, as a new string the caller frees, unless
 * note is NULL or holds one already. Does nothing without a link.
 */
void	debuglink_setalt(Dwarf *dw, const char *path,
	    const struct filesearch *fs, struct elffile **alt, Dwarf **altdw,
	    char **note);

/*
 * The callbacks for an offline Dwfl of files named by path (fgsym's and
 * the annotator's): ELF by build ID, debug files through
 * debuglink_find_debuginfo, sections at their ELF addresses.
 */
extern const Dwfl_Callbacks debuglink_offline_callbacks;
#endif
