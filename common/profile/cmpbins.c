#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/cmpbins.h"

#define FIRST_WIDTH	1e6	/* ns */

void
cmpbins_init(struct cmpbins *b)
{
	memset(b, 0, sizeof(*b));
	b->width = FIRST_WIDTH;
}

void
cmpbins_release(struct cmpbins *b)
{
	free(b->p);
	free(b->c);
	memset(b, 0, sizeof(*b));
	b->width = FIRST_WIDTH;
}

/* Every stack's bins merged two by two: the width doubled. */
static void
merge(struct cmpbins *b)
{
	double *v[2] = { b->p, b->c };
	size_t s, k, i;

	for (k = 0; k < 2; k++)
		for (s = 0; s < b->cap; s++) {
			double *x = v[k] + s * CMPBINS_N;

			for (i = 0; i < CMPBINS_N / 2; i++)
				x[i] = x[2 * i] + x[2 * i + 1];
			memset(x + CMPBINS_N / 2, 0, CMPBINS_N / 2 * sizeof(double));
		}
	b->width *= 2;
}

void
cmpbins_add(struct cmpbins *b, size_t stack, uint64_t time, double period)
{
	size_t i;

	if (!b->started) {
		b->t0 = b->tlast = time;
		b->started = 1;
	}
	if (time < b->t0)
		time = b->t0;
	if (time > b->tlast)
		b->tlast = time;
	while ((double)(time - b->t0) / b->width >= CMPBINS_N)
		merge(b);
	if (stack >= b->cap) {
		size_t old = b->cap, cap = old ? old : 64;

		while (cap <= stack)
			cap *= 2;
		b->p = xrealloc(b->p, cap * CMPBINS_N * sizeof(double));
		b->c = xrealloc(b->c, cap * CMPBINS_N * sizeof(double));
		memset(b->p + old * CMPBINS_N, 0,
		    (cap - old) * CMPBINS_N * sizeof(double));
		memset(b->c + old * CMPBINS_N, 0,
		    (cap - old) * CMPBINS_N * sizeof(double));
		b->cap = cap;
	}
	i = (size_t)((double)(time - b->t0) / b->width);
	b->p[stack * CMPBINS_N + i] += period;
	b->c[stack * CMPBINS_N + i] += 1;
}

int
cmpbins_stack(const struct cmpbins *b, size_t stack, int timed, double *x)
{
	size_t i;

	memset(x, 0, CMPBINS_N * sizeof(double));
	if (stack >= b->cap)
		return -1;
	for (i = 0; i < CMPBINS_N; i++)
		x[i] = timed ? b->p[stack * CMPBINS_N + i] / 1e6 :
		    b->c[stack * CMPBINS_N + i];
	return 0;
}

double
cmpbins_var(const struct cmpbins *b, const double *x, const double *all)
{
	double L = 0, tot = 0, r, s = 0, d;
	size_t n = 0, i;

	if (!b->started)
		return 0;
	for (i = 0; i < CMPBINS_N; i++)
		if (all[i] > 0) {
			L += all[i];
			tot += x[i];
			n++;
		}
	if (n < 2)
		return 0;
	r = tot / L;
	for (i = 0; i < CMPBINS_N; i++)
		if (all[i] > 0) {
			d = x[i] - r * all[i];
			s += d * d / all[i];
		}
	return s / (n - 1) * L;
}
