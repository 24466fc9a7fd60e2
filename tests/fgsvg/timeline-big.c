/*
 * timeline-big [SAMPLES]: writes on standard output a sample stream of
 * SAMPLES samples (1,000,000 by default) in well over 100,000 unique
 * stacks, over twelve threads and a few minutes of run, for the timeline's
 * big-profile check (tests/fgsvg/timeline-big.sh). The same output every
 * run: the numbers come from a fixed seed.
 *
 * Time goes in ticks of a millisecond; at each tick each thread is on the
 * CPU or not, with a chance that depends on the thread and on which of
 * four phases the run is in, so that the rows and the ranges differ. A
 * sample's stack is one of 120,000 paths of a tree of depth 8 (five
 * branches per level, the leaf naming the path): half the time any of
 * the thread's tenth of them, half the time one of a few hundred hot ones that change with the
 * phase, under a phase_N frame: a graph with wide frames and a long tail.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS	12
#define NSTACKS		120000
#define DEPTH		8

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* The next number of a 64-bit LCG (Knuth's MMIX), its high bits. */
static uint32_t
rnd(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng >> 33);
}

/* Writes the frames of stack k, leaf first; phase_N under main when hot. */
static void
frames(uint32_t k, int hot, int phase)
{
	uint32_t digit[DEPTH], v = k, pre;
	int j;

	for (j = DEPTH - 1; j >= 0; j--) {
		digit[j] = v % 5;
		v /= 5;
	}
	printf("\t%x leaf_%u (/bin/big)\n", 0x1000 + k, k);
	for (j = DEPTH - 1; j >= 0; j--) {
		/* the path down to here, in a few names per level */
		pre = 0;
		for (int i = 0; i < j; i++)
			pre = pre * 5 + digit[i];
		printf("\t%x ns%d::Class%u::method_%u (/bin/big)\n",
		    0x100 * (j + 1) + digit[j], j, digit[j], pre % 7);
	}
	if (hot)
		printf("\t10 phase_%d (/bin/big)\n", phase);
	printf("\t1 main (/bin/big)\n\n");
}

int
main(int argc, char **argv)
{
	static char obuf[1 << 20];
	long want = argc > 1 ? atol(argv[1]) : 1000000, n = 0;
	long tick;
	int t;

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	for (tick = 0; n < want; tick++) {
		int phase = (int)(n * 4 / want);

		for (t = 0; t < NTHREADS && n < want; t++) {
			/* busy: thread t more in phase t % 4, less otherwise */
			uint32_t busy = t % 4 == phase ? 95 : 10 + 5 * (uint32_t)t;
			uint32_t k, hot;

			if (rnd() % 100 >= busy)
				continue;
			hot = rnd() & 1;
			if (!hot)	/* the thread's name is a frame: its share */
				k = (uint32_t)t * (NSTACKS / NTHREADS) +
				    rnd() % (NSTACKS / NTHREADS);
			else
				k = (uint32_t)(phase * 40009 + (rnd() % 300) *
				    (rnd() % 3 + 1)) % NSTACKS;
			printf("big-%d %d/%d %ld.%06ld: 1000000 cpu-clock:\n",
			    t, 4000, 4000 + t, 100 + tick / 1000,
			    (tick % 1000) * 1000);
			frames(k, (int)hot, phase);
			n++;
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
