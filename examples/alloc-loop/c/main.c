/*
 * alloc-loop: answer many "which two numbers add up to T?" queries over
 * short lists. Built twice: "before" calls find_pair_slow, "after" (with
 * -DFIXED) calls find_pair_fast. Both print the same line.
 *
 * usage: before [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>

#include "pairsum.h"

#ifdef FIXED
#define find_pair find_pair_fast
#else
#define find_pair find_pair_slow
#endif

#define LIST_LEN 24

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint32_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

/* Makes one query: LIST_LEN numbers in [-1000, 1000] and a target. */
__attribute__((noinline)) static int64_t
make_query(int32_t *v)
{
	for (int k = 0; k < LIST_LEN; k++)
		v[k] = (int32_t)(next_random() % 2001) - 1000;
	return (int64_t)(next_random() % 4001) - 2000;
}

int
main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
	uint64_t checksum = 0;
	long found = 0;
	int32_t v[LIST_LEN];

	if (rounds <= 0) {
		fprintf(stderr, "usage: %s [ROUNDS]\n", argv[0]);
		return 2;
	}
	for (long r = 0; r < rounds; r++) {
		int64_t target = make_query(v);
		struct pair p = find_pair(v, LIST_LEN, target);

		if (p.j >= 0) {
			found++;
			checksum = checksum * 31 + (uint64_t)(p.i * LIST_LEN + p.j);
		}
	}
	printf("alloc-loop: %ld queries, %ld pairs found, checksum %016llx\n",
	    rounds, found, (unsigned long long)checksum);
	return 0;
}
