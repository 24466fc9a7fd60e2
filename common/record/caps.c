/*
 * caps: what this process's privileges let it record (see caps.h).
 */
#include <err.h>
#include <errno.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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
