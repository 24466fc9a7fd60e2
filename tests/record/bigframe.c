/*
 * bigframe: main calls outer, whose frame holds a 1 MiB array on the
 * stack (written, and read through a volatile pointer, so that the
 * compiler keeps it); outer calls the hot work five calls below it:
 * main;outer;level1;...;level4;hot. Every sample of the work is more
 * than a megabyte below main, sixteen times the largest stack copy the
 * kernel takes. SECONDS of CPU time (argv[1], 1 by default). With
 * "nodump" as argv[2] the process makes itself not dumpable first:
 * then only root may read its memory (and its maps).
 */
#include <string.h>
#include <sys/prctl.h>

#include "spin.h"

#define BIG	(1 << 20)

__attribute__((noinline)) static void
hot(double end)
{
	while (spin_cpu() < end)
		for (unsigned long i = 0; i < 100000; i++)
			spin_sink += i;
}

__attribute__((noinline)) static void
level4(double end)
{
	hot(end);
	spin_sink++;
}

__attribute__((noinline)) static void
level3(double end)
{
	level4(end);
	spin_sink++;
}

__attribute__((noinline)) static void
level2(double end)
{
	level3(end);
	spin_sink++;
}

__attribute__((noinline)) static void
level1(double end)
{
	level2(end);
	spin_sink++;
}

__attribute__((noinline)) static void
outer(double end)
{
	char big[BIG];
	volatile char *v = big;

	memset(big, 1, sizeof(big));
	level1(end);
	spin_sink += v[BIG / 2] + v[BIG - 1];
}

int
main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[2], "nodump") == 0)
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	outer(spin_cpu() + spin_secs(argc, argv, 1));
	return 0;
}
