/*
 * denied: why the kernel refused perf_event_open, found rather than
 * guessed. An EPERM looks the same whether a seccomp filter (a
 * container's default profile), the paranoid level, or a missing
 * capability refused it; this module tells them apart:
 *
 *  - a probe: perf_event_open with no attribute at all, which the kernel
 *    itself answers with EFAULT; EPERM, EACCES or ENOSYS instead means a
 *    seccomp filter answered before the kernel saw the call (the
 *    Seccomp: line of /proc/self/status says whether one is installed);
 *  - the capabilities: CAP_PERFMON or CAP_SYS_ADMIN in the effective set
 *    bypass the paranoid level; root without them (a container) does not;
 *  - kernel.perf_event_paranoid, against what was asked.
 *
 *	char why[512];
 *	kind = denied_why(errno, system_wide, why, sizeof(why));
 */
#ifndef FG_DENIED_H
#define FG_DENIED_H

#include <stddef.h>

enum denied_kind {
	DENIED_NONE,		/* errnum is no refusal (EINVAL, ENOENT, ...) */
	DENIED_SECCOMP,		/* a seccomp filter answers for the kernel */
	DENIED_NOSYS,		/* the kernel has no perf_event_open (or gVisor) */
	DENIED_CAPS,		/* root, but CAP_PERFMON and CAP_SYS_ADMIN dropped */
	DENIED_PARANOID,	/* kernel.perf_event_paranoid forbids it */
	DENIED_OTHER,		/* privileged and no filter: a security module */
};

/*
 * Finds why perf_event_open failed with errnum and writes one line
 * saying so, with no fix and no full stop, into buf (len bytes). The
 * line starts with "perf_event_open". system_wide: -a was asked for.
 * Returns the kind.
 */
enum denied_kind denied_why(int errnum, int system_wide, char *buf, size_t len);

/*
 * Tries what a recording of this process would open, user space only:
 * cpu-clock, and with offcpu the context-switches event with kernel
 * stacks (where a thread blocks). Returns DENIED_NONE when perf_event_open
 * can do it, else why not, with the line in buf as denied_why writes it.
 */
enum denied_kind denied_probe(int offcpu, char *buf, size_t len);

/*
 * Writes into buf (len bytes) the sysctl that allows what was asked when
 * kernel.perf_event_paranoid is p and refused it: the level that helps,
 * never p itself: 0 for -a (system_wide), else 1 (user and kernel stacks
 * of one's own processes). Below p in any case: "sudo sysctl
 * kernel.perf_event_paranoid=0 (what -a needs)".
 */
void	 denied_paranoid_fix(int p, int system_wide, char *buf, size_t len);

/* Reads the Seccomp: field of /proc/self/status: 0, 1 (strict), 2 (filter); -1 when absent. */
int	 denied_seccomp_mode(void);

#endif
