#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/inroot.h"
#include "base/xalloc.h"
#include "elf/buildcache.h"
#include "elf/buildcache_add.h"

/*
 * Is the directory open at fd the caller's own, and writable by no one
 * else? NULL, or why not (a new string naming path).
 */
static char *
not_mine(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return xasprintf("'%s': %s", path, strerror(errno));
	if (st.st_uid != geteuid())
		return xasprintf("'%s' belongs to user %lu, not you", path,
		    (unsigned long)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return xasprintf("'%s' is writable by others", path);
	return NULL;
}

/*
 * Opens directory name under at (AT_FDCWD: name is a path), made 0700
 * when missing and make is set, never through a link, and checked as
 * not_mine does. Returns its descriptor, or -1 with *why set.
 */
static int
dir_open(int at, const char *name, const char *shown, int make, char **why)
{
	int fd;

	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && make) {
		if (mkdirat(at, name, 0700) != 0 && errno != EEXIST) {
			*why = xasprintf("cannot make '%s': %s", shown,
			    strerror(errno));
			return -1;
		}
		fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno;
		struct stat st;

		*why = xasprintf("'%s': %s", shown, fstatat(at, name, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) ?
		    "a symbolic link" : strerror(e));
		return -1;
	}
	if ((*why = not_mine(fd, shown)) != NULL) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The cache directory, open: made only in a directory of the caller's
 * own. Returns its descriptor, or -1 with *why set.
 */
static int
cache_open(const char *dir, char **why)
{
	const char *name = strrchr(dir, '/');
	char *parent;
	int pfd, fd = -1;

	if (access(dir, F_OK) == 0 || errno != ENOENT)
		return dir_open(AT_FDCWD, dir, dir, 0, why);
	if (name == NULL || name[1] == '\0') {
		*why = xasprintf("'%s': %s", dir, strerror(ENOENT));
		return -1;
	}
	parent = name == dir ? xstrdup("/") :
	    xmemdup0(dir, (size_t)(name - dir));
	if ((pfd = dir_open(AT_FDCWD, parent, parent, 0, why)) >= 0) {
		fd = dir_open(pfd, name + 1, dir, 1, why);
		close(pfd);
	}
	free(parent);
	return fd;
}

/* Copies [off, end) of in to the same place in out. Returns 0, or an errno. */
static int
copy_range(int in, int out, uint64_t off, uint64_t end)
{
	char buf[65536];
	ssize_t n, w;
	size_t k;

	while (off < end) {
		k = end - off < sizeof(buf) ? (size_t)(end - off) : sizeof(buf);
		if ((n = pread(in, buf, k, (off_t)off)) < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 ? EIO : errno;
		for (k = 0; k < (size_t)n; k += (size_t)w)
			if ((w = pwrite(out, buf + k, (size_t)n - k,
			    (off_t)(off + k))) < 0) {
				if (errno == EINTR) {
					w = 0;
					continue;
				}
				return errno;
			}
		off += (uint64_t)n;
	}
	return 0;
}

/*
 * Copies size bytes from in to out, keeping the holes of a sparse file
 * (SEEK_DATA, SEEK_HOLE; all of it where the file system cannot tell).
 * Returns 0, or an errno.
 */
static int
copy(int in, int out, uint64_t size)
{
	uint64_t off = 0;
	off_t d, h;
	int e;

	while (off < size) {
		if ((d = lseek(in, (off_t)off, SEEK_DATA)) < 0) {
			if (errno == ENXIO)		/* a hole to the end */
				break;
			return copy_range(in, out, off, size);
		}
		if ((h = lseek(in, d, SEEK_HOLE)) < 0)
			return copy_range(in, out, off, size);
		if ((uint64_t)h > size)
			h = (off_t)size;
		if ((uint64_t)d >= size)
			break;
		if ((e = copy_range(in, out, (uint64_t)d, (uint64_t)h)) != 0)
			return e;
		off = (uint64_t)h;
	}
	return ftruncate(out, (off_t)size) == 0 ? 0 : errno;
}

uint64_t
buildcache_add_cost(int fd, uint64_t size)
{
	struct stat st;
	uint64_t used;

	if (fstat(fd, &st) != 0 || st.st_blocks < 0)
		return size;
	used = (uint64_t)st.st_blocks * 512;
	return used < size ? used : size;
}

/*
 * perf's own layout: .build-id/XX/REST a link to "../../PATH/XXREST", a
 * directory of the cache holding the copy "elf". Is the link at name in
 * the directory xfd (.build-id/XX) such a one, staying within the cache
 * open at cfd, with no other link nor ".." on the way, and its elf a
 * regular file of the caller's, writable by no one else? 1 or 0.
 */
static int
perf_link(int cfd, int xfd, const char *name)
{
	char target[PATH_MAX], *elf;
	struct stat st;
	ssize_t n;
	int fd, ok;

	if ((n = readlinkat(xfd, name, target, sizeof(target) - 1)) <= 6)
		return 0;
	target[n] = '\0';
	if (strncmp(target, "../../", 6) != 0)
		return 0;
	elf = xasprintf("%s/elf", target + 6);
	/* beneath the cache, through no link: ".." refused */
	fd = strstr(elf, "..") != NULL ? -1 : inroot_path(cfd, elf, 1);
	free(elf);
	if (fd < 0)
		return 0;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
	close(fd);
	return ok;
}

int
buildcache_add(const char *id, int fd, uint64_t size, char **msg)
{
	return buildcache_add_in(".build-id", id, fd, size, msg);
}

int
buildcache_add_in(const char *sub, const char *id, int fd, uint64_t size,
    char **msg)
{
	char *dir, *shown, *why = NULL, xx[3], tmp[32];
	int fds[3] = { -1, -1, -1 }, cfd = -1, out, e, rc = -1, i;
	size_t n = strlen(id);
	struct stat st;

	for (i = 0; (size_t)i < n && isxdigit((unsigned char)id[i]); i++)
		;
	if ((size_t)i != n || n < 6 || n > 128) {
		*msg = xasprintf("'%.64s' is no build ID", id);
		return -1;
	}
	if (buildcache_add_cost(fd, size) > BUILDCACHE_ADD_MAX) {
		*msg = xasprintf("%llu MiB on disk, more than the %llu MiB "
		    "copied", (unsigned long long)(buildcache_add_cost(fd,
		    size) >> 20), BUILDCACHE_ADD_MAX >> 20);
		return -1;
	}
	if ((dir = buildcache_dir()) == NULL) {
		*msg = xstrdup("no cache directory: no $HOME");
		return -1;
	}
	snprintf(xx, sizeof(xx), "%.2s", id);
	shown = xasprintf("%s/%s/%s/%s", dir, sub, xx, id + 2);
	if ((cfd = cache_open(dir, &why)) >= 0 &&
	    (fds[1] = dir_open(cfd, sub, shown, 1, &why)) >= 0 &&
	    (fds[0] = dir_open(fds[1], xx, shown, 1, &why)) >= 0) {
		if ((fds[2] = dir_open(fds[0], id + 2, shown, 1, &why)) >= 0) {
			rc = 0;
			if (fstatat(fds[2], "elf", &st, AT_SYMLINK_NOFOLLOW) == 0)
				rc = 1;
		} else if (perf_link(cfd, fds[0], id + 2)) {
			/* perf record's copy, in perf's layout */
			free(why);
			why = NULL;
			rc = 1;
		}
	}
	if (rc == 0) {
		snprintf(tmp, sizeof(tmp), ".elf.%ld", (long)getpid());
		out = openat(fds[2], tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
		e = out < 0 ? errno : copy(fd, out, size);
		if (out >= 0 && close(out) != 0 && e == 0)
			e = errno;
		if (e == 0 && renameat(fds[2], tmp, fds[2], "elf") != 0)
			e = errno;
		if (e != 0) {
			if (out >= 0)
				unlinkat(fds[2], tmp, 0);
			why = xasprintf("cannot write '%s/elf': %s", shown,
			    strerror(e));
			rc = -1;
		}
	}
	for (i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (cfd >= 0)
		close(cfd);
	*msg = rc >= 0 ? xasprintf("%s/elf", shown) : why;
	free(shown);
	free(dir);
	return rc;
}
