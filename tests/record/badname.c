/*
 * badname: names its thread "#odd\nname" (prctl), which must not break a
 * stream's lines, then spins for SECONDS.
 */
#include <sys/prctl.h>
#include "spin.h"

int
main(int argc, char **argv)
{
	double end = spin_cpu() + spin_secs(argc, argv, 0.3);

	prctl(PR_SET_NAME, "#odd\nname");
	while (spin_cpu() < end)
		for (unsigned long i = 0; i < 100000; i++)
			spin_sink += i;
	return 0;
}
