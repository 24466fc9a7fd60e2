/* fgsym fixture: burns CPU for about a third of a second in a few
 * functions, for perf record to sample (t401). */
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned long
mix(unsigned long x)
{
	int i;

	for (i = 0; i < 64; i++)
		x = (x * 6364136223846793005UL + 1442695040888963407UL) ^ (x >> 7);
	return x;
}

__attribute__((noinline)) unsigned long
hot_a(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s += mix(i);
	return s;
}

__attribute__((noinline)) unsigned long
hot_b(unsigned long n)
{
	unsigned long s = 1, i;

	for (i = 0; i < n; i++)
		s = s * 31 + (mix(s) >> 3);
	return s;
}

__attribute__((noinline)) unsigned long
driver(unsigned long n)
{
	return hot_a(n) + hot_b(n / 2) + 1;
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1500000;

	return driver(n) == 42;
}
