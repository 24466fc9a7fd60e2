/*
 * rounds_thread: tests/record/rounds.c run in a thread created after the
 * start, as a thread pool's work is, for t312: under the perf sampler, a
 * thread born after fgrecord opened its events must still get random
 * intervals. Same arguments and output as rounds.
 */
#include <pthread.h>

#define main rounds_main
#include "rounds.c"
#undef main

struct args {
	int	 argc;
	char	**argv;
	int	 status;
};

static void *
run(void *p)
{
	struct args *a = p;

	a->status = rounds_main(a->argc, a->argv);
	return NULL;
}

int
main(int argc, char **argv)
{
	struct args a = { argc, argv, 2 };
	pthread_t t;

	if (pthread_create(&t, NULL, run, &a) != 0 ||
	    pthread_join(t, NULL) != 0) {
		fprintf(stderr, "rounds_thread: cannot run a thread\n");
		return 2;
	}
	return a.status;
}
