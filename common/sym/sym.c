/*
 * sym: symbolize a sample stream in process with libelf and libdwfl (see
 * sym.h): the stream read line by line, each frame that needs a name
 * looked up (resolve.c) in its file (symfile.c) and written with it; the
 * symbolizer's life. What the files share is in symstate.h.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>

#include "base/hashtab.h"
#include "base/version.h"
#include "base/xalloc.h"
#include "elf/dbgfetch.h"
#include "elf/elfdwarf.h"
#include "stream/diag.h"
#include "stream/dso.h"
#include "stream/reader.h"
#include "stream/sample.h"
#include "stream/stream.h"
#include "stream/writer.h"
#include "sym/sym.h"
#include "sym/symstate.h"

/* The lowest kernel address on x86-64 (and arm64): the upper half. */
#define KERNEL_START	0xffff800000000000ULL

/* dbgfetch's failure, said as fgsym's warnings are. */
static void
fetch_say(void *arg, const char *line)
{
	(void)arg;
	sym_warnx("%s", line);
}

/* dbgfetch's download, on the progress line. */
static void
fetch_progress(void *arg, const char *what, long done, long total)
{
	(void)arg;
	if (what == NULL)
		progress_clear();
	else if (total > 0)
		progress_show("fgsym: debuginfod: '%s': %.1f of %.1f MB", what,
		    done / 1e6, total / 1e6);
	else
		progress_show("fgsym: debuginfod: '%s': %.1f MB", what,
		    done / 1e6);
}

struct sym *
sym_new(const struct sym_opts *opts)
{
	struct sym *s = xcalloc(1, sizeof(*s));

	s->o = *opts;
	s->search.symfs = opts->symfs;
	s->search.dirs = opts->symdirs;
	s->search.ndirs = opts->nsymdirs;
	if (!opts->no_debuginfod) {
		struct dbgfetch_opts fo = { .say = fetch_say,
		    .progress = opts->progress ? fetch_progress : NULL };

		s->search.fetch = dbgfetch_new(&fo);
	}
	hashtab_init(&s->fileidx, 32);
	hashtab_init(&s->inoidx, 32);
	s->cmask = 2047;
	s->cache = xcalloc(s->cmask + 1, sizeof(*s->cache));
	s->front = xcalloc((size_t)1 << SYM_FRONT_BITS, sizeof(*s->front));
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	elf_version(EV_CURRENT);
	return s;
}

static void
sres_free(struct sres *r)
{
	uint32_t i;

	if (r == NULL || r == &sym_unresolved)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->e[i].text);
		free(r->e[i].src);
	}
	free(r);
}

static void
sfile_free(struct sfile *f)
{
	if (f->dwfl != NULL)
		dwfl_end(f->dwfl);
	cuindex_release(&f->cus);
	elfsym_release(&f->syms);
	perfmap_free(f->pm);
	dwname_release(&f->dwn);
	elffile_release(&f->ef);
	free(f->buildid);
	free(f->recorded);
	free(f->inside);
	free(f->dso);
	free(f);
}

void
sym_free(struct sym *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i <= s->cmask; i++)
		sres_free(s->cache[i].res);
	for (i = 0; i < s->nfiles; i++)
		sfile_free(s->files[i]);
	kallsyms_free(s->ks);
	dbgfetch_free(s->search.fetch);
	free(s->cache);
	free(s->front);
	hashtab_release(&s->fileidx);
	hashtab_release(&s->inoidx);
	free(s->files);
	free(s);
}

/* ---- the stream ---- */

static void
buildid_header(struct sym *s, const struct stream_header_read *h)
{
	uint32_t fn;
	struct sfile *f;

	if (h->key == STREAM_HDR_INSIDE && h->ok) {
		fn = file_get(s, h->u.inside.path.p, h->u.inside.path.len);
		f = s->files[fn];
		if (f->opened == 0 && f->inside == NULL)
			f->inside = xmemdup0(h->u.inside.inside.p,
			    h->u.inside.inside.len);
		return;
	}
	/* "ID PATH": PATH may hold spaces. */
	if (h->key != STREAM_HDR_BUILDID || !h->ok)
		return;
	fn = file_get(s, h->u.buildid.path.p, h->u.buildid.path.len);
	f = s->files[fn];
	if (f->opened != 0)
		return;		/* already checked against an earlier header */
	free(f->recorded);
	f->recorded = xmemdup0(h->u.buildid.id.p, h->u.buildid.id.len);
}

void
sym_progress(struct sym *s)
{
	struct timespec now;
	double el, since;

	clock_gettime(CLOCK_MONOTONIC, &now);
	el = (now.tv_sec - s->t0.tv_sec) + (now.tv_nsec - s->t0.tv_nsec) / 1e9;
	since = (now.tv_sec - s->tlast.tv_sec) +
	    (now.tv_nsec - s->tlast.tv_nsec) / 1e9;
	if (el < 1.0 || (s->progress_shown && since < 0.2))
		return;
	s->tlast = now;
	s->progress_shown = 1;
	progress_show("%s: %lu samples, %lu files loaded",
	    program_invocation_short_name, s->samples, s->loaded);
}

static int
emit(FILE *out, const char *p, size_t n)
{
	return fwrite_unlocked(p, 1, n, out) == n ? 0 : -1;
}

/* Writes line[0..len) and a newline. Errors show in ferror(out). */
static void
emit_line(FILE *out, const char *line, size_t len)
{
	emit(out, line, len);
	putc_unlocked('\n', out);
}

/*
 * Writes a frame as it came: its line, or, for a frame handed over as a
 * struct (line NULL; fr's sym and dso NUL-terminated), the line the
 * stream writer makes of it; or hands it on as it came.
 */
static void
pass_frame(const struct symout *out, const char *line, size_t len,
    const struct stream_frame *fr)
{
	if (out->to != NULL)
		out->to->frame(out->arg, fr, NULL);
	else if (line != NULL)
		emit_line(out->fp, line, len);
	else
		stream_write_frame(out->fp, fr->addrval, fr->sym.p, fr->dso.p);
}

/*
 * Hands on the entries of a resolved frame as frames of their own, the
 * inlined ones with STREAM_INLINED for their DSO, each followed by its
 * source line when asked for.
 */
static void
pass_named(struct sym *s, const struct symout *out,
    const struct stream_frame *fr, const struct sres *r)
{
	struct stream_frame e = *fr;
	uint32_t i;

	for (i = 0; i < r->n; i++) {
		e.sym.p = r->e[i].text;
		e.sym.len = r->e[i].textlen;
		if (i + 1 < r->n) {
			e.dso.p = STREAM_INLINED;
			e.dso.len = sizeof(STREAM_INLINED) - 1;
		} else
			e.dso = fr->dso;
		out->to->frame(out->arg, &e, &r->e[i]);
		if (s->o.srcline && r->e[i].src != NULL)
			out->to->srcline(out->arg, r->e[i].src);
	}
}

/* Appends p[0..n) to b at *at. */
static void
put(char *b, size_t *at, const char *p, size_t n)
{
	memcpy(b + *at, p, n);
	*at += n;
}

/*
 * Writes the lines of a resolved frame: the functions inlined at it, then
 * its own, each with its source line when asked for. The indent and the
 * address are written as they came (perf script pads addresses). Each
 * line is put together before one fwrite: stdio's per-call cost, six
 * calls a line, was a tenth of a replay.
 */
static void
emit_frame(struct sym *s, const struct symout *o, const struct stream_frame *fr,
    const struct sres *r)
{
	FILE *out = o->fp;
	static const size_t inl = sizeof(STREAM_INLINED) - 1;
	char b[512];
	uint32_t i;

	if (o->to != NULL) {
		pass_named(s, o, fr, r);
		return;
	}
	for (i = 0; i < r->n; i++) {
		const struct sent *e = &r->e[i];
		const char *dso = i + 1 < r->n ? STREAM_INLINED : fr->dso.p;
		size_t dl = i + 1 < r->n ? inl : fr->dso.len, n = 0;

		if (fr->indent.len + fr->addr.len + e->textlen + dl + 5 <=
		    sizeof(b)) {
			put(b, &n, fr->indent.p, fr->indent.len);
			put(b, &n, fr->addr.p, fr->addr.len);
			b[n++] = ' ';
			put(b, &n, e->text, e->textlen);
			put(b, &n, " (", 2);
			put(b, &n, dso, dl);
			put(b, &n, ")\n", 2);
			emit(out, b, n);
		} else {
			emit(out, fr->indent.p, fr->indent.len);
			emit(out, fr->addr.p, fr->addr.len);
			putc_unlocked(' ', out);
			emit(out, e->text, e->textlen);
			emit(out, " (", 2);
			emit(out, dso, dl);
			emit(out, ")\n", 2);
		}
		if (s->o.srcline && e->src != NULL)
			stream_write_srcline(out, e->src);
	}
}

void
sym_frame(struct sym *s, struct sstate *st, struct lineread *in,
    const char *line, size_t len, struct stream_frame *fr,
    const struct symout *out)
{
	int is_kernel, ret, unknown, conv, own = 0;
	uint32_t fn;
	struct sfile *f;
	uint64_t vaddr;
	struct sres *r;

	st->drop_src = 0;
	if (stream_str_eq(fr->dso, STREAM_INLINED)) {
		if (out != NULL)
			pass_frame(out, line, len, fr);
		return;
	}
	/* perf's end-of-stack marker, "ffffffffffffffff [unknown]
	   ([unknown])": no frame, not counted, passed on */
	if (fr->addr_ok && fr->addrval == UINT64_MAX &&
	    stream_str_eq(fr->dso, STREAM_UNKNOWN)) {
		if (out != NULL)
			pass_frame(out, line, len, fr);
		return;
	}
	is_kernel = fr->addrval >= KERNEL_START;
	ret = st->fi > 0 && is_kernel == st->prev_kernel;
	st->prev_kernel = is_kernel;
	unknown = stream_str_eq(fr->sym, STREAM_UNKNOWN);
	if (!fr->addr_ok) {
		if (unknown) {
			s->frames++;
			s->unresolved++;
		}
		if (s->badlines++ < 10)
			sym_warnx("%s:%lu: frame address '%.*s' is not a 64-bit hex "
			    "number: passed through unresolved", in->name,
			    in->lineno, fr->addr.len > 40 ? 40 :
			    (int)fr->addr.len, fr->addr.p);
		s->any_bad = 1;
		if (out != NULL)
			pass_frame(out, line, len, fr);
		st->fi++;
		return;
	}
	if (!unknown && !(st->fi == 0 && s->o.leaf != NULL)) {
		if (out != NULL)
			pass_frame(out, line, len, fr);
		st->fi++;
		return;
	}

	fn = st->fn_given > 0 ? st->fn_given - 1 :
	    file_get(s, fr->dso.p, fr->dso.len);
	f = s->files[fn];
	/* [unknown] code of a process with a perf map: JIT code. */
	if (f->kind == DSO_NONE && st->pid[0] != '\0' &&
	    stream_str_eq(fr->dso, STREAM_UNKNOWN) && !is_kernel) {
		if (strcmp(st->pid, st->map_pid) != 0) {
			char path[64];

			/* One access(2) per process, not per frame. */
			snprintf(st->map_pid, sizeof(st->map_pid), "%s", st->pid);
			snprintf(path, sizeof(path), "/tmp/perf-%s.map", st->pid);
			st->map_fn = access(path, R_OK) == 0 ?
			    (int)file_get(s, path, strlen(path)) : -1;
		}
		if (st->map_fn >= 0) {
			fn = st->map_fn;
			f = s->files[fn];
		}
	}
	/*
	 * A module perf names by its path, "/lib/modules/.../ext4.ko", and a
	 * kernel address perf could not place.
	 */
	if (is_kernel && ((f->kind == DSO_FILE && dso_is_module_path(f->dso)) ||
	    stream_str_eq(fr->dso, STREAM_UNKNOWN))) {
		fn = file_get(s, STREAM_KERNEL, strlen(STREAM_KERNEL));
		f = s->files[fn];
	}
	vaddr = fr->addrval;
	conv = 1;
	if (f->kind == DSO_KERNEL_MAP)
		sym_kernel_check(s);
	if (f->kind == DSO_FILE || f->kind == DSO_VDSO) {
		if (f->opened == 0 && f->kind == DSO_FILE)
			sfile_open(s, fn);
		else if (f->opened == 0)
			sfile_vdso_open(s, f);
		/* another name of a file opened before: that one's tables */
		if (f->same > 0) {
			fn = f->same - 1;
			f = s->files[fn];
		}
		if (f->opened > 0 && !st->fgrecord &&
		    sfile_perf_addr(f, fr->addrval, &vaddr) != 0)
			conv = 0;
	}
	/* The sample's own time: its innermost frame out of the kernel. */
	if (!is_kernel && st->own_at != s->samples) {
		st->own_at = s->samples;
		f->own++;
		own = 1;
	}
	/* A rebuilt file's bytes are not the recorded ones: no annotation. */
	if (st->fi == 0 && s->o.leaf != NULL && conv && !f->rebuilt) {
		if (f->kind == DSO_FILE)
			s->o.leaf(s->o.leaf_arg, f->dso, vaddr);
		else if (f->kind == DSO_KERNEL_MAP && !s->kernel_other)
			s->o.leaf(s->o.leaf_arg, STREAM_KERNEL, vaddr);
	}
	st->fi++;
	if (out == NULL)
		return;
	if (!unknown) {
		pass_frame(out, line, len, fr);
		return;
	}
	s->frames++;
	f->frames++;
	if (((f->kind == DSO_FILE || f->kind == DSO_VDSO) && f->opened < 0) ||
	    !conv || (f->kind == DSO_KERNEL_MAP && s->kernel_other))
		r = &sym_unresolved;
	else
		r = sym_lookup(s, fn, vaddr, ret);
	if (r->n == 0) {
		s->unresolved++;
		f->unresolved++;
		pass_frame(out, line, len, fr);
		return;
	}
	/* The sampled code: is it where DWARF is missing? */
	if (own) {
		f->nocu += r->nocu;
		f->nocu_std += r->nocu && r->rstd == ELFDWARF_STD;
		f->nocu_dep += r->nocu && r->rstd == ELFDWARF_STD_DEP;
	}
	emit_frame(s, out, fr, r);
	st->drop_src = s->o.srcline;
}

/*
 * Writes fg-stream(5)'s "# symbolized : fgsym VERSION" once, before the
 * first sample of fgrecord's stream or of perf data: fgfold then knows
 * that names still missing are the files' doing, not a pipeline without
 * fgsym. One a run, over all its inputs; the one an input holds already
 * is not passed on (sym_stream), so that fgsym twice is fgsym once. perf
 * script's text, which perf named already, passes byte for byte.
 */
void
sym_mark(struct sym *s, FILE *out)
{
	if (s->marked || out == NULL)
		return;
	s->marked = 1;
	stream_write_header(out, STREAM_KEY_SYMBOLIZED, "fgsym " FG_VERSION);
}

/* The reader's hook: its messages go on lines of their own. */
static void
progress_off(void *arg)
{
	(void)arg;
	progress_clear();
}

int
sym_stream(struct sym *s, struct lineread *in, FILE *out)
{
	struct sstate st = { 0 };
	struct stream_reader_opts ro = { 1, progress_off, NULL };
	struct stream_reader r;
	struct stream_diag diag;
	struct stream_item it;
	struct symout o = { out, NULL, NULL };

	/* Every line is passed on (fgsym | fgsym is fgsym); bad ones are
	   said, in the words fgfold and fgpprof use. */
	stream_diag_init(&diag, in->name);
	stream_reader_init(&r, in, &diag, &ro);
	while (stream_reader_next(&r, &it) != STREAM_ITEM_EOF) {
		switch (it.kind) {
		case STREAM_ITEM_FRAME:
			sym_frame(s, &st, in, it.line, it.len, &it.frame,
			    out != NULL ? &o : NULL);
			continue;
		case STREAM_ITEM_SRCLINE:
			if (st.drop_src)
				continue;
			break;
		case STREAM_ITEM_HEAD: {
			struct stream_str p = it.head.pid.len ? it.head.pid :
			    it.head.tid;

			st.fi = 0;
			st.drop_src = 0;
			if (p.len < sizeof(st.pid)) {
				memcpy(st.pid, p.p, p.len);
				st.pid[p.len] = '\0';
			} else
				st.pid[0] = '\0';
			if ((++s->samples & 255) == 0 && s->o.progress)
				sym_progress(s);
			/* Its address is a run-time one: see sym_finish. */
			if (it.head.has_frame &&
			    stream_str_eq(it.head.frame.sym, STREAM_UNKNOWN))
				s->oneline++;
			if (st.fgrecord)
				sym_mark(s, out);
			break;
		}
		case STREAM_ITEM_BAD:
			s->any_bad = 1;
			st.drop_src = 0;
			break;
		case STREAM_ITEM_MAGIC:
			/* "# fgrecord" among the comments before the first
			   sample: ELF addresses */
			st.fgrecord = r.fgrecord;
			st.drop_src = 0;
			break;
		case STREAM_ITEM_HEADER:
			/* An earlier fgsym's mark: this one writes its own. */
			if (it.hdr.key == STREAM_HDR_SYMBOLIZED)
				continue;
			buildid_header(s, &it.hdr);
			/* FALLTHROUGH */
		default:
			if (it.kind == STREAM_ITEM_BLANK)
				st.fi = 0;
			st.drop_src = 0;
			break;
		}
		if (out != NULL) {
			emit(out, it.line, it.len);
			if (!in->partial)
				putc_unlocked('\n', out);
		}
	}
	if (in->error != 0)
		return -2;
	if (stream_reader_finish(&r))
		s->any_bad = 1;
	if (out != NULL && (fflush(out) != 0 || ferror(out)))
		return -1;
	return 0;
}
