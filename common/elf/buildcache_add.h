/*
 * buildcache_add: a copy of a file put into perf's build-ID cache
 * (elf/buildcache), for a file that may be gone when the recording is
 * read: one of a process under another root (record/keepcopy).
 *
 *	DIR/.build-id/XX/REST/elf	(the copy: 0600, in directories 0700)
 *
 * which buildcache_open reads. A recorder run as root must write nothing
 * another user could turn elsewhere: every directory from DIR down is
 * opened without following a link and must be the caller's own and
 * writable by no one else (DIR is made only in a directory of the
 * caller's), the copy is written under a new name with O_EXCL and
 * renamed to its place, and a copy already there is left as it is: in
 * this layout, or in perf's own, .build-id/XX/REST a link to
 * ../../PATH/XXREST, taken when it stays within the cache through no
 * other link, and its elf is a regular file of the caller's, writable by
 * no one else.
 *
 *	char *msg;
 *	if (buildcache_add(id, fd, size, &msg) == 0)
 *		... msg is the copy's path; free(msg)
 */
#ifndef FG_BUILDCACHE_ADD_H
#define FG_BUILDCACHE_ADD_H

#include <stdint.h>

/* The most copied of one file: 512 MiB on disk (holes are kept as holes). */
#define BUILDCACHE_ADD_MAX	(512ULL << 20)

/*
 * Copies the size bytes of the regular file open at fd, whose build ID
 * is id (hex), into the cache of buildcache_dir. Returns 0 and sets
 * *msg to the copy's path; 1 when the cache holds that build already
 * (*msg its path); -1 with *msg saying why it was not copied, with the
 * subject in quotes. The caller frees *msg.
 */
int	 buildcache_add(const char *id, int fd, uint64_t size, char **msg);

/*
 * What copying the size bytes open at fd costs on disk: its allocated
 * blocks, not its holes (size where fstat cannot say).
 */
uint64_t buildcache_add_cost(int fd, uint64_t size);

/*
 * The same into the folder sub of the cache directory in place of
 * .build-id (BUILDCACHE_FOREIGN: the copies of other roots).
 */
int	 buildcache_add_in(const char *sub, const char *id, int fd,
	    uint64_t size, char **msg);

#endif
