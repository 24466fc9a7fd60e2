/*
 * inroot: a file opened by the name a process under another root gave
 * it (a chroot, a container: fg-stream(5)'s "# inside" line), never
 * leaving that root.
 *
 * A jail's program may put a link where its file was, absolute or
 * through "..": opened by the host's rules, JAIL/app/lib.so would then
 * be any file of the host (a root-only key, another user's library).
 * Here the root is opened first, then the name beneath it with
 * openat2(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS): an absolute link or
 * ".." stops at the root, as it does for the process itself, and no
 * /proc magic link is followed. Where openat2 is missing (Linux before
 * 5.6, ENOSYS), the name is walked one directory at a time, no link
 * followed at all and ".." refused: the kernel's names of mapped files
 * hold neither.
 *
 * The opened file is checked as safeopen does (a regular file only,
 * nothing behind a FIFO or a device opened), and the descriptor is that
 * inode's.
 *
 *	size_t n = inroot_split(path, inside);	(the root: path's first n)
 *	int fd = inroot_open_inside(path, inside, &st);
 *	if (fd == SAFEOPEN_NOTREG) ...	else if (fd < 0) ... errno
 */
#ifndef FG_INROOT_H
#define FG_INROOT_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * Where path, a name of ours for the file that a process calls inside,
 * splits into its root and the name beneath it: the number of bytes of
 * path before the part it shares with inside, component by component
 * from the end, and never more of it than inside holds (so the root is
 * that process's root, or a directory below it). At least path's last
 * component is beneath: a path without a '/' gives 0 (the current
 * directory its root).
 */
size_t	 inroot_split(const char *path, const char *inside);

/*
 * Opens name (its leading '/'s skipped) beneath the directory open at
 * dirfd, never leaving it, as above; nolinks: no link followed at all.
 * Returns an O_PATH descriptor of whatever is there (the caller closes
 * it), or -1 with errno set (ELOOP: a link refused; EXDEV: it leaves the
 * root).
 */
int	 inroot_path(int dirfd, const char *name, int nolinks);

/*
 * Opens root (a path of ours, links followed: ours to choose) and name
 * beneath it, read-only, if it is a regular file. Returns the descriptor
 * and fills *st (may be NULL); -1 with errno set; or SAFEOPEN_NOTREG.
 */
int	 inroot_open(const char *root, const char *name, struct stat *st);

/* inroot_open of path split by inroot_split. */
int	 inroot_open_inside(const char *path, const char *inside,
	    struct stat *st);

/*
 * stat(2) of what root/name is, resolved as above, opening nothing
 * behind it. Returns 0, or -1 with errno set.
 */
int	 inroot_stat(const char *root, const char *name, struct stat *st);

#endif
