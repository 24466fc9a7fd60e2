/*
 * weights: four functions of known CPU time, for fgfold --compare
 * (t520): parse, render, encode and flush each spin SECONDS/4 of CPU
 * time in ten rounds, render FACTOR times as long (1 unless given).
 */
#include "spin.h"

/* Each its own frame: the work after the call keeps it no tail call. */
#define WORK(name) \
	__attribute__((noinline)) void name(double s) { spin_for(s); spin_sink++; }

WORK(parse)
WORK(render)
WORK(encode)
WORK(flush)

int
main(int argc, char **argv)
{
	double s = spin_secs(argc, argv, 0.2) / 40;
	double k = argc > 2 ? atof(argv[2]) : 1;

	for (int i = 0; i < 10; i++) {
		parse(s);
		render(k * s);
		encode(s);
		flush(s);
	}
	return 0;
}
