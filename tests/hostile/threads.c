/* threads [N [SECONDS]]: N threads (default 16) spin for SECONDS (default 2). */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static double end;
static volatile unsigned long sink;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void
spin_work(void)
{
	for (unsigned long i = 0; i < 100000; i++)
		sink += i;
}

static void *
worker(void *arg)
{
	(void)arg;
	while (now() < end)
		spin_work();
	return NULL;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 16, i;
	pthread_t *t;

	if (n < 1 || (t = calloc((size_t)n, sizeof(*t))) == NULL)
		return 2;
	end = now() + (argc > 2 ? atof(argv[2]) : 2.0);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 2;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
