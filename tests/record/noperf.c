/*
 * noperf: run a command under a seccomp filter that makes
 * perf_event_open(2) fail, as Docker's default profile does without
 * CAP_PERFMON.
 *
 *	noperf [-n] command [arg ...]
 *
 * The call fails with EPERM, or with ENOSYS under -n (what some sandboxes
 * answer). Every other system call is allowed; no privilege is needed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../unit/noperf.h"

int
main(int argc, char *argv[])
{
	int err = EPERM;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		err = ENOSYS;
		argc--;
		argv++;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: noperf [-n] command [arg ...]\n");
		return 2;
	}
	if (noperf_install(err) != 0) {
		fprintf(stderr, "noperf: cannot install the seccomp filter: %s\n",
		    strerror(errno));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "noperf: '%s': %s\n", argv[1], strerror(errno));
	return 127;
}
