#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/stats.h"

/*
 * The continued fraction of the regularized incomplete beta function
 * I_x(a, b), 1 + d1/(1 + d2/(1 + ...)), by the modified Lentz method:
 * d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)), d(2m) = m(b-m) x /
 * ((a+2m-1)(a+2m)). It converges fast for x < (a+1)/(a+b+2).
 */
static double
beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double f = 1, c = 1, d = 0, num, delta;
	int j;

	for (j = 1; j <= 400; j++) {
		int m = j / 2;

		if (j % 2 == 1)
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		d = 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return f;
}

/* I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1. */
static double
beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x > (a + 1) / (a + b + 2))
		return 1 - beta_inc(b, a, 1 - x);
	front = exp(a * log(x) + b * log1p(-x) + lgamma(a + b) - lgamma(a) -
	    lgamma(b)) / a;
	return front / beta_fraction(a, b, x);
}

/* P(T > t) for t >= 0: half of I_{df/(df+t^2)}(df/2, 1/2). */
static double
t_tail(double t, double df)
{
	if (isinf(df) || df > 1e7)
		return 0.5 * erfc(t / sqrt(2));
	return 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
}

double
stats_t_cdf(double t, double df)
{
	return t >= 0 ? 1 - t_tail(t, df) : t_tail(-t, df);
}

double
stats_t_quantile(double prob, double df)
{
	double lo = 0, hi = 1, mid, tail;
	int i;

	if (prob <= 0)
		return -INFINITY;
	if (prob >= 1)
		return INFINITY;
	if (prob < 0.5)
		return -stats_t_quantile(1 - prob, df);
	tail = 1 - prob;
	/* The tail falls as t grows: bracket it, then halve the bracket. */
	while (t_tail(hi, df) > tail && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		mid = (lo + hi) / 2;
		if (t_tail(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* A side's share of the squared standard error, over its df. */
static double
df_term(double v, double df)
{
	return isinf(df) ? 0 : v * v / df;
}


void
stats_welch_se(const struct stats_side *b, const struct stats_side *a,
    struct stats_diff *d)
{
	double vb = b->var / b->n, va = a->var / a->n, den;

	d->diff = a->mean - b->mean;
	d->se = sqrt(vb + va);
	den = df_term(vb, b->df) + df_term(va, a->df);
	d->df = den > 0 ? (vb + va) * (vb + va) / den : INFINITY;
}

void
stats_welch(const struct stats_side *b, const struct stats_side *a,
    double level, struct stats_diff *d)
{
	stats_welch_se(b, a, d);
	stats_interval(level, d, NULL);
}

double
stats_t_quantile_memo(struct stats_tq *m, double prob, double df)
{
	if (m == NULL)
		return stats_t_quantile(prob, df);
	if (!m->set || m->prob != prob || m->df != df) {
		m->t = stats_t_quantile(prob, df);
		m->prob = prob;
		m->df = df;
		m->set = 1;
	}
	return m->t;
}

void
stats_interval(double level, struct stats_diff *d, struct stats_tq *m)
{
	double half;

	if (!(d->se > 0)) {
		d->low = d->high = d->diff;
		d->p = d->diff == 0 ? 1 : 0;
		return;
	}
	half = stats_t_quantile_memo(m, 0.5 + level / 2, d->df) * d->se;
	d->low = d->diff - half;
	d->high = d->diff + half;
	d->p = 2 * t_tail(fabs(d->diff) / d->se, d->df);
	if (d->p > 1)
		d->p = 1;
}

void
stats_pooled(const struct stats_side *b, const struct stats_side *a,
    double var, double df, double level, struct stats_diff *d,
    struct stats_tq *m)
{
	d->diff = a->mean - b->mean;
	d->se = sqrt(var * (1 / b->n + 1 / a->n));
	d->df = df;
	stats_interval(level, d, m);
}

double
stats_digamma(double x)
{
	double r = 0, z;

	if (!(x > 0))
		return NAN;
	for (; x < 10; x++)
		r -= 1 / x;
	z = 1 / (x * x);
	return r + log(x) - 0.5 / x - z * (1.0 / 12 - z * (1.0 / 120 -
	    z / 252));
}

double
stats_trigamma(double x)
{
	double r = 0, z;

	if (!(x > 0))
		return NAN;
	/* up to where the asymptotic series holds to 1e-11 */
	for (; x < 10; x++)
		r += 1 / (x * x);
	z = 1 / (x * x);
	return r + 1 / x + z / 2 + z / x * (1.0 / 6 - z * (1.0 / 30 -
	    z * (1.0 / 42 - z / 30)));
}

double
stats_trigamma_inv(double y)
{
	double x, d;
	int i;

	if (!(y > 0))
		return NAN;
	if (y > 1e7)
		return 1 / sqrt(y);
	if (y < 1e-6)
		return 1 / y;
	/* Newton's method from above, on 1/x, as trigamma is convex */
	x = 0.5 + 1 / y;
	for (i = 0; i < 50; i++) {
		double t = stats_trigamma(x), e = 1e-5 * x;
		double slope = (stats_trigamma(x + e) - stats_trigamma(x - e)) /
		    (2 * e);

		d = t * (1 - t / y) / slope;
		x += d;
		if (x <= 0)
			x = 1e-8;
		if (fabs(d) < 1e-10 * x)
			break;
	}
	return x;
}

static int
by_p(const void *x, const void *y)
{
	const double *a = *(const double *const *)x, *b = *(const double *const *)y;

	return *a < *b ? -1 : *a > *b ? 1 : (a > b) - (a < b);
}

void
stats_bh(const double *p, size_t m, double *q)
{
	const double **ord;
	double *adj, run = 1;
	size_t i;

	if (m == 0)
		return;
	ord = xcalloc(m, sizeof(*ord));
	adj = xcalloc(m, sizeof(*adj));
	for (i = 0; i < m; i++)
		ord[i] = &p[i];
	qsort(ord, m, sizeof(*ord), by_p);
	/* From the largest p down, the running minimum of p m / rank. */
	for (i = m; i-- > 0; ) {
		double v = *ord[i] * (double)m / (double)(i + 1);

		if (v < run)
			run = v;
		adj[i] = run;
	}
	/* Equal p-values share the adjusted value of the last of them. */
	for (i = m - 1; i-- > 0; )
		if (*ord[i] == *ord[i + 1])
			adj[i] = adj[i + 1];
	for (i = 0; i < m; i++)
		q[ord[i] - p] = adj[i];
	free(ord);
	free(adj);
}

void
stats_trend(const double *y, size_t n, struct stats_trend *t)
{
	double xm = (n - 1) / 2.0, ym = 0, sxx = 0, sxy = 0, ss = 0, r, v;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->p = 1;
	if (n < 3)
		return;
	for (i = 0; i < n; i++)
		ym += y[i] / n;
	for (i = 0; i < n; i++) {
		sxx += (i - xm) * (i - xm);
		sxy += (i - xm) * (y[i] - ym);
	}
	t->slope = sxy / sxx;
	for (i = 0; i < n; i++) {
		r = y[i] - ym - t->slope * (i - xm);
		ss += r * r;
	}
	t->df = n - 2;
	v = ss / t->df;
	t->se = sqrt(v / sxx);
	if (t->se > 0)
		t->p = 2 * t_tail(fabs(t->slope) / t->se, t->df);
	else
		t->p = t->slope == 0 ? 1 : 0;
	if (t->p > 1)
		t->p = 1;
}

static int
by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

double
stats_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
