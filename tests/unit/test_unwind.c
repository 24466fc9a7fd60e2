/*
 * test_unwind: the CFI unwinder on this test program's own stack. A
 * function three calls deep takes its registers and a copy of its stack,
 * as the kernel does for a sample, and the walk must name its callers
 * (checked against the ELF symbol table) and end at _start as complete.
 * A short copy must end as truncated, and a frame the unwinder must take
 * by frame pointer (no CFI) is checked on a made-up stack.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/maps.h"
#include "record/unwind.h"
#include "unit.h"
#include "testsym.h"

/* The frames must keep their names: no clones (gcc only has the attribute). */
#if defined(__GNUC__) && !defined(__clang__)
#define NOCLONE __attribute__((noclone))
#else
#define NOCLONE
#endif

static struct unwind_input snap;
static unsigned char stackcopy[16384];
static volatile int sink;

/*
 * Copies the raw stack as the kernel does for a sample: redzones and all,
 * so AddressSanitizer must not check these reads.
 */
__attribute__((noinline, no_sanitize("address"))) static void
rawcopy(unsigned char *to, const volatile unsigned char *from, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		to[i] = from[i];
}

/* Takes the registers here and copies the stack above them. */
__attribute__((noinline)) NOCLONE static void
capture(void)
{
	uint64_t r[9];
	size_t len = sizeof(stackcopy);
	FILE *f;
	char line[512];

	__asm__ volatile(
	    "movq %%rsp, 0(%0)\n\t"
	    "movq %%rbp, 8(%0)\n\t"
	    "leaq 0(%%rip), %%rax\n\t"
	    "movq %%rax, 16(%0)\n\t"
	    "movq %%rbx, 24(%0)\n\t"
	    "movq %%r12, 32(%0)\n\t"
	    "movq %%r13, 40(%0)\n\t"
	    "movq %%r14, 48(%0)\n\t"
	    "movq %%r15, 56(%0)\n\t"
	    : : "r"(r) : "rax", "memory");
	memset(&snap, 0, sizeof(snap));
	snap.pid = getpid();
	snap.regs[UNWIND_SP] = r[0];
	snap.regs[UNWIND_BP] = r[1];
	snap.regs[UNWIND_RA] = r[2];
	snap.regs[3] = r[3];
	snap.regs[12] = r[4];
	snap.regs[13] = r[5];
	snap.regs[14] = r[6];
	snap.regs[15] = r[7];
	snap.valid = (1u << UNWIND_SP) | (1u << UNWIND_BP) | (1u << UNWIND_RA) |
	    (1u << 3) | (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15);
	/* Do not read past the top of the stack. */
	if ((f = fopen("/proc/self/maps", "r")) != NULL) {
		while (fgets(line, sizeof(line), f)) {
			unsigned long long s, e;

			if (sscanf(line, "%llx-%llx", &s, &e) == 2 &&
			    r[0] >= s && r[0] < e && e - r[0] < len)
				len = e - r[0];
		}
		fclose(f);
	}
	rawcopy(stackcopy, (const volatile unsigned char *)(uintptr_t)r[0], len);
	snap.stack = stackcopy;
	snap.stack_len = len;
}

__attribute__((noinline)) NOCLONE void level2(int);

void
level2(int n)
{
	capture();
	sink += n;
}

__attribute__((noinline)) NOCLONE void level1(int);

void
level1(int n)
{
	level2(n + 1);
	sink += n;
}

/* unwind_more_fn reading the whole copy (arg) beyond a short one. */
static unsigned more_calls;

static int
from_full(void *arg, uint64_t addr, uint64_t *v)
{
	const struct unwind_input *full = arg;
	uint64_t sp = full->regs[UNWIND_SP];

	more_calls++;
	if (addr < sp || addr - sp > full->stack_len ||
	    full->stack_len - (addr - sp) < 8)
		return -1;
	memcpy(v, full->stack + (addr - sp), 8);
	return 0;
}

/* Is the frame i (a return address when i > 0) in function name? */
static int
frame_in(struct maps *m, const char *exe, const uint64_t *pcs, size_t i,
    const char *name)
{
	uint64_t lo, size, va, pc = pcs[i] - (i > 0);
	struct mapping *mp = maps_find(m, getpid(), pc);

	if (mp == NULL || mapping_vaddr(mp, pc, &va) != 0 ||
	    !elf_symbol(exe, name, &lo, &size))
		return 0;
	return va >= lo && va < lo + size;
}

int
main(void)
{
	struct maps m;
	struct unwind u;
	uint64_t pcs[64], pcs2[64];
	enum unwind_end end = UNWIND_DEPTH, end2;
	size_t n, n2, i;
	char exe[4096];
	ssize_t len;
	int found_main = 0;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return 1;
	exe[len] = '\0';
	level1(1);
	maps_init(&m);
	maps_read_proc(&m, getpid());
	unwind_init(&u, &m);

	n = unwind_stack(&u, &snap, pcs, 64, &end);
	CHECK(end == UNWIND_COMPLETE, "the walk ends at the outermost frame");
	if (end != UNWIND_COMPLETE)
		printf("#   ended: %s after %zu frames\n", unwind_end_str(end), n);
	CHECK(n >= 5, "it has at least capture, level2, level1, main, _start");
	CHECK(n > 0 && frame_in(&m, exe, pcs, 0, "capture"), "frame 0 is capture");
	CHECK(n > 1 && frame_in(&m, exe, pcs, 1, "level2"), "frame 1 is level2");
	CHECK(n > 2 && frame_in(&m, exe, pcs, 2, "level1"), "frame 2 is level1");
	for (i = 3; i < n; i++)
		found_main |= frame_in(&m, exe, pcs, i, "main");
	CHECK(found_main, "main is on the stack");
	CHECK(n > 0 && frame_in(&m, exe, pcs, n - 1, "_start"), "the last frame is _start");

	n2 = unwind_stack(&u, &snap, pcs2, 64, &end2);
	CHECK(n2 == n && end2 == end && memcmp(pcs, pcs2, n * 8) == 0,
	    "a second walk gives the same frames");
	CHECK(u.misses > 0 && u.lookups >= 2 * u.misses,
	    "and takes its rules from the cache");

	/* A copy that ends inside the frames. */
	{
		struct unwind_input shortin = snap;

		shortin.stack_len = 16;
		n2 = unwind_stack(&u, &shortin, pcs2, 64, &end2);
		CHECK(end2 == UNWIND_NOSTACK && n2 >= 1 && n2 < n,
		    "a short stack copy ends as truncated: copy too small");
		/* What lies above the copy, read through the hook. */
		shortin.more = from_full;
		shortin.more_arg = &snap;
		n2 = unwind_stack(&u, &shortin, pcs2, 64, &end2);
		CHECK(end2 == end && n2 == n && memcmp(pcs, pcs2, n * 8) == 0 &&
		    more_calls > 0,
		    "with a hook, the walk reads on beyond the copy: the same frames");
		/* A hook that reads nothing: truncated as without one. */
		shortin.more_arg = &shortin;
		shortin.stack_len = 0;
		n2 = unwind_stack(&u, &shortin, pcs2, 64, &end2);
		CHECK(end2 == UNWIND_NOSTACK && n2 == 1,
		    "a hook that cannot read leaves the walk truncated");
	}
	/* The depth limit. */
	n2 = unwind_stack(&u, &snap, pcs2, 2, &end2);
	CHECK(n2 == 2 && end2 == UNWIND_DEPTH, "the depth limit stops the walk");

	/*
	 * No CFI: a pc in anonymous memory (JIT code). The walk follows the
	 * frame pointer: [rbp] is the caller's rbp, [rbp+8] its pc.
	 */
	{
		static uint64_t fake[8];
		struct unwind_input jit;
		uint64_t base = (uint64_t)(uintptr_t)fake;

		maps_add(&m, getpid(), 0x10000000, 0x1000, 0, "//anon", NULL, 0);
		memset(&jit, 0, sizeof(jit));
		jit.pid = getpid();
		jit.regs[UNWIND_RA] = 0x10000010;
		jit.regs[UNWIND_SP] = base;
		jit.regs[UNWIND_BP] = base + 16;
		jit.valid = (1u << UNWIND_RA) | (1u << UNWIND_SP) | (1u << UNWIND_BP);
		fake[2] = base + 48;		/* caller's rbp */
		fake[3] = 0x10000100;		/* return address, still JIT */
		fake[6] = 0;			/* end of the chain */
		fake[7] = 0;
		jit.stack = (const unsigned char *)fake;
		jit.stack_len = sizeof(fake);
		n2 = unwind_stack(&u, &jit, pcs2, 64, &end2);
		CHECK(n2 == 2 && pcs2[0] == 0x10000010 && pcs2[1] == 0x10000100,
		    "without CFI the frame pointer gives the caller");
		CHECK(end2 == UNWIND_ZERO, "a return address of 0 ends the chain as truncated");
		CHECK(u.fp_steps >= 2, "the steps are counted as frame-pointer steps");
	}
	unwind_release(&u);
	maps_release(&m);
	return unit_done();
}
