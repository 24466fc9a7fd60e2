/* fgsym fixture: spends its time in the vDSO's clock_gettime (t401). */
#include <time.h>

int
main(void)
{
	struct timespec t;
	long s = 0;
	int i;

	for (i = 0; i < 2000000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		s += t.tv_nsec;
	}
	return s == 1;
}
