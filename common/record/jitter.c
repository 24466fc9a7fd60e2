#include <stdint.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "record/jitter.h"

void
jitter_init(struct jitter *j)
{
	struct timespec ts;

	if (getrandom(&j->state, sizeof(j->state), GRND_NONBLOCK) ==
	    (ssize_t)sizeof(j->state))
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	j->state = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	j->state ^= (uint64_t)getpid() << 32;
}

/*
 * The next 64 random bits: a Weyl sequence (the state steps by an odd
 * constant, the golden ratio's fraction) through a mixing function of
 * two xor-shift-multiply rounds. Not for secrets; for sampling, the
 * bits are as good as any.
 */
static uint64_t
next64(struct jitter *j)
{
	uint64_t z;

	z = (j->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t
jitter_draw(struct jitter *j, uint64_t mean, uint64_t least)
{
	uint64_t v;

	/* mean + 1 values; the modulo's bias is below 2^-40 for any period */
	v = mean - mean / 2 + next64(j) % (mean + 1);
	return v < least ? least : v;
}

int
jitter_coin(struct jitter *j, double p)
{
	/* 53 random bits: a double uniform in [0, 1) */
	return (double)(next64(j) >> 11) * (1.0 / 9007199254740992.0) < p;
}
