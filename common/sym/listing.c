/*
 * listing: the text of fgsym --annotate (see listing.h): every line cut
 * to WIDTH columns, the summary, each hot function disassembled with its
 * counts and source lines, and the hottest source lines.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "base/buf.h"
#include "base/upper.h"
#include "base/xalloc.h"
#include "sym/afile.h"
#include "sym/demangle.h"
#include "sym/dwname.h"
#include "sym/listing.h"
#include "sym/srccache.h"

#define WIDTH		100	/* columns of the listing */
#define HOT_PCT		5.0	/* ">>" above this share of the function */
#define HOT_LINES	5	/* hottest source lines at the bottom */
#define COL_ADDR	20	/* where the address column starts */

#define C_HOT		"\033[1;31m"
#define C_WARM		"\033[32m"
#define C_SRC		"\033[36m"
#define C_HEAD		"\033[1m"
#define C_OFF		"\033[m"

/* --- lines of at most WIDTH columns ------------------------------------ */

/* Appends s with tabs expanded and control characters shown as '?'. */
static void
out_text(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '\t') {
			do
				buf_addc(&o->line, ' ');
			while (o->line.len % 8);
		} else if (c < 0x20 || c == 0x7f) {
			buf_addc(&o->line, '?');
		} else {
			buf_addc(&o->line, c);
		}
	}
}

static void
out_pad(struct out *o, size_t col)
{
	while (o->line.len < col)
		buf_addc(&o->line, ' ');
}

/*
 * Writes the current line, cut to WIDTH columns (UTF-8 aware; a cut line
 * ends in "..."), trailing blanks removed, in colour when asked, and
 * starts a new one.
 */
static void
out_line(struct out *o, const char *color)
{
	struct buf *b = &o->line;
	size_t cols = 0, i, cut = 0;

	for (i = 0; i < b->len; i++) {
		if (((unsigned char)b->p[i] & 0xc0) == 0x80)
			continue;
		if (cols == WIDTH - 3)
			cut = i;
		if (++cols > WIDTH)
			break;
	}
	if (i < b->len) {
		b->len = cut;
		BUF_ADDL(b, "...");
	}
	while (b->len && b->p[b->len - 1] == ' ')
		b->p[--b->len] = '\0';
	if (!o->err) {
		int r;

		if (o->color && color && b->len)
			r = fprintf(o->fp, "%s%s%s\n", color, buf_str(b),
			    C_OFF);
		else
			r = fprintf(o->fp, "%s\n", buf_str(b));
		if (r < 0)
			o->err = errno ? errno : EIO;
	}
	buf_reset(b);
}
/* --- source lines --------------------------------------------------------- */

/* A source position: file, line, and the inlined function it is in. */
struct srcpos {
	const char	*file;		/* borrowed from libdw; NULL: none */
	int		 line;
	char		*inl;		/* owned; innermost inlined function */
};

/* Looks up the source position of addr; sets p->file to NULL if none. */
static void
srcpos_get(const struct afile *f, uint64_t addr, struct srcpos *p,
    int want_inline)
{
	Dwfl_Line *l;
	Dwarf_Die *cu;
	Dwarf_Addr bias;
	int line = 0;

	p->file = NULL;
	p->line = 0;
	p->inl = NULL;
	if (!f->mod || !(l = dwfl_module_getsrc(f->mod, addr + f->bias)))
		return;
	p->file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	p->line = line;
	if (!p->file || !want_inline)
		return;
	if ((cu = dwfl_module_addrdie(f->mod, addr + f->bias, &bias))) {
		Dwarf_Die *scopes = NULL;
		int n = dwarf_getscopes(cu, addr + f->bias - bias, &scopes);

		for (int i = 0; i < n; i++)
			if (dwarf_tag(&scopes[i]) ==
			    DW_TAG_inlined_subroutine) {
				p->inl = dwname_of(f->dwn, &scopes[i], 1,
				    f->dmflags);
				break;
			}
		free(scopes);
	}
}

static const char *
basename_of(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/* Appends "file:line", the file's path shortened from the left. */
static void
out_path(struct out *o, const char *f, int line)
{
	size_t fl = strlen(f);

	if (fl > 50) {
		f += fl - 47;
		BUF_ADDL(&o->line, "...");
	}
	buf_addf(&o->line, "%s:%d", f, line);
}

/*
 * Appends "file:line  [inlined name]  text" to the current line: the
 * source lines interleaved with the instructions.
 */
static void
out_srcpos(struct out *o, struct srccache *sc, const struct srcpos *p)
{
	const char *text;
	size_t tlen;

	buf_addf(&o->line, "%s:%d", basename_of(p->file), p->line);
	if (p->inl)
		buf_addf(&o->line, "  [inlined %s]", p->inl);
	if ((text = srccache_line(sc, p->file, p->line, &tlen))) {
		BUF_ADDL(&o->line, "  ");
		out_text(o, text, tlen);
	}
}
/* --- functions ---------------------------------------------------------- */

static double
pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Appends "sym+0xoff" for a target address, or nothing if unknown. */
static int
out_target(struct out *o, const struct afile *f, uint64_t addr)
{
	const struct elfsym_ent *s = afile_lookup(f, addr, 0);
	const char *sec;
	uint64_t start, end;
	char *d;

	if (!s || addr - s->addr >= s->size) {
		if (!(sec = afile_section_of(f, addr, &start, &end)))
			return 0;
		buf_addf(&o->line, " <%s+0x%" PRIx64 ">", sec, addr - start);
		return 1;
	}
	d = fg_demangle(s->name, f->dmflags);
	buf_addf(&o->line, " <%s", d ? d : s->name);
	free(d);
	if (addr != s->addr)
		buf_addf(&o->line, "+0x%" PRIx64, addr - s->addr);
	BUF_ADDL(&o->line, ">");
	return 1;
}

/* The immediate branch or call target of insn, if it has one. */
static int
insn_target(const struct afile *f, const cs_insn *in, uint64_t *target)
{
	const cs_detail *d = in->detail;
	int branch = 0;

	if (!d)
		return 0;
	for (int i = 0; i < d->groups_count; i++)
		if (d->groups[i] == CS_GRP_JUMP || d->groups[i] == CS_GRP_CALL ||
		    d->groups[i] == CS_GRP_BRANCH_RELATIVE)
			branch = 1;
	if (!branch)
		return 0;
	switch (f->machine) {
	case EM_X86_64:
	case EM_386:
		for (int i = 0; i < d->x86.op_count; i++)
			if (d->x86.operands[i].type == X86_OP_IMM) {
				*target = d->x86.operands[i].imm;
				return 1;
			}
		break;
	case EM_AARCH64:
		for (int i = 0; i < d->arm64.op_count; i++)
			if (d->arm64.operands[i].type == ARM64_OP_IMM) {
				*target = d->arm64.operands[i].imm;
				return 1;
			}
		break;
	case EM_PPC64:
		for (int i = 0; i < d->ppc.op_count; i++)
			if (d->ppc.operands[i].type == PPC_OP_IMM) {
				*target = d->ppc.operands[i].imm;
				return 1;
			}
		break;
	}
	return 0;
}

/* RIP-relative data reference of an x86-64 instruction, if any. */
static int
insn_ripref(const struct afile *f, const cs_insn *in, uint64_t *target)
{
	const cs_detail *d = in->detail;

	if (!d || f->machine != EM_X86_64)
		return 0;
	for (int i = 0; i < d->x86.op_count; i++)
		if (d->x86.operands[i].type == X86_OP_MEM &&
		    d->x86.operands[i].mem.base == X86_REG_RIP) {
			*target = in->address + in->size +
			    d->x86.operands[i].mem.disp;
			return 1;
		}
	return 0;
}

/*
 * Appends the count columns of one line: marker, count, percentage of
 * the function, and returns the colour the line should get.
 */
static const char *
out_counts(struct out *o, uint64_t count, uint64_t fsamples)
{
	double p = pct(count, fsamples);

	if (count == 0) {
		buf_addf(&o->line, "%18s", "");
		return NULL;
	}
	buf_addf(&o->line, "%2s %7" PRIu64 " %6.2f%%", p > HOT_PCT ? ">>" : "",
	    count, p);
	return p > HOT_PCT ? C_HOT : C_WARM;
}


/* Source header line, when the position differs from the last one. */
static void
out_src_change(struct listing *L, const struct afile *f, uint64_t addr,
    struct srcpos *last)
{
	struct srcpos p;

	srcpos_get(f, addr, &p, 1);
	if (!p.file)
		return;
	if (last->file && p.line == last->line &&
	    strcmp(p.file, last->file) == 0 &&
	    ((!p.inl && !last->inl) || (p.inl && last->inl &&
	    strcmp(p.inl, last->inl) == 0))) {
		free(p.inl);
		return;
	}
	out_pad(&L->o, COL_ADDR);
	out_srcpos(&L->o, &L->sc, &p);
	out_line(&L->o, C_SRC);
	free(last->inl);
	*last = p;
}

/*
 * Collects the resync points of a function after a decode failure at
 * addr: the next symbol or line-table row. Returns the end when none.
 */
static uint64_t
resync_point(const struct afile *f, uint64_t addr, uint64_t end)
{
	uint64_t best = end;
	const struct elfsym_ent *s;
	size_t lo = UPPER(f->st.e, f->st.n, addr, addr);

	if (lo < f->st.n && (s = &f->st.e[lo])->addr < best)
		best = s->addr;
	if (f->mod) {
		Dwarf_Addr bias;
		Dwarf_Die *cu = dwfl_module_addrdie(f->mod, addr + f->bias,
		    &bias);
		Dwarf_Lines *lines;
		size_t nl;

		if (cu && dwarf_getsrclines(cu, &lines, &nl) == 0)
			for (size_t i = 0; i < nl; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr la;

				if (l && dwarf_lineaddr(l, &la) == 0) {
					/* DWARF space -> the file's vaddrs */
					la = la + bias - f->bias;
					if (la > addr && la < best)
						best = la;
				}
			}
	}
	return best;
}

/* Sum of the counts of fn's sampled addresses in [lo, hi), from *cur on. */
static uint64_t
take_counts(const struct afunc *fn, size_t *cur, uint64_t lo, uint64_t hi)
{
	uint64_t c = 0;

	while (*cur < fn->naddrs && fn->addrs[*cur].vaddr < hi) {
		if (fn->addrs[*cur].vaddr >= lo)
			c += fn->addrs[*cur].count;
		(*cur)++;
	}
	return c;
}

/* Lists the sampled addresses only, when there are no bytes to show. */
static void
list_addresses(struct listing *L, const struct afunc *fn, const char *why)
{
	struct srcpos last = { 0 };
	int aw = snprintf(NULL, 0, "%" PRIx64, fn->end - 1);

	buf_addf(&L->o.line, "   (no disassembly: %s)", why);
	out_line(&L->o, NULL);
	out_line(&L->o, NULL);
	for (size_t i = 0; i < fn->naddrs; i++) {
		const char *c;

		out_src_change(L, fn->file, fn->addrs[i].vaddr, &last);
		c = out_counts(&L->o, fn->addrs[i].count, fn->samples);
		buf_addf(&L->o.line, "  %*" PRIx64 ":  <%s+0x%" PRIx64 ">", aw,
		    fn->addrs[i].vaddr, fn->name,
		    fn->addrs[i].vaddr - fn->start);
		out_line(&L->o, c);
	}
	free(last.inl);
}

/* Disassembles one function with its counts and source lines. */
static void
list_function(struct listing *L, const struct afunc *fn, int rank)
{
	const struct afile *f = fn->file;
	const unsigned char *code;
	unsigned char *owned = NULL;
	char *why = NULL;
	size_t n = 0, cur = 0;
	struct srcpos last = { 0 };
	int aw = snprintf(NULL, 0, "%" PRIx64, fn->end - 1);
	uint64_t shown = 0;

	buf_addf(&L->o.line, "== %d. %s ", rank, fn->name);
	while (L->o.line.len < WIDTH)
		BUF_ADDL(&L->o.line, "=");
	out_line(&L->o, C_HEAD);
	buf_addf(&L->o.line, "   %s  %#" PRIx64 "..%#" PRIx64 " (%" PRIu64
	    " bytes)", f->path, fn->start, fn->end, fn->end - fn->start);
	out_line(&L->o, NULL);
	buf_addf(&L->o.line, "   %" PRIu64 " sample%s, %.2f%% of all", fn->samples,
	    fn->samples == 1 ? "" : "s", pct(fn->samples, L->total));
	out_line(&L->o, NULL);

	code = afile_bytes(f, fn->start, fn->end - fn->start, &n, &owned,
	    &why);
	if (!code) {
		list_addresses(L, fn, why);
		free(why);
		out_line(&L->o, NULL);
		return;
	}
	out_line(&L->o, NULL);
	buf_addf(&L->o.line, "%10s %7s  %-*s  %s", "samples", "percent", aw,
	    aw >= 7 ? "address" : "addr", "instruction");
	out_line(&L->o, NULL);

	cs_insn *in = cs_malloc(f->cs);
	const uint8_t *p = code;
	size_t left = n;
	uint64_t addr = fn->start;

	while (addr < fn->end) {
		uint64_t next;
		const char *c;

		out_src_change(L, f, addr, &last);
		if (left && cs_disasm_iter(f->cs, &p, &left, &addr, in)) {
			uint64_t cnt = take_counts(fn, &cur, in->address,
			    in->address + in->size), t;

			shown += cnt;
			c = out_counts(&L->o, cnt, fn->samples);
			buf_addf(&L->o.line, "  %*" PRIx64 ":  %-7s %s", aw,
			    in->address, in->mnemonic, in->op_str);
			if (insn_target(f, in, &t))
				out_target(&L->o, f, t);
			else if (insn_ripref(f, in, &t) &&
			    afile_lookup(f, t, 0)) {
				buf_addf(&L->o.line, "  # %#" PRIx64, t);
				out_target(&L->o, f, t);
			}
			out_line(&L->o, c);
			continue;
		}
		/* undecodable, or bytes end before the symbol does */
		next = left ? resync_point(f, addr, fn->end) : fn->end;
		if (next <= addr)
			next = addr + 1;
		{
			uint64_t cnt = take_counts(fn, &cur, addr, next);
			size_t nb = next - addr < left ? next - addr : left;

			shown += cnt;
			c = out_counts(&L->o, cnt, fn->samples);
			buf_addf(&L->o.line, "  %*" PRIx64 ":  %-7s", aw, addr,
			    left ? "(bad)" : "(end)");
			if (!left)
				buf_addf(&L->o.line, " no bytes in the file beyond "
				    "this point");
			for (size_t i = 0; i < nb && i < 16; i++)
				buf_addf(&L->o.line, " %02x", p[i]);
			if (nb > 16)
				buf_addf(&L->o.line, " ... (%zu bytes)", nb);
			out_line(&L->o, c);
			p += nb;
			left -= nb;
			addr = next;
		}
	}
	cs_free(in, 1);
	free(owned);
	free(last.inl);
	if (shown != fn->samples) {
		buf_addf(&L->o.line, "   (%" PRIu64 " sample%s outside the "
		    "decoded instructions)", fn->samples - shown,
		    fn->samples - shown == 1 ? " falls" : "s fall");
		out_line(&L->o, NULL);
	}
	out_line(&L->o, NULL);
}

/* One row of the hottest source lines. */
struct hotline {
	const char	*file;		/* borrowed from libdw */
	int		 line;
	char		*inl;		/* owned */
	const char	*func;		/* borrowed from afunc */
	uint64_t	 count;
	const struct afunc *fn;		/* where addr is */
	uint64_t	 addr;		/* one address of the line */
};

static int
hotline_key_cmp(const void *pa, const void *pb)
{
	const struct hotline *a = pa, *b = pb;
	int c;

	if ((c = strcmp(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line - b->line;
	if ((c = strcmp(a->func, b->func)))
		return c;
	return strcmp(a->inl ? a->inl : "", b->inl ? b->inl : "");
}

static int
hotline_count_cmp(const void *pa, const void *pb)
{
	const struct hotline *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return hotline_key_cmp(pa, pb);
}

/* The five hottest source lines over every function with line info. */
static void
list_hot_lines(struct listing *L, const struct afunc *fns, size_t nfns)
{
	struct hotline *h = NULL;
	size_t nh = 0, cap = 0, m = 0;

	for (size_t i = 0; i < nfns; i++)
		for (size_t j = 0; j < fns[i].naddrs; j++) {
			struct srcpos p;

			/* the inlined name waits for the five winners */
			srcpos_get(fns[i].file, fns[i].addrs[j].vaddr, &p, 0);
			if (!p.file)
				continue;
			GROW(h, nh + 1, cap);
			h[nh++] = (struct hotline){ p.file, p.line, NULL,
			    fns[i].name, fns[i].addrs[j].count, &fns[i],
			    fns[i].addrs[j].vaddr };
		}
	BUF_ADDL(&L->o.line, "== hottest source lines ");
	while (L->o.line.len < WIDTH)
		BUF_ADDL(&L->o.line, "=");
	out_line(&L->o, C_HEAD);
	if (nh == 0) {
		BUF_ADDL(&L->o.line, "   (no line information: build with -g)");
		out_line(&L->o, NULL);
		return;
	}
	if (nh > 1)
		qsort(h, nh, sizeof(*h), hotline_key_cmp);
	for (size_t i = 0; i < nh; i++) {
		if (m && hotline_key_cmp(&h[m - 1], &h[i]) == 0) {
			h[m - 1].count += h[i].count;
			free(h[i].inl);
			continue;
		}
		h[m++] = h[i];
	}
	if (m > 1)
		qsort(h, m, sizeof(*h), hotline_count_cmp);
	buf_addf(&L->o.line, "%10s %7s  %s", "samples", "share",
	    "file:line (function)");
	out_line(&L->o, NULL);
	for (size_t i = 0; i < m; i++) {
		if (i < HOT_LINES) {
			struct srcpos p;

			const char *text;
			size_t tlen;

			/* a line is in one function, inlined or not */
			srcpos_get(h[i].fn->file, h[i].addr, &p, 1);
			h[i].inl = p.inl;
			p.file = h[i].file;
			p.line = h[i].line;
			buf_addf(&L->o.line, "%10" PRIu64 " %6.2f%%  ", h[i].count,
			    pct(h[i].count, L->total));
			out_path(&L->o, p.file, p.line);
			buf_addf(&L->o.line, "  (%s", h[i].func);
			if (p.inl)
				buf_addf(&L->o.line, ", inlined %s", p.inl);
			BUF_ADDL(&L->o.line, ")");
			out_line(&L->o, NULL);
			if ((text = srccache_line(&L->sc, p.file, p.line,
			    &tlen))) {
				out_pad(&L->o, COL_ADDR);
				out_text(&L->o, text, tlen);
				out_line(&L->o, C_SRC);
			}
		}
		free(h[i].inl);
	}
	free(h);
}

/*
 * The head of the listing: the ranking of the functions (the first
 * nlisted + 10), the samples of each file that no function holds, and
 * the files' problems.
 */
static void
list_summary(struct listing *L, const struct afunc *fns, size_t nfns,
    size_t nlisted, const struct afile *files, size_t nfiles)
{
	size_t nnotes;

	buf_addf(&L->o.line, "fgsym annotate: %" PRIu64 " sample%s in %zu file%s, "
	    "%zu function%s", L->total, L->total == 1 ? "" : "s", nfiles,
	    nfiles == 1 ? "" : "s", nfns, nfns == 1 ? "" : "s");
	if (nlisted)
		buf_addf(&L->o.line, "; the %zu hottest below", nlisted);
	out_line(&L->o, C_HEAD);
	out_line(&L->o, NULL);
	buf_addf(&L->o.line, "%5s %9s %7s  %s", "rank", "samples", "share",
	    "function (file)");
	out_line(&L->o, NULL);
	for (size_t i = 0; i < nfns && i < nlisted + 10; i++) {
		buf_addf(&L->o.line, "%5zu %9" PRIu64 " %6.2f%%  %s (%s)", i + 1,
		    fns[i].samples, pct(fns[i].samples, L->total),
		    fns[i].name, fns[i].file->base);
		out_line(&L->o, NULL);
	}
	if (nfns > nlisted + 10) {
		uint64_t rest = 0;

		for (size_t i = nlisted + 10; i < nfns; i++)
			rest += fns[i].samples;
		buf_addf(&L->o.line, "%5s %9" PRIu64 " %6.2f%%  (%zu more functions)",
		    "", rest, pct(rest, L->total), nfns - nlisted - 10);
		out_line(&L->o, NULL);
	}
	for (size_t i = 0; i < nfiles; i++) {
		const struct afile *f = &files[i];

		if (!f->unattributed)
			continue;
		buf_addf(&L->o.line, "%5s %9" PRIu64 " %6.2f%%  %s (%s)", "-",
		    f->unattributed, pct(f->unattributed, L->total),
		    f->problem ? "[not annotated]" : "[not in any function]",
		    f->base);
		out_line(&L->o, NULL);
	}
	out_line(&L->o, NULL);
	nnotes = 0;
	for (size_t i = 0; i < nfiles; i++) {
		if (!files[i].problem)
			continue;
		if (nnotes++ == 0) {
			BUF_ADDL(&L->o.line, "notes:");
			out_line(&L->o, NULL);
		}
		buf_addf(&L->o.line, "   %s", files[i].problem);
		out_line(&L->o, NULL);
	}
	if (nnotes)
		out_line(&L->o, NULL);
}

void
listing_init(struct listing *L, FILE *fp, int color, uint64_t total)
{
	memset(L, 0, sizeof(*L));
	L->o.fp = fp;
	L->o.color = color;
	buf_init(&L->o.line);
	srccache_init(&L->sc);
	L->total = total;
}

void
listing_note(struct listing *L, const char *text)
{
	buf_adds(&L->o.line, text);
	out_line(&L->o, NULL);
}

void
listing_write(struct listing *L, const struct afunc *fns, size_t nfns,
    size_t nlisted, const struct afile *files, size_t nfiles)
{
	list_summary(L, fns, nfns, nlisted, files, nfiles);
	for (size_t i = 0; i < nlisted; i++)
		list_function(L, &fns[i], (int)i + 1);
	list_hot_lines(L, fns, nfns);
}

int
listing_release(struct listing *L)
{
	srccache_release(&L->sc);
	buf_release(&L->o.line);
	if (!L->o.err && fflush(L->o.fp) != 0)
		L->o.err = errno ? errno : EIO;
	if (L->o.err) {
		errno = L->o.err;
		return -1;
	}
	return 0;
}
