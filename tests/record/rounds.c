/*
 * rounds: six functions called in rounds of a steady length, with known
 * shares of the work (10, 20, 25, 15, 20 and 10%), for the sampling
 * interval's tests (t312): a sampler whose period divides the round (or
 * half of it) samples each round at the same points, and its profile
 * shows the phase, not the shares.
 *
 *	rounds PERIOD_NS MULTIPLE SECONDS [RAISED]
 *
 * A round is MULTIPLE sampling periods of PERIOD_NS of CPU time (1.5 is
 * a period and a half), calibrated at the start from the thread's own
 * CPU time per step of the work, and every 64 rounds from the time they
 * took (a step's time wavers by a percent or two from one measure to the
 * next, and a round out of step with the period by that much drifts
 * through it). It runs SECONDS of rounds of that length, reading its CPU
 * clock at the end of each (as a frame loop reads the time, or blocks,
 * at the end of a frame). RAISED (1 to 6) names a function whose work is
 * 20% more than its share: as many rounds, the others' work unchanged,
 * each round longer.
 * On stderr: the steps a round gives each function, the CPU time a step
 * took, the rounds run, and the wall and CPU time of the whole run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const double shares[6] = { 0.10, 0.20, 0.25, 0.15, 0.20, 0.10 };
static volatile uint64_t sink;

static double
cpu_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* n steps of a chain of multiplies that no compiler can shorten */
static inline __attribute__((always_inline)) uint64_t
steps(uint64_t x, long n)
{
	for (long i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* Each its own frame: the store after the loop keeps it no tail call. */
#define WORK(name) \
	__attribute__((noinline)) void name(long n) { sink = steps(sink, n); }

WORK(f1)
WORK(f2)
WORK(f3)
WORK(f4)
WORK(f5)
WORK(f6)

/* The CPU time of a step: the least of three measures of 10 ms or more. */
__attribute__((noinline)) static double
calibrate(void)
{
	double best = 0;
	long n = 1000000;

	for (int k = 0; k < 3; k++) {
		double t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID), t;

		sink = steps(sink, n);
		t = cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (t < 10e6) {		/* too short to measure well */
			n *= 2;
			k--;
			continue;
		}
		if (best == 0 || t / n < best)
			best = t / n;
	}
	return best;
}

int
main(int argc, char **argv)
{
	void (*fn[6])(long) = { f1, f2, f3, f4, f5, f6 };
	double period, multiple, secs, step, t0, t, scale, w0, c0;
	long n[6], rounds = 0, total;
	int raised;

	if (argc < 4) {
		fprintf(stderr, "usage: rounds PERIOD_NS MULTIPLE SECONDS "
		    "[RAISED]\n");
		return 2;
	}
	period = atof(argv[1]);
	multiple = atof(argv[2]);
	secs = atof(argv[3]);
	raised = argc > 4 ? atoi(argv[4]) : 0;
	w0 = cpu_ns(CLOCK_MONOTONIC);
	c0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	step = calibrate();
	for (int i = 0; i < 6; i++) {
		n[i] = (long)(shares[i] * period * multiple / step + 0.5);
		if (i + 1 == raised)
			n[i] = (long)(n[i] * 1.2 + 0.5);
	}
	total = (long)(secs * 1e9 / (period * multiple) + 0.5);
	t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	while (rounds < total) {
		for (int i = 0; i < 6; i++)
			fn[i](n[i]);
		t = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
		if (++rounds % 64 == 0) {
			double want = 64 * period * multiple *
			    (raised ? 1 + 0.2 * shares[raised - 1] : 1);

			scale = want / (t - t0);
			if (scale > 0.9 && scale < 1.1)
				for (int i = 0; i < 6; i++)
					n[i] = (long)(n[i] * scale + 0.5);
			t0 = t;
		}
	}
	fprintf(stderr, "steps %ld %ld %ld %ld %ld %ld\nstep-ns %.4f\n"
	    "rounds %ld\n", n[0], n[1], n[2], n[3], n[4], n[5], step, rounds);
	/* how long it waited for a CPU: a busy machine */
	fprintf(stderr, "wall-ns %.0f cpu-ns %.0f\n", cpu_ns(CLOCK_MONOTONIC) -
	    w0, cpu_ns(CLOCK_THREAD_CPUTIME_ID) - c0);
	return 0;
}
