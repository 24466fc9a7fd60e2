/*
 * fib-tower: sum fib(20) .. fib(32), ROUNDS times. Built twice: "before"
 * recurses, "after" (with -DFIXED) iterates. Both print the same line.
 *
 * usage: before [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>

#include "fib.h"

#ifdef FIXED
#define fib fib_fast
#else
#define fib fib_slow
#endif

int
main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 48;
	uint64_t sum = 0, f;

	if (rounds <= 0) {
		fprintf(stderr, "usage: %s [ROUNDS]\n", argv[0]);
		return 2;
	}
	for (long r = 0; r < rounds; r++)
		for (int n = 20; n <= 32; n++) {
			if (fib(n, &f) < 0)
				return 1;
			sum += f;
		}
	printf("fib-tower: %ld rounds of fib(20..32), sum %llu\n", rounds,
	    (unsigned long long)sum);
	return 0;
}
