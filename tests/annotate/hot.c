/*
 * hot.c: the fixture of tests/t5*-annotate*.sh. divide_loop spends
 * nearly all its time in one 64-bit division whose divisor the compiler
 * cannot know, inside an inlined helper, so that the listing must show one
 * obviously hot instruction, an inlined function beside its source line,
 * and a call whose target has a name.
 *
 * The whole of the loop's chain of dependent instructions (the multiply
 * that mixes the counter in, the division, the adds) is on step's one
 * line, so that the division's line takes about three quarters of the
 * samples: when the multiply and the add were on the caller's line, the
 * two lines took about half each, and which came first in the ranking of
 * lines was a coin toss from one run to the next.
 */
#include <stdio.h>
#include <stdlib.h>

static inline unsigned long
step(unsigned long x, unsigned long i, unsigned long d)
{
	return x + (x * 2654435761u + i) / d + (x & 0xff);
}

__attribute__((noinline)) unsigned long
helper(unsigned long x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) unsigned long
divide_loop(unsigned long n, unsigned long d)
{
	unsigned long acc = 1;

	for (unsigned long i = 1; i <= n; i++) {
		acc = step(acc, i, d);
		if ((i & 0xfffff) == 0)
			acc = helper(acc);
	}
	return acc;
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 30000000;
	unsigned long d = argc > 2 ? strtoul(argv[2], NULL, 0) : 7919;

	printf("%lu\n", divide_loop(n, d));
	return 0;
}
