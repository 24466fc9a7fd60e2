/* hot: one thread in a hot loop, main -> middle -> hot, for SECONDS of CPU time. */
#include "spin.h"

__attribute__((noinline)) void
hot(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		spin_sink += i * i;
}

__attribute__((noinline)) void
middle(unsigned long n)
{
	hot(n);
	spin_sink++;
}

int
main(int argc, char **argv)
{
	double end = spin_cpu() + spin_secs(argc, argv, 1.0);

	while (spin_cpu() < end)
		middle(200000);
	return 0;
}
