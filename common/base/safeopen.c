/*
 * safeopen: open only regular files, the file checked (see safeopen.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/xalloc.h"

int
safeopen(const char *path, struct stat *stp)
{
	struct stat st, st2;
	char proc[64];
	int pfd, fd, e;

	if ((pfd = open(path, O_PATH | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(pfd, &st) == -1) {
		e = errno;
		close(pfd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(pfd);
		return SAFEOPEN_NOTREG;
	}
	/* The inode just checked, not whatever the path names now. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd == -1 && errno == ENOENT)	/* no /proc: by name, checked below */
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	e = errno;
	close(pfd);
	if (fd == -1) {
		errno = e;
		return -1;
	}
	if (fstat(fd, &st2) == -1 || !S_ISREG(st2.st_mode) ||
	    st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
		close(fd);
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
