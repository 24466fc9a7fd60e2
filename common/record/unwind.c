#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf.h"
#include "record/unwind.h"
#include "base/xalloc.h"

enum rule_kind {
	RK_UNDEF,	/* the caller's value is lost (call-clobbered) */
	RK_SAME,	/* unchanged by this frame */
	RK_AT_CFA,	/* saved at CFA + off */
	RK_VAL_CFA,	/* is CFA + off */
	RK_REG,		/* is in register reg */
	RK_EXPR,	/* a DWARF expression (location, or value when is_value) */
};

struct rexpr {
	size_t		 n;
	Dwarf_Op	 ops[];
};

struct reg_rule {
	uint8_t		 kind;
	uint8_t		 reg;
	int64_t		 off;
	struct rexpr	*expr;
};

struct unwind_rule {
	unsigned	 file_id;
	uint64_t	 vaddr;
	int		 found;		/* some CFI covers vaddr */
	int		 signal;	/* a signal trampoline frame */
	int		 cfa_reg;	/* -1 when cfa_expr */
	int64_t		 cfa_off;
	struct rexpr	*cfa_expr;
	struct reg_rule	 regs[UNWIND_NREGS];
};

#define UNWIND_CACHE_MAX	(1 << 20)	/* rules kept, about 300 bytes each */

static uint64_t
rule_hash(unsigned id, uint64_t vaddr)
{
	return hashtab_int(vaddr ^ (uint64_t)id << 48);
}

void
unwind_init(struct unwind *u, struct maps *maps)
{
	memset(u, 0, sizeof(*u));
	u->maps = maps;
	hashtab_init(&u->cacheidx, 512);
	u->max_depth = 2048;
}

void
unwind_input_init(struct unwind_input *in, pid_t pid, const uint64_t *regs,
    uint32_t valid, const unsigned char *stack, size_t stack_len)
{
	memset(in, 0, sizeof(*in));
	in->pid = pid;
	memcpy(in->regs, regs, sizeof(in->regs));
	in->valid = valid;
	in->stack = stack;
	in->stack_len = stack_len;
}

static void
rule_free(struct unwind_rule *r)
{
	int i;

	free(r->cfa_expr);
	for (i = 0; i < UNWIND_NREGS; i++)
		free(r->regs[i].expr);
	free(r);
}

void
unwind_release(struct unwind *u)
{
	size_t i;

	for (i = 0; i < u->ncache; i++)
		rule_free(u->cache[i]);
	free(u->cache);
	hashtab_release(&u->cacheidx);
	memset(u, 0, sizeof(*u));
}

const char *
unwind_end_str(enum unwind_end e)
{
	switch (e) {
	case UNWIND_COMPLETE:	return "complete";
	case UNWIND_NOSTACK:	return "stack copy too small";
	case UNWIND_NOMAP:	return "pc in no known mapping";
	case UNWIND_NOCFI:	return "no CFI and no usable frame pointer";
	case UNWIND_BADCFI:	return "CFI not evaluated or looping";
	case UNWIND_DEPTH:	return "depth limit";
	case UNWIND_ZERO:	return "return address 0";
	case UNWIND_NEND:	break;
	}
	return "?";
}

static struct rexpr *
rexpr_copy(const Dwarf_Op *ops, size_t n)
{
	struct rexpr *e = xmalloc(sizeof(*e) + n * sizeof(Dwarf_Op));

	e->n = n;
	memcpy(e->ops, ops, n * sizeof(Dwarf_Op));
	return e;
}

/* Turns libdw's location description of a register into a compact rule. */
static void
rule_from_ops(struct reg_rule *rr, Dwarf_Op *ops, size_t nops, Dwarf_Op *mem)
{
	memset(rr, 0, sizeof(*rr));
	if (nops == 0) {
		rr->kind = ops == NULL ? RK_SAME : RK_UNDEF;
		(void)mem;
		return;
	}
	if (ops[0].atom == DW_OP_call_frame_cfa) {
		size_t i = 1;
		int64_t off = 0;
		int value = 0;

		if (i < nops && ops[i].atom == DW_OP_plus_uconst)
			off = (int64_t)ops[i++].number;
		if (i < nops && ops[i].atom == DW_OP_stack_value) {
			value = 1;
			i++;
		}
		if (i == nops) {
			rr->kind = value ? RK_VAL_CFA : RK_AT_CFA;
			rr->off = off;
			return;
		}
	}
	if (nops == 1 && ops[0].atom == DW_OP_regx && ops[0].number < UNWIND_NREGS) {
		rr->kind = RK_REG;
		rr->reg = (uint8_t)ops[0].number;
		return;
	}
	if (nops == 1 && ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg16) {
		rr->kind = RK_REG;
		rr->reg = (uint8_t)(ops[0].atom - DW_OP_reg0);
		return;
	}
	rr->kind = RK_EXPR;
	rr->expr = rexpr_copy(ops, nops);
}

static void
mapfile_cfi(struct mapfile *f)
{
	if (f->cfi_tried)
		return;
	f->cfi_tried = 1;
	f->eh_cfi = dwarf_getcfi_elf(f->elf);
	f->dwarf = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (f->dwarf)
		f->debug_cfi = dwarf_getcfi(f->dwarf);
}

static void
rule_compute(struct mapfile *f, uint64_t vaddr, struct unwind_rule *r)
{
	Dwarf_Frame *fr = NULL;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	bool signal = false;
	int i;

	mapfile_cfi(f);
	if (f->eh_cfi && dwarf_cfi_addrframe(f->eh_cfi, vaddr, &fr) != 0)
		fr = NULL;
	if (fr == NULL && f->debug_cfi &&
	    dwarf_cfi_addrframe(f->debug_cfi, vaddr, &fr) != 0)
		fr = NULL;
	if (fr == NULL)
		return;
	if (dwarf_frame_info(fr, NULL, NULL, &signal) < 0 ||
	    dwarf_frame_cfa(fr, &ops, &nops) != 0 || nops == 0) {
		free(fr);
		return;
	}
	r->found = 1;
	r->signal = signal;
	r->cfa_reg = -1;
	if (nops == 1 && ops[0].atom == DW_OP_bregx &&
	    ops[0].number < UNWIND_NREGS) {
		r->cfa_reg = (int)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (nops == 1 && ops[0].atom >= DW_OP_breg0 &&
	    ops[0].atom <= DW_OP_breg16) {
		r->cfa_reg = ops[0].atom - DW_OP_breg0;
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		r->cfa_expr = rexpr_copy(ops, nops);
	}
	for (i = 0; i < UNWIND_NREGS; i++) {
		if (dwarf_frame_register(fr, i, mem, &ops, &nops) != 0) {
			r->regs[i].kind = RK_UNDEF;
			continue;
		}
		rule_from_ops(&r->regs[i], ops, nops, mem);
	}
	free(fr);
}

static struct unwind_rule *
rule_get(struct unwind *u, struct mapfile *f, uint64_t vaddr)
{
	struct hashtab_probe p;
	struct unwind_rule *r;
	uint32_t i;

	u->lookups++;
	hashtab_probe(&u->cacheidx, rule_hash(f->id, vaddr), &p);
	while ((i = hashtab_next(&u->cacheidx, &p)) != HASHTAB_NONE) {
		r = u->cache[i];
		if (r->vaddr == vaddr && r->file_id == f->id)
			return r;
	}
	u->misses++;
	if (u->ncache >= UNWIND_CACHE_MAX) {
		/* A bound on memory for long system-wide recordings. */
		for (i = 0; i < u->ncache; i++)
			rule_free(u->cache[i]);
		u->ncache = 0;
		hashtab_release(&u->cacheidx);
		hashtab_init(&u->cacheidx, 512);
		hashtab_probe(&u->cacheidx, rule_hash(f->id, vaddr), &p);
		(void)hashtab_next(&u->cacheidx, &p);
	}
	r = xcalloc(1, sizeof(*r));
	r->file_id = f->id;
	r->vaddr = vaddr;
	rule_compute(f, vaddr, r);
	GROW(u->cache, u->ncache + 1, u->cache_cap);
	u->cache[u->ncache] = r;
	hashtab_add(&u->cacheidx, &p, u->ncache++);
	return r;
}

/* The state of one frame while walking. */
struct frame {
	uint64_t	 regs[UNWIND_NREGS];
	uint32_t	 valid;
	uint64_t	 cfa;
};

static int
read_stack(const struct unwind_input *in, uint64_t addr, uint64_t *v)
{
	uint64_t sp = in->regs[UNWIND_SP];

	if (addr < sp || addr - sp > in->stack_len || in->stack_len - (addr - sp) < 8)
		return in->more && addr >= sp ? in->more(in->more_arg, addr, v) : -1;
	memcpy(v, in->stack + (addr - sp), 8);
	return 0;
}

/*
 * Evaluates a DWARF expression (the subset CFI uses; no branches) in the
 * frame fr. Sets *value to 1 when the result is a value rather than an
 * address. Returns 0, or -1 when it cannot.
 */
static int
eval_expr(const struct unwind_input *in, const struct frame *fr, int have_cfa,
    const struct rexpr *e, uint64_t *result, int *value)
{
	uint64_t st[64], a, b;
	size_t sp = 0, i;

	*value = 0;
#define PUSH(x) do { if (sp >= 64) return -1; st[sp++] = (x); } while (0)
#define POP(x) do { if (sp == 0) return -1; (x) = st[--sp]; } while (0)
	for (i = 0; i < e->n; i++) {
		const Dwarf_Op *op = &e->ops[i];
		unsigned atom = op->atom;

		if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
			PUSH(atom - DW_OP_lit0);
			continue;
		}
		if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
			unsigned r = atom - DW_OP_breg0;

			if (r >= UNWIND_NREGS || !(fr->valid & (1u << r)))
				return -1;
			PUSH(fr->regs[r] + op->number);
			continue;
		}
		if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
			unsigned r = atom - DW_OP_reg0;

			if (r >= UNWIND_NREGS || !(fr->valid & (1u << r)))
				return -1;
			*result = fr->regs[r];
			*value = 1;
			return i + 1 == e->n ? 0 : -1;
		}
		switch (atom) {
		case DW_OP_call_frame_cfa:
			if (!have_cfa)
				return -1;
			PUSH(fr->cfa);
			break;
		case DW_OP_bregx:
			if (op->number >= UNWIND_NREGS ||
			    !(fr->valid & (1u << op->number)))
				return -1;
			PUSH(fr->regs[op->number] + op->number2);
			break;
		case DW_OP_regx:
			if (op->number >= UNWIND_NREGS ||
			    !(fr->valid & (1u << op->number)))
				return -1;
			*result = fr->regs[op->number];
			*value = 1;
			return i + 1 == e->n ? 0 : -1;
		case DW_OP_addr: case DW_OP_const1u: case DW_OP_const1s:
		case DW_OP_const2u: case DW_OP_const2s: case DW_OP_const4u:
		case DW_OP_const4s: case DW_OP_const8u: case DW_OP_const8s:
		case DW_OP_constu: case DW_OP_consts:
			PUSH(op->number);
			break;
		case DW_OP_plus_uconst:
			POP(a); PUSH(a + op->number);
			break;
		case DW_OP_deref:
			POP(a);
			if (read_stack(in, a, &b) != 0)
				return -1;
			PUSH(b);
			break;
		case DW_OP_dup:
			if (sp == 0) return -1;
			a = st[sp - 1];
			PUSH(a);
			break;
		case DW_OP_drop:
			POP(a);
			break;
		case DW_OP_over:
			if (sp < 2) return -1;
			a = st[sp - 2];
			PUSH(a);
			break;
		case DW_OP_pick:
			if (op->number >= sp) return -1;
			a = st[sp - 1 - op->number];
			PUSH(a);
			break;
		case DW_OP_swap:
			if (sp < 2) return -1;
			a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = a;
			break;
		case DW_OP_rot:
			if (sp < 3) return -1;
			a = st[sp - 1]; st[sp - 1] = st[sp - 2];
			st[sp - 2] = st[sp - 3]; st[sp - 3] = a;
			break;
		case DW_OP_neg: POP(a); PUSH(-a); break;
		case DW_OP_not: POP(a); PUSH(~a); break;
		case DW_OP_abs: POP(a); PUSH((int64_t)a < 0 ? -a : a); break;
		case DW_OP_plus: POP(b); POP(a); PUSH(a + b); break;
		case DW_OP_minus: POP(b); POP(a); PUSH(a - b); break;
		case DW_OP_mul: POP(b); POP(a); PUSH(a * b); break;
		case DW_OP_and: POP(b); POP(a); PUSH(a & b); break;
		case DW_OP_or: POP(b); POP(a); PUSH(a | b); break;
		case DW_OP_xor: POP(b); POP(a); PUSH(a ^ b); break;
		case DW_OP_shl: POP(b); POP(a); PUSH(b < 64 ? a << b : 0); break;
		case DW_OP_shr: POP(b); POP(a); PUSH(b < 64 ? a >> b : 0); break;
		case DW_OP_shra:
			POP(b); POP(a);
			PUSH(b < 64 ? (uint64_t)((int64_t)a >> b) :
			    ((int64_t)a < 0 ? ~0ULL : 0));
			break;
		case DW_OP_eq: POP(b); POP(a); PUSH(a == b); break;
		case DW_OP_ne: POP(b); POP(a); PUSH(a != b); break;
		case DW_OP_lt: POP(b); POP(a); PUSH((int64_t)a < (int64_t)b); break;
		case DW_OP_le: POP(b); POP(a); PUSH((int64_t)a <= (int64_t)b); break;
		case DW_OP_gt: POP(b); POP(a); PUSH((int64_t)a > (int64_t)b); break;
		case DW_OP_ge: POP(b); POP(a); PUSH((int64_t)a >= (int64_t)b); break;
		case DW_OP_nop:
			break;
		case DW_OP_stack_value:
			if (i + 1 != e->n)
				return -1;
			*value = 1;
			break;
		default:
			return -1;
		}
	}
#undef PUSH
#undef POP
	if (sp == 0)
		return -1;
	*result = st[sp - 1];
	return 0;
}

/*
 * Computes the caller's frame from fr with rule r. Returns 0, or the
 * reason it could not.
 */
static enum unwind_end
step_cfi(const struct unwind_input *in, struct frame *fr,
    const struct unwind_rule *r, struct frame *caller)
{
	int i, value;
	uint64_t v;

	if (r->cfa_reg >= 0) {
		if (!(fr->valid & (1u << r->cfa_reg)))
			return UNWIND_BADCFI;
		fr->cfa = fr->regs[r->cfa_reg] + (uint64_t)r->cfa_off;
	} else {
		if (eval_expr(in, fr, 0, r->cfa_expr, &fr->cfa, &value) != 0)
			return UNWIND_BADCFI;
	}
	caller->valid = 0;
	caller->cfa = 0;
	for (i = 0; i < UNWIND_NREGS; i++) {
		const struct reg_rule *rr = &r->regs[i];

		switch (rr->kind) {
		case RK_UNDEF:
			continue;
		case RK_SAME:
			if (i == UNWIND_RA || !(fr->valid & (1u << i)))
				continue;
			v = fr->regs[i];
			break;
		case RK_AT_CFA:
			/*
			 * A save slot below the stack pointer is stale: the
			 * epilogue has popped the register already (GCC does not
			 * always say so in the CFI), so it holds its value.
			 */
			if (i != UNWIND_RA && (fr->valid & (1u << UNWIND_SP)) &&
			    fr->cfa + (uint64_t)rr->off < fr->regs[UNWIND_SP]) {
				if (!(fr->valid & (1u << i)))
					continue;
				v = fr->regs[i];
				break;
			}
			if (read_stack(in, fr->cfa + (uint64_t)rr->off, &v) != 0) {
				if (i == UNWIND_RA)
					return UNWIND_NOSTACK;
				continue;
			}
			break;
		case RK_VAL_CFA:
			v = fr->cfa + (uint64_t)rr->off;
			break;
		case RK_REG:
			if (!(fr->valid & (1u << rr->reg)))
				continue;
			v = fr->regs[rr->reg];
			break;
		case RK_EXPR:
			if (eval_expr(in, fr, 1, rr->expr, &v, &value) != 0) {
				if (i == UNWIND_RA)
					return UNWIND_NOSTACK;
				continue;
			}
			if (!value && read_stack(in, v, &v) != 0) {
				if (i == UNWIND_RA)
					return UNWIND_NOSTACK;
				continue;
			}
			break;
		default:
			continue;
		}
		caller->regs[i] = v;
		caller->valid |= 1u << i;
	}
	/* On x86-64 the caller's stack pointer is the CFA, whatever the ABI rules. */
	if (r->regs[UNWIND_SP].kind == RK_UNDEF || r->regs[UNWIND_SP].kind == RK_SAME) {
		caller->regs[UNWIND_SP] = fr->cfa;
		caller->valid |= 1u << UNWIND_SP;
	}
	if (!(caller->valid & (1u << UNWIND_RA)))
		return UNWIND_NOSTACK;
	return UNWIND_COMPLETE;
}

/*
 * Tells whether vaddr, which no CFI covers, is in the first instructions
 * of the file's entry point: where the kernel starts a process (ld.so's
 * _start has no CFI). That frame is the outermost.
 */
static int
at_entry(const struct mapfile *f, uint64_t vaddr)
{
	return f->entry != 0 && vaddr >= f->entry && vaddr < f->entry + 64;
}

/* Steps by frame pointer: [rbp] is the caller's rbp, [rbp+8] its pc. */
static int
step_fp(const struct unwind_input *in, const struct frame *fr,
    struct frame *caller)
{
	uint64_t bp = fr->regs[UNWIND_BP], nbp, ra;

	if (!(fr->valid & (1u << UNWIND_BP)) || bp < fr->regs[UNWIND_SP] ||
	    (bp & 7) != 0)
		return -1;
	if (read_stack(in, bp, &nbp) != 0 || read_stack(in, bp + 8, &ra) != 0)
		return -1;
	caller->valid = (1u << UNWIND_BP) | (1u << UNWIND_SP) | (1u << UNWIND_RA);
	caller->regs[UNWIND_BP] = nbp;
	caller->regs[UNWIND_SP] = bp + 16;
	caller->regs[UNWIND_RA] = ra;
	return 0;
}

size_t
unwind_stack(struct unwind *u, const struct unwind_input *in, uint64_t *pcs,
    size_t max, enum unwind_end *end)
{
	return unwind_stack_sp(u, in, pcs, NULL, max, end);
}

size_t
unwind_stack_sp(struct unwind *u, const struct unwind_input *in, uint64_t *pcs,
    uint64_t *sps, size_t max, enum unwind_end *end)
{
	struct frame cur, next;
	size_t n = 0;
	int exact = 1;		/* pc is an interrupted instruction, not a return address */
	int flat = 0;		/* steps in a row that kept the stack pointer */

	memcpy(cur.regs, in->regs, sizeof(cur.regs));
	cur.valid = in->valid;
	cur.cfa = 0;
	if (!(cur.valid & (1u << UNWIND_RA)) || !(cur.valid & (1u << UNWIND_SP))) {
		*end = UNWIND_NOSTACK;
		return 0;
	}
	for (;;) {
		uint64_t pc = cur.regs[UNWIND_RA], vaddr;
		struct mapping *mp;
		struct unwind_rule *r = NULL;
		enum unwind_end e;

		if (n >= max || (int)n >= u->max_depth) {
			*end = UNWIND_DEPTH;
			return n;
		}
		mp = maps_find(u->maps, in->pid, exact ? pc : pc - 1);
		/* a return address in no code is not written (unwind_is_code) */
		if (mp == NULL && n > 0) {
			*end = UNWIND_NOMAP;
			return n;
		}
		if (sps)
			sps[n] = cur.regs[UNWIND_SP];
		pcs[n++] = pc;
		if (mp == NULL) {
			*end = UNWIND_NOMAP;
			return n;
		}
		if (mp->file->kind == MAPFILE_ELF &&
		    mapping_vaddr(mp, exact ? pc : pc - 1, &vaddr) == 0)
			r = rule_get(u, mp->file, vaddr);
		if (r && r->found) {
			if (r->regs[UNWIND_RA].kind == RK_UNDEF) {
				*end = UNWIND_COMPLETE;
				return n;
			}
			e = step_cfi(in, &cur, r, &next);
			if (e != UNWIND_COMPLETE) {
				*end = e;
				return n;
			}
			exact = r->signal;
		} else if (r && at_entry(mp->file, vaddr)) {
			*end = UNWIND_COMPLETE;
			return n;
		} else {
			if (step_fp(in, &cur, &next) != 0) {
				*end = UNWIND_NOCFI;
				return n;
			}
			u->fp_steps++;
			exact = 0;
		}
		/*
		 * The loop guard: the stack pointer must grow. It may stay
		 * once, where the return address is in a register (__vfork
		 * after its pop), but not twice in a row.
		 */
		if (!(r && r->signal)) {
			if (next.regs[UNWIND_SP] < cur.regs[UNWIND_SP] ||
			    (next.regs[UNWIND_SP] == cur.regs[UNWIND_SP] &&
			    (flat++ > 0 || next.regs[UNWIND_RA] == pc))) {
				*end = UNWIND_BADCFI;
				return n;
			}
			if (next.regs[UNWIND_SP] > cur.regs[UNWIND_SP])
				flat = 0;
		}
		if (next.regs[UNWIND_RA] == 0) {
			*end = UNWIND_ZERO;
			return n;
		}
		cur = next;
	}
}

int
unwind_is_code(struct unwind *u, pid_t pid, uint64_t pc)
{
	return pc != 0 && maps_find(u->maps, pid, pc - 1) != NULL;
}

int
unwind_code_info(struct unwind *u, struct mapfile *f, uint64_t vaddr)
{
	struct unwind_rule r;
	int i, info = 0;

	(void)u;
	memset(&r, 0, sizeof(r));
	rule_compute(f, vaddr, &r);
	if (!r.found)
		return at_entry(f, vaddr) ? UNWIND_AT_OUTERMOST : 0;
	info = UNWIND_AT_CFI;
	if (r.regs[UNWIND_RA].kind == RK_UNDEF)
		info |= UNWIND_AT_OUTERMOST;
	if (r.cfa_reg == UNWIND_BP)
		info |= UNWIND_AT_FP;
	free(r.cfa_expr);
	for (i = 0; i < UNWIND_NREGS; i++)
		free(r.regs[i].expr);
	return info;
}
