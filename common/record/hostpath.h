/*
 * hostpath: the name by which fgrecord's own root and mounts reach a file
 * that a process maps under another root (chroot, a mount namespace, a
 * container's overlay).
 *
 * The kernel names a mapped file relative to the root of the process that
 * maps it (perf's MMAP records), or of the reader (/proc/PID/maps): a
 * program started with "chroot JAIL /app/hot" maps "/app/hot", which on
 * the host is JAIL/app/hot or nothing. hostpath_find takes the process's
 * name for the file and the file's identity (device and inode, as the
 * process sees it) and tries, in order, each checked by stat(2) against
 * that identity, never by opening anything:
 *
 *	PATH				the same file here: nothing to do
 *	ROOT/PATH			ROOT the host path of the process's root
 *					(readlink /proc/PID/root): a chroot
 *	MOUNTPOINT/REST			the process's mount that holds PATH
 *					(/proc/PID/mountinfo) found among ours
 *					(/proc/self/mountinfo) by device and
 *					root: a bind mount, a container's overlay
 *	/proc/PID/root/PATH		the process's own view, while it lives
 *
 * Each but PATH itself is resolved beneath the process's root
 * (base/inroot), as the process resolves it: a link it put where its
 * file was, absolute or through "..", does not lead out of it to a file
 * of ours.
 *
 * Everything read is what the caller could read without fgrecord: the
 * process's root link and mount table (ptrace's read access, the same as
 * for its maps), its own mount table.
 *
 *	struct hostpath_id id;
 *	if (hostpath_identity(&id, pid, path, NULL) == 0 &&
 *	    (host = hostpath_find(pid, path, &id)) != NULL)
 *		... host names the file here; free(host)
 */
#ifndef FG_HOSTPATH_H
#define FG_HOSTPATH_H

#include <sys/stat.h>
#include <sys/types.h>

/*
 * Whether process pid sees another root or other mounts than fgrecord:
 * 1 when its root or its mount namespace differ from ours, 0 when both
 * are ours or that cannot be told (it is gone, or not ours to read).
 */
int	 hostpath_foreign(pid_t pid);

/*
 * Who a file is: up to two device and inode pairs, that of the mapping
 * (a /proc/PID/map_files link, which only root may follow) and that of
 * what the process sees at its path (/proc/PID/root/PATH). Two, for on
 * an overlay the mapping may be the layer's file and the path the
 * overlay's: a name that stats as either is the file.
 */
struct hostpath_id {
	dev_t		 dev[2];
	ino_t		 ino[2];
	int		 n;
};

/*
 * Fills *id for the file that pid maps as path, mapped being its
 * map_files link or NULL. Returns 0, or -1 when neither can be read.
 */
int	 hostpath_identity(struct hostpath_id *id, pid_t pid, const char *path,
	    const char *mapped);

/*
 * The path at which fgrecord reaches the file *id, which pid names path,
 * as above: a new string that the
 * caller frees, or NULL when path itself names it here, or when nothing
 * does (then path is kept, and the build ID says whether a file found
 * later is the one).
 */
char	*hostpath_find(pid_t pid, const char *path,
	    const struct hostpath_id *id);

#endif
