/*
 * openwatch FILE CMD [ARG...]: runs CMD and exits 3, saying so, when
 * anything opened FILE while it ran (read or write; an O_PATH open,
 * which opens nothing, makes no inotify event); else CMD's exit status.
 * For a test that a tool never opens a device or FIFO that its input
 * names: FILE is the test's own node, which nothing else opens.
 */
#include <sys/inotify.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char buf[4096] __attribute__((aligned(8)));
	int in, st;
	pid_t pid;
	ssize_t n;

	if (argc < 3) {
		fprintf(stderr, "usage: openwatch FILE CMD [ARG...]\n");
		return 2;
	}
	if ((in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1 ||
	    inotify_add_watch(in, argv[1], IN_OPEN) == -1) {
		fprintf(stderr, "openwatch: '%s': %s\n", argv[1], strerror(errno));
		return 2;
	}
	if ((pid = fork()) == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "openwatch: '%s': %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (pid == -1 || waitpid(pid, &st, 0) == -1) {
		perror("openwatch");
		return 2;
	}
	if ((n = read(in, buf, sizeof(buf))) > 0) {
		fprintf(stderr, "openwatch: '%s' was opened\n", argv[1]);
		return 3;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
