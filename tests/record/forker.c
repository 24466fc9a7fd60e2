/* forker: the parent forks a child; both burn CPU in their own function. */
#include <sys/wait.h>
#include <unistd.h>
#include "spin.h"

__attribute__((noinline)) void
child_work(double end)
{
	while (spin_now() < end)
		for (unsigned long i = 0; i < 100000; i++)
			spin_sink += i;
}

__attribute__((noinline)) void
parent_work(double end)
{
	while (spin_now() < end)
		for (unsigned long i = 0; i < 100000; i++)
			spin_sink ^= i;
}

int
main(int argc, char **argv)
{
	double end = spin_now() + spin_secs(argc, argv, 1.0);
	pid_t pid = fork();

	if (pid == 0) {
		child_work(end);
		_exit(0);
	}
	parent_work(end);
	waitpid(pid, NULL, 0);
	return 0;
}
