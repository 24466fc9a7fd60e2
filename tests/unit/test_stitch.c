/*
 * Unit tests of common/record/stitch.c: a truncated stack is completed only
 * where a kept stack of the same thread holds its last frame with the
 * same pc and the same stack pointer, with exactly the older frames;
 * a frame that matches in one of the two only, another thread, a
 * forgotten thread or process, and a result larger than the room are
 * left alone; the most recent kept stack that holds the frame wins, and
 * older kept stacks still serve after newer shallow ones.
 */
#include <stdint.h>
#include <string.h>

#include "record/stitch.h"
#include "unit.h"

/* A complete stack of 6 frames: pcs 0x100.., stack pointers 0x7000... */
static const uint64_t fpcs[6] = { 0x105, 0x204, 0x303, 0x402, 0x501, 0x600 };
static const uint64_t fsps[6] = { 0x7000, 0x7100, 0x7200, 0x7300, 0x7400, 0x7500 };

/* A truncated walk ending at frame k of the full stack, with a new leaf. */
static size_t
cut(uint64_t *pcs, uint64_t *sps, size_t k)
{
	pcs[0] = 0x999;
	sps[0] = fsps[k] - 0x80;
	pcs[1] = fpcs[k];
	sps[1] = fsps[k];
	return 2;
}

int
main(void)
{
	struct stitch st;
	uint64_t pcs[16], sps[16], deep[8], deepsp[8];
	size_t n, i;
	int same;

	stitch_init(&st);
	stitch_save(&st, 10, 11, fpcs, fsps, 6);

	n = stitch_complete(&st, 11, pcs, sps, cut(pcs, sps, 2), 16);
	same = n == 5;
	for (i = 2; same && i < n; i++)
		same = pcs[i] == fpcs[i + 1] && sps[i] == fsps[i + 1];
	CHECK(same && pcs[0] == 0x999 && pcs[1] == fpcs[2],
	    "a frame with the same pc and stack pointer: the older frames follow it");
	CHECK(st.stitched == 1, "counted");

	cut(pcs, sps, 2);
	sps[1] += 8;
	CHECK(stitch_complete(&st, 11, pcs, sps, 2, 16) == 2,
	    "same pc, another stack pointer: left alone");
	cut(pcs, sps, 2);
	pcs[1] += 1;
	CHECK(stitch_complete(&st, 11, pcs, sps, 2, 16) == 2,
	    "same stack pointer, another pc: left alone");
	CHECK(stitch_complete(&st, 11 + STITCH_SLOTS, pcs, sps,
	    cut(pcs, sps, 2), 16) == 2, "another thread (same slot): left alone");
	CHECK(stitch_complete(&st, 11, pcs, sps, cut(pcs, sps, 2), 4) == 2,
	    "no room for the whole stack: left alone");
	CHECK(stitch_complete(&st, 11, pcs, sps, cut(pcs, sps, 5), 16) == 2,
	    "the outermost frame: nothing to add");

	/* A deeper stack, then shallow ones: the deep one still serves. */
	deep[0] = 0x55; deepsp[0] = 0x6e00;
	deep[1] = 0x66; deepsp[1] = 0x6f00;
	memcpy(deep + 2, fpcs + 1, 5 * sizeof(*deep));
	memcpy(deepsp + 2, fsps + 1, 5 * sizeof(*deepsp));
	stitch_save(&st, 10, 11, deep, deepsp, 7);
	for (i = 0; i < 3; i++)
		stitch_save(&st, 10, 11, fpcs + 3, fsps + 3, 3);
	pcs[0] = 0x999; sps[0] = 0x6d00;
	pcs[1] = 0x66; sps[1] = 0x6f00;
	n = stitch_complete(&st, 11, pcs, sps, 2, 16);
	CHECK(n == 7 && pcs[2] == fpcs[1] && pcs[6] == fpcs[5],
	    "a deep stack kept before shallow ones still completes");

	stitch_forget(&st, 10, 11);
	CHECK(stitch_complete(&st, 11, pcs, sps, cut(pcs, sps, 2), 16) == 2,
	    "a thread's exit forgets it");
	stitch_save(&st, 10, 12, fpcs, fsps, 6);
	stitch_forget(&st, 10, 0);
	CHECK(stitch_complete(&st, 12, pcs, sps, cut(pcs, sps, 2), 16) == 2,
	    "an exec forgets the process's threads");
	stitch_release(&st);
	return unit_done();
}
