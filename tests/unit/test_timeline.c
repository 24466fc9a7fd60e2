/* Unit tests of common/profile/timebins.c and common/svg/timeline.c: the
 * drawn bins as they were when every sample was kept, waits spread over
 * the bins they span, fine bins merged past the cap with no weight lost,
 * and the timeline's data for a small flame. */
#include <stdlib.h>
#include <string.h>

#include "profile/timebins.h"
#include "svg/flame.h"
#include "svg/palette.h"
#include "svg/timeline.h"
#include "unit.h"

/* One sample of thread tid at time t, stack st, weight 1 (period p). */
static void
add(struct timebins *tb, uint64_t tid, uint64_t t, size_t st, uint64_t p,
    int off)
{
	struct fold_sample s = { .stack = st, .count = 1, .period = p,
	    .time = t, .has_time = 1, .offcpu = off, .pid = 1, .tid = tid,
	    .comm = "app", .commlen = 3 };

	timebins_add(tb, &s);
}

/* timebins_each's sums: per drawn bin, counts and periods; and per side. */
struct sums {
	uint64_t	 bin[2][512];
	uint64_t	 side[2];
	uint64_t	 calls;
};

static void
sum(void *arg, uint32_t thread, size_t stack, uint32_t bin, int off,
    const uint64_t w[2])
{
	struct sums *s = arg;

	(void)thread;
	(void)stack;
	if (bin < 512) {
		s->bin[0][bin] += w[0];
		s->bin[1][bin] += w[1];
	}
	s->side[off != 0] += w[1];
	s->calls++;
}

static void
test_exact(void)
{
	struct timebins tb;
	struct timebins_range r;
	struct sums s;

	timebins_init(&tb);
	CHECK(timebins_range(&tb, 400, 25, &r) == -1, "no sample: nothing to draw");
	add(&tb, 1, 1000, 0, 10, 0);
	add(&tb, 1, 2000, 1, 10, 0);
	add(&tb, 2, 5000, 0, 10, 0);
	CHECK_INT(tb.shift, 0, "few samples: exact times");
	CHECK(timebins_range(&tb, 400, 25, &r) == 0, "a range");
	/* 2 samples in the busiest thread: the least bins, 25, of 4000/25+1 */
	CHECK_UINT(r.t0, 1000, "t0 is the first sample's time");
	CHECK_UINT(r.bw, 161, "bw as when every sample was kept");
	CHECK_INT(r.nb, 25, "nb");
	memset(&s, 0, sizeof(s));
	timebins_each(&tb, &r, sum, &s);
	CHECK_UINT(s.bin[0][0], 1, "t=1000 in bin 0");
	CHECK_UINT(s.bin[0][6], 1, "t=2000 in bin 6");
	CHECK_UINT(s.bin[0][24], 1, "t=5000 in the last bin");
	CHECK_UINT(tb.nthreads, 2, "two threads");
	timebins_release(&tb);
}

static void
test_wait(void)
{
	struct timebins tb;
	struct timebins_range r;
	struct sums s;
	uint64_t i, tot = 0;

	timebins_init(&tb);
	add(&tb, 1, 0, 0, 1, 0);
	add(&tb, 1, 1000, 1, 5000, 1);	/* a wait from 1000 to 5999 */
	CHECK_UINT(tb.tmax, 5999, "a wait's last ns ends the run so far");
	add(&tb, 1, 9000, 0, 1, 0);
	CHECK(timebins_range(&tb, 400, 25, &r) == 0, "a range");
	memset(&s, 0, sizeof(s));
	timebins_each(&tb, &r, sum, &s);
	CHECK_UINT(s.side[1], 5000, "the wait's time, all of it, off-CPU");
	for (i = 0; i < 512; i++)
		tot += s.bin[1][i];
	CHECK_UINT(tot, 5002, "no time lost or doubled");
	/* bw = 9000/25+1 = 361: bin 2 ends at 1083, bin 16 starts at 5776 */
	CHECK_UINT(r.bw, 361, "bw");
	CHECK_UINT(s.bin[1][2], 83, "the wait's first piece, to its bin's end");
	CHECK_UINT(s.bin[1][3], 361, "a whole bin of waiting");
	CHECK_UINT(s.bin[1][16], 224, "the last piece, to the wait's end");
	CHECK(r.pieces > 2, "pieces count each bin a wait spans");
	timebins_release(&tb);
}

static void
test_merge(void)
{
	struct timebins tb;
	struct timebins_range r;
	struct sums s;
	uint64_t i, fw, tot = 0;

	timebins_init(&tb);
	for (i = 0; i < 300000; i++)
		add(&tb, 1 + i % 2, 7 + i * 1000, i % 3, 1000, 0);
	CHECK(tb.shift > 0, "past the cap: fine bins merged");
	CHECK(tb.ncells <= tb.cap && tb.ncells < 300000,
	    "the cells under the cap, fewer than the samples");
	CHECK((tb.tmax - tb.tmin) >> tb.shift >= 2 * TIMEBINS_FINE_MIN,
	    "the run still spans enough fine bins");
	timebins_finish(&tb);
	CHECK(timebins_range(&tb, 400, 25, &r) == 0, "a range");
	fw = (uint64_t)1 << tb.shift;
	CHECK(r.bw % fw == 0 && r.t0 % fw == 0, "drawn bins are whole fine bins");
	CHECK(r.t0 <= 7 && 7 - r.t0 < fw, "t0 at most a fine bin early");
	CHECK(r.bw >= (tb.tmax - tb.tmin) / 400 + 1 &&
	    r.bw - ((tb.tmax - tb.tmin) / 400 + 1) < fw,
	    "bw at most a fine bin wider");
	CHECK(r.nb <= 400, "at most 400 bins");
	memset(&s, 0, sizeof(s));
	timebins_each(&tb, &r, sum, &s);
	for (i = 0; i < 512; i++)
		tot += s.bin[0][i];
	CHECK_UINT(tot, 300000, "every sample counted once");
	CHECK_UINT(s.side[0], 300000000, "every period once");
	timebins_release(&tb);
}

static void
test_many_waits(void)
{
	struct timebins tb;
	struct timebins_range r;
	struct sums s;
	uint64_t i, n = TIMEBINS_WAITS + 10;

	timebins_init(&tb);
	for (i = 0; i < n; i++)
		add(&tb, 1, i * 100000, 0, 50000, 1);
	CHECK(tb.spread && tb.nwaits == 0, "past the limit waits go to fine bins");
	CHECK(timebins_range(&tb, 400, 25, &r) == 0, "a range");
	memset(&s, 0, sizeof(s));
	timebins_each(&tb, &r, sum, &s);
	CHECK_UINT(s.side[1], n * 50000, "no waiting lost");
	timebins_release(&tb);
}

/* Waits that pass 2^64-1 ns, overlap, or span the run in many threads. */
static void
test_hostile(void)
{
	struct timebins tb;
	struct timebins_range r;
	struct sums s;
	uint64_t i, n = 2 * TIMEBINS_WAITS;

	timebins_init(&tb);
	add(&tb, 1, 1000000000, 0, 1, 0);
	add(&tb, 1, UINT64_MAX - 999, 1, 5000, 1);
	CHECK_UINT(tb.clamped.n, 1, "a wait past 2^64-1 ns: cut");
	CHECK_UINT(tb.tmax, UINT64_MAX - 1, "its last ns is 2^64-2");
	CHECK(timebins_range(&tb, 400, 25, &r) == 0, "a range");
	CHECK_INT(r.nb, 25, "25 bins, not 2^64");
	memset(&s, 0, sizeof(s));
	timebins_each(&tb, &r, sum, &s);
	CHECK_UINT(s.side[1], 999, "the wait's time to 2^64-1 ns");
	timebins_release(&tb);

	timebins_init(&tb);
	add(&tb, 1, 1000, 0, 1000000, 1);
	add(&tb, 1, 2000, 1, 1000000, 1);	/* inside the first */
	add(&tb, 1, 1000998, 1, 1000, 1);	/* a microsecond's overlap */
	add(&tb, 2, 2000, 1, 1000000, 1);	/* another thread */
	CHECK_UINT(tb.overlap.n, 1, "one wait overlaps its thread's");
	CHECK_UINT(tb.overlap.line, 0, "its place kept");
	CHECK_UINT(tb.nwaits, 3, "the others kept exact, to spread");
	memset(&s, 0, sizeof(s));
	CHECK(timebins_range(&tb, 400, 25, &r) == 0, "a range");
	timebins_each(&tb, &r, sum, &s);
	CHECK_UINT(s.side[1], 3001000, "no time lost or doubled");
	/* bw = (1001999 - 1000) / 25 + 1 = 40040 */
	CHECK_UINT(s.bin[1][0], 40040 + 1000000 + 39040,
	    "the overlapping wait weighed where it began");
	timebins_release(&tb);

	/* a thread each, each waiting the whole run: past the waits kept
	   exact, long ones are still kept exact, and fewer bins drawn */
	timebins_init(&tb);
	for (i = 0; i < 4000; i++)	/* a busy thread: 400 bins asked */
		add(&tb, n + 1, 1000000000 + i * 250000, 0, 1, 0);
	for (i = 0; i < n; i++)
		add(&tb, i + 1, 1000000000 + i, 0, 1000000000, 1);
	CHECK(tb.spread && tb.nwaits == n, "long waits stay exact");
	CHECK(tb.ncells <= 4000, "no cell per fine bin of a wait");
	CHECK(timebins_range(&tb, 400, 25, &r) == 0, "a range");
	CHECK(r.fewer && r.nb <= 26, "fewer bins drawn");
	CHECK(r.pieces - tb.samples + tb.nwaits <= 26 * n, "pieces bounded");
	timebins_release(&tb);
}

static void
test_build(void)
{
	struct flame_opts fo = { .sort = FLAME_SORT_NAME, .ends = 1 };
	struct palette_opts po = { .scheme = "hot" };
	struct timeline_opts to = { .budget = (size_t)1 << 20 };
	struct timebins tb;
	struct timeline tl;
	struct palette pal;
	struct flame fl;
	uint32_t seq[2] = { 0, 1 };
	char *d;

	flame_init(&fl, &fo);
	flame_add_stack(&fl, "app;main;f", 10, 2);
	flame_add_stack(&fl, "app;main;g", 10, 1);
	flame_build(&fl);
	palette_init(&pal, &po);
	timebins_init(&tb);
	timeline_init(&tl, &to);
	CHECK(timeline_build(&tl, &tb, &fl, seq, 0, &pal) == -1,
	    "no timed sample: no timeline");
	add(&tb, 7, 1000000000, 0, 1, 0);
	add(&tb, 7, 1000000500, 0, 1, 0);
	add(&tb, 8, 1500000000, 1, 1, 0);
	timebins_finish(&tb);
	CHECK(timeline_build(&tl, &tb, &fl, seq, 0, &pal) == 0, "built");
	buf_addc(&tl.data, '\0');
	d = tl.data.p;
	CHECK(strstr(d, "t0:\"1000000000\", bw:20000001, nb:25, q:1, tn:0") !=
	    NULL, "the head: t0, bw, nb");
	CHECK(strstr(d, "N:[\"all\",\"app\",\"main\",\"f\",\"g\"]") != NULL,
	    "the names in preorder");
	CHECK(strstr(d, "\n[7,1,\"app\",2,0,") != NULL,
	    "the busiest thread first, its weight");
	CHECK(strstr(d, "\n[8,1,\"app\",1,0,") != NULL, "the other thread");
	CHECK_INT(tl.rows, 2, "two rows");
	CHECK(tl.note == NULL, "within the budget: no note");
	timeline_release(&tl);
	timebins_release(&tb);
	palette_release(&pal);
	flame_release(&fl);
}

int
main(void)
{
	test_exact();
	test_wait();
	test_merge();
	test_many_waits();
	test_hostile();
	test_build();
	return unit_done();
}
