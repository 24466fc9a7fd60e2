/*
 * kernels: eight functions of fixed work, for fgfold --compare (t520,
 * bench/compare.sh). Where tests/record/weights.c spins for a time, each
 * kernel here runs a fixed number of steps of one dependent arithmetic
 * chain, so that a busy or drifting machine changes a run's time as it
 * changes a real program's, and the comparison sees that noise.
 *
 *	kernels [MSTEPS [FACTOR [SEED]]]
 *
 * MSTEPS millions of steps in all (100 unless given; about 0.17 s here),
 * shared by the kernels in the fixed weights below (encode 5%: a
 * function of 5% of the run); encode then does FACTOR times its work (1
 * unless given). The work is done in 20 rounds, each calling the eight
 * in an order shuffled by SEED (the process id unless given), so that no
 * kernel always follows another. At the end each kernel's own CPU time,
 * timed by the program around each call (CLOCK_THREAD_CPUTIME_ID), goes
 * to stderr, a line each: "kernel NAME MS", then "kernel [all] MS": the
 * true change a comparison's interval should hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS	20

static volatile unsigned long sink;

static double
cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * n steps of a chain no compiler can shorten, each needing the last: a
 * macro, not an inline function, whose inlined frame would be a row of
 * its own in every kernel.
 */
#define STEPS(n) do { \
	unsigned long x_ = sink | 1; \
	for (unsigned long i_ = 0; i_ < (n); i_++) { \
		x_ = x_ * 6364136223846793005UL + 1442695040888963407UL; \
		x_ ^= x_ >> 29; \
	} \
	sink = x_; \
} while (0)

/* Each its own frame: the store after the loop keeps it no tail call. */
#define KERNEL(name) \
	__attribute__((noinline)) void name(unsigned long n) { STEPS(n); sink++; }

KERNEL(parse)
KERNEL(lex)
KERNEL(hash)
KERNEL(sort)
KERNEL(render)
KERNEL(encode)
KERNEL(flush)
KERNEL(logline)

static const struct kernel {
	const char	*name;
	void		(*fn)(unsigned long);
	double		 weight;	/* share of the work */
} kernels[] = {
	{ "parse", parse, 0.30 }, { "lex", lex, 0.20 }, { "hash", hash, 0.15 },
	{ "sort", sort, 0.10 }, { "render", render, 0.10 },
	{ "encode", encode, 0.05 }, { "flush", flush, 0.05 },
	{ "logline", logline, 0.05 }
};
#define NK	(sizeof(kernels) / sizeof(kernels[0]))

int
main(int argc, char **argv)
{
	double msteps = argc > 1 ? atof(argv[1]) : 100;
	double factor = argc > 2 ? atof(argv[2]) : 1;
	unsigned seed = argc > 3 ? (unsigned)atoi(argv[3]) : (unsigned)getpid();
	double ms[NK] = { 0 }, all = 0, t;
	size_t order[NK], i, k, r;

	srand(seed);
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < NK; i++)
			order[i] = i;
		for (i = NK - 1; i > 0; i--) {
			size_t j = (size_t)rand() % (i + 1), s = order[i];

			order[i] = order[j];
			order[j] = s;
		}
		for (i = 0; i < NK; i++) {
			k = order[i];
			double n = msteps * 1e6 * kernels[k].weight / ROUNDS;

			if (kernels[k].fn == encode)
				n *= factor;
			t = cpu_ms();
			kernels[k].fn((unsigned long)n);
			ms[k] += cpu_ms() - t;
		}
	}
	for (k = 0; k < NK; k++) {
		fprintf(stderr, "kernel %s %.3f\n", kernels[k].name, ms[k]);
		all += ms[k];
	}
	fprintf(stderr, "kernel [all] %.3f\n", all);
	return 0;
}
