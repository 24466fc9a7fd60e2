/*
 * pkgowner: the Debian package that owns a file, read in process from
 * dpkg's file lists (INFODIR/PKG.list or PKG:ARCH.list, one path a line),
 * without running dpkg -S.
 *
 *	char *pkg = pkgowner_find(NULL, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1");
 *	-> "cpp-12"
 *	free(pkg);
 */
#ifndef FG_PKGOWNER_H
#define FG_PKGOWNER_H

/* Where dpkg keeps its lists. */
#define PKGOWNER_INFODIR	"/var/lib/dpkg/info"

/* What names the release (os-release(5)): its VERSION_CODENAME. */
#define PKGOWNER_OSRELEASE	"/etc/os-release"

/*
 * Returns the name of the package whose list holds path, without its
 * architecture qualifier ("libc6", not "libc6:amd64"), as a malloc'd
 * string the caller frees; NULL when path does not exist, no package owns
 * it, or infodir (NULL means PKGOWNER_INFODIR) cannot be read.
 *
 * Entries are matched by identity, not by spelling: an entry owns path
 * when it is the same file (device and inode) as path with every symbolic
 * link followed, while the entry's own last component is not followed.
 * So /usr/lib/x86_64-linux-gnu/libc.so.6 is owned by the package that
 * lists /lib/x86_64-linux-gnu/libc.so.6 (/lib -> usr/lib, merged /usr),
 * and a symbolic link such as /usr/bin/cc is owned by the package of the
 * file it leads to, not by the one that ships the link. Only entries with
 * the base name of that file are stat'ed. Where two lists hold the file,
 * the first in the C locale's order wins.
 *
 * Cost: one pass over every list (about 10 MB on a desktop); meant for a
 * few files per run, such as the stripped ones a profile touches.
 */
char	*pkgowner_find(const char *infodir, const char *path);

/*
 * How to get the debug info of a file of package pkg, in a few words
 * (a malloc'd string the caller frees): its -dbgsym package from Debian's
 * debug archive, in the suite named for the release that osrelease (NULL
 * means PKGOWNER_OSRELEASE) gives as VERSION_CODENAME ("bookworm-debug"),
 * or its debug file through debuginfod-find with DEBUGINFOD_URLS set.
 * It names no host: which mirror of the archive, and which debuginfod
 * server, are the machine's own (README, Troubleshooting).
 */
char	*pkgowner_advice(const char *pkg, const char *osrelease);

#endif
