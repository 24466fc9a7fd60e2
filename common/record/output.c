/*
 * output: where fgrecord's stream goes, -o's file or standard output, and
 * where the command's own output goes then (record_opts_output, record.h).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cmdfile.h"
#include "base/safeopen.h"
#include "base/xalloc.h"
#include "record/record.h"

/*
 * Opens the output file name for writing, truncated, and returns its
 * descriptor. fgrecord often runs as root: it refuses a symbolic link
 * (whose target could be any file) and anything but a regular file or
 * /dev/null (a FIFO would block, a device would be written to), checked
 * before anything is opened and again on the file opened (base/safeopen's
 * policy), so that nothing can be swapped in between. Run
 * as root, it also refuses an existing file another user owns or one
 * with more than one link (fs.protected_regular=0 lets anyone leave one
 * in /tmp): that user would read a system-wide profile. The stream holds
 * kernel addresses (a KASLR leak) and, with -a, every process's command
 * line: a new file is made 0600, as perf makes perf.data, and an old one
 * of the user's loses its group's and others' bits before it is
 * truncated. The checks come before the truncation, so a refused file is
 * left as it was. Returns -1 with *why (the caller frees it) when it
 * refuses or fails.
 */
static int
create_output(const char *name, char **why)
{
	struct stat st;
	int fd;

	if ((fd = safeopen_out(name, SAFEOPEN_PRIVATE, &st, why)) == -1)
		return -1;
	if (geteuid() == 0 && S_ISREG(st.st_mode) && st.st_uid != 0)
		*why = xasprintf("cannot write to '%s': it belongs to user %ju, "
		    "and root's profile would be theirs to read; remove it or "
		    "name a new file", name, (uintmax_t)st.st_uid);
	else if (geteuid() == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1)
		*why = xasprintf("cannot write to '%s': it has %ju links, and "
		    "another name could be anyone's; remove it or name a new "
		    "file", name, (uintmax_t)st.st_nlink);
	else if (S_ISREG(st.st_mode) && (st.st_mode & 077) &&
	    st.st_uid == geteuid() && fchmod(fd, st.st_mode & 0700) != 0)
		*why = xasprintf("cannot make '%s' private: %s", name,
		    strerror(errno));
	else if (S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0)
		*why = xasprintf("cannot truncate '%s': %s", name,
		    strerror(errno));
	else
		return fd;
	close(fd);
	return -1;
}

int
record_opts_output(struct record_opts *o, const char *name, char **why)
{
	int fd;

	*why = NULL;
	if (name == NULL || strcmp(name, "-") == 0) {
		o->outname = CMDFILE_STDOUT;
		o->cmd_stdout = STDERR_FILENO;
		return STDOUT_FILENO;
	}
	if ((fd = create_output(name, why)) == -1)
		return -1;
	o->outname = name;
	o->cmd_stdout = STDOUT_FILENO;
	return fd;
}
