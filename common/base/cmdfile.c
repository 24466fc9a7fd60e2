#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cmdfile.h"
#include "base/safeopen.h"
#include "base/xalloc.h"

int
cmdfile_open(const char *path, const char **name)
{
	int fd;

	if (strcmp(path, "-") == 0) {
		*name = CMDFILE_STDIN;
		return STDIN_FILENO;
	}
	*name = path;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		warn("cannot open '%s'", path);
	return fd;
}

int
cmdfile_split(int *argc, char **argv, const char *opt, char ***after)
{
	int i, seen = 0;

	for (i = 1; i < *argc && strcmp(argv[i], "--") != 0; i++)
		seen |= strcmp(argv[i], opt) == 0;
	if (seen && i < *argc) {
		*after = argv + i + 1;
		argv[i] = NULL;
		*argc = i;
	}
	return seen;
}

void
cmdfile_close(int fd)
{
	if (fd != STDIN_FILENO && fd >= 0)
		close(fd);
}

void
cmdfile_read_failed(const char *name, int errnum)
{
	warnx("cannot read '%s': %s", name, strerror(errnum));
}

void
cmdfile_write_failed(const char *name)
{
	errx(2, "%s", cmdfile_write_why(name, errno));
}

char *
cmdfile_write_why(const char *name, int errnum)
{
	/* A stream that failed without an errno (ferror only). */
	if (errnum == 0)
		errnum = EIO;
	return xasprintf("cannot write '%s': %s", name, strerror(errnum));
}

void
cmdfile_finish(FILE *f, const char *name)
{
	errno = 0;
	if (fflush(f) == EOF || ferror(f))
		cmdfile_write_failed(name);
}

FILE *
cmdfile_create(const char *path)
{
	struct stat st;
	char *why;
	FILE *f;
	int fd;

	if ((fd = safeopen_out(path, 0, &st, &why)) == -1)
		errx(2, "%s", why);
	if (S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0)
		err(2, "cannot truncate '%s'", path);
	if ((f = fdopen(fd, "w")) == NULL)
		err(2, "cannot create '%s'", path);
	return f;
}
