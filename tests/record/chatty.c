/* chatty: burn CPU for SECONDS while writing lines to stdout. */
#include <stdio.h>
#include "spin.h"

int
main(int argc, char **argv)
{
	double end = spin_cpu() + spin_secs(argc, argv, 0.5);
	unsigned long n = 0;

	while (spin_cpu() < end) {
		for (unsigned long i = 0; i < 100000; i++)
			spin_sink += i;
		printf("CHATTY line %lu\n", n++);
		fflush(stdout);
	}
	return 0;
}
