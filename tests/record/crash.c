/* crash: burn CPU for SECONDS, then die of SIGSEGV. */
#include <signal.h>
#include "spin.h"

__attribute__((noinline)) void
before_crash(double end)
{
	while (spin_cpu() < end)
		for (unsigned long i = 0; i < 100000; i++)
			spin_sink += i;
}

int
main(int argc, char **argv)
{
	before_crash(spin_cpu() + spin_secs(argc, argv, 0.5));
	raise(SIGSEGV);
	return 0;
}
