/*
 * caps: what this process's privileges let it record. Root may record
 * anything; a user whose fgrecord carries a capability (sudo setcap
 * cap_perfmon+ep) could, through perf_event_open, watch any other user's
 * process too, which is refused unless it is asked for (--any-user).
 *
 *	caps_check_owners(pids, npids, any_user);	(exits 2 on refusal)
 */
#ifndef FG_CAPS_H
#define FG_CAPS_H

#include <stddef.h>
#include <sys/types.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON	38	/* Linux 5.8; older headers lack it */
#endif

/*
 * Whether one of the n capabilities caps[] (CAP_PERFMON, ...) is in this
 * process's effective set. Returns 1 or 0, or -1 with errno set when
 * capget(2) fails.
 */
int	 caps_effective(const int *caps, size_t n);

/*
 * Whether process pid belongs to uid: its real, effective and saved user
 * IDs are all uid, as ptrace(2) asks. Returns 1 or 0, or -1 when it
 * cannot be told (the process is gone).
 */
int	 caps_owned(pid_t pid, uid_t uid);

/*
 * A user who is not root, but whose fgrecord has one of the capabilities
 * that let perf_event_open watch other users' processes (CAP_PERFMON,
 * CAP_SYS_ADMIN, CAP_SYS_PTRACE), could record any of them: exits with
 * status 2 and a message naming --any-user when one of the npids
 * processes pids[] belongs to another user, unless any_user says that is
 * meant. A process that is gone is left to the source to report.
 */
void	 caps_check_owners(const pid_t *pids, size_t npids, int any_user);

/*
 * Whether exec'ing the command argv0, found as execvp(3) finds it (a name
 * without a slash is looked up in PATH), would give it privileges this
 * process lacks: its file is set-user-ID to another user, set-group-ID
 * to a group that is not ours, or carries file capabilities (the
 * security.capability attribute). Returns 1 and sets *what to the phrase
 * ("set-user-ID root", "set-group-ID shadow", "given file capabilities"),
 * which the caller frees; 0 when not (or not found: exec will say).
 */
int	 caps_setid(const char *argv0, char **what);

#endif
