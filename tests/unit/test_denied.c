/*
 * test_denied: denied_why tells a seccomp filter from the paranoid level
 * and from missing capabilities. Each case runs in a child process that
 * puts itself in the situation: a filter answering EPERM or ENOSYS for
 * perf_event_open; as root, its effective capabilities dropped; none.
 */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/denied.h"
#include "noperf.h"
#include "unit.h"

enum setup { PLAIN, FILTER_EPERM, FILTER_ENOSYS, NO_CAPS };

/* Runs denied_why(errnum) in a child set up as asked; returns the kind and the line. */
static int
kind_in_child(enum setup how, int errnum, char *line, size_t len)
{
	int p[2], status, kind = -1;
	pid_t pid;
	ssize_t n;

	if (pipe(p) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		char why[512];
		int k;

		close(p[0]);
		if (how == FILTER_EPERM && noperf_install(EPERM) != 0)
			_exit(3);
		if (how == FILTER_ENOSYS && noperf_install(ENOSYS) != 0)
			_exit(3);
		if (how == NO_CAPS) {
			struct __user_cap_header_struct h = {
				_LINUX_CAPABILITY_VERSION_3, 0 };
			struct __user_cap_data_struct d[2];

			if (syscall(SYS_capget, &h, d) != 0)
				_exit(3);
			d[0].effective = d[1].effective = 0;
			if (syscall(SYS_capset, &h, d) != 0)
				_exit(3);
		}
		k = denied_why(errnum, 0, why, sizeof(why));
		if (write(p[1], &k, sizeof(k)) != sizeof(k) ||
		    write(p[1], why, strlen(why) + 1) < 0)
			_exit(4);
		_exit(0);
	}
	close(p[1]);
	line[0] = '\0';
	if (read(p[0], &kind, sizeof(kind)) != sizeof(kind))
		kind = -1;
	else if ((n = read(p[0], line, len - 1)) >= 0)
		line[n] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	printf("# %s\n", line);
	return kind;
}

/* The fix names the level that helps, never the current one. */
static void
test_fix(void)
{
	char fix[160];
	int p;

	for (p = 1; p <= 3; p++) {
		denied_paranoid_fix(p, 1, fix, sizeof(fix));
		CHECK_STR(fix, "sudo sysctl kernel.perf_event_paranoid=0 (what "
		    "-a needs)", "-a: level 0, from levels 1 to 3");
	}
	denied_paranoid_fix(3, 0, fix, sizeof(fix));
	CHECK_STR(fix, "sudo sysctl kernel.perf_event_paranoid=1 (user and "
	    "kernel stacks of your own processes)", "a command at level 3: 1");
	denied_paranoid_fix(1, 0, fix, sizeof(fix));
	CHECK(strstr(fix, "paranoid=0 ") != NULL,
	    "refused at 1 without -a: a level below 1");
	denied_paranoid_fix(0, 1, fix, sizeof(fix));
	CHECK(strstr(fix, "paranoid=-1 ") != NULL,
	    "-a refused at 0: -1, not 0");
}

int
main(void)
{
	char line[512];

	test_fix();

	CHECK(kind_in_child(FILTER_EPERM, EPERM, line, sizeof(line)) ==
	    DENIED_SECCOMP, "a filter answering EPERM is named seccomp");
	CHECK(strstr(line, "Seccomp: 2") && strstr(line, "EPERM"),
	    "the line quotes the Seccomp: field and the errno");
	CHECK(kind_in_child(FILTER_ENOSYS, ENOSYS, line, sizeof(line)) ==
	    DENIED_SECCOMP, "a filter answering ENOSYS is named seccomp");
	CHECK(strstr(line, "ENOSYS") != NULL, "the line quotes ENOSYS");
	CHECK(kind_in_child(PLAIN, EINVAL, line, sizeof(line)) == DENIED_NONE,
	    "EINVAL is no refusal");
	if (geteuid() == 0) {
		CHECK(kind_in_child(NO_CAPS, EACCES, line, sizeof(line)) ==
		    DENIED_CAPS, "root without CAP_PERFMON is named so");
		CHECK(strstr(line, "CAP_PERFMON") != NULL,
		    "the line names the capability");
		CHECK(kind_in_child(PLAIN, EACCES, line, sizeof(line)) ==
		    DENIED_OTHER, "privileged and unfiltered: a security module");
	} else {
		CHECK(kind_in_child(PLAIN, EACCES, line, sizeof(line)) ==
		    DENIED_PARANOID, "unprivileged and unfiltered: the paranoid level");
	}
	return unit_done();
}
