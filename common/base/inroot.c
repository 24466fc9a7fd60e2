/*
 * inroot: a name resolved beneath a root, never leaving it (see
 * inroot.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "base/inroot.h"
#include "base/safeopen.h"
#include "base/xalloc.h"

/* The start of the component that ends before s[end] (a '/'), in s. */
static size_t
comp_start(const char *s, size_t end)
{
	while (end > 0 && s[end - 1] != '/')
		end--;
	return end;
}

size_t
inroot_split(const char *path, const char *inside)
{
	size_t pe = strlen(path), ie = strlen(inside), ps, is;
	size_t root;

	while (pe > 0 && path[pe - 1] == '/')
		pe--;
	while (ie > 0 && inside[ie - 1] == '/')
		ie--;
	/* the last component is beneath, whatever the names */
	ps = comp_start(path, pe);
	root = ps;
	is = comp_start(inside, ie);
	while (ps > 0 && is > 0) {
		/* both past a '/': compare the components before it */
		size_t pe2 = ps - 1, ie2 = is - 1, ps2, is2;

		while (pe2 > 0 && path[pe2 - 1] == '/')
			pe2--;
		while (ie2 > 0 && inside[ie2 - 1] == '/')
			ie2--;
		ps2 = comp_start(path, pe2);
		is2 = comp_start(inside, ie2);
		if (ie2 == is2 || pe2 - ps2 != ie2 - is2 ||
		    memcmp(path + ps2, inside + is2, pe2 - ps2) != 0)
			break;
		ps = ps2;
		is = is2;
		root = ps;
	}
	/* the '/' before the name beneath belongs to the name */
	while (root > 0 && path[root - 1] == '/')
		root--;
	return root;
}

/* The walk where openat2 is missing: no link, no "..". */
static int
walk(int dirfd, const char *name)
{
	char comp[NAME_MAX + 1];
	const char *p = name, *e;
	struct stat st;
	int fd, next, e2;

	if ((fd = openat(dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			return fd;
		e = p + strcspn(p, "/");
		if ((size_t)(e - p) > NAME_MAX) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(comp, p, (size_t)(e - p));
		comp[e - p] = '\0';
		p = e;
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			close(fd);
			errno = EXDEV;
			return -1;
		}
		next = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		e2 = errno;
		close(fd);
		if (next < 0) {
			errno = e2;
			return -1;
		}
		fd = next;
		if (fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) {
			close(fd);
			errno = ELOOP;
			return -1;
		}
	}
}

int
inroot_path(int dirfd, const char *name, int nolinks)
{
	struct open_how how;
	int fd;

	while (*name == '/')
		name++;
	memset(&how, 0, sizeof(how));
	how.flags = O_PATH | O_CLOEXEC;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS |
	    (nolinks ? RESOLVE_NO_SYMLINKS : 0);
	fd = (int)syscall(SYS_openat2, dirfd, *name ? name : ".", &how,
	    sizeof(how));
	if (fd < 0 && (errno == ENOSYS || errno == E2BIG))
		return walk(dirfd, name);
	return fd;
}

/* The root's descriptor: O_PATH, a directory. */
static int
root_open(const char *root)
{
	return open(*root ? root : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* The O_PATH descriptor of name resolved inside root; -1 (errno). */
static int
root_path(const char *root, const char *name)
{
	int rfd, fd, e;

	if ((rfd = root_open(root)) < 0)
		return -1;
	fd = inroot_path(rfd, name, 0);
	e = errno;
	close(rfd);
	errno = e;
	return fd;
}

int
inroot_stat(const char *root, const char *name, struct stat *st)
{
	int fd, e, rc;

	if ((fd = root_path(root, name)) < 0)
		return -1;
	rc = fstat(fd, st);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

int
inroot_open(const char *root, const char *name, struct stat *stp)
{
	int pfd;

	if ((pfd = root_path(root, name)) < 0)
		return -1;
	/* never by name: a name is what a jail can change */
	return safeopen_fd(pfd, NULL, 0, stp);
}

int
inroot_open_inside(const char *path, const char *inside, struct stat *st)
{
	size_t n = inroot_split(path, inside);
	char *root = xmemdup0(path, n == 0 && path[0] == '/' ? 1 : n);
	int fd, e;

	fd = inroot_open(root, path + n, st);
	e = errno;
	free(root);
	errno = e;
	return fd;
}
