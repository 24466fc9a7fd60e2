/*
 * Unit tests of profile/compare: runs read from folded stacks and sample
 * streams, functions matched across clones, total and self time, the
 * verdicts, and the inputs refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/compare.h"
#include "profile/stats.h"
#include "unit.h"

static int
readstr(struct compare *c, int side, const char *text, const char *name)
{
	int fd = unit_memfd(text, strlen(text)), rv;

	rv = compare_read(c, side, fd, name);
	close(fd);
	return rv;
}

static const struct compare_row *
row(const struct compare *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].len == strlen(name) &&
		    memcmp(c->rows[i].name, name, c->rows[i].len) == 0)
			return &c->rows[i];
	return NULL;
}

static const struct compare_opts dflt = { .min_change = 1, .q = 0.05 };

static size_t
base(const char *s)
{
	return compare_name_len(s, strlen(s));
}

static void
test_names(void)
{
	CHECK_EQ(base("foo.constprop.0"), 3, "a clone: .constprop.0");
	CHECK_EQ(base("foo.isra.0.part.1"), 3, "clones of clones");
	CHECK_EQ(base("foo.cold"), 3, "a cold part, no number");
	CHECK_EQ(base("foo.llvm.1234567"), 3, "clang's .llvm.N");
	CHECK_EQ(base("f(int) [clone .constprop.0]"), 6, "demangled [clone ...]");
	CHECK_EQ(base("foo.1"), 5, "a number alone is the name's");
	CHECK_EQ(base("v1.2"), 4, "a version is the name's");
	CHECK_EQ(base(".cold"), 5, "a suffix alone is a name");
	CHECK_EQ(base("Vec::push"), 9, "a plain name");
	CHECK_EQ(base("java.lang.Object.clone"), 22, "a dotted name is whole");
	CHECK_EQ(base("java.lang.String.part.1"), 23,
	    "a dotted name keeps even a clone's suffix");
	CHECK_EQ(base("Object.clone"), 12, "a word without its number stays");
	CHECK_EQ(base("f.part"), 6, ".part needs its number");
	CHECK_EQ(base("foo.cold.2"), 3, ".cold with a number");
	CHECK_EQ(base("foo.lto_priv.0.constprop.3"), 3, "lto_priv, constprop");
	CHECK_EQ(base("foo.clone.2"), 3, "old GCC's .clone.N");
	CHECK_EQ(base("app::run.llvm.99"), 8, "a Rust path with .llvm.N");
	CHECK_EQ(base("f.isra"), 6, ".isra needs its number");
}

/* Five runs a side, folded; b grows by a half after, a stays. */
static void
test_verdicts(void)
{
	static const int a[2][5] = { { 1000, 1010, 990, 1005, 995 },
	    { 1003, 992, 1008, 997, 1000 } };
	static const int b[2][5] = { { 200, 205, 195, 202, 198 },
	    { 300, 310, 290, 305, 295 } };
	struct compare c;
	const struct compare_row *r;
	char text[256], name[16];
	int s, i, rv = 0;

	compare_init(&c, &dflt);
	for (s = 0; s < 2; s++)
		for (i = 0; i < 5; i++) {
			snprintf(text, sizeof(text), "main;a %d\nmain;b;b.part.0 %d\n"
			    "main;x.cold;x 10\n", a[s][i], b[s][i]);
			snprintf(name, sizeof(name), "%c.%d", s ? 'A' : 'B', i);
			rv |= readstr(&c, s, text, name);
		}
	CHECK_EQ(rv, 0, "ten folded runs read");
	CHECK_EQ(compare_finish(&c), 0, "compared");
	CHECK_EQ(c.unit, COMPARE_SAMPLES, "folded stacks count samples");
	CHECK(c.nrows == 5, "[all], main, a, b, x");
	CHECK(c.rows[0].len == 5 && memcmp(c.rows[0].name, "[all]", 5) == 0,
	    "[all] first");
	r = row(&c, "b");
	CHECK(r != NULL && r->before == 200 && r->after == 300,
	    "b's clone is b, counted once a stack: 200 -> 300");
	CHECK(r != NULL && r->verdict == COMPARE_SLOWER && r->low > 0,
	    "b is slower, its interval above 0");
	CHECK(c.rows[1].name == r->name || c.rows[2].name == r->name,
	    "the changes called come first");
	r = row(&c, "a");
	CHECK(r != NULL && r->verdict == COMPARE_SAME, "a is the same");
	r = row(&c, "x");
	CHECK(r != NULL && r->before == 10 && r->verdict == COMPARE_SAME,
	    "x.cold;x is x once");
	CHECK(row(&c, "[all]")->verdict == COMPARE_SLOWER, "[all] is slower");
	CHECK(fabs(c.min_abs - 12.1) < 1e-9, "min change: 1% of before's whole");
	{
		const struct compare_row *w = NULL;

		CHECK(compare_fails(&c, 5, COMPARE_GATE_FUNCTIONS, &w) == 3 &&
		    w == row(&c, "b") &&
		    compare_fails(&c, 10, COMPARE_GATE_FUNCTIONS, &w) == 0 &&
		    w == NULL,
		    "--gate=functions fails at 5% ([all], main and b grew 8%), "
		    "b named first; not at 10%");
		CHECK(compare_fails(&c, 5, COMPARE_GATE_ALL, &w) == 1 &&
		    w == &c.measured && compare_culprit(&c) == row(&c, "b") &&
		    compare_fails(&c, 10, COMPARE_GATE_ALL, &w) == 0,
		    "the whole-run gate fails at 5%, naming [all] and b; not "
		    "at 10%");
	}
	CHECK(!c.counting_only && strstr(c.method, "Welch") != NULL,
	    "the method says Welch");
	CHECK(c.drift[0] == 0 && c.drift[1] == 0, "no drift in runs that do not trend");
	{
		struct compare_row *same, *self;
		size_t n = compare_rows(&c, 0, &same), ns, k;
		int eq = n == c.nrows;

		for (k = 0; eq && k < n; k++)
			eq = same[k].name == c.rows[k].name &&
			    same[k].change == c.rows[k].change &&
			    same[k].low == c.rows[k].low &&
			    same[k].verdict == c.rows[k].verdict;
		CHECK(eq, "compare_rows of the table's kind: the table's rows");
		ns = compare_rows(&c, 1, &self);
		CHECK(ns == 4 && self[0].before == c.rows[0].before,
		    "compare_rows of self time: [all], a, b, x (main no leaf)");
		CHECK(c.opts.self == 0 && c.nrows == 5,
		    "compare_rows leaves the comparison as it was");
		free(same);
		free(self);
	}
	compare_release(&c);

	/* before's runs grow 1000, 1100, ... 1400: a drift of 400 */
	compare_init(&c, &dflt);
	for (s = 0; s < 2; s++)
		for (i = 0; i < 5; i++) {
			snprintf(text, sizeof(text), "main;a %d\n",
			    s ? 1100 + (i % 2) * 10 : 1000 + 100 * i);
			readstr(&c, s, text, s ? "A" : "B");
		}
	CHECK_EQ(compare_finish(&c), 0, "a drift: compared all the same");
	CHECK(fabs(c.drift[0] - 400) < 1e-9 && c.drift[1] == 0,
	    "a drift: before's, 400 from first to last, found");
	compare_release(&c);

	/* --self: main is never a leaf, and has no row */
	{
		struct compare_opts o = dflt;

		o.self = 1;
		compare_init(&c, &o);
		readstr(&c, 0, "main;a 10\nmain;a;b 5\n", "s0");
		readstr(&c, 1, "main;a 10\nmain;a;b 5\n", "s1");
		CHECK_EQ(compare_finish(&c), 0, "self: compared");
		CHECK(row(&c, "main") == NULL && row(&c, "a")->before == 10 &&
		    row(&c, "b")->before == 5, "self time is the leaf's");
		CHECK(c.counting_only && strstr(c.method, "one run a side") != NULL,
		    "one run a side: counting noise only, said");
		compare_release(&c);
	}
}

/*
 * The counting noise: with five runs a side, the runs' own spread, at
 * least one sample a run (runs that agree to the sample: 1, over 5 runs
 * 1/5 a side, 8 degrees of freedom), and never a binomial count's,
 * which a periodic sampler does not have; with one run a side, Poisson's
 * c for both.
 */
static void
test_counting(void)
{
	struct compare c;
	const struct compare_row *r;
	double half = stats_t_quantile(0.975, 8) * sqrt(0.4);
	int i, s;

	compare_init(&c, &dflt);
	for (s = 0; s < 2; s++)
		for (i = 0; i < 5; i++)
			readstr(&c, s, s ? "m;a 100\nm;b 110\n" : "m;a 100\nm;b 100\n", "r");
	compare_finish(&c);
	r = row(&c, "[all]");
	CHECK(fabs(r->low - (10 - half)) < 1e-9 && fabs(r->high - (10 + half)) < 1e-9 &&
	    r->verdict == COMPARE_SLOWER,
	    "five steady runs a side: one sample's noise a run, no more");
	r = row(&c, "a");
	CHECK(fabs(r->high - half) < 1e-9 && r->verdict == COMPARE_SAME,
	    "a at half the run: no binomial variance, one sample's");
	r = row(&c, "b");
	CHECK(fabs(r->low - (10 - half)) < 1e-9 && r->verdict == COMPARE_SLOWER,
	    "b by 10 samples of 200: slower");
	compare_release(&c);
	compare_init(&c, &dflt);
	readstr(&c, 0, "m;a 100\nm;b 100\n", "r");
	readstr(&c, 1, "m;a 100\nm;b 110\n", "r");
	compare_finish(&c);
	r = row(&c, "[all]");
	CHECK(fabs(r->high - 10 - 1.959963985 * sqrt(410 + COMPARE_RUN_CV *
	    COMPARE_RUN_CV * (200 * 200 + 210 * 210))) < 1e-6,
	    "one run a side: the count's variance is the count, plus the "
	    "noise between runs one run cannot show");
	compare_release(&c);
}

/* A cpu-clock stream: each sample its period, in ms. */
static void
test_stream(void)
{
	static const char s2[] =
	    "p 1/1 [000] 1.000000: 2000000 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n"
	    "p 1/1 [000] 1.002000: 2000000 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n";
	static const char cut[] =
	    "p 1/1 [000] 1.000000: 2000000 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/p)\n";
	static const char other[] =
	    "p 1/1 [000] 1.000000: 1 offcpu-time:\n"
	    "\t10 f+0x1 (/bin/p)\n\n";
	static const char wall[] =
	    "# event : cpu-clock freq 999 callgraph fp\n"
	    "# event : offcpu-time callgraph fp\n"
	    "p 1/1 [000] 1.000000: 2000000 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n"
	    "p 1/1 [000] 1.002000: 3000000 offcpu-time:\n"
	    "\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n";
	static const char wall2[] =
	    "# event : cpu-clock freq 999 callgraph fp\n"
	    "# event : offcpu-time callgraph fp\n"
	    "p 1/1 [000] 1.000000: 3000000 offcpu-time:\n"
	    "\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n"
	    "p 1/1 [000] 1.002000: 2000000 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n";
	static const char wallhdr[] =
	    "# event : cpu-clock freq 999 callgraph fp\n"
	    "# event : offcpu-time callgraph fp\n"
	    "p 1/1 [000] 1.000000: 2000000 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n";
	struct compare c;

	compare_init(&c, &dflt);
	CHECK_EQ(readstr(&c, 0, s2, "s2"), 0, "a stream read");
	CHECK_EQ(readstr(&c, 1, s2, "s2b"), 0, "another");
	CHECK_EQ(compare_finish(&c), 0, "two streams compared");
	CHECK(c.unit == COMPARE_MS && row(&c, "f")->before == 4,
	    "cpu-clock: 2 samples of 2 ms, 4 ms");
	CHECK(row(&c, "[all]")->verdict == COMPARE_SAME, "the same run is the same");
	compare_release(&c);

	compare_init(&c, &dflt);
	CHECK_EQ(readstr(&c, 0, cut, "cut"), 2, "a stream cut short: 2");
	compare_release(&c);
	compare_init(&c, &dflt);
	CHECK_EQ(readstr(&c, 0, "", "empty"), 2, "an empty run: 2");
	compare_release(&c);
	compare_init(&c, &dflt);
	readstr(&c, 0, s2, "s2");
	CHECK_EQ(readstr(&c, 1, other, "off"), 2, "another event: 2");
	compare_release(&c);
	/* fgrecord --wall: on- and off-CPU time, beside cpu-clock alone */
	compare_init(&c, &dflt);
	readstr(&c, 0, s2, "s2");
	CHECK_EQ(readstr(&c, 1, wall, "wall"), 2,
	    "a --wall run beside a cpu-clock run: 2");
	compare_release(&c);
	compare_init(&c, &dflt);
	readstr(&c, 0, wall, "wall");
	CHECK_EQ(readstr(&c, 1, s2, "s2"), 2,
	    "a cpu-clock run beside a --wall run: 2");
	compare_release(&c);
	compare_init(&c, &dflt);
	CHECK_EQ(readstr(&c, 0, wall, "wall"), 0, "a --wall run");
	CHECK_EQ(readstr(&c, 1, wall2, "wall2"), 0,
	    "another, its first sample off the CPU");
	CHECK(strcmp(c.event, "cpu-clock and offcpu-time") == 0,
	    "--wall runs: both events named, the clock first");
	compare_release(&c);
	compare_init(&c, &dflt);
	readstr(&c, 0, wallhdr, "wallhdr");
	CHECK_EQ(readstr(&c, 1, s2, "s2"), 2,
	    "a --wall run that never waited, beside cpu-clock: 2");
	compare_release(&c);
	compare_init(&c, &dflt);
	readstr(&c, 0, s2, "s2");
	CHECK_EQ(readstr(&c, 1, "main;f 3\n", "folded"), 2,
	    "folded stacks beside a stream: 2");
	compare_release(&c);
	compare_init(&c, &dflt);
	readstr(&c, 0, "a;b 3\n", "one");
	readstr(&c, 1, "c;d 3\n", "two");
	CHECK_EQ(compare_finish(&c), 2, "no function in common: 2");
	compare_release(&c);
}

/*
 * Five runs a side of text[s] (before, after), each with its %d the
 * run's number added to the counts marked so ("%d" twice at most).
 */
static void
read_sides(struct compare *c, const char *const text[2])
{
	char buf[512];
	int s, i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < 5; i++) {
			snprintf(buf, sizeof(buf), text[s], i, i);
			readstr(c, s, buf, s ? "after" : "before");
		}
}

/*
 * Stacks cut short ([truncated]): the functions above the cut are
 * unmeasured, not same; those seen below it keep their verdict.
 */
static void
test_cut(void)
{
	/* after: hot twice the work, all of it cut below mid */
	static const char *const known[2] = {
		"main;other 50%d\nmain;outer;mid;hot 40%d\n",
		"main;other 50%d\n[truncated];mid;hot 80%d\n"
	};
	/* both cut, mid never whole: main, on all whole stacks, is above */
	static const char *const blind[2] = {
		"main;other 50%d\nmain;outer 10%d\n[truncated];mid;hot 400\n",
		"main;other 50%d\nmain;outer 10%d\n[truncated];mid;hot 800\n"
	};
	/* b is seen below the cut too: measured; a, its caller, is not */
	static const char *const below[2] = {
		"main;a;b;hot 40%d\n[truncated];b;hot 40%d\n",
		"main;a;b;hot 40%d\n[truncated];b;hot 80%d\n"
	};
	/*
	 * eval, a hub: called by run above the cut, and by load elsewhere;
	 * only the whole stacks that hold eval;dive;hot tell the callers
	 */
	static const char *const hub[2] = {
		"main;run;eval;dive;hot 40%d\nmain;load;eval;parse 20%d\n",
		"main;run;eval;dive;hot 10%d\nmain;load;eval;parse 20%d\n"
		"[truncated];eval;dive;hot 700\n"
	};
	/* 1% cut: not said, main keeps its verdict */
	static const char *const few[2] = {
		"main;a 99%d\n[truncated];hot 1%d\n",
		"main;a 149%d\n[truncated];hot 1%d\n"
	};
	struct compare c;
	struct compare_row *rows;
	size_t n, k;
	int any;

	compare_init(&c, &dflt);
	read_sides(&c, known);
	CHECK_EQ(compare_finish(&c), 0, "cut: compared");
	CHECK(row(&c, "main")->verdict == COMPARE_UNMEASURED &&
	    row(&c, "outer")->verdict == COMPARE_UNMEASURED,
	    "cut: main and outer, above the cut after, are unmeasured");
	CHECK(row(&c, "main")->hidden > 60 && row(&c, "main")->hidden < 62,
	    "cut: main may lack 80 of 130 samples, 61.5%");
	CHECK(row(&c, "other")->verdict == COMPARE_SAME,
	    "cut: other, beside the cut, keeps its verdict");
	CHECK(row(&c, "hot")->verdict == COMPARE_SLOWER &&
	    row(&c, "mid")->verdict == COMPARE_SLOWER &&
	    row(&c, "[all]")->verdict == COMPARE_SLOWER,
	    "cut: hot and mid, below the cut, and [all] are slower");
	CHECK(c.cut[0] == 0 && c.cut[1] > 0 && c.samples[1] > c.cut[1],
	    "cut: the cut samples counted after only");
	{
		const struct compare_row *w = NULL;

		CHECK(compare_fails(&c, 1, COMPARE_GATE_FUNCTIONS, &w) == 4 &&
		    w != NULL &&
		    (w == row(&c, "hot") || w == row(&c, "mid")),
		    "cut: --fail-slower counts [all], mid, hot and [truncated], "
		    "never an unmeasured row, and names a function");
	}
	n = compare_rows(&c, 1, &rows);
	for (k = 0, any = 0; k < n; k++)
		any |= rows[k].verdict == COMPARE_UNMEASURED;
	CHECK(!any, "cut: self time, the leaf's, is never unmeasured");
	free(rows);
	compare_release(&c);

	compare_init(&c, &dflt);
	read_sides(&c, blind);
	compare_finish(&c);
	CHECK(row(&c, "main")->verdict == COMPARE_UNMEASURED,
	    "blind: main, on all whole stacks, is above a head never whole");
	CHECK(row(&c, "other")->verdict != COMPARE_UNMEASURED &&
	    row(&c, "outer")->verdict != COMPARE_UNMEASURED,
	    "blind: other (83% of the whole stacks) and outer are measured");
	compare_release(&c);

	compare_init(&c, &dflt);
	read_sides(&c, below);
	compare_finish(&c);
	CHECK(row(&c, "b")->verdict == COMPARE_SLOWER,
	    "below: b, seen below the cut, keeps its verdict");
	CHECK(row(&c, "a")->verdict == COMPARE_UNMEASURED &&
	    row(&c, "main")->verdict == COMPARE_UNMEASURED,
	    "below: a and main, its callers, are unmeasured");
	compare_release(&c);

	compare_init(&c, &dflt);
	read_sides(&c, hub);
	compare_finish(&c);
	CHECK(row(&c, "run")->verdict == COMPARE_UNMEASURED &&
	    row(&c, "main")->verdict == COMPARE_UNMEASURED,
	    "hub: run and main, above eval;dive;hot, are unmeasured");
	CHECK(row(&c, "load")->verdict == COMPARE_SAME,
	    "hub: load, which calls eval for parse, keeps its verdict");
	compare_release(&c);

	compare_init(&c, &dflt);
	read_sides(&c, few);
	compare_finish(&c);
	CHECK(c.hidden == NULL && row(&c, "main")->verdict == COMPARE_SLOWER,
	    "few: 1% cut is not said, and main is slower");
	compare_release(&c);
}

/*
 * Own crates: the self time of code inlined into a crate's function is
 * that function's; a function called, not inlined, keeps its own.
 */
static void
test_own(void)
{
	static const char *const text[2] = {
		"main;app::f;std::h_[i] 10%d\nmain;app::f;malloc 10%d\n",
		"main;app::f;std::h_[i] 4%d\nmain;app::f;malloc 10%d\n"
	};
	char *own[] = { "app" };
	struct compare_opts o = dflt;
	struct compare c;

	o.self = 1;
	o.own = own;
	o.nown = 1;
	compare_init(&c, &o);
	read_sides(&c, text);
	CHECK_EQ(compare_finish(&c), 0, "own: compared");
	CHECK(row(&c, "app::f") != NULL && row(&c, "app::f")->before == 102 &&
	    row(&c, "app::f")->verdict == COMPARE_FASTER,
	    "own: app::f holds the self time of std::h, inlined into it");
	CHECK(row(&c, "std::h") == NULL && row(&c, "std::h_[i]") == NULL,
	    "own: std::h has no self time of its own, and no mark");
	CHECK(row(&c, "malloc") != NULL && row(&c, "malloc")->before == 102,
	    "own: malloc, called, keeps its self time");
	compare_release(&c);

	/* main and zed::f slower alike: --fail-slower names zed::f */
	{
		static const char *const slow[2] = {
			"main;zed::f 10%d\nmain;g 10%d\n",
			"main;zed::f 20%d\nmain;g 10%d\n"
		};
		char *zed[] = { "zed" };
		const struct compare_row *w = NULL;

		o = dflt;
		o.own = zed;
		o.nown = 1;
		compare_init(&c, &o);
		read_sides(&c, slow);
		compare_finish(&c);
		CHECK(compare_fails(&c, 10, COMPARE_GATE_FUNCTIONS, &w) == 3 &&
		    w == row(&c, "zed::f"),
		    "own: --fail-slower names zed::f, not main");
		compare_release(&c);
	}
	/* g grew more for its size, zed::f more: zed::f, the own, named */
	{
		static const char *const slow[2] = {
			"main;zed::f 10%d\nmain;g 1%d\n",
			"main;zed::f 20%d\nmain;g 6%d\n"
		};
		char *zed[] = { "zed" };

		o = dflt;
		o.own = zed;
		o.nown = 1;
		compare_init(&c, &o);
		read_sides(&c, slow);
		compare_finish(&c);
		CHECK(row(&c, "g")->verdict == COMPARE_SLOWER &&
		    compare_culprit(&c) == row(&c, "zed::f"),
		    "own: an own function is named before another that grew "
		    "more for its size");
		compare_release(&c);
	}
}

/* The same work on a machine 10% slower after: the median of ratios. */
static void
test_median(void)
{
	struct compare_opts o = dflt;
	struct compare c;
	char text[256];
	int s, i;

	for (int norm = 0; norm < 2; norm++) {
		o.norm = norm ? COMPARE_MEDIAN : COMPARE_TIME;
		compare_init(&c, &o);
		for (s = 0; s < 2; s++)
			for (i = 0; i < 3; i++) {
				double k = (s ? 1.1 : 1.0) * (1 + 0.01 * i);

				snprintf(text, sizeof(text), "m;a %d\nm;b %d\nm;c %d\nm;d %d\n",
				    (int)(1000 * k), (int)(2000 * k), (int)(500 * k),
				    (int)(800 * k) * (s ? 2 : 1));
				readstr(&c, s, text, "r");
			}
		compare_finish(&c);
		if (norm) {
			CHECK(row(&c, "a")->verdict == COMPARE_SAME &&
			    row(&c, "b")->verdict == COMPARE_SAME,
			    "median: the drift taken out, a and b the same");
			CHECK(row(&c, "d")->verdict == COMPARE_SLOWER,
			    "median: d, twice the work, slower");
			CHECK(strstr(c.method, "median of ratios of 4") != NULL,
			    "median: the method said");
		} else
			CHECK(row(&c, "a")->verdict == COMPARE_SLOWER,
			    "time: the drift makes a slower");
		compare_release(&c);
	}
}

/* --per=FILE: a count a run, in order; a bad line said, 2. */
static void
test_per(void)
{
	static const char *const folded[2] = {
		"main;a 100\nmain;b 100\n", "main;a 300\nmain;b 300\n"
	};
	const double *pers;
	double *v = NULL;
	struct compare_opts o = dflt;
	struct compare c;
	size_t n;
	int fd, i;

	fd = unit_memfd("1\n1.5\n3\n", 8);
	CHECK_EQ(compare_per_read(fd, "per", &v, &n), 0, "three counts read");
	close(fd);
	CHECK(n == 3 && v[0] == 1 && v[1] == 1.5 && v[2] == 3,
	    "one count a line, in order");
	free(v);
	fd = unit_memfd("1\nfour\n", 8);
	CHECK_EQ(compare_per_read(fd, "per", &v, &n), 2, "a word: 2");
	close(fd);
	CHECK(v == NULL && n == 0, "nothing kept");
	fd = unit_memfd("1\n0\n", 4);
	CHECK_EQ(compare_per_read(fd, "per", &v, &n), 2, "a count of 0: 2");
	close(fd);
	fd = unit_memfd("", 0);
	CHECK_EQ(compare_per_read(fd, "per", &v, &n), 2, "no count: 2");
	close(fd);

	/* twice the work after, three times the time: 1.5 times per unit */
	pers = (const double[]){ 1, 1, 2, 2 };
	o.pers = pers;
	o.npers = 4;
	o.per_name = "per";
	compare_init(&c, &o);
	for (i = 0; i < 4; i++)
		readstr(&c, i / 2, folded[i / 2], "run");
	CHECK_EQ(compare_finish(&c), 0, "compared per unit");
	CHECK(row(&c, "a")->before == 100 && row(&c, "a")->after == 150,
	    "each run divided by its own count");
	compare_release(&c);
	o.npers = 3;
	compare_init(&c, &o);
	for (i = 0; i < 4; i++)
		readstr(&c, i / 2, folded[i / 2], "run");
	CHECK_EQ(compare_finish(&c), 2, "three counts for four runs: 2");
	compare_release(&c);
}

/*
 * --fail-slower: work moved between functions, or to a function renamed,
 * leaves the whole the same and passes either gate; a uniform +8%, which
 * --normalize=median takes out of every row, still fails.
 */
static void
test_gate(void)
{
	static const char *const moved[2] = {
		"main;a 10%d\nmain;b 20%d\nmain;c 100\n",
		"main;a 20%d\nmain;b 10%d\nmain;c 100\n"
	};
	static const char *const renamed[2] = {
		"main;old 20%d\nmain;c 10%d\n",
		"main;new 20%d\nmain;c 10%d\n"
	};
	static const char *const uniform[2] = {
		"main;a 100%d\nmain;b 50%d\nmain;c 300\nmain;d 200\n",
		"main;a 108%d\nmain;b 54%d\nmain;c 324\nmain;d 216\n"
	};
	struct compare_opts o = dflt;
	const struct compare_row *w;
	struct compare c;

	compare_init(&c, &o);
	read_sides(&c, moved);
	compare_finish(&c);
	CHECK(row(&c, "a")->verdict == COMPARE_SLOWER &&
	    c.measured.verdict == COMPARE_SAME,
	    "gate: a slower by 100 samples, the whole the same");
	CHECK(compare_fails(&c, 2, COMPARE_GATE_ALL, &w) == 0 && w == NULL,
	    "gate: work moved from b to a passes the whole-run gate");
	CHECK(compare_fails(&c, 2, COMPARE_GATE_FUNCTIONS, &w) == 0 && w == NULL,
	    "gate: and the function gate, the whole not slower");
	compare_release(&c);

	compare_init(&c, &o);
	read_sides(&c, renamed);
	compare_finish(&c);
	CHECK(row(&c, "new")->verdict == COMPARE_SLOWER &&
	    compare_fails(&c, 2, COMPARE_GATE_ALL, &w) == 0 &&
	    compare_fails(&c, 2, COMPARE_GATE_FUNCTIONS, &w) == 0,
	    "gate: a function renamed passes both gates");
	compare_release(&c);

	o.norm = COMPARE_MEDIAN;
	compare_init(&c, &o);
	read_sides(&c, uniform);
	compare_finish(&c);
	CHECK(row(&c, "[all]")->verdict == COMPARE_SAME,
	    "gate: --normalize=median takes a uniform +8% out of [all]");
	CHECK(c.measured.verdict == COMPARE_SLOWER &&
	    compare_fails(&c, 2, COMPARE_GATE_ALL, &w) == 1 &&
	    w == &c.measured,
	    "gate: the whole run as measured is slower by 8%: it fails");
	compare_release(&c);
}

/* A cpu-clock stream whose "# start" is at t seconds, f given w samples. */
static int
read_at(struct compare *c, int side, long t, int w, const char *name)
{
	char buf[1024];
	size_t n;
	int i;

	n = (size_t)snprintf(buf, sizeof(buf),
	    "# ========\n# fgrecord 1\n# start : %ld.000000000 5.000000000\n"
	    "# event : cpu-clock freq 999 callgraph fp\n# ========\n", t);
	for (i = 0; i < w; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
		    "p 1/1 [000] 5.%03d000: 1000000 cpu-clock:\n"
		    "\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n", i);
	return readstr(c, side, buf, name);
}

/* The sides' "# start" lines: recorded apart said, in turns not. */
static void
test_apart(void)
{
	static const long apart[4] = { 1000, 1003, 1242, 1245 };
	static const long turns[4] = { 1000, 1006, 1003, 1009 };
	struct compare c;
	int i;

	compare_init(&c, &dflt);
	for (i = 0; i < 4; i++)
		read_at(&c, i / 2, apart[i], 5 + i % 2,
		    i / 2 ? "after" : "before");
	CHECK_EQ(compare_finish(&c), 0, "apart: compared");
	CHECK(fabs(c.apart - 239) < 1e-6,
	    "apart: two runs a side, 239 s between the sides: said");
	compare_release(&c);

	compare_init(&c, &dflt);
	for (i = 0; i < 4; i++)
		read_at(&c, i / 2, turns[i], 5 + i % 2,
		    i / 2 ? "after" : "before");
	compare_finish(&c);
	CHECK(c.apart == 0, "apart: runs in turns are not");
	compare_release(&c);

	compare_init(&c, &dflt);
	read_at(&c, 0, 1000, 5, "before");
	read_at(&c, 1, 1010, 5, "after");
	compare_finish(&c);
	CHECK(c.apart == 0, "apart: one run a side, 10 s apart: not said");
	compare_release(&c);

	compare_init(&c, &dflt);
	read_at(&c, 1, 1000, 5, "after");
	read_at(&c, 0, 1300, 5, "before");
	compare_finish(&c);
	CHECK(fabs(c.apart - 300) < 1e-6,
	    "apart: one run a side, after 5 min before it: said");
	compare_release(&c);

	compare_init(&c, &dflt);
	read_at(&c, 0, 1000, 5, "before");
	readstr(&c, 1, "p 1/1 [000] 5.000000: 1000000 cpu-clock:\n"
	    "\t10 f+0x1 (/bin/p)\n\n", "nostart");
	compare_finish(&c);
	CHECK(c.apart == 0, "apart: a run with no start line: nothing said");
	compare_release(&c);
}

int
main(void)
{
	test_names();
	test_verdicts();
	test_counting();
	test_stream();
	test_median();
	test_cut();
	test_own();
	test_per();
	test_gate();
	test_apart();
	return unit_done();
}
