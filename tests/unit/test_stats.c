/*
 * Unit tests of profile/stats: Student's t against its closed forms and
 * printed tables, Welch's interval and Benjamini-Hochberg's adjusted
 * p-values against values worked by hand.
 */
#include <math.h>
#include <stdio.h>

#include "profile/stats.h"
#include "unit.h"

/* Whether got is want within tol; says both when not. */
static int
near(double got, double want, double tol)
{
	if (fabs(got - want) <= tol)
		return 1;
	printf("# got %.10g, want %.10g (within %g)\n", got, want, tol);
	return 0;
}

static void
test_t(void)
{
	double t;

	/* df 1 is Cauchy: P(T <= t) = 1/2 + atan(t)/pi */
	CHECK(near(stats_t_cdf(3, 1), 0.5 + atan(3) / M_PI, 1e-10),
	    "t cdf, df 1: the Cauchy closed form");
	/* df 2: P(T <= t) = 1/2 + t / (2 sqrt(t^2 + 2)) */
	CHECK(near(stats_t_cdf(3, 2), 0.5 + 3 / (2 * sqrt(11)), 1e-10),
	    "t cdf, df 2: its closed form");
	CHECK(near(stats_t_cdf(-3, 2), 0.5 - 3 / (2 * sqrt(11)), 1e-10),
	    "t cdf: symmetric about 0");
	/* df 4: 1/2 + 3/8 u (1 - u^2/12), u = t / sqrt(1 + t^2/4), at 1.5 */
	t = 1.5 / sqrt(1 + 1.5 * 1.5 / 4);
	CHECK(near(stats_t_cdf(1.5, 4), 0.5 + 0.375 * t * (1 - 1.5 * 1.5 /
	    (12 * (1 + 1.5 * 1.5 / 4))), 1e-10), "t cdf, df 4: its closed form");
	CHECK(near(stats_t_cdf(1.959963985, INFINITY), 0.975, 1e-9),
	    "infinite df is the normal");
	/* the tables' 97.5% points */
	CHECK(near(stats_t_quantile(0.975, 1), 12.7062047, 1e-6), "t(0.975, 1)");
	CHECK(near(stats_t_quantile(0.975, 4), 2.7764451, 1e-6), "t(0.975, 4)");
	CHECK(near(stats_t_quantile(0.975, 8), 2.3060041, 1e-6), "t(0.975, 8)");
	CHECK(near(stats_t_quantile(0.975, 30), 2.0422725, 1e-6), "t(0.975, 30)");
	CHECK(near(stats_t_quantile(0.975, INFINITY), 1.9599640, 1e-6),
	    "z(0.975)");
	CHECK(near(stats_t_quantile(0.025, 8), -2.3060041, 1e-6),
	    "a low quantile is the high one negated");
	CHECK(near(stats_t_cdf(stats_t_quantile(0.9, 3.5), 3.5), 0.9, 1e-9),
	    "the quantile inverts the cdf at a fractional df");
}

static void
test_welch(void)
{
	/*
	 * before 10 12 11 13 9: mean 11, variance 2.5; after 14 15 13 16 12:
	 * mean 14, variance 2.5. se = sqrt(2.5/5 + 2.5/5) = 1; df =
	 * 1 / (0.5^2/4 + 0.5^2/4) = 8; 3 +- 2.3060041; p = 2 P(T8 > 3).
	 */
	struct stats_side b = { 11, 2.5, 5, 4 }, a = { 14, 2.5, 5, 4 };
	struct stats_side b2 = { 100, 4, 3, 2 }, a2 = { 103, 16, 5, 4 };
	struct stats_side k1 = { 400, 400, 1, INFINITY }, k2 = { 441, 441, 1, INFINITY };
	struct stats_diff d;

	stats_welch(&b, &a, 0.95, &d);
	CHECK(near(d.diff, 3, 1e-12) && near(d.se, 1, 1e-12),
	    "welch: the difference and its standard error");
	CHECK(near(d.df, 8, 1e-9), "welch: df 8 for equal sides of 5");
	CHECK(near(d.low, 3 - 2.3060041, 1e-6) && near(d.high, 3 + 2.3060041, 1e-6),
	    "welch: the 95% interval, by the t table");
	/* P(T8 > 3) = 0.0085364 (the t table's 0.99 point is 2.896, 0.995 3.355) */
	CHECK(near(d.p, 2 * (1 - stats_t_cdf(3, 8)), 1e-12) && d.p > 0.01 &&
	    d.p < 0.02, "welch: the two-sided p-value");

	/*
	 * Unequal: vb = 4/3, va = 16/5; se^2 = 4.5333...; df = se^4 /
	 * ((4/3)^2/2 + 3.2^2/4) = 20.5511 / 3.4489 = 5.95876.
	 */
	stats_welch(&b2, &a2, 0.95, &d);
	CHECK(near(d.se, sqrt(4.0 / 3 + 3.2), 1e-12), "welch: unequal variances' se");
	CHECK(near(d.df, 5.958763, 1e-5), "welch: Satterthwaite's df");

	/*
	 * One run a side, counting noise known (Poisson: the variance is
	 * the count): 41 +- 1.959964 sqrt(841) = 41 +- 56.839, normal.
	 */
	stats_welch(&k1, &k2, 0.95, &d);
	CHECK(isinf(d.df), "known variances: the normal");
	CHECK(near(d.low, 41 - 1.959964 * 29, 1e-4) &&
	    near(d.high, 41 + 1.959964 * 29, 1e-4), "known variances: z interval");

	/* No spread at all: no change is p 1, a change is certain. */
	b.var = a.var = 0;
	a.mean = b.mean;
	stats_welch(&b, &a, 0.95, &d);
	CHECK(d.p == 1 && d.low == 0 && d.high == 0, "no spread, no change: p 1");
}

static void
test_bh(void)
{
	/*
	 * p 0.01 0.04 0.03 0.005, m 4; ranked 0.005 0.01 0.03 0.04, times
	 * m / rank: 0.02 0.02 0.04 0.04; minimum from the top: the same.
	 */
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, q[4];
	double want[] = { 0.02, 0.04, 0.04, 0.02 };
	/*
	 * m 8: p m / rank = 0.008 0.032 0.104 0.082 0.0672 0.08 0.084571
	 * 0.205; the running minimum from the top: 0.008 0.032 0.0672
	 * 0.0672 0.0672 0.08 0.084571 0.205.
	 */
	double p8[] = { 0.205, 0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074 };
	double w8[] = { 0.205, 0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.0845714286 };
	double ties[] = { 0.02, 0.02, 0.5 };
	int i, ok;

	stats_bh(p, 4, q);
	for (ok = 1, i = 0; i < 4; i++)
		ok &= near(q[i], want[i], 1e-12);
	CHECK(ok, "bh: four p-values, adjusted in their places");
	stats_bh(p8, 8, p8);
	for (ok = 1, i = 0; i < 8; i++)
		ok &= near(p8[i], w8[i], 1e-9);
	CHECK(ok, "bh: eight p-values in place, the running minimum");
	CHECK(p8[3] > 0.05 && p8[2] <= 0.05, "bh at q 0.05: two of eight discovered");
	stats_bh(ties, 3, ties);
	CHECK(near(ties[0], 0.03, 1e-12) && near(ties[1], 0.03, 1e-12) &&
	    near(ties[2], 0.5, 1e-12), "bh: equal p-values get one value");
}

static void
test_trend(void)
{
	/*
	 * y 10 12 11 15 14 over 0..4: x mean 2, y mean 12.4, Sxy 11, Sxx
	 * 10: slope 1.1; residuals -0.2 0.7 -1.4 1.5 -0.6, their squares 5.1,
	 * over 3 df 1.7; se sqrt(1.7/10) = 0.412311; t 2.667892 on 3 df,
	 * between the tables' 95% (2.353) and 97.5% (3.182) points.
	 */
	double y[] = { 10, 12, 11, 15, 14 }, flat[] = { 5, 5, 5 };
	struct stats_trend t;

	stats_trend(y, 5, &t);
	CHECK(near(t.slope, 1.1, 1e-12) && near(t.se, sqrt(0.17), 1e-12) &&
	    t.df == 3, "trend: slope, se and df by hand");
	CHECK(near(t.p, 2 * (1 - stats_t_cdf(1.1 / sqrt(0.17), 3)), 1e-12) &&
	    t.p > 0.05 && t.p < 0.1, "trend: its p-value, between the table's");
	stats_trend(flat, 3, &t);
	CHECK(t.slope == 0 && t.p == 1, "trend: none");
	stats_trend(y, 2, &t);
	CHECK(t.p == 1, "trend: two runs tell none");
}

static void
test_median(void)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };

	CHECK(near(stats_median(odd, 3), 2, 0), "median of three");
	CHECK(near(stats_median(even, 4), 2.5, 0), "median of four: the middle two's mean");
	CHECK(isnan(stats_median(odd, 0)), "median of none: NAN");
}

/* The gamma function's derivatives, and trigamma turned back. */
static void
test_gamma(void)
{
	CHECK(near(stats_digamma(1), -0.5772156649, 1e-9), "psi(1) = -gamma");
	CHECK(near(stats_digamma(0.5), -0.5772156649 - 2 * log(2), 1e-9),
	    "psi(1/2)");
	CHECK(near(stats_trigamma(1), M_PI * M_PI / 6, 1e-9), "psi'(1)");
	CHECK(near(stats_trigamma(0.5), M_PI * M_PI / 2, 1e-9), "psi'(1/2)");
	CHECK(near(stats_trigamma(100), 0.010050166663, 1e-10), "psi'(100)");
	CHECK(near(stats_trigamma_inv(stats_trigamma(0.3)), 0.3, 1e-8) &&
	    near(stats_trigamma_inv(stats_trigamma(8)), 8, 1e-8) &&
	    near(stats_trigamma_inv(stats_trigamma(500)), 500, 1e-5),
	    "trigamma's inverse");
}

/* A pooled variance's interval: t of its degrees of freedom. */
static void
test_pooled(void)
{
	struct stats_side b = { .mean = 10, .n = 3 }, a = { .mean = 19, .n = 3 };
	struct stats_diff d;

	stats_pooled(&b, &a, 3, 20, 0.95, &d, NULL);
	CHECK(near(d.diff, 9, 1e-12) && near(d.se, sqrt(2), 1e-12) &&
	    near(d.high - d.diff, 2.0859634 * sqrt(2), 1e-6) && d.df == 20,
	    "pooled: se sqrt(var (1/3 + 1/3)), t(0.975, 20)");
}

int
main(void)
{
	test_gamma();
	test_pooled();
	test_t();
	test_welch();
	test_bh();
	test_trend();
	test_median();
	return unit_done();
}
