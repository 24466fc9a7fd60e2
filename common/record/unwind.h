/*
 * unwind: walk a user stack from the registers and the copy of the stack
 * that the kernel takes with each sample (PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER), with the CFI of each mapped file: .eh_frame
 * first, then .debug_frame. libdw parses the CFI; this module evaluates
 * it, caching the rules of each (file, pc) because dwarf_cfi_addrframe
 * allocates on every call. Where a pc has no CFI (JIT code), it tries the
 * frame pointer once.
 *
 * x86-64 only. Registers are in DWARF numbering: 0 rax, 1 rdx, 2 rcx,
 * 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8..15 r8..r15, 16 the return address
 * (rip).
 *
 *	struct unwind u;
 *	unwind_init(&u, &maps);
 *	n = unwind_stack(&u, &in, pcs, max, &status);
 *	unwind_release(&u);
 */
#ifndef FG_UNWIND_H
#define FG_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/hashtab.h"
#include "perf/perf.h"
#include "record/maps.h"

#define UNWIND_NREGS	PERF_DWARF_NREGS
#define UNWIND_RA	PERF_DWARF_RA
#define UNWIND_SP	PERF_DWARF_SP
#define UNWIND_BP	PERF_DWARF_BP

/* Why a walk ended. */
enum unwind_end {
	UNWIND_COMPLETE,	/* the CFI says the last frame is the outermost */
	UNWIND_NOSTACK,		/* a frame's CFA or saved register is outside the
				   copy (and what more reads) */
	UNWIND_NOMAP,		/* a pc in no known mapping */
	UNWIND_NOCFI,		/* no CFI and the frame pointer did not help */
	UNWIND_BADCFI,		/* an expression it cannot evaluate, or a loop */
	UNWIND_DEPTH,		/* the depth limit */
	UNWIND_ZERO,		/* a return address of 0 */
	UNWIND_NEND		/* the number of reasons */
};

/*
 * Reads the 8 bytes at addr of the stack beyond the copy (into *v): 0, or
 * -1 when it cannot. Its argument is unwind_input's more_arg.
 */
typedef int unwind_more_fn(void *arg, uint64_t addr, uint64_t *v);

/* The state of the interrupted thread, borrowed by unwind_stack. */
struct unwind_input {
	pid_t		 pid;		/* the process, for its mappings */
	uint64_t	 regs[UNWIND_NREGS];
	uint32_t	 valid;		/* bit r set when regs[r] is known */
	const unsigned char *stack;	/* the copy, starting at regs[UNWIND_SP] */
	size_t		 stack_len;
	/*
	 * Where the walk reads what lies above the copy (record/livestack.h:
	 * the thread's live stack), or NULL: the copy is all there is.
	 */
	unwind_more_fn	*more;
	void		*more_arg;	/* borrowed: more's argument */
};

/*
 * *in made ready to walk process pid from a sample's registers (DWARF's
 * numbering, regs[0..UNWIND_NREGS) copied) and stack copy (borrowed),
 * reading nothing beyond the copy: set in->more and in->more_arg for that.
 */
void	 unwind_input_init(struct unwind_input *in, pid_t pid,
	    const uint64_t *regs, uint32_t valid, const unsigned char *stack,
	    size_t stack_len);

struct unwind_rule;

struct unwind {
	struct maps	*maps;		/* borrowed */
	struct unwind_rule **cache;	/* owned: the rules, as computed */
	size_t		 ncache, cache_cap;
	struct hashtab	 cacheidx;	/* (file, address) -> cache */
	int		 max_depth;	/* frames at most; 2048 by default */
	uint64_t	 lookups, misses;	/* cache statistics */
	uint64_t	 fp_steps;	/* frames unwound by frame pointer */
};

void	 unwind_init(struct unwind *, struct maps *maps);	/* maps borrowed */
/* Frees the rules and answers cached, not u itself nor the maps. */
void	 unwind_release(struct unwind *);

/*
 * Walks the stack described by *in and stores the run-time pc of each
 * frame in pcs[0..max), leaf first: pcs[0] is the interrupted instruction
 * and the others are return addresses, as the kernel's callchain gives
 * them. Returns the number of frames, and sets *end to why it stopped;
 * anything but UNWIND_COMPLETE means the stack is truncated.
 */
size_t	 unwind_stack(struct unwind *, const struct unwind_input *in,
	    uint64_t *pcs, size_t max, enum unwind_end *end);

/*
 * As unwind_stack, and stores in sps[i] the stack pointer of frame i: the
 * interrupted one for the leaf, the caller's after the return for the
 * others (the CFA of frame i-1, just above where pcs[i] was stored).
 * A frame is identified by its pc and stack pointer (see stitch.h).
 */
size_t	 unwind_stack_sp(struct unwind *, const struct unwind_input *in,
	    uint64_t *pcs, uint64_t *sps, size_t max, enum unwind_end *end);

/* unwind_code_info's answer: bits. */
#define UNWIND_AT_CFI		1	/* some CFI covers the address */
#define UNWIND_AT_OUTERMOST	2	/* the outermost frame: _start, clone3's child */
#define UNWIND_AT_FP		4	/* the frame's CFA is the frame pointer's */

/*
 * What the CFI of the mapped file f says of the code at vaddr (an
 * address in the file's own ELF space): UNWIND_AT_CFI when some covers
 * it; UNWIND_AT_OUTERMOST when it marks the outermost frame (its return
 * address undefined: _start, clone3's child), or, without CFI, vaddr is
 * the file's entry point (ld.so's _start); UNWIND_AT_FP when the frame's
 * CFA is computed from rbp, so that the function keeps a frame pointer
 * there. 0 when nothing is known. Nothing is cached: the caller keeps
 * the answers it needs (record/fpchain.c keeps 16 bytes an address).
 */
int	 unwind_code_info(struct unwind *, struct mapfile *f, uint64_t vaddr);

/*
 * Whether the return address pc of process pid lies in executable code
 * that the maps know (pc-1 in a mapping: maps hold executable ones only).
 * A walk stops at one that does not rather than write it: such a word
 * may be anything the program kept on its stack (a secret it read).
 */
int	 unwind_is_code(struct unwind *, pid_t pid, uint64_t pc);

/* A short phrase for a reason, for statistics ("stack copy too small"). */
const char *unwind_end_str(enum unwind_end);


#endif
