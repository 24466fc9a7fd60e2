/*
 * test_livestack: reading a thread's live stack beyond a sample's copy,
 * on this test's own memory. A made-up stack (an anonymous mapping, as a
 * thread's stack is) stands for the thread's: the reads stay within its
 * mapping and above the copy, come through chunks, and stop when the
 * chunks are used up; the check of a frame (livestack_holds) reads the
 * memory afresh, so that a word changed since the sample (a stale frame)
 * is seen as changed even when its chunk was read before the change. A
 * file mapping is no stack, and a process gone is refused with ESRCH.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/livestack.h"
#include "unit.h"

#define REGION	(6u << 20)

int
main(void)
{
	struct livestack ls;
	pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid), gone;
	unsigned char *region;
	uint64_t base, copy_end, v = 0, slot;
	volatile uint64_t *w;
	unsigned i;
	int ok;

	region = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		return 1;
	base = (uint64_t)(uintptr_t)region;
	copy_end = base + 65536;
	for (i = 0; i < REGION / 8; i++)
		((uint64_t *)(void *)region)[i] = base + 8 * i;

	livestack_init(&ls);
	CHECK(livestack_begin(&ls, pid, tid, copy_end) == 0,
	    "a thread's anonymous mapping is a stack to read on");
	CHECK(ls.lo == copy_end && ls.hi >= base + REGION,
	    "bounded by the copy's end and the mapping's end");
	CHECK(livestack_read(&ls, base + (1u << 20), &v) == 0 &&
	    v == base + (1u << 20), "a word 1 MiB up is read");
	CHECK(livestack_read(&ls, base + (1u << 20) + 4096, &v) == 0 &&
	    v == base + (1u << 20) + 4096 && ls.nchunks == 1,
	    "a word of the same chunk costs no read");
	CHECK(livestack_read(&ls, copy_end - 8, &v) == -1,
	    "nothing below the copy's end (the copy holds it)");
	CHECK(livestack_read(&ls, ls.hi, &v) == -1 &&
	    livestack_read(&ls, ls.hi - 4, &v) == -1,
	    "nothing at or across the mapping's end");

	/* The check of a frame: afresh, not from the chunk read above. */
	slot = base + (1u << 20) + 64;
	w = (volatile uint64_t *)(uintptr_t)slot;
	CHECK(livestack_holds(&ls, slot, slot) == 1,
	    "a slot that holds what the copy saw: the frame is there");
	*w = 0x1234;
	CHECK(livestack_holds(&ls, slot, slot) == 0,
	    "a slot changed since (a stale frame) is seen, its chunk read before");
	CHECK(livestack_read(&ls, slot, &v) == 0 && v == slot,
	    "while the walk's chunk keeps what it read");
	*w = slot;

	/* A new walk forgets the chunks; the chunks per walk are bounded. */
	CHECK(livestack_begin(&ls, pid, tid, copy_end) == 0 && ls.nchunks == 0,
	    "a new walk starts with no chunk");
	for (i = 0, ok = 1; i < LIVESTACK_CHUNKS; i++)
		ok &= livestack_read(&ls, copy_end + (uint64_t)i * LIVESTACK_CHUNK,
		    &v) == 0;
	CHECK(ok && ls.nchunks == LIVESTACK_CHUNKS, "64 chunks are read");
	CHECK(copy_end + (uint64_t)LIVESTACK_CHUNKS * LIVESTACK_CHUNK + 8 >=
	    ls.hi || livestack_read(&ls, copy_end + (uint64_t)LIVESTACK_CHUNKS *
	    LIVESTACK_CHUNK + 8, &v) == -1, "and no more");

	/* A copy that reached the end of the stack: nothing more to read. */
	CHECK(livestack_begin(&ls, pid, tid, ls.hi) == -1 && ls.err == 0,
	    "a copy to the stack's end has nothing above it");
	/* A file's mapping is no stack. */
	CHECK(livestack_begin(&ls, pid, tid,
	    (uint64_t)(uintptr_t)&main + 1) == -1,
	    "code is no stack to read");
	CHECK(livestack_begin(&ls, pid, tid, copy_end) == 0,
	    "and the thread's stack is looked for again after it");
	livestack_forget(&ls, pid, tid);

	/*
	 * A stopped thread's reads: small first, doubling; what the walk
	 * read kept as pieces, read back without the process.
	 */
	{
		struct livestack_pieces pc;
		uint64_t a8 = (copy_end + 8192 + 8191) & ~(uint64_t)8191;

		memset(&pc, 0, sizeof(pc));
		ls.step = 4096;
		CHECK(livestack_begin(&ls, pid, tid, copy_end) == 0 &&
		    livestack_read(&ls, copy_end + 16, &v) == 0 &&
		    v == copy_end + 16 && ls.len[0] == 4096,
		    "a stopped thread's first read is 4 KiB");
		CHECK(livestack_read(&ls, a8, &v) == 0 && ls.nchunks == 2 &&
		    ls.len[1] == 8192 && ls.base[1] == a8,
		    "the next one 8 KiB, aligned");
		CHECK(livestack_keep(&ls, &pc) == 2, "two pieces kept");
		*(volatile uint64_t *)(uintptr_t)(copy_end + 16) = 7;
		CHECK(livestack_pieces_read(&pc, copy_end + 16, &v) == 0 &&
		    v == copy_end + 16, "a piece holds what was read, not now");
		*(volatile uint64_t *)(uintptr_t)(copy_end + 16) = copy_end + 16;
		CHECK(livestack_pieces_read(&pc, a8 + 8184, &v) == 0 &&
		    v == a8 + 8184 &&
		    livestack_pieces_read(&pc, a8 + 8188, &v) == -1 &&
		    livestack_pieces_read(&pc, copy_end + 4096, &v) == -1,
		    "nothing outside them, nor across a piece's end");
		livestack_pieces_release(&pc);
		ls.step = 0;
	}

	/* A process gone. */
	if ((gone = fork()) == 0)
		_exit(0);
	waitpid(gone, NULL, 0);
	CHECK(livestack_begin(&ls, gone, gone, copy_end) == -1 &&
	    ls.err == ENOENT, "a process gone: its maps cannot be read");
	ls.pid = gone;
	CHECK(livestack_holds(&ls, slot, slot) == -1 && ls.err == ESRCH,
	    "nor its memory");
	livestack_release(&ls);
	munmap(region, REGION);
	return unit_done();
}
