/*
 * safeopen: open a file that the input named (a DSO in a stream, a source
 * path in DWARF, a perf map) for reading, and only if it is a regular file.
 *
 *	struct stat st;
 *	int fd = safeopen(path, &st);
 *	if (fd == SAFEOPEN_NOTREG) ...	a FIFO, a device, a directory
 *	else if (fd < 0) ...		errno says why (ENOENT, EACCES, ...)
 *
 * The path is first opened with O_PATH, which opens nothing behind it: no
 * device driver's open runs (/dev/ptmx would allocate a terminal,
 * /dev/watchdog arm a watchdog) and no FIFO blocks. Only when fstat says
 * "regular file" is that same inode opened for reading, through
 * /proc/self/fd, so that the path cannot be swapped for another file
 * between the check and the open. The descriptor returned is the checked
 * file: pass it on (to libelf, to libdwfl) instead of the path.
 *
 * That is the one policy for every file a tool opens by a name it was
 * given: safeopen_flags adds what some callers want on top of it, a
 * symbolic link refused (palette.map, which fgsvg rewrites) and opening
 * for writing (fgrecord's -o, often run as root).
 */
#ifndef FG_SAFEOPEN_H
#define FG_SAFEOPEN_H

#include <stddef.h>
#include <sys/stat.h>

#define SAFEOPEN_NOTREG	(-2)	/* not a regular file; never opened */
#define SAFEOPEN_TOOBIG	(-3)	/* larger than the caller's limit */

/*
 * Opens path read-only (O_CLOEXEC) if it is a regular file, following
 * symbolic links. Returns the descriptor (the caller closes it) and fills
 * *st (which may be NULL) from it; or -1 with errno set; or
 * SAFEOPEN_NOTREG when path is something else (*st then says what).
 */
int	safeopen(const char *path, struct stat *st);

#define SAFEOPEN_NOFOLLOW 1	/* path a symbolic link: -1, errno ELOOP */
#define SAFEOPEN_CREATE	2	/* for writing; created (0666 & ~umask) if missing */
#define SAFEOPEN_PRIVATE 4	/* with CREATE: created 0600, for its owner only */

/*
 * safeopen with flags, an OR of the above; safeopen(path, st) is
 * safeopen_flags(path, 0, st). With SAFEOPEN_CREATE the file is opened
 * write-only and never truncated (the caller truncates once its own
 * checks pass); the null device is taken as well as a regular file; a
 * missing file is created with O_EXCL, so nothing is ever created through
 * a symbolic link. On SAFEOPEN_NOTREG, *st (when not NULL) says what
 * path is, for the caller's message.
 */
int	safeopen_flags(const char *path, int flags, struct stat *st);

/*
 * The rest of safeopen_flags, for a name resolved by other means: opens
 * the file that the O_PATH descriptor pfd holds (and closes pfd), checked
 * and reopened as that inode; path, when not NULL, is its name, used
 * only where /proc is missing. Returns as safeopen_flags.
 */
int	safeopen_fd(int pfd, const char *path, int flags, struct stat *st);

/*
 * A file a tool writes by the name it was given (fgrecord's -o, fgsym's
 * --annotate-to): safeopen_flags with SAFEOPEN_CREATE and
 * SAFEOPEN_NOFOLLOW added to flags, so that a symbolic link, a FIFO or a
 * device is refused and nothing is created through a link. Returns the
 * descriptor, not truncated (the caller truncates once its own checks
 * pass), with *st filled; or -1 and *why, one line naming path and the
 * fix (the caller frees it).
 */
int	safeopen_out(const char *path, int flags, struct stat *st, char **why);

/*
 * Reads all of the regular file path, at most max bytes. Returns 0 and
 * sets *buf (NUL-terminated, the caller frees it) and *len; or -1 with
 * errno set; SAFEOPEN_NOTREG; or SAFEOPEN_TOOBIG when the file is (or
 * grows, while being read) larger than max. Files of /proc, whose size
 * says 0, are read up to max all the same.
 */
int	safeopen_read(const char *path, size_t max, char **buf, size_t *len);

#endif
