/*
 * offcpu: a main thread whose time is known, for the off-CPU tests
 * (tests/t310-offcpu.sh). With UNIT seconds as argv[1] (default 0.2), the
 * main thread spends, each in its own function:
 *
 *	phase_spin	1 unit on the CPU (wall-clock time, spinning)
 *	phase_sleep	2 units in nanosleep(2)
 *	phase_read	1 unit blocked in read(2) on a pipe
 *	phase_lock	1 unit blocked on a mutex another thread holds
 *
 * A helper thread writes the pipe and holds the mutex; it spends its time
 * in helper_* functions, so that a test can tell its samples apart by
 * thread ID (the main thread's is the PID) or by function. On standard
 * error it prints how long each phase really took ("phase_sleep 0.401"),
 * which a loaded machine stretches, and how much of that it ran on a CPU
 * ("phase_sleep_cpu 0.000"; a loaded machine keeps phase_spin waiting
 * for a CPU part of the time), and how long it waited on a run queue
 * ("phase_sleep_delay 0.000").
 *
 * With "exit" as argv[2], the helper blocks in read(2) on a pipe nobody
 * writes (helper_block) and the main thread spins for one unit and
 * exits: the helper dies while blocked.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "spin.h"

static double unit;
static int pfd[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t go_write, go_lock, locked;
static volatile unsigned long sink;

static void
sleep_for(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0)
		;
}

__attribute__((noinline)) void
helper_sleep(double s)
{
	sleep_for(s);
}

static void *
helper(void *arg)
{
	(void)arg;
	sem_wait(&go_write);
	helper_sleep(unit);
	if (write(pfd[1], "x", 1) != 1)
		abort();
	sem_wait(&go_lock);
	pthread_mutex_lock(&lock);
	sem_post(&locked);
	helper_sleep(unit);
	pthread_mutex_unlock(&lock);
	return NULL;
}

__attribute__((noinline)) void
phase_spin(void)
{
	double end = spin_now() + unit;

	while (spin_now() < end)
		for (int i = 0; i < 1000; i++)
			sink += i;
}

__attribute__((noinline)) void
phase_sleep(void)
{
	sleep_for(2 * unit);
}

__attribute__((noinline)) void
phase_read(void)
{
	char c;

	sem_post(&go_write);
	if (read(pfd[0], &c, 1) != 1)
		abort();
}

__attribute__((noinline)) void
phase_lock(void)
{
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
}

static void *
helper_block(void *arg)
{
	char c;

	(void)arg;
	sem_post(&locked);
	if (read(pfd[0], &c, 1) < 0)
		abort();
	return NULL;
}

static double
thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The time this thread has waited on a run queue, ready to run but not
 * running (the second field of its schedstat), in seconds; 0 when the
 * kernel does not keep it.
 */
static double
run_delay(void)
{
	unsigned long long cpu, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	int n;

	if (f == NULL)
		return 0;
	n = fscanf(f, "%llu %llu", &cpu, &wait);
	fclose(f);
	return n == 2 ? wait / 1e9 : 0;
}

/*
 * Runs phase fn and says how long it took, how much of it on a CPU, and
 * how long it waited for one: a busy machine's share, which a sampler
 * may place at either side of a phase's edge.
 */
static void
timed(const char *name, void (*fn)(void))
{
	double t0 = spin_now(), c0 = thread_cpu(), d0 = run_delay();

	fn();
	fprintf(stderr, "%s %.4f\n%s_cpu %.4f\n%s_delay %.4f\n", name,
	    spin_now() - t0, name, thread_cpu() - c0, name, run_delay() - d0);
}

int
main(int argc, char **argv)
{
	pthread_t t;

	unit = argc > 1 ? atof(argv[1]) : 0.2;
	if (unit <= 0 || pipe(pfd) != 0 || sem_init(&go_write, 0, 0) != 0 ||
	    sem_init(&go_lock, 0, 0) != 0 || sem_init(&locked, 0, 0) != 0 ||
	    pthread_create(&t, NULL, argc > 2 ? helper_block : helper,
	    NULL) != 0) {
		fprintf(stderr, "usage: offcpu [unit-seconds [exit]]\n");
		return 2;
	}
	if (argc > 2)
		sem_wait(&locked);
	timed("phase_spin", phase_spin);
	if (argc > 2)
		return 0;
	timed("phase_sleep", phase_sleep);
	timed("phase_read", phase_read);
	sem_post(&go_lock);
	sem_wait(&locked);
	timed("phase_lock", phase_lock);
	pthread_join(t, NULL);
	return 0;
}
