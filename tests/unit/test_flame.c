/* Unit tests of common/svg/flame.c: merging as flamegraph.pl does, reverse,
 * flame charts, the weight sort, self counts, deltas, minwidth merging. */
#include <stdlib.h>
#include <string.h>

#include "svg/flame.h"
#include "stream/folded.h"
#include "unit.h"

static void
load(struct flame *f, const struct flame_opts *o, const char *const *lines)
{
	struct folded_line fl;

	flame_init(f, o);
	for (; *lines != NULL; lines++)
		if (folded_parse(*lines, strlen(*lines), &fl) == FOLDED_OK)
			flame_add(f, *lines, strlen(*lines), &fl);
	flame_build(f);
}

/* The frames as "name@depth:stime-etime" joined by spaces, in order. */
static char *
show(struct flame *f)
{
	static char out[4096];
	size_t i, n, len = 0;

	out[0] = '\0';
	for (i = 0; i < f->nframes; i++) {
		const struct flame_frame *fr = &f->frames[i];
		const char *name = "[merged]";

		n = 8;
		if (fr->node != FLAME_NONE)
			name = flame_name(f, fr->node, &n);
		len += snprintf(out + len, sizeof(out) - len, "%s%.*s@%u:%g-%g",
		    i ? " " : "", (int)n, name, fr->depth, fr->stime, fr->etime);
	}
	return out;
}

static const struct flame_frame *
frame(struct flame *f, const char *name)
{
	size_t i, n;

	for (i = 0; i < f->nframes; i++)
		if (f->frames[i].node != FLAME_NONE &&
		    (flame_name(f, f->frames[i].node, &n), n == strlen(name)) &&
		    memcmp(flame_name(f, f->frames[i].node, &n), name, n) == 0)
			return &f->frames[i];
	return NULL;
}

int
main(void)
{
	struct flame_opts o = { .sort = FLAME_SORT_NAME };
	struct flame f;
	const struct flame_frame *fr;
	double d;
	static const char *const basic[] = {
		"a;c 2", "a;b 3", "a;b;x 4", "a 1", NULL };
	static const char *const quirk[] = {
		"m;f 5", "m;f(int) 6", "m;f;g 2", NULL };
	static const char *const diff[] = {
		"a;b 10 20", "a;b;c 5 1", "a 0 4", NULL };
	static const char *const tiny[] = {
		"r;big 1000", "r;t1 1", "r;t2 1", "r;t3 1", "r;zbig 1000",
		"r;zt 1", NULL };

	load(&f, &o, basic);
	flame_layout(&f, f.time, 0);
	CHECK_STR(show(&f), "@0:0-10 a@1:0-10 b@2:1-8 x@3:4-8 c@2:8-10",
	    "sorted, merged, own time left of the children");
	CHECK(f.depthmax == 3 && f.time == 10, "depth and total");
	fr = frame(&f, "b");
	CHECK(fr != NULL && fr->self == 3, "self of b is 3");
	fr = frame(&f, "a");
	CHECK(fr != NULL && fr->self == 1, "self of a is 1");
	flame_layout(&f, 20, 0);
	CHECK(f.frames[0].etime == 20 && f.frames[0].self == 10,
	    "--total widens the root only");
	flame_release(&f);

	load(&f, &o, quirk);
	flame_layout(&f, f.time, 0);
	CHECK_STR(show(&f), "@0:0-13 m@1:0-13 f@2:0-5 f(int)@2:5-11 f@2:11-13 g@3:11-13",
	    "f is split around f(int), as in flamegraph.pl");
	flame_release(&f);

	o.sort = FLAME_SORT_WEIGHT;
	load(&f, &o, quirk);
	flame_layout(&f, f.time, 0);
	CHECK_STR(show(&f), "@0:0-13 m@1:0-13 f@2:0-7 g@3:0-2 f(int)@2:7-13",
	    "--sort=weight merges same-named siblings, widest first");
	flame_release(&f);
	o.sort = FLAME_SORT_NAME;

	o.reverse = 1;
	load(&f, &o, basic);
	flame_layout(&f, f.time, 0);
	CHECK_STR(show(&f), "@0:0-10 a@1:0-1 b@1:1-4 a@2:1-4 c@1:4-6 a@2:4-6 x@1:6-10 b@2:6-10 a@3:6-10",
	    "--reverse: leaf first");
	flame_release(&f);
	o.reverse = 0;

	o.flamechart = 1;
	load(&f, &o, basic);
	flame_layout(&f, f.time, 0);
	CHECK_STR(show(&f), "@0:0-10 a@1:0-10 c@2:0-2 b@2:2-9 x@3:5-9",
	    "--flamechart: input order, neighbours merged");
	flame_release(&f);
	o.flamechart = 0;

	load(&f, &o, diff);
	flame_layout(&f, f.time, 0);
	CHECK(f.differential && f.time == 25 && f.maxdelta == 10,
	    "differential totals use AFTER");
	fr = frame(&f, "b");
	CHECK(fr != NULL && flame_delta(&f, fr->node, &d) && d == 10,
	    "b grew by 10 on its own");
	fr = frame(&f, "c");
	CHECK(fr != NULL && flame_delta(&f, fr->node, &d) && d == -4,
	    "c shrank by 4");
	fr = frame(&f, "a");
	CHECK(fr != NULL && flame_delta(&f, fr->node, &d) && d == 4,
	    "a's own line grew by 4");
	flame_release(&f);

	load(&f, &o, basic);
	flame_layout(&f, f.time, 0);
	fr = frame(&f, "b");
	CHECK(fr != NULL && !flame_delta(&f, fr->node, &d),
	    "plain input has no deltas");
	flame_release(&f);

	load(&f, &o, tiny);
	flame_layout(&f, f.time, 2);
	CHECK_STR(show(&f), "@0:0-2004 r@1:0-2004 big@2:0-1000 [merged]@2:1000-1003 zbig@2:1003-2003",
	    "a run of narrow siblings becomes one frame; a lone one is left out");
	CHECK(f.frames[3].nmerged == 3 && f.frames[3].self == 3,
	    "the merged frame counts its frames and their time");
	fr = frame(&f, "r");
	CHECK(fr != NULL && fr->self == 0, "self excludes the merged children");
	flame_layout(&f, f.time, 0);
	CHECK(f.nframes == 8, "no merging with a zero minimum");
	flame_release(&f);

	flame_init(&f, &o);
	flame_build(&f);
	flame_layout(&f, 0, 0);
	CHECK(f.nframes == 0 && f.time == 0, "no lines, no frames");
	flame_release(&f);

	/*
	 * flame_add_kept: lines already in flame_add's form are used in place
	 * (a name points into them); others are copied, and give the same
	 * picture as flame_add.
	 */
	{
		char kept[] = "a;b 2\na;c\t3\na;d  1\nz 1 2";
		const char *const copied[] = { "a;b 2", "a;c\t3", "a;d  1",
		    "z 1 2", NULL };
		struct folded_line fl;
		char *p = kept, *nl, want[4096];
		size_t n;
		const struct flame_frame *fb, *fc, *fd, *fz;

		load(&f, &o, copied);
		flame_layout(&f, f.time, 0);
		snprintf(want, sizeof(want), "%s", show(&f));
		flame_release(&f);
		flame_init(&f, &o);
		for (; p != NULL; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			n = nl ? (size_t)(nl - p) : strlen(p);
			if (folded_parse(p, n, &fl) == FOLDED_OK)
				flame_add_kept(&f, p, n, &fl);
		}
		flame_build(&f);
		flame_layout(&f, f.time, 0);
		CHECK_STR(show(&f), want, "flame_add_kept: the picture of flame_add");
		fb = frame(&f, "b");
		fc = frame(&f, "c");
		fd = frame(&f, "d");
		fz = frame(&f, "z");
		CHECK(fb != NULL && flame_name(&f, fb->node, &n) == kept + 2,
		    "a line in flame_add's form is kept in place");
		CHECK(fz != NULL && flame_name(&f, fz->node, &n) ==
		    strchr(kept, 'z') && f.differential,
		    "a differential line is kept too");
		CHECK(fc != NULL && fd != NULL &&
		    flame_name(&f, fc->node, &n) != kept + 8 &&
		    flame_name(&f, fd->node, &n) != kept + 14,
		    "a tab or two spaces before the count: copied");
		flame_release(&f);
	}
	return unit_done();
}
