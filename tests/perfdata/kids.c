/*
 * kids: the programs t421-perfdata-more.sh records with perf record, each
 * spinning for SECONDS of CPU time in functions of its own names:
 *
 *	kids gate FILE SECONDS		waits (asleep) until FILE exists, then
 *					spins in gated_spin: perf record -p
 *					attaches while it waits
 *	kids fork SECONDS		forks: the parent spins in parent_spin,
 *					the child in child_spin (FORK, EXIT)
 *	kids exec SECONDS PROG ARGS	spins in before_exec, then forks a
 *					child that execs PROG (COMM exec), and
 *					waits for it
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../record/spin.h"

__attribute__((noinline)) void
gated_spin(double secs)
{
	spin_for(secs);
	__asm__ volatile("" ::: "memory");	/* a frame of its own */
}

__attribute__((noinline)) void
parent_spin(double secs)
{
	spin_for(secs);
	__asm__ volatile("" ::: "memory");	/* a frame of its own */
}

__attribute__((noinline)) void
child_spin(double secs)
{
	spin_for(secs);
	__asm__ volatile("" ::: "memory");	/* a frame of its own */
}

__attribute__((noinline)) void
before_exec(double secs)
{
	spin_for(secs);
	__asm__ volatile("" ::: "memory");	/* a frame of its own */
}

int
main(int argc, char **argv)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	struct stat st;
	pid_t pid;

	if (argc >= 4 && strcmp(argv[1], "gate") == 0) {
		while (stat(argv[2], &st) != 0)
			nanosleep(&nap, NULL);
		gated_spin(atof(argv[3]));
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "fork") == 0) {
		if ((pid = fork()) < 0)
			return 1;
		if (pid == 0) {
			child_spin(atof(argv[2]));
			_exit(0);
		}
		parent_spin(atof(argv[2]));
		return waitpid(pid, NULL, 0) == pid ? 0 : 1;
	}
	if (argc >= 4 && strcmp(argv[1], "exec") == 0) {
		before_exec(atof(argv[2]));
		if ((pid = fork()) < 0)
			return 1;
		if (pid == 0) {
			execv(argv[3], argv + 3);
			_exit(127);
		}
		return waitpid(pid, NULL, 0) == pid ? 0 : 1;
	}
	fprintf(stderr, "usage: kids gate FILE SECONDS | fork SECONDS | "
	    "exec SECONDS PROG [ARG ...]\n");
	return 2;
}
