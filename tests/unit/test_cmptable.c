/*
 * Unit tests of fold/cmptable: the --compare table's bytes, tab-separated
 * and aligned, for fgfold(1)'s worked example.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold/cmptable.h"
#include "profile/compare.h"
#include "unit.h"

/* The table of c, as written to a memory stream; the caller frees it. */
static char *
table(const struct compare *c, int aligned)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (f == NULL || cmptable_write(c, f, aligned) != 0 || fclose(f) != 0)
		return NULL;
	return p;
}

int
main(void)
{
	static const int parse[2][5] = { { 4120, 3980, 4050, 4200, 4010 },
	    { 3710, 3800, 3660, 3750, 3680 } };
	static const int render[2][5] = { { 5980, 6060, 6010, 5900, 6030 },
	    { 6040, 5970, 6020, 5950, 6000 } };
	struct compare_opts o = { .min_change = COMPARE_MIN_CHANGE, .q = 0.05 };
	struct compare c;
	char text[256], *t, *own[] = { "app" };
	int s, i, fd;

	compare_init(&c, &o);
	for (s = 0; s < 2; s++)
		for (i = 0; i < 5; i++) {
			snprintf(text, sizeof(text), "parse %d\nrender %d\n",
			    parse[s][i], render[s][i]);
			fd = unit_memfd(text, strlen(text));
			compare_read(&c, s, fd, "run");
			close(fd);
		}
	CHECK_EQ(compare_finish(&c), 0, "the worked example compared");
	t = table(&c, 0);
	CHECK_STR(t,
	    "function\tbefore\tafter\tchange\tlow\thigh\tverdict\n"
	    "[all]\t10068.000\t9716.000\t-352.000\t-405.964\t-298.036\tfaster\n"
	    "parse\t4072.000\t3720.000\t-352.000\t-463.816\t-240.184\tfaster\n"
	    "render\t5996.000\t5996.000\t0.000\t-76.333\t76.333\tsame\n",
	    "tab-separated: the header, [all], the change called, the rest");
	free(t);
	t = table(&c, 1);
	CHECK_STR(t,
	    "function  before samples  after samples  change samples  low samples  high samples  verdict\n"
	    "[all]            10068.0         9716.0          -352.0       -406.0        -298.0  faster\n"
	    "parse             4072.0         3720.0          -352.0       -463.8        -240.2  faster\n"
	    "render            5996.0         5996.0             0.0        -76.3          76.3  same\n",
	    "aligned: the unit in the header, numbers to the right");
	free(t);
	compare_release(&c);

	/*
	 * --own=app: app's functions after [all], the rest after them, each
	 * part in the comparison's order; a row above a cut is unmeasured.
	 */
	o.own = own;
	o.nown = 1;
	compare_init(&c, &o);
	for (s = 0; s < 2; s++)
		for (i = 0; i < 2; i++) {
			snprintf(text, sizeof(text), "main;std::run;app::f 10\n"
			    "main;std::run;<app::T as core::fmt::Debug>::fmt 5\n"
			    "main;std::run;alloc::g %d\n[truncated];alloc::g %d\n",
			    s ? 40 : 20, s ? 60 : 0);
			fd = unit_memfd(text, strlen(text));
			compare_read(&c, s, fd, "run");
			close(fd);
		}
	CHECK_EQ(compare_finish(&c), 0, "own: compared");
	t = table(&c, 0);
	CHECK_STR(t,
	    "function\tbefore\tafter\tchange\tlow\thigh\tverdict\n"
	    "[all]\t35.000\t115.000\t80.000\t75.697\t84.303\tslower\n"
	    "app::f\t10.000\t10.000\t0.000\t-2.684\t2.684\tsame\n"
	    "<app::T as core::fmt::Debug>::fmt\t5.000\t5.000\t0.000\t-2.684\t2.684\tsame\n"
	    "alloc::g\t20.000\t100.000\t80.000\t77.316\t82.684\tslower\n"
	    "[truncated]\t0.000\t60.000\t60.000\t57.316\t62.684\tslower\n"
	    "main\t35.000\t55.000\t20.000\t17.316\t22.684\tunmeasured\n"
	    "std::run\t35.000\t55.000\t20.000\t17.316\t22.684\tunmeasured\n",
	    "own: app's functions first; main and std::run unmeasured");
	free(t);
	compare_release(&c);
	return unit_done();
}
