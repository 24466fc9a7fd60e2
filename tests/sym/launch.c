/*
 * launch: a launcher with no code of its own that matters: its time goes
 * in libwork.so (tests/sym/launch_lib.c), which t405 builds with -g while
 * this program has no DWARF (or is stripped too).
 */
#include <stdlib.h>

void	work_run(double secs);

int
main(int argc, char **argv)
{
	work_run(argc > 1 ? atof(argv[1]) : 1.0);
	return 0;
}
