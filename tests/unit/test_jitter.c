/*
 * test_jitter: the samplers' random intervals. Draws stay within half
 * and one and a half times the mean, their mean is the mean, they fill
 * the window (no phase is left out), the floor holds, and the coin
 * lands heads as often as asked. The bounds are many standard errors
 * wide: 100,000 draws a check.
 */
#include <stdint.h>

#include "record/jitter.h"
#include "unit.h"

#define N	100000

int
main(void)
{
	struct jitter j;
	uint64_t mean = 1001001, v, lo = UINT64_MAX, hi = 0;
	double sum = 0;
	int bins[10] = { 0 }, heads = 0, i, empty = 0, bad = 0;

	jitter_init(&j);
	for (i = 0; i < N; i++) {
		v = jitter_draw(&j, mean, JITTER_CLOCK_FLOOR);
		if (v < mean - mean / 2 || v > mean - mean / 2 + mean)
			bad++;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		sum += (double)v;
		bins[(v - (mean - mean / 2)) * 10 / (mean + 1)]++;
	}
	CHECK_INT(bad, 0, "every draw within [mean/2, 3 mean/2]");
	/* the mean's standard error: mean / sqrt(12 N), about 900 ns */
	CHECK(sum / N > mean - 5000.0 && sum / N < mean + 5000.0,
	    "the draws' mean is the mean");
	CHECK(lo < mean / 2 + mean / 1000 && hi > 3 * mean / 2 - mean / 1000,
	    "the draws reach both ends of the window");
	for (i = 0; i < 10; i++)
		if (bins[i] < N / 10 - N / 50 || bins[i] > N / 10 + N / 50)
			empty++;
	CHECK_INT(empty, 0, "each tenth of the window gets a tenth of the draws");

	CHECK_UINT(jitter_draw(&j, 0, 7), 7, "a mean of 0 gives the floor");
	for (i = 0, bad = 0; i < 1000; i++)
		if (jitter_draw(&j, 10, 8) < 8)
			bad++;
	CHECK_INT(bad, 0, "a draw below the floor is raised to it");
	for (i = 0, bad = 0; i < 1000; i++)
		if ((v = jitter_draw(&j, 2, 0)) < 1 || v > 3)
			bad++;
	CHECK_INT(bad, 0, "a mean of 2 draws 1, 2 or 3");

	for (i = 0; i < N; i++)
		heads += jitter_coin(&j, 0.3);
	/* the count's standard error: sqrt(N 0.3 0.7), about 145 */
	CHECK(heads > 30000 - 1000 && heads < 30000 + 1000,
	    "the coin lands heads 30% of the time when asked 0.3");
	CHECK_INT(jitter_coin(&j, 0), 0, "never at 0");
	CHECK_INT(jitter_coin(&j, 1), 1, "always at 1");
	return unit_done();
}
