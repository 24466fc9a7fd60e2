/*
 * spin.h: burn CPU for a given time, shared by the fgrecord test programs
 * (tests/t300-fgrecord.sh builds them). Each takes SECONDS as argv[1].
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
