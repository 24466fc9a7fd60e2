/*
 * launch_lib: the library in which a launcher's time goes (as python3's
 * goes in libpython), built with -g by t405 as libwork.so.
 */
#include "../record/spin.h"

__attribute__((noinline)) static void
churn(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		spin_sink += i * i;
}

void
work_run(double secs)
{
	double end = spin_cpu() + secs;

	while (spin_cpu() < end)
		churn(200000);
}
