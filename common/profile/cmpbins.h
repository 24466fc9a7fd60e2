/*
 * cmpbins: a run's samples binned in time, per unique stack, for the
 * noise one run shows of itself: a function whose samples come in bursts
 * (the kernel's paths a busy machine's preemptions take) moves between
 * runs by far more than its count's noise, and its time spread unevenly
 * over the run says so. fgfold --compare reads it with one run a side.
 *
 *	struct cmpbins b;
 *	cmpbins_init(&b);
 *	cmpbins_add(&b, stack, time, period);		(each sample, in order)
 *	cmpbins_stack(&b, stack, timed, x);		(its bins, in the unit)
 *	v = cmpbins_var(&b, x);				(a total's variance)
 *	cmpbins_release(&b);
 *
 * The bins are CMPBINS_N, of one width from the first sample's time: 1
 * ms, doubled (the bins merged two by two) whenever a sample falls past
 * the last, so that a run fills half of them or more. A bin's length is
 * the whole run's time in it, not its width (a process that waited for
 * a CPU has less of its time in a bin, and every function with it): a
 * total's bins x have a share r of the run's, and its variance is that
 * of independent increments: the bins' squared deviations from r times
 * their length, over their length, per degree of freedom, times the
 * run's time. The whole run's own is none.
 */
#ifndef FG_CMPBINS_H
#define FG_CMPBINS_H

#include <stddef.h>
#include <stdint.h>

#define CMPBINS_N	8

struct cmpbins {
	double		*p, *c;		/* per stack, CMPBINS_N each: the
					   periods (ns) and the samples */
	size_t		 cap;		/* stacks they have room for */
	uint64_t	 t0, tlast;	/* the first sample's time, the last */
	double		 width;		/* a bin's, ns */
	int		 started;
};

void	 cmpbins_init(struct cmpbins *);
void	 cmpbins_release(struct cmpbins *);

/* One sample of the stack, at time ns, its period (ns, or any weight). */
void	 cmpbins_add(struct cmpbins *, size_t stack, uint64_t time,
	    double period);

/*
 * The stack's bins into x[CMPBINS_N], in ms of its periods (timed) or in
 * samples. Returns 0, or -1 when no sample was binned (x all zero).
 */
int	 cmpbins_stack(const struct cmpbins *, size_t stack, int timed,
	    double *x);

/*
 * The variance of the sum of bins x, the whole run's bins all (in the
 * same unit; 0 when fewer than 2 bins have any).
 */
double	 cmpbins_var(const struct cmpbins *, const double *x,
	    const double *all);

#endif
