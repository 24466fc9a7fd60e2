/*
 * jitter: the random sampling intervals of both samplers. A sampler that
 * ticks at a fixed period falls into step with a program whose work
 * comes in rounds of a steady length (a frame loop, a batch, a poll):
 * its samples land again and again at the same points of the round, and
 * the profile shows the phase, not the time spent. Each interval drawn
 * at random, uniformly between half the mean period and one and a half
 * times it, the phase at which a sample lands is spread over a whole
 * period by a single interval, and over a round of a few periods by a
 * few: where a sample lands says nothing of where the last ones did,
 * whatever the program's rhythm.
 *
 * Why not exponential intervals (a Poisson process)? The perf sampler
 * sets each interval when it reads the last sample; when it reads late,
 * the interval in force goes on repeating, and an exponential draw is
 * short one time in ten (under a tenth of the mean): a burst of samples
 * at ten times the rate until the recorder catches up. Measured with
 * cpu-clock at 999 Hz and 64 KiB stack copies on a busy machine: one
 * run in five took 2,450 samples a second instead of 1,000, and lost
 * some. Half the mean at the least, a late recorder oversamples twice
 * over at the most.
 *
 *	struct jitter j;
 *	jitter_init(&j);
 *	next = jitter_draw(&j, mean, least);	(once per interval)
 *
 * The generator is seeded from the kernel's random bytes: no two
 * recordings draw the same intervals.
 */
#ifndef FG_JITTER_H
#define FG_JITTER_H

#include <stdint.h>

/* The kernel's shortest cpu-clock period, in ns: it clamps any shorter. */
#define JITTER_CLOCK_FLOOR	10000

struct jitter {
	uint64_t	 state;
};

/* Seeds j (getrandom(2), else the time and the PID). It cannot fail. */
void	 jitter_init(struct jitter *j);

/*
 * Returns an interval drawn uniformly from the whole numbers between
 * mean - mean / 2 and that plus mean (their mean is mean, give or take
 * half a unit), at least least (a draw below it is raised to it, which
 * a mean of twice least or more never needs).
 */
uint64_t jitter_draw(struct jitter *j, uint64_t mean, uint64_t least);

/* Returns 1 with probability p (0 when p <= 0, 1 when p >= 1), else 0. */
int	 jitter_coin(struct jitter *j, double p);

#endif
