/*
 * hot.c: the fixture of tests/t5*-annotate*.sh. divide_loop spends
 * nearly all its time in one 64-bit division whose divisor the compiler
 * cannot know, inside an inlined helper, so that the listing must show one
 * obviously hot instruction, an inlined function beside its source line,
 * and a call whose target has a name.
 */
#include <stdio.h>
#include <stdlib.h>

static inline unsigned long
step(unsigned long x, unsigned long d)
{
	return x / d + (x & 0xff);
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
		acc += step(acc * 2654435761u + i, d);
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
