/*
 * tall: recurse DEPTH frames (default 1000) of 16 bytes each and spin at
 * the bottom for SECONDS of CPU time: a stack deeper than 512 frames that
 * still fits in one 64 KiB stack copy, as g++'s and clang++'s do.
 */
#include "spin.h"

__attribute__((noinline)) static unsigned long
climb(int n, double end)
{
	if (n == 0) {
		while (spin_cpu() < end)
			for (unsigned long i = 0; i < 100000; i++)
				spin_sink += i;
		return 1;
	}
	spin_sink += climb(n - 1, end);	/* after the call: no loop */
	return 1;
}

int
main(int argc, char **argv)
{
	double end = spin_cpu() + spin_secs(argc, argv, 0.5);

	spin_sink += climb(argc > 2 ? atoi(argv[2]) : 1000, end);
	return 0;
}
