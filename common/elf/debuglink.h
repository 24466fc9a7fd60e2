/*
 * debuglink: a libdwfl find_debuginfo callback that never opens a FIFO or
 * a device. The standard callback opens the separate debug file that a
 * binary's .gnu_debuglink names, next to the binary, in its .debug
 * directory and under /usr/lib/debug; a FIFO at one of those paths (put
 * there by whoever made the binary) blocked the open for good.
 */
#ifndef FG_DEBUGLINK_H
#define FG_DEBUGLINK_H
#include <elfutils/libdwfl.h>

/*
 * Same contract as dwfl_standard_find_debuginfo, which it calls, unless a
 * path it would try for the debug link (or, with no link, for
 * FILE.debug) exists and is not a regular file: then it returns -1 (no
 * separate debug information) and opens nothing. Only the file name
 * arguments are read; *debuginfo_file_name is set as the standard
 * callback sets it (owned by libdwfl).
 */
int	debuglink_find_debuginfo(Dwfl_Module *mod, void **userdata,
	    const char *modname, Dwarf_Addr base, const char *file_name,
	    const char *debuglink_file, GElf_Word debuglink_crc,
	    char **debuginfo_file_name);

/*
 * Whether every path at which a debug file for FILE_NAME with the link
 * DEBUGLINK_FILE (NULL: none) would be looked for is either absent or a
 * regular file (or a symbolic link to one). Returns 1 if so, else 0.
 */
int	debuglink_paths_safe(const char *file_name, const char *debuglink_file);

/*
 * The callbacks for an offline Dwfl of files named by path (fgsym's and
 * the annotator's): ELF by build ID, debug files through
 * debuglink_find_debuginfo, sections at their ELF addresses.
 */
extern const Dwfl_Callbacks debuglink_offline_callbacks;
#endif
