/*
 * spin.h: burn CPU for a given time, shared by the fgrecord test programs
 * (tests/t300-fgrecord.sh builds them). Each takes SECONDS as argv[1].
 *
 * A workload that a test counts samples of is measured in the thread's
 * own CPU time (spin_cpu, spin_for), not in wall time: a sampler of CPU
 * time (perf's cpu-clock and task-clock on a task, the ptrace sampler)
 * sees the same number of samples at each place whether the machine is
 * idle or busy, where a loop timed by the wall clock gets fewer of them
 * the busier the machine is. spin_now is the wall clock, for what is
 * meant to be wall time (a deadline, a wait, a time printed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long spin_sink;

static __attribute__((unused)) double
spin_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The calling thread's CPU time in seconds. */
static __attribute__((unused)) double
spin_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Spins until the calling thread has used secs more seconds of CPU. */
static __attribute__((unused)) void
spin_for(double secs)
{
	double end = spin_cpu() + secs;

	while (spin_cpu() < end)
		for (unsigned long i = 0; i < 1000; i++)
			spin_sink += i;
}

static __attribute__((unused)) double
spin_secs(int argc, char **argv, double dflt)
{
	return argc > 1 ? atof(argv[1]) : dflt;
}

/* At a normal exit, says how much CPU the process used, for rate checks. */
__attribute__((destructor)) static void
spin_report(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	fprintf(stderr, "cpu-seconds %d %.3f\n", (int)getpid(),
	    ts.tv_sec + ts.tv_nsec / 1e9);
}
