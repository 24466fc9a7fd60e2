/*
 * cmdfile: the files a tool is given on its command line, opened and
 * named the same way in every tool. "-" is standard input, called
 * "<stdin>" in every message; standard output is "<stdout>".
 *
 *	for (i = 0; i < argc; i++) {
 *		if ((fd = cmdfile_open(argv[i], &name)) == -1) {
 *			rval = 1;		(warned already)
 *			continue;
 *		}
 *		... read fd, naming it name in messages ...
 *		cmdfile_close(fd);
 *	}
 *	cmdfile_finish(stdout, CMDFILE_STDOUT);
 */
#ifndef FG_CMDFILE_H
#define FG_CMDFILE_H

#include <stdio.h>

#define CMDFILE_STDIN	"<stdin>"
#define CMDFILE_STDOUT	"<stdout>"

/*
 * Opens path for reading, close-on-exec; "-" gives standard input. Sets
 * *name (borrowed: path itself, or CMDFILE_STDIN) for messages. On
 * failure warns "cannot open 'PATH': reason" and returns -1.
 */
int	 cmdfile_open(const char *path, const char **name);

/*
 * Creates path for writing (an output option's file, such as fgsym's
 * --annotate-to), through base/safeopen's policy: a symbolic link, a
 * FIFO or a device is refused before anything is written (/dev/null is
 * taken), a regular file truncated. Exits 2 with one line naming path
 * and the fix when refused or failing. The caller fcloses the FILE.
 */
FILE	*cmdfile_create(const char *path);

/*
 * Two lists of files on one command line, "opt ... BEFORE ... -- AFTER
 * ...": returns 1 when opt (such as "--compare") is among the arguments
 * before the first "--", else 0. When it is and a "--" follows, that
 * "--" becomes the end of argv (NULL, *argc cut to it, so that getopt
 * never takes it) and *after the list after it (in argv,
 * NULL-terminated); else *after is left as it is.
 */
int	 cmdfile_split(int *argc, char **argv, const char *opt, char ***after);

/* Closes what cmdfile_open gave, unless it is standard input. */
void	 cmdfile_close(int fd);

/* Warns "cannot read 'NAME': reason" (errnum's), for an input that was opened. */
void	 cmdfile_read_failed(const char *name, int errnum);

/*
 * The one wording of a failed write: exits 2 with "cannot write 'NAME':
 * reason" (errno's).
 */
void	 cmdfile_write_failed(const char *name) __attribute__((noreturn));

/*
 * The same wording as a message, for a library that says why rather than
 * exits: "cannot write 'NAME': reason" (errnum's; 0 is EIO, a stream that
 * failed without an errno). The caller frees it.
 */
char	*cmdfile_write_why(const char *name, int errnum);

/*
 * Flushes f and exits 2 through cmdfile_write_failed when that, or any
 * earlier write to f, failed.
 */
void	 cmdfile_finish(FILE *f, const char *name);

#endif
