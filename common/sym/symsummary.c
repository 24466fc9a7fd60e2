/*
 * symsummary: what fgsym says at the end (sym_finish, sym.h): the share
 * of frames resolved, the files that held the rest, the files whose
 * sampled code no DWARF holds, and its exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdwfl.h>

#include "base/share.h"
#include "base/xalloc.h"
#include "elf/elfdwarf.h"
#include "stream/diag.h"
#include "stream/dso.h"
#include "sym/sym.h"
#include "sym/symstate.h"

static int
cmp_unres(const void *a, const void *b)
{
	const struct sfile *x = *(struct sfile *const *)a;
	const struct sfile *y = *(struct sfile *const *)b;

	if (x->unresolved != y->unresolved)
		return x->unresolved > y->unresolved ? -1 : 1;
	return strcmp(x->dso, y->dso);
}

static int
cmp_own(const void *a, const void *b)
{
	const struct sfile *x = *(struct sfile *const *)a;
	const struct sfile *y = *(struct sfile *const *)b;

	if (x->own != y->own)
		return x->own > y->own ? -1 : 1;
	return strcmp(x->dso, y->dso);
}

/*
 * Says, once per file whose code on enough of the samples (with
 * --srcline: on any; elfdwarf_lack_matters) no DWARF unit holds, that its
 * inlined functions are drawn as their callers, and how to get the DWARF:
 * the file has none, or only some of its units (Rust's standard library,
 * one object built with -g) have it. Rust's standard library's own code
 * without DWARF (rustup's prebuilt parts) in a file that has DWARF gets
 * a line of its own, which blames no one. A stripped file, or one whose debug
 * file was refused, was said already, in its own words; with --no-inline
 * and no --srcline nothing is looked for, and nothing is missed.
 */
static void
nodwarf_say(struct sym *s)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++) {
		struct sfile *f = s->files[i];
		char pct[SHARE_SIZE];
		Dwarf_Addr bias;
		unsigned long own, std;
		char *fix;

		if (f->kind != DSO_FILE || f->loaded <= 0 || f->nocu == 0 ||
		    f->nodwarf_warned)
			continue;
		/*
		 * A file with DWARF: the code of Rust's prebuilt standard
		 * library without it is rustup's, not the crate's build;
		 * of the crates std is built from, only when the crate's
		 * own code has DWARF (else they may be its dependencies,
		 * built as it was). One with none: the fix brings the
		 * library's DWARF too.
		 */
		std = f->nodwarf ? 0 : f->nocu_std + (f->nocu_dep > 0 &&
		    elfdwarf_crate_units(f->mod) > 0 ? f->nocu_dep : 0);
		own = f->nocu - std;
		f->nodwarf_warned = 1;
		if (std > 0 && elfdwarf_lack_matters(std, s->samples))
			stream_warnx("'%s': Rust's standard library, prebuilt "
			    "without debug info, is on %s%% of the samples: "
			    "its inlined functions are drawn as their callers "
			    "there; this is how rustup ships it, not your "
			    "build's doing (cargo +nightly -Z build-std would "
			    "build it with your settings)", f->dso,
			    share(pct, std, s->samples));
		if (own == 0 || (!s->o.srcline &&
		    !elfdwarf_lack_matters(own, s->samples)))
			continue;
		fix = sfile_debug_fix(f, dwfl_module_getelf(f->mod, &bias), 0);
		stream_warnx("'%s' has no DWARF debug info%s: its inlined "
		    "functions are drawn as their callers%s, on %s%% of the "
		    "samples; %s", f->dso, f->nodwarf ? "" : " for the sampled "
		    "code (only some of its units have it)", s->o.srcline ?
		    ", with no source lines" : "", share(pct, own,
		    s->samples), fix);
		free(fix);
	}
}

/*
 * Says the stripped files (no .symtab of their own, nor a debug file's),
 * one line each with the fix for those whose code was sampled in at least
 * ELFDWARF_SHARE percent of the samples (their own time, not the stacks
 * that pass through them: a launcher such as python3 is not blamed for
 * the time of libpython), biggest first, and the others in one line.
 */
static void
stripped_say(struct sym *s)
{
	struct sfile **v = xcalloc(s->nfiles + 1, sizeof(*v));
	size_t i, n = 0, rest = 0;

	for (i = 0; i < s->nfiles; i++) {
		struct sfile *f = s->files[i];

		if (f->kind != DSO_FILE || f->loaded <= 0 || !f->stripped)
			continue;
		if (elfdwarf_lack_matters(f->own, s->samples))
			v[n++] = f;
		else
			rest++;
	}
	qsort(v, n, sizeof(*v), cmp_own);
	for (i = 0; i < n; i++) {
		struct sfile *f = v[i];
		char pct[SHARE_SIZE], *fix;
		Dwarf_Addr bias;

		fix = sfile_debug_fix(f, dwfl_module_getelf(f->mod, &bias), 1);
		stream_warnx("'%s' is stripped%s, on %s%% of the samples: %s",
		    f->dso, f->stripped == 2 ? " (no symbols at all)" : "",
		    share(pct, f->own, s->samples), fix);
		free(fix);
	}
	if (rest > 0)
		stream_warnx("%zu %sstripped file%s under %g%% of the samples",
		    rest, n ? "more " : "", rest == 1 ? "" : "s",
		    ELFDWARF_SHARE);
	free(v);
}

int
sym_finish(struct sym *s)
{
	struct sfile **v;
	char pct[SHARE_SIZE];
	size_t i, n = 0;

	progress_clear();
	/*
	 * Exit status 1 means malformed or unreadable input: bad stream
	 * lines, and files that exist but cannot be read or parsed (not a
	 * regular file, not ELF, truncated, corrupt DWARF, bad perf map
	 * lines). Frames that merely stay [unknown] (a missing, stripped or
	 * rebuilt file, another kernel) were said on stderr and are no error.
	 */
	for (i = 0; i < s->nfiles; i++) {
		const struct sfile *f = s->files[i];

		if (((f->kind == DSO_FILE || f->kind == DSO_PERFMAP) &&
		    !f->missing && !f->rebuilt &&
		    (f->opened < 0 || f->loaded < 0)) || f->dwarf_bad)
			s->any_bad = 1;
	}
	if (s->oneline > 0)
		fprintf(stderr, "%s: %lu one-line sample%s (perf record "
		    "without -g) left [unknown]: perf script gives such an "
		    "address as the process saw it, which no file places; "
		    "record with -g, or with fgrecord\n",
		    program_invocation_short_name, s->oneline,
		    s->oneline == 1 ? "" : "s");
	stripped_say(s);
	if (s->frames == 0)
		return s->any_bad;
	nodwarf_say(s);
	if (s->unresolved == 0) {
		fprintf(stderr, "%s: resolved all %lu frames\n",
		    program_invocation_short_name, s->frames);
		return s->any_bad;
	}
	v = xcalloc(s->nfiles + 1, sizeof(*v));
	for (i = 0; i < s->nfiles; i++)
		if (s->files[i]->unresolved > 0)
			v[n++] = s->files[i];
	qsort(v, n, sizeof(*v), cmp_unres);
	fprintf(stderr, "%s: resolved %lu of %lu frames (%s%%); unresolved "
	    "frames are in", program_invocation_short_name,
	    s->frames - s->unresolved, s->frames,
	    share(pct, s->frames - s->unresolved, s->frames));
	for (i = 0; i < n && i < 5; i++) {
		char *q = stream_quoted(v[i]->dso, v[i]->dsolen);

		fprintf(stderr, "%s %s (%lu)", i ? "," : "",
		    v[i]->dsolen ? q : "''", v[i]->unresolved);
		free(q);
	}
	if (n > 5)
		fprintf(stderr, " and %zu more files", n - 5);
	if (s->badlines > 0)
		fprintf(stderr, "%s lines with a bad address (%lu)",
		    n ? "," : "", s->badlines);
	fputc('\n', stderr);
	free(v);
	return s->any_bad;
}
