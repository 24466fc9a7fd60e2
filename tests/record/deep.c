/* deep: recurse DEPTH frames (default 3000) and spin at the bottom. */
#include "spin.h"

__attribute__((noinline)) static unsigned long
descend(int n, double end)
{
	volatile char pad[64];

	pad[0] = (char)n;
	if (n == 0) {
		while (spin_cpu() < end)
			for (unsigned long i = 0; i < 100000; i++)
				spin_sink += i;
		return pad[0];
	}
	return descend(n - 1, end) + pad[0];
}

int
main(int argc, char **argv)
{
	double end = spin_cpu() + spin_secs(argc, argv, 0.5);

	spin_sink += descend(argc > 2 ? atoi(argv[2]) : 3000, end);
	return 0;
}
