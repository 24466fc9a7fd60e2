/* threads: two threads, each in its own hot function, for SECONDS. */
#include <pthread.h>
#include "spin.h"

static double end;

__attribute__((noinline)) void
alpha_work(void)
{
	for (unsigned long i = 0; i < 100000; i++)
		spin_sink += i;
}

__attribute__((noinline)) void
beta_work(void)
{
	for (unsigned long i = 0; i < 100000; i++)
		spin_sink ^= i;
}

static void *
alpha(void *arg)
{
	(void)arg;
	while (spin_now() < end)
		alpha_work();
	return NULL;
}

static void *
beta(void *arg)
{
	(void)arg;
	while (spin_now() < end)
		beta_work();
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t a, b;

	end = spin_now() + spin_secs(argc, argv, 1.0);
	pthread_create(&a, NULL, alpha, NULL);
	pthread_create(&b, NULL, beta, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
