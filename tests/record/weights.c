/*
 * weights: four functions of known CPU time, for fgfold --compare
 * (t520, bench/compare.sh): parse, render, encode and flush spin
 * SECONDS of CPU time between them in ten rounds, render SHARE of it
 * (0.25 unless given) and the others a third of the rest each; render
 * then works FACTOR times as long (1 unless given).
 *
 *	weights [SECONDS [FACTOR [SHARE]]]
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
	double s = spin_secs(argc, argv, 0.2) / 10;
	double k = argc > 2 ? atof(argv[2]) : 1;
	double share = argc > 3 ? atof(argv[3]) : 0.25;
	double rest = s * (1 - share) / 3;

	for (int i = 0; i < 10; i++) {
		parse(rest);
		render(k * share * s);
		encode(rest);
		flush(rest);
	}
	return 0;
}
