/*
 * stats: the statistics a comparison of two sets of runs needs, and
 * nothing else: Student's t distribution (its tails and quantiles), the
 * normal one as its limit, the interval of a difference of two means
 * (Welch), Benjamini-Hochberg's adjusted p-values, a trend's slope and
 * the median. Pure functions of
 * numbers: no allocation but the caller's, no state.
 *
 *	struct stats_side b = { mean_b, var_b, n_b }, a = { ... };
 *	struct stats_diff d;
 *	stats_welch(&b, &a, 0.95, &d);	d.diff, d.low, d.high, d.p
 *	stats_bh(p, m, q);		q[i]: p[i] adjusted
 *	stats_trend(y, n, &t);		a drift across runs: t.slope, t.p
 */
#ifndef FG_STATS_H
#define FG_STATS_H

#include <math.h>
#include <stddef.h>

/*
 * One side of a comparison: the mean of its per-run values, the variance
 * of one run's value, and the degrees of freedom of that variance: n - 1
 * when it was estimated from n runs, INFINITY when it is known (the
 * counting noise of a single run, Poisson).
 */
struct stats_side {
	double	 mean;
	double	 var;		/* of one run's value */
	double	 n;		/* runs */
	double	 df;		/* of var; INFINITY: known */
};

struct stats_diff {
	double	 diff;		/* after's mean minus before's */
	double	 se;		/* its standard error */
	double	 df;		/* Welch-Satterthwaite; INFINITY: normal */
	double	 low, high;	/* the interval at the level asked */
	double	 p;		/* two-sided p-value of "no change" */
};

/* P(T <= t) for Student's t with df degrees of freedom (INFINITY: normal). */
double	 stats_t_cdf(double t, double df);

/*
 * The t with P(T <= t) = prob, for 0 < prob < 1 (INFINITY df: the normal
 * quantile). Exact to about 1e-9.
 */
double	 stats_t_quantile(double prob, double df);

/*
 * The difference after minus before of two means, its standard error
 * from the sides' variances (Welch: not assumed equal), the
 * Welch-Satterthwaite degrees of freedom, the two-sided interval at
 * level (0.95), and the p-value. With no spread at all (se 0) the
 * interval is the difference itself and p is 1 when it is 0, else 0.
 */
void	 stats_welch(const struct stats_side *before,
	    const struct stats_side *after, double level, struct stats_diff *d);

/*
 * A t quantile remembered (all zero: none yet), for a caller that asks
 * for the same one many times (every row of a table, one level and, in
 * a moderated test, one number of degrees of freedom).
 */
struct stats_tq {
	double	 prob, df, t;
	int	 set;
};

/* stats_t_quantile, from m when it holds it; m NULL: computed. */
double	 stats_t_quantile_memo(struct stats_tq *m, double prob, double df);

/*
 * stats_welch in two halves: the difference, its standard error and
 * Welch-Satterthwaite's degrees of freedom; then, from d's diff, se and
 * df (which the caller may lower), the interval at level and the
 * p-value (m: NULL, or a quantile remembered).
 */
void	 stats_welch_se(const struct stats_side *before,
	    const struct stats_side *after, struct stats_diff *d);
void	 stats_interval(double level, struct stats_diff *d, struct stats_tq *m);

/*
 * The difference after minus before of two means whose runs share one
 * variance var (of one run's value) with df degrees of freedom, as a
 * moderated t has it (a row's pooled variance shrunk toward a prior):
 * its standard error var (1/n_b + 1/n_a), the interval at level, the
 * p-value, as stats_welch.
 */
void	 stats_pooled(const struct stats_side *before,
	    const struct stats_side *after, double var, double df, double level,
	    struct stats_diff *d, struct stats_tq *m);

/*
 * The digamma function psi(x) and the trigamma function psi'(x), x > 0;
 * and trigamma's inverse, y > 0.
 */
double	 stats_digamma(double x);
double	 stats_trigamma(double x);
double	 stats_trigamma_inv(double y);

/*
 * Benjamini-Hochberg: writes into q[0..m) the adjusted p-value of each
 * p[i] (q[i] <= alpha is a discovery at false discovery rate alpha): the
 * smallest, over the ranks j at or above p[i]'s in ascending order, of
 * p_(j) m / j, at most 1. q may be p. Ties get the same value.
 */
void	 stats_bh(const double *p, size_t m, double *q);

/*
 * The least-squares slope of y[0..n) over 0, 1, ... n-1 (a trend across
 * runs in the order they were given), its standard error from the
 * residuals' variance, n-2 degrees of freedom, and the two-sided p-value of "no trend". For
 * n < 3 there is no residual to tell: p is 1.
 */
struct stats_trend {
	double	 slope, se, df, p;
};

void	 stats_trend(const double *y, size_t n, struct stats_trend *t);

/* The median of v[0..n), reordering v; NAN when n is 0. */
double	 stats_median(double *v, size_t n);

#endif
