#include <sys/auxv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/share.h"
#include "elf/dbgfetch.h"
#include "base/xalloc.h"
#include "elf/elfdwarf.h"
#include "elf/filesearch.h"
#include "elf/rustbuild.h"
#include "record/summary.h"
#include "stream/diag.h"

/*
 * Whether the mapped file f has symbols (.symtab) but no DWARF debug
 * info for the code sampled in it: NODWARF_NONE, no DWARF at all (no
 * .debug_info of its own, and no debug file that the one search,
 * elf/debuglink through elfdwarf_dwfl, finds for it); NODWARF_SAMPLED,
 * DWARF that covers none of the sampled addresses kept in f->probe (a
 * Rust release build with debug = false, by a rustc and Cargo that keep
 * the standard library's units; of a Rust file, the addresses in the
 * standard library's code are not asked, elfdwarf_rust_std, and when
 * all are, its units are: elfdwarf_crate_units); else 0. A file without
 * symbols either is stripped, which fgsym says in its own words. It
 * reads f through the descriptor fgrecord opened to unwind, and opens by
 * name only what its user could. Also 0 when it cannot be told (no
 * descriptor, as for [vdso]).
 */
enum { NODWARF_NONE = 1, NODWARF_SAMPLED };

static int
lacks_dwarf(struct mapfile *f, const struct filesearch *fs)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Dwfl_Module *mod;
	Dwarf_Addr bias, b;
	Dwfl *dwfl;
	const struct filesearch *old = f->ef.search;
	unsigned i, hit = 0;
	int r, symtab = 0;

	if (f->elf == NULL)
		return 0;
	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		symtab |= sh.sh_type == SHT_SYMTAB;
	}
	if (!symtab)
		return 0;
	/*
	 * fgsym's search: debuginfod too, when DEBUGINFOD_URLS is set; fs
	 * is this call's, and f's own search comes back after it.
	 */
	f->ef.search = fs;
	dwfl = elfdwarf_dwfl(&f->ef, f->path, NULL, &mod, &bias);
	f->ef.search = old;
	if (dwfl == NULL)
		return 0;
	if (dwfl_module_getdwarf(mod, &b) == NULL) {
		r = NODWARF_NONE;
	} else {
		/*
		 * Of a Rust file, its own code is judged: the standard
		 * library's (and that of the crates it is built from, which
		 * the crate rarely uses alone) has DWARF or not as rustup
		 * built it.
		 */
		int rust = elfdwarf_is_rust(f->elf);
		unsigned own = 0;

		for (i = 0; i < f->nprobe; i++) {
			Dwarf_Addr a = f->probe[i] + bias;
			const char *nm;

			/* nor an address in no function (an interrupted
			   entry's, less one, as a caller's is looked up) */
			if (rust && ((nm = dwfl_module_addrname(mod, a)) ==
			    NULL || elfdwarf_rust_std(nm) != 0))
				continue;
			own++;
			hit += elfdwarf_holds_function(mod, a);
		}
		r = own > 0 && hit == 0 ? NODWARF_SAMPLED : 0;
		/* Every probe std's: the crate has DWARF units, or none. */
		if (rust && own == 0 && f->nprobe > 0 &&
		    elfdwarf_crate_units(mod) == 0)
			r = NODWARF_SAMPLED;
	}
	dwfl_end(dwfl);
	return r;
}

/*
 * Names, in one line, the files whose own code (the sampled code, not a
 * caller of it: a launcher such as python3 is not blamed for libpython's
 * time) was on enough of the samples (elfdwarf_lack_matters) and that
 * have symbols but no DWARF: fgsym will draw their inlined functions as
 * their callers. The fix fits them: Cargo's for Rust, -g for the rest.
 */
static void
nodwarf_line(const struct record *r)
{
	const struct maps *m = &r->maps;
	uint64_t total = r->stats.samples;
	struct filesearch fs = { .fetch = NULL };
	size_t i, n = 0;
	int why, rust = 0, other = 0, asked = 0;
	char *cargo = NULL;

	for (i = 0; i < m->nfiles; i++) {
		struct mapfile *f = m->files[i];

		if (f->kind != MAPFILE_ELF || !f->usable || f->path[0] != '/' ||
		    f->own == 0 || !elfdwarf_lack_matters(f->own, total))
			continue;
		/*
		 * Not when the kernel marked the exec secure (setuid, file
		 * capabilities): the environment that names the servers and
		 * the cache is its caller's, not to be trusted.
		 */
		if (!asked && !getauxval(AT_SECURE))
			fs.fetch = dbgfetch_new(NULL);
		asked = 1;
		if (!(why = lacks_dwarf(f, &fs)))
			continue;
		if (elfdwarf_is_rust(f->elf))
			rust = 1;
		else
			other = 1;
		if (n == 0)
			fprintf(stderr, "%s: no DWARF debug info in",
			    program_invocation_short_name);
		if (n < 5) {
			char *q = stream_quoted(f->path, strlen(f->path));
			char pct[SHARE_SIZE];

			fprintf(stderr, "%s '%s' (%s%% of the samples%s)",
			    n ? "," : "", q, share(pct, f->own, total),
			    why == NODWARF_SAMPLED ? "; only some of its units "
			    "have it, none of the sampled code" : "");
			free(q);
		}
		n++;
	}
	dbgfetch_free(fs.fetch);
	if (n == 0)
		return;
	if (n > 5)
		fprintf(stderr, " and %zu more files", n - 5);
	/*
	 * Rust: the flag that undid the debug info where the environment
	 * shows one (RUSTFLAGS, .cargo/config.toml), else the profile's
	 * setting: the one cargo fg built, or release.
	 */
	if (rust) {
		struct rustbuild rb;

		rustbuild_init(&rb, 0);
		if (rb.cause != NULL)
			cargo = xasprintf("Cargo: %s; build without it",
			    rb.cause);
		else if (rb.cargo_fg)
			cargo = xasprintf("Cargo: cargo fg set %s debug = "
			    "true, and something else in the build removed "
			    "it", rb.section);
		else
			cargo = xasprintf("Cargo: %s debug = true, or %s=true",
			    rb.section, rb.envvar);
		rustbuild_release(&rb);
	}
	fprintf(stderr, ": fgsym will draw %s inlined functions as their "
	    "callers; build with debug info (%s%s%s), or install a Debian "
	    "file's -dbgsym package\n", n == 1 ? "its" : "their",
	    cargo ? cargo : "", rust && other ? "; " : "",
	    other ? "C and C++: -g" : "");
	free(cargo);
}

/*
 * Says how far the output lagged when it did (a second or more behind,
 * or the spool's file used, or the spool full): a reader slow to start
 * costs no samples, but the user should know where the time went.
 */
static void
spool_line(const struct record *r)
{
	const struct spool_stats *st;

	if (r->opts.spool == NULL)
		return;
	st = &r->opts.spool->stats;
	if (st->max_lag_ns < 1000000000U && st->spilled == 0 &&
	    st->waits == 0 && st->dropped == 0)
		return;
	fprintf(stderr, "%s: '%s' was read slowly: the stream was at worst "
	    "%.1f s and %.1f MiB behind the recording, held %s",
	    program_invocation_short_name, r->opts.outname,
	    st->max_lag_ns / 1e9, st->max_held / 1048576.0, st->spilled ?
	    "in memory and in a temporary file" : "in memory");
	if (st->spilled)
		fprintf(stderr, " (%.1f MiB through the file)",
		    st->spilled / 1048576.0);
	if (st->dropped && st->drop_errno == ECANCELED)
		fprintf(stderr, "; a signal ended the wait for it, and the "
		    "last %.1f MiB were not written\n", st->dropped / 1048576.0);
	else if (st->dropped && st->drop_errno == EPIPE)
		fprintf(stderr, "; its reader went away without the last "
		    "%.1f MiB, which were never delivered\n",
		    st->dropped / 1048576.0);
	else if (st->dropped)
		fprintf(stderr, "; writing it failed (%s), and the last %.1f MiB "
		    "were never delivered\n", strerror(st->drop_errno),
		    st->dropped / 1048576.0);
	else if (st->waits)
		fprintf(stderr, "; the spool was full %" PRIu64 " time%s and the "
		    "recording waited %.2f s for the reader: samples may have "
		    "been lost then; write to a file with -o\n", st->waits,
		    st->waits == 1 ? "" : "s", st->wait_ns / 1e9);
	else
		fprintf(stderr, ": no sample was lost for it\n");
}

/*
 * The main reason the truncated stacks give, for the summary's first
 * line (the caller frees it): the unwinder's, or with frame pointers
 * the code without them where most chains stopped (*nofp_file, borrowed,
 * set then), or a chain that ended early.
 */
static char *
end_why(const struct record *r, int best, const char **nofp_file)
{
	const struct record_stats *s = &r->stats;
	char *q, *why;

	*nofp_file = NULL;
	if (!s->truncated)
		return xstrdup("");
	if (!r->opts.cfg.dwarf && s->fp_nofp >= s->end_reason[best] &&
	    (*nofp_file = fpchain_top_nofp(&r->fpchain)) != NULL) {
		q = stream_quoted(*nofp_file, strlen(*nofp_file));
		why = xasprintf("code built without frame pointers, in '%s'",
		    q);
		free(q);
		return why;
	}
	if (r->opts.cfg.dwarf || best == UNWIND_DEPTH || best == UNWIND_NOMAP)
		return xstrdup(unwind_end_str(best));
	return xstrdup("frame-pointer chain ended early");
}

/*
 * What frame pointers lost, said with the fix: stacks cut short (trunc
 * percent of the samples; nofp_file, when most stopped in code built
 * without them), or the callers of code that keeps no frame skipped,
 * each from 5% of the samples. The same words for fgsym on a perf.data,
 * with perf record's option.
 */
static void
fp_lines(const struct record *r, double trunc, const char *nofp_file)
{
	const struct record_stats *s = &r->stats;
	const char *rec = r->src.info != NULL ? "perf record " : "";
	char pct[SHARE_SIZE], *q = NULL;

	if (trunc > 5) {
		if (nofp_file != NULL)
			q = stream_quoted(nofp_file, strlen(nofp_file));
		fprintf(stderr, "%s: for whole stacks, record with %s"
		    "--call-graph dwarf, or build %s%s%swith frame pointers "
		    "(Rust: RUSTFLAGS='-C force-frame-pointers=yes'; C and "
		    "C++: -fno-omit-frame-pointer)\n",
		    program_invocation_short_name, rec, q ? "'" : "",
		    q ? q : "", q ? "' " : "");
		free(q);
	}
	if (s->samples && s->fp_skipped * 20 >= s->samples)
		fprintf(stderr, "%s: %s%% of the samples were taken where the "
		    "function keeps no frame pointer (a leaf function, or its "
		    "first or last instructions): the frame-pointer chain "
		    "skips that function's caller; %s--call-graph dwarf shows "
		    "it\n", program_invocation_short_name,
		    share(pct, s->fp_skipped, s->samples), rec);
}

/*
 * When more than 5% of the samples stayed truncated where the stack copy
 * ran out, says why they were not completed (stitch.h, livestack.h) and
 * the fix that works for the program: a larger copy, the ptrace sampler
 * (which walks a stopped thread) when the frames moved before the
 * samples were read, frame pointers.
 */
static void
deep_line(const struct record *r, int best, double trunc)
{
	const struct record_stats *s = &r->stats;
	const char *me = program_invocation_short_name;
	char pct[SHARE_SIZE], stale[SHARE_SIZE];
	const char *fp = "build with frame pointers and record with "
	    "--call-graph fp (Rust: RUSTFLAGS='-C force-frame-pointers=yes'; "
	    "C and C++: -fno-omit-frame-pointer)";

	if (!s->truncated || !r->opts.cfg.dwarf || best != UNWIND_NOSTACK ||
	    trunc <= 5)
		return;
	share(pct, s->end_reason[UNWIND_NOSTACK], s->samples);
	if (r->opts.cfg.stack_size < RECORD_STACK_MAX) {
		fprintf(stderr, "%s: %s%% of the stacks stopped where the stack "
		    "copy ran out: try --call-graph dwarf,%d\n", me, pct,
		    RECORD_STACK_MAX);
		return;
	}
	if (r->opts.no_stitch) {
		fprintf(stderr, "%s: %s%% of the stacks stopped where the stack "
		    "copy ran out: without --no-stitch they are completed\n",
		    me, pct);
		return;
	}
	if (r->src.info != NULL) {
		fprintf(stderr, "%s: %s%% of the stacks were deeper than %d "
		    "bytes, the largest stack copy the kernel takes, and a "
		    "recording keeps no live stack to read on: record with "
		    "fgrecord, or %s\n", me, pct, RECORD_STACK_MAX, fp);
		return;
	}
	fprintf(stderr, "%s: %s%% of the stacks were deeper than %d bytes, the "
	    "largest stack copy the kernel takes, and were not completed",
	    me, pct, RECORD_STACK_MAX);
	if (s->live_denied > s->live_stale) {
		fprintf(stderr, ": reading the live stack was refused (%s: it "
		    "needs the permission ptrace needs, which root has); run "
		    "fgrecord as root, or %s\n", strerror(s->live_errno), fp);
	} else if (s->live_stale > 0 && strcmp(r->src.ops->name, "ptrace")) {
		fprintf(stderr, ": on %s%% of the samples the frame where the "
		    "copy ended had changed before the sample was read; "
		    "--sampler ptrace walks it while the thread is stopped, "
		    "or %s\n",
		    share(stale, s->live_stale, s->samples), fp);
	} else {
		fprintf(stderr, "; %s\n", fp);
	}
}

void
record_summary(const struct record *r)
{
	const struct record_stats *s = &r->stats;
	double rate = s->seconds > 0 ? s->samples / s->seconds : 0;
	double trunc = s->samples ? 100.0 * s->truncated / s->samples : 0;
	char stitched[320] = "", tpct[SHARE_SIZE], dpct[SHARE_SIZE];
	char *why;
	const char *nofp_file = NULL;
	int i, best = 1;

	if (r->opts.cfg.quiet)
		return;
	for (i = 1; i < UNWIND_NEND; i++)
		if (s->end_reason[i] > s->end_reason[best])
			best = i;
	if (s->stopped)
		snprintf(stitched, sizeof(stitched), ", %" PRIu64 " stack%s "
		    "read beyond the copy while the thread was stopped",
		    s->stopped, s->stopped == 1 ? "" : "s");
	if (s->stitched)
		snprintf(stitched + strlen(stitched), sizeof(stitched) -
		    strlen(stitched), ", %" PRIu64 " stack%s "
		    "completed from an earlier sample of the same thread",
		    s->stitched, s->stitched == 1 ? "" : "s");
	if (s->live)
		snprintf(stitched + strlen(stitched), sizeof(stitched) -
		    strlen(stitched), ", %" PRIu64 " %sfrom the thread's live "
		    "stack", s->live, s->stitched ? "" : s->live == 1 ?
		    "stack completed " : "stacks completed ");
	if (s->fp_completed)
		snprintf(stitched + strlen(stitched), sizeof(stitched) -
		    strlen(stitched), ", %" PRIu64 " %sfrom frame pointers",
		    s->fp_completed, s->stitched || s->live ? "" :
		    s->fp_completed == 1 ? "stack completed " :
		    "stacks completed ");
	why = end_why(r, best, &nofp_file);
	if (r->src.info != NULL) {
		/* a perf.data replayed: its time, not ours */
		fprintf(stderr, "%s: %" PRIu64 " sample%s over %.2f s, %" PRIu64
		    " lost, %s%% truncated%s%s%s%s\n",
		    program_invocation_short_name, s->samples,
		    s->samples == 1 ? "" : "s", s->seconds,
		    s->lost, share(tpct, s->truncated, s->samples),
		    s->truncated ? " (mostly: " : "", why,
		    s->truncated ? ")" : "", stitched);
	} else if (r->src.ops->alloc) {
		/* bytes and allocations, in the source's words, then stacks */
		r->src.ops->summary(&r->src, s->throttled);
		fprintf(stderr, "%s: recorded in %.2f s, %s%% of the stacks "
		    "truncated%s%s%s%s, own CPU %.2f s\n",
		    program_invocation_short_name, s->seconds,
		    share(tpct, s->truncated, s->samples),
		    s->truncated ? " (mostly: " : "", why,
		    s->truncated ? ")" : "", stitched, s->cpu_seconds);
	} else
		fprintf(stderr, "%s: %" PRIu64 " sample%s in %.2f s (%.0f/s), "
		    "%" PRIu64 " lost, %s%% truncated%s%s%s%s, own CPU "
		    "%.2f s\n", program_invocation_short_name, s->samples,
		    s->samples == 1 ? "" : "s", s->seconds, rate, s->lost, share(tpct, s->truncated,
		    s->samples),
		    s->truncated ? " (mostly: " : "", why,
		    s->truncated ? ")" : "", stitched, s->cpu_seconds);
	free(why);
	spool_line(r);
	if (r->opts.cfg.mode == RECORD_OFFCPU || r->opts.cfg.mode == RECORD_WALL)
		fprintf(stderr, "fgrecord: %" PRIu64 " waits off the CPU, %.3f s "
		    "in all; %" PRIu64 " preemptions %s\n", s->waits,
		    s->wait_ns / 1e9, r->src.preempted,
		    r->opts.cfg.mode == RECORD_OFFCPU ? "left out (the thread "
		    "could run)" : "counted as off-CPU");
	if (r->opts.cfg.mode != RECORD_CPU && s->lost)
		fprintf(stderr, "fgrecord: the kernel lost %" PRIu64 " records "
		    "of switches: their waits are missing (and %" PRIu64 " more "
		    "that might have been paired wrongly); fewer bytes per switch "
		    "lose fewer: --call-graph dwarf,4096 or fp\n", s->lost,
		    r->src.waits_dropped);
	if (s->procs_denied)
		fprintf(stderr, "%s: the maps of %" PRIu64 " of %" PRIu64
		    " processes (%s%%) could not be read (other users' "
		    "processes): their stacks stop at the first frame, 'pc in "
		    "no known mapping'; run as root to read them\n",
		    program_invocation_short_name, s->procs_denied, s->procs,
		    share(dpct, s->procs_denied, s->procs));
	if (r->src.ops->summary && !r->src.ops->alloc)
		r->src.ops->summary(&r->src, s->throttled);
	if (!r->opts.cfg.dwarf)
		fp_lines(r, trunc, nofp_file);
	deep_line(r, best, trunc);
	if (r->src.info == NULL)	/* a perf.data replayed: fgsym says it */
		nodwarf_line(r);
}
