/*
 * caps: what this process's privileges let it record (see caps.h).
 */
#include <err.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/xalloc.h"

#include "base/procfs.h"
#include "record/caps.h"

int
caps_effective(const int *caps, size_t n)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	size_t i;

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	for (i = 0; i < n; i++)
		if (d[CAP_TO_INDEX(caps[i])].effective & CAP_TO_MASK(caps[i]))
			return 1;
	return 0;
}

int
caps_owned(pid_t pid, uid_t uid)
{
	struct procfs_status st;

	if (procfs_status(pid, &st) != 0 || st.nuid != 3)
		return -1;
	return st.uid[0] == uid && st.uid[1] == uid && st.uid[2] == uid;
}

void
caps_check_owners(const pid_t *pids, size_t npids, int any_user)
{
	static const int others[] = { CAP_PERFMON, CAP_SYS_ADMIN,
	    CAP_SYS_PTRACE };
	uid_t uid = getuid();
	size_t i;

	if (any_user || uid == 0 || npids == 0 ||
	    caps_effective(others, sizeof(others) / sizeof(others[0])) != 1)
		return;
	for (i = 0; i < npids; i++)
		if (caps_owned(pids[i], uid) == 0)
			errx(2, "process %d belongs to another user: %s may "
			    "record it only through its capabilities; give "
			    "--any-user if that is meant", (int)pids[i],
			    program_invocation_short_name);
}

/*
 * Finds argv0 as execvp does and stats it: the first regular file that
 * is executable in PATH (glibc's default when unset). Returns 0 with *st
 * and path (len bytes) filled, or -1.
 */
static int
find_command(const char *argv0, char *path, size_t len, struct stat *st)
{
	const char *p, *dirs = getenv("PATH");
	size_t n;

	if (strchr(argv0, '/')) {
		snprintf(path, len, "%s", argv0);
		return stat(path, st);
	}
	if (dirs == NULL)
		dirs = "/bin:/usr/bin";
	for (p = dirs; ; p += n + 1) {
		n = strcspn(p, ":");
		if ((size_t)snprintf(path, len, "%.*s%s%s", (int)n, p,
		    n ? "/" : "", argv0) < len && stat(path, st) == 0 &&
		    S_ISREG(st->st_mode) && access(path, X_OK) == 0)
			return 0;
		if (p[n] == '\0')
			return -1;
	}
}

/* Whether gid is this process's effective or a supplementary group. */
static int
in_group(gid_t gid)
{
	gid_t *groups;
	int i, n, found = 0;

	if (gid == getegid())
		return 1;
	/* as many as the process has, asked first: NGROUPS_MAX would be
	   256 KiB on the stack */
	if ((n = getgroups(0, NULL)) <= 0)
		return 0;
	groups = xcalloc((size_t)n, sizeof(*groups));
	n = getgroups(n, groups);
	for (i = 0; i < n && !found; i++)
		found = groups[i] == gid;
	free(groups);
	return found;
}

int
caps_setid(const char *argv0, char **what)
{
	char path[PATH_MAX];
	struct stat st;
	struct passwd *pw;
	struct group *gr;

	*what = NULL;
	if (find_command(argv0, path, sizeof(path), &st) != 0)
		return 0;
	if ((st.st_mode & S_ISUID) && st.st_uid != geteuid()) {
		pw = getpwuid(st.st_uid);
		*what = pw ? xasprintf("set-user-ID %s", pw->pw_name) :
		    xasprintf("set-user-ID %ju", (uintmax_t)st.st_uid);
	} else if ((st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
	    !in_group(st.st_gid)) {
		gr = getgrgid(st.st_gid);
		*what = gr ? xasprintf("set-group-ID %s", gr->gr_name) :
		    xasprintf("set-group-ID %ju", (uintmax_t)st.st_gid);
	} else if (getxattr(path, "security.capability", NULL, 0) > 0) {
		*what = xasprintf("given file capabilities");
	}
	return *what != NULL;
}
