/*
 * fpchain: what a frame-pointer call chain (the kernel's callchain, or
 * the ptrace sampler's walk) lacks, judged from the CFI and the symbols
 * of the mapped files, so that only a chain that lost its outer frames
 * ends in [truncated], and the summary says what frame pointers lost.
 *
 * A chain stops at the first frame that keeps no frame pointer. The C
 * runtime's start keeps none (glibc is built without them): every chain
 * of a program built with -fno-omit-frame-pointer stops in
 * __libc_start_call_main, or in start_thread for a thread, and lacks
 * nothing its user wants. So a chain whose last frame is the C runtime's
 * start is complete: a function whose CFI marks the outermost frame
 * (_start, clone3's child), or, by name, the C library's functions that
 * call main or a thread's function (glibc's __libc_start_call_main,
 * __libc_start_main, start_thread, clone3, clone; musl's
 * libc_start_main_stage2, start, start_c11, _start_c). A C library with
 * .dynsym alone (no libc6-dbg) names none of its static functions: then
 * the code beside __libc_start_main that no symbol holds, where both
 * libraries put the function that calls main, counts as its start.
 *
 * Elsewhere, frame pointers lose frames that a DWARF walk finds:
 * FPCHAIN_NOFP, a chain that stopped in code that keeps no frame pointer
 * (a library or program built without them), and fpchain_frameless, a
 * sampled function that keeps no frame (a leaf, or a prologue), whose
 * caller the chain skips.
 *
 *	struct fpchain c;
 *	fpchain_init(&c, &unwind);
 *	end = fpchain_judge(&c, pid, last_pc, nframes == 1);
 *	if (fpchain_frameless(&c, pid, leaf_pc)) ...
 *	path = fpchain_top_nofp(&c);
 *	fpchain_release(&c);
 */
#ifndef FG_FPCHAIN_H
#define FG_FPCHAIN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/hashtab.h"
#include "record/unwind.h"

/* Where a frame-pointer chain ended. */
enum fpchain_end {
	FPCHAIN_START,		/* the C runtime's start: the chain is complete */
	FPCHAIN_NOFP,		/* code that keeps no frame pointer */
	FPCHAIN_EARLY,		/* a frame that keeps one, or nothing known */
};

struct fpchain_file;
struct fpchain_addr;

struct fpchain {
	struct unwind	*u;		/* borrowed, and its maps */
	struct fpchain_file *files;	/* owned: by mapfile id */
	size_t		 nfiles;
	struct fpchain_addr *addr;	/* owned: answers by (file, address),
					   open addressing in place: a probe
					   touches one cache line */
	size_t		 naddr, addr_mask;	/* answers held; slots - 1 */
};

/* Makes c ready; u (and its maps) borrowed until fpchain_release. */
void	 fpchain_init(struct fpchain *c, struct unwind *u);
/* Frees what c holds, not c itself. */
void	 fpchain_release(struct fpchain *c);

/*
 * Judges the end of a chain of process pid whose last frame is pc: the
 * sampled instruction when exact is nonzero (a chain of one frame), else
 * a return address. FPCHAIN_START when it lies in the C runtime's start
 * (above); FPCHAIN_NOFP when the CFI says its function keeps no frame
 * pointer there (counted for fpchain_top_nofp); else FPCHAIN_EARLY.
 */
enum fpchain_end fpchain_judge(struct fpchain *c, pid_t pid, uint64_t pc,
	    int exact);

/*
 * Whether the sampled instruction pc of process pid lies where its
 * function keeps no frame (its CFA is the stack pointer's: a leaf
 * function, code built without frame pointers, a prologue): the chain
 * then goes from it to its caller's caller. 0 when nothing is known.
 */
int	 fpchain_frameless(struct fpchain *c, pid_t pid, uint64_t pc);

/*
 * The path of the file in which the most chains ended as FPCHAIN_NOFP
 * (borrowed from the maps), or NULL when none did.
 */
const char *fpchain_top_nofp(const struct fpchain *c);

#endif
