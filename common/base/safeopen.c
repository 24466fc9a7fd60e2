/*
 * safeopen: open only regular files (or, for writing, the null device),
 * the file checked (see safeopen.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/xalloc.h"

/* Is st the null device, which a write may go to as well as a file? */
static int
is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	    minor(st->st_rdev) == 3;
}

/* Whether st is a file flags accept. */
static int
accepted(const struct stat *st, int flags)
{
	return S_ISREG(st->st_mode) ||
	    ((flags & SAFEOPEN_CREATE) && is_null_device(st));
}

/*
 * With SAFEOPEN_CREATE and path missing: creates it, exclusively. Returns
 * the descriptor, -1 with errno, or -2 when path appeared meanwhile.
 */
static int
create(const char *path, int flags, struct stat *stp)
{
	int fd, e;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY |
	    O_CLOEXEC, flags & SAFEOPEN_PRIVATE ? 0600 : 0666);
	if (fd == -1)
		return errno == EEXIST ? -2 : -1;
	if (stp != NULL && fstat(fd, stp) == -1) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int
safeopen(const char *path, struct stat *stp)
{
	return safeopen_flags(path, 0, stp);
}

int
safeopen_flags(const char *path, int flags, struct stat *stp)
{
	int nofollow = flags & SAFEOPEN_NOFOLLOW ? O_NOFOLLOW : 0;
	int pfd, fd, tries;

	for (tries = 0;; tries++) {
		pfd = open(path, O_PATH | O_CLOEXEC | nofollow);
		if (pfd != -1 || errno != ENOENT || !(flags & SAFEOPEN_CREATE))
			break;
		if ((fd = create(path, flags, stp)) != -2)
			return fd;
		/* Made meanwhile (or a dangling link): check it as it is. */
		if (tries == 3) {
			errno = EEXIST;
			return -1;
		}
	}
	if (pfd == -1)
		return -1;
	return safeopen_fd(pfd, path, flags, stp);
}

int
safeopen_fd(int pfd, const char *path, int flags, struct stat *stp)
{
	int nofollow = flags & SAFEOPEN_NOFOLLOW ? O_NOFOLLOW : 0;
	int mode = flags & SAFEOPEN_CREATE ? O_WRONLY : O_RDONLY;
	struct stat st, st2;
	char proc[64];
	int fd, e;

	if (fstat(pfd, &st) == -1) {
		e = errno;
		close(pfd);
		errno = e;
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {	/* O_PATH | O_NOFOLLOW holds the link */
		close(pfd);
		errno = ELOOP;
		return -1;
	}
	if (!accepted(&st, flags)) {
		close(pfd);
		if (stp != NULL)
			*stp = st;
		return SAFEOPEN_NOTREG;
	}
	/* The inode just checked, not whatever the path names now. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, mode | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd == -1 && errno == ENOENT && path != NULL)
		/* no /proc: by name, checked below */
		fd = open(path, mode | nofollow | O_CLOEXEC | O_NOCTTY |
		    O_NONBLOCK);
	e = errno;
	close(pfd);
	if (fd == -1) {
		errno = e;
		return -1;
	}
	if (fstat(fd, &st2) == -1 || !accepted(&st2, flags) ||
	    st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
		close(fd);
		if (stp != NULL)
			*stp = st;
		return SAFEOPEN_NOTREG;
	}
	/* O_NONBLOCK means nothing to a regular file; clear it all the same. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (stp != NULL)
		*stp = st2;
	return fd;
}

int
safeopen_read(const char *path, size_t max, char **bufp, size_t *lenp)
{
	struct stat st;
	size_t len = 0, cap;
	char *buf;
	ssize_t n;
	int fd, e;

	if ((fd = safeopen(path, &st)) < 0)
		return fd;
	if ((uintmax_t)st.st_size > max) {
		close(fd);
		return SAFEOPEN_TOOBIG;
	}
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
	buf = xmalloc(cap + 1);
	for (;;) {
		if (len == cap) {
			if (len > max)
				break;
			cap = cap * 2 < max + 1 ? cap * 2 : max + 1;
			buf = xrealloc(buf, cap + 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			free(buf);
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	if (len > max) {
		free(buf);
		return SAFEOPEN_TOOBIG;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int
safeopen_out(const char *path, int flags, struct stat *stp, char **why)
{
	int fd;

	*why = NULL;
	fd = safeopen_flags(path, SAFEOPEN_CREATE | SAFEOPEN_NOFOLLOW | flags,
	    stp);
	if (fd == -1 && errno == ELOOP)
		*why = xasprintf("cannot write to '%s': it is a symbolic link; "
		    "name the file itself", path);
	else if (fd == SAFEOPEN_NOTREG)
		*why = xasprintf("cannot write to '%s': not a regular file; "
		    "give a regular file, or write to stdout", path);
	else if (fd < 0)
		*why = xasprintf("cannot create '%s': %s", path,
		    strerror(errno));
	return fd < 0 ? -1 : fd;
}
