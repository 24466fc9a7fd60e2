/*
 * churn: an allocation-heavy program for bench/alloc.sh: N small blocks
 * (16 to 256 bytes) allocated and freed through a working set of 4096
 * live ones, as a parser or an interpreter does.
 *
 *	churn [N]	(default 10,000,000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ULL;

static uint32_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static __attribute__((noinline)) char *
make_token(size_t n)
{
	char *p = malloc(n);

	memset(p, 'x', n < 16 ? n : 16);
	return p;
}

int
main(int argc, char **argv)
{
	static char *live[4096];
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	unsigned long sum = 0;

	for (long i = 0; i < n; i++) {
		uint32_t r = next();
		size_t k = r & 4095;

		free(live[k]);
		live[k] = make_token(16 + (r >> 12) % 241);
		sum += (unsigned char)live[k][0];
	}
	for (size_t k = 0; k < 4096; k++)
		free(live[k]);
	printf("%lu\n", sum);
	return 0;
}
