#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/procfs.h"
#include "record/caps.h"
#include "record/denied.h"
#include "perf/perf.h"

int
denied_seccomp_mode(void)
{
	struct procfs_status st;

	if (procfs_status(0, &st) != 0)
		return -1;
	return st.seccomp;
}

/*
 * Calls perf_event_open with a NULL attribute: the kernel's answer is
 * EFAULT (or EINVAL); anything the kernel cannot give for it (EPERM,
 * EACCES, ENOSYS) came from a seccomp filter or a missing system call.
 * Returns that errno, or 0 when the kernel answered.
 */
static int
probe(void)
{
	long rc = syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0);

	if (rc >= 0) {
		close((int)rc);
		return 0;
	}
	return errno == EFAULT || errno == EINVAL ? 0 : errno;
}

/* Whether CAP_PERFMON or CAP_SYS_ADMIN is in the effective set. */
static int
privileged(void)
{
	static const int caps[] = { CAP_SYS_ADMIN, CAP_PERFMON };
	int r = caps_effective(caps, sizeof(caps) / sizeof(caps[0]));

	return r < 0 ? geteuid() == 0 : r;
}

enum denied_kind
denied_why(int e, int system_wide, char *buf, size_t len)
{
	int seccomp = denied_seccomp_mode(), p = perf_paranoid();
	int pe = probe();

	if (e != EPERM && e != EACCES && e != ENOSYS) {
		snprintf(buf, len, "perf_event_open failed: %s", strerror(e));
		return DENIED_NONE;
	}
	if (pe != 0 && seccomp > 0) {
		snprintf(buf, len, "perf_event_open is refused by a seccomp "
		    "filter (Seccomp: %d in /proc/self/status; the call fails "
		    "with %s before it reaches the kernel): a container or "
		    "sandbox forbids it", seccomp, strerrorname_np(pe) ?
		    strerrorname_np(pe) : strerror(pe));
		return DENIED_SECCOMP;
	}
	if (e == ENOSYS || pe == ENOSYS) {
		snprintf(buf, len, "perf_event_open is not implemented here "
		    "(ENOSYS, and no seccomp filter): a kernel built without "
		    "CONFIG_PERF_EVENTS, or a sandbox such as gVisor");
		return DENIED_NOSYS;
	}
	if (privileged()) {
		snprintf(buf, len, "perf_event_open denied (%s) although "
		    "fgrecord has CAP_PERFMON or CAP_SYS_ADMIN and no seccomp "
		    "filter: a security module (SELinux, AppArmor) forbids it",
		    strerror(e));
		return DENIED_OTHER;
	}
	if (geteuid() == 0) {
		snprintf(buf, len, "perf_event_open denied (%s): fgrecord runs "
		    "as root but without CAP_PERFMON or CAP_SYS_ADMIN (a "
		    "container drops them), so kernel.perf_event_paranoid=%d "
		    "applies", strerror(e), p == INT_MIN ? -1 : p);
		return DENIED_CAPS;
	}
	if (p == INT_MIN)
		snprintf(buf, len, "perf_event_open denied (%s): fgrecord lacks "
		    "CAP_PERFMON", strerror(e));
	else
		snprintf(buf, len, "perf_event_open denied (%s): "
		    "kernel.perf_event_paranoid is %d%s", strerror(e), p,
		    system_wide && p >= 1 ? " (-a needs 0 or less)" :
		    p >= 3 ? " (nothing may be sampled without CAP_PERFMON)" :
		    "");
	return DENIED_PARANOID;
}

void
denied_paranoid_fix(int p, int system_wide, char *buf, size_t len)
{
	int need = system_wide ? 0 : 1;

	if (need >= p)		/* refused at a level that should allow it */
		need = p - 1 < -1 ? -1 : p - 1;
	snprintf(buf, len, "sudo sysctl kernel.perf_event_paranoid=%d (%s)",
	    need, need <= 0 && system_wide ? "what -a needs" :
	    need == -1 ? "no restriction" :
	    "user and kernel stacks of your own processes");
}

/* Opens an event on this process as a recording would, and closes it. */
static int
try_open(uint64_t config, int kernel_stacks)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.disabled = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_CALLCHAIN;
	a.exclude_kernel = !kernel_stacks;
	a.exclude_hv = 1;
	if ((fd = perf_open(&a, 0, -1)) < 0)
		return errno;
	close(fd);
	return 0;
}

enum denied_kind
denied_probe(int offcpu, char *buf, size_t len)
{
	enum denied_kind k;
	int e;

	if ((e = try_open(PERF_COUNT_SW_CPU_CLOCK, 0)) != 0)
		return denied_why(e, 0, buf, len);
	if (!offcpu || (e = try_open(PERF_COUNT_SW_CONTEXT_SWITCHES, 1)) == 0)
		return DENIED_NONE;
	k = denied_why(e, 0, buf, len);
	if (k == DENIED_PARANOID || k == DENIED_CAPS)
		snprintf(buf, len, "perf_event_open cannot give the stacks "
		    "where threads block (%s): kernel.perf_event_paranoid is %d "
		    "and fgrecord lacks CAP_PERFMON, so the kernel's switches "
		    "are hidden", strerror(e), perf_paranoid());
	return k;
}
