/*
 * Unit tests of common/base/safeopen, the one policy for files opened by
 * a name the tool was given: a regular file is read, a symbolic link
 * followed or (SAFEOPEN_NOFOLLOW) refused with ELOOP; a FIFO, a directory
 * and a device are SAFEOPEN_NOTREG without being opened (no hang on the
 * FIFO), the stat saying what they are; SAFEOPEN_CREATE creates a missing
 * file, keeps an existing one's bytes, takes /dev/null, and creates
 * nothing through a dangling link.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "unit.h"

static char dir[] = "/tmp/test_safeopen.XXXXXX";

/* dir/name, in a buffer of its own per call site's use. */
static const char *
at(char *buf, const char *name)
{
	snprintf(buf, 4096, "%s/%s", dir, name);
	return buf;
}

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		exit(2);
	fputs(text, f);
	fclose(f);
}

/* What the descriptor fd gives when read, "" for nothing. */
static const char *
slurp(int fd)
{
	static char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

int
main(void)
{
	char file[4096], link[4096], fifo[4096], dangling[4096], target[4096];
	char made[4096], *text;
	struct stat st;
	size_t len;
	int fd, e;

	if (mkdtemp(dir) == NULL)
		return 2;
	put(at(file, "file"), "bytes\n");
	if (symlink(file, at(link, "link")) != 0 ||
	    mkfifo(at(fifo, "fifo"), 0600) != 0 ||
	    symlink(at(target, "target"), at(dangling, "dangling")) != 0)
		return 2;

	/* reading */
	fd = safeopen(file, &st);
	CHECK(fd >= 0 && S_ISREG(st.st_mode), "a regular file is opened");
	CHECK_STR(slurp(fd), "bytes\n", "for reading");
	close(fd);
	fd = safeopen(link, &st);
	CHECK(fd >= 0 && S_ISREG(st.st_mode), "a link to it is followed");
	close(fd);
	errno = 0;
	fd = safeopen_flags(link, SAFEOPEN_NOFOLLOW, &st);
	e = errno;
	CHECK_INT(fd, -1, "with SAFEOPEN_NOFOLLOW, a link is refused");
	CHECK_INT(e, ELOOP, "with ELOOP");
	CHECK_INT(safeopen_flags(file, SAFEOPEN_NOFOLLOW, NULL) >= 0, 1,
	    "with SAFEOPEN_NOFOLLOW, the file itself is opened");
	fd = safeopen(fifo, &st);
	CHECK_INT(fd, SAFEOPEN_NOTREG, "a FIFO is no regular file (no hang)");
	CHECK(S_ISFIFO(st.st_mode), "and the stat says FIFO");
	fd = safeopen(dir, &st);
	CHECK_INT(fd, SAFEOPEN_NOTREG, "a directory is no regular file");
	CHECK(S_ISDIR(st.st_mode), "and the stat says directory");
	CHECK_INT(safeopen("/dev/null", &st), SAFEOPEN_NOTREG,
	    "/dev/null is not read");
	errno = 0;
	fd = safeopen(at(made, "missing"), &st);
	e = errno;
	CHECK_INT(fd, -1, "a missing file: -1");
	CHECK_INT(e, ENOENT, "with ENOENT");
	CHECK_INT(safeopen_read(file, 100, &text, &len), 0, "safeopen_read");
	CHECK_MEM(text, len, "bytes\n", 6, "reads the file whole");
	free(text);
	CHECK_INT(safeopen_read(file, 5, &text, &len), SAFEOPEN_TOOBIG,
	    "and refuses one over its limit");

	/* writing */
	fd = safeopen_flags(at(made, "new"), SAFEOPEN_CREATE, &st);
	CHECK(fd >= 0 && S_ISREG(st.st_mode) && st.st_size == 0,
	    "SAFEOPEN_CREATE creates a missing file");
	CHECK_INT(write(fd, "x", 1), 1, "for writing");
	close(fd);
	{
		mode_t old = umask(0);

		fd = safeopen_flags(at(made, "private"), SAFEOPEN_CREATE |
		    SAFEOPEN_PRIVATE, &st);
		umask(old);
	}
	CHECK_UINT(fd >= 0 ? st.st_mode & 07777 : 1, 0600,
	    "SAFEOPEN_PRIVATE creates it 0600, whatever the umask");
	close(fd);
	fd = safeopen_flags(file, SAFEOPEN_CREATE | SAFEOPEN_NOFOLLOW, &st);
	CHECK(fd >= 0 && st.st_size == 6,
	    "an existing file is opened, not truncated");
	CHECK_INT(write(fd, "B", 1), 1, "for writing");
	close(fd);
	fd = safeopen(file, NULL);
	CHECK_STR(slurp(fd), "Bytes\n", "at its start");
	close(fd);
	fd = safeopen_flags("/dev/null", SAFEOPEN_CREATE, &st);
	CHECK(fd >= 0 && S_ISCHR(st.st_mode), "/dev/null is taken for writing");
	close(fd);
	CHECK_INT(safeopen_flags(fifo, SAFEOPEN_CREATE, &st), SAFEOPEN_NOTREG,
	    "a FIFO is not written to (no hang)");
	errno = 0;
	fd = safeopen_flags(dangling, SAFEOPEN_CREATE | SAFEOPEN_NOFOLLOW, &st);
	e = errno;
	CHECK_INT(fd, -1, "a dangling link is refused");
	CHECK_INT(e, ELOOP, "with ELOOP");
	fd = safeopen_flags(dangling, SAFEOPEN_CREATE, &st);
	CHECK_INT(fd, -1, "even without SAFEOPEN_NOFOLLOW");
	CHECK(access(target, F_OK) != 0, "and nothing is created through it");
	CHECK_INT(safeopen_flags(link, SAFEOPEN_CREATE | SAFEOPEN_NOFOLLOW,
	    &st), -1, "a link to a file is refused for writing too");

	unlink(file);
	unlink(link);
	unlink(fifo);
	unlink(dangling);
	unlink(at(made, "new"));
	unlink(at(made, "private"));
	rmdir(dir);
	return unit_done();
}
