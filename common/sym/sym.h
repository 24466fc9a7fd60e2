/*
 * sym: symbolize a sample stream (fg-stream(5)) in process.
 *
 *	struct sym_opts o = SYM_OPTS_DEFAULT;
 *	struct sym *s = sym_new(&o);
 *	sym_stream(s, &lineread, stdout);	(once per input)
 *	rval = sym_finish(s);			(summary on stderr, 0 or 1)
 *	sym_free(s);
 *
 * Every frame line whose SYMBOL is "[unknown]" is looked up and rewritten
 * as "name+0xOFF"; every other line passes through byte for byte. Sources,
 * in this order:
 *   [kernel.kallsyms] and [module]	/proc/kallsyms (or opts.kallsyms);
 *	also kernel addresses in [unknown]	and in a module's .ko path
 *   /tmp/perf-PID.map, and [unknown]	the JIT's perf map of PID
 *	frames of a process that has one
 *   [vdso]				this process's vDSO
 *   any other path			the ELF file (under opts.symfs first,
 *					then as named, then by build ID or
 *					base name in opts.symdirs, perf's
 *					build-ID cache, debuginfod): .symtab
 *					(its own or its separate debug
 *					file's, found through .gnu_debuglink,
 *					/usr/lib/debug/.build-id, the same
 *					places, or debuginfod), else .dynsym,
 *					and
 *					"sym@plt" for PLT stubs; DWARF for
 *					inlined frames, source lines and
 *					functions missing from the symtab
 *
 * Files are opened on the first frame that needs them, their DWARF on the
 * first lookup; every (file, address) is resolved once and cached.
 *
 * Addresses: a stream whose first line is "# fgrecord" holds ELF virtual
 * addresses; any other stream is read as `perf script` output, where the
 * address of a frame in a file is a file offset (for ET_EXEC files older
 * perf printed the vaddr; both are understood) and is converted through
 * the file's PT_LOAD program headers. Every frame
 * but a sample's first (and but the first after a switch between kernel and
 * user space) is a return address and is looked up at pc-1.
 *
 * Diagnostics go to stderr through warnx(3), once per file: missing file,
 * rebuilt file (a "# buildid" header that no longer matches), no symbol
 * table, unoptimized build; and at the end no DWARF, for a file on
 * enough of the samples (elfdwarf_lack_matters; any, with srcline).
 */
#ifndef FG_SYM_H
#define FG_SYM_H

#include <stdint.h>
#include <stdio.h>

#include "base/lineread.h"

struct sym_opts {
	int	 inlines;	/* nonzero: write "(inlined)" frame lines */
	int	 srcline;	/* nonzero: write "  FILE:LINE" after each frame */
	int	 full_path;	/* srcline: the full path, not the base name */
	int	 demangle;	/* nonzero: demangle C++ and Rust names */
	int	 full_names;	/* nonzero: C++ names with return type and
				   parameters (FG_DEMANGLE_FULL) */
	int	 keep_hash;	/* nonzero: keep Rust's ::h<hash> suffix */
	int	 progress;	/* nonzero: a progress line on stderr (a tty) */
	const char *kallsyms;	/* borrowed; NULL means "/proc/kallsyms" */
	/*
	 * Where files are looked for besides their recorded paths
	 * (elf/filesearch): symfs, the root every recorded path is looked
	 * for under first (NULL: none); symdirs, nsymdirs folders of files
	 * by build ID or base name. All borrowed.
	 */
	const char *symfs;
	const char *const *symdirs;
	size_t	 nsymdirs;
	/*
	 * Nonzero: ask no debuginfod server, even with DEBUGINFOD_URLS set.
	 * Otherwise, with it set, the debug file of a stripped or DWARF-less
	 * file and a missing file are asked for by build ID (elf/dbgfetch).
	 */
	int	 no_debuginfod;
	/*
	 * When leaf is not NULL it is called with the leaf frame of every
	 * sample that lies in an ELF file or in the kernel: the DSO as
	 * printed, or "[kernel.kallsyms]" for the kernel and its modules
	 * (NUL-terminated, borrowed for the call), and the address in the
	 * file's own vaddr space (converted from a perf file offset when
	 * needed; absolute for the kernel). Leaves in [unknown], JIT code
	 * and the like are not passed, nor leaves in a file rebuilt since
	 * the recording or at an offset outside the file's segments.
	 */
	void	(*leaf)(void *arg, const char *dso, uint64_t vaddr);
	void	*leaf_arg;
};

#define SYM_OPTS_DEFAULT { .inlines = 1, .demangle = 1 }

struct sym;

/*
 * Returns a new symbolizer configured by *opts, never NULL; the caller
 * frees it with sym_free(). struct sym is opaque (its fields are sym/'s,
 * in symstate.h), so sym makes it (HACKING.md, "Lifecycle"). *opts is
 * copied; the strings and leaf_arg it points to are borrowed until
 * sym_free().
 */
struct sym *sym_new(const struct sym_opts *opts);

/*
 * Reads the stream from in to its end and writes it, symbolized, to out.
 * When out is NULL nothing is resolved or written: the stream is only
 * parsed and opts.leaf is called (what fgsym --annotate needs). Each call
 * is one stream: whether it starts with "# fgrecord" is decided anew.
 * Returns 0, -1 when writing to out failed (errno set), or -2 when reading
 * in failed (in->error holds the errno). Bad lines are warned about with
 * in->name and the line number, passed through, and make sym_finish()
 * return 1.
 */
int	sym_stream(struct sym *s, struct lineread *in, FILE *out);

/*
 * Ends the run: clears the progress line and, when any frame needed
 * resolving, prints one summary line on stderr (the share of frames
 * resolved, the files that held the rest). Returns 1 when some input was
 * malformed or unreadable: a bad stream line, or a file named by the
 * stream that exists but could not be read or parsed (not a regular file,
 * not ELF, truncated, corrupt DWARF, bad perf map lines, an unreadable
 * opts.kallsyms). Returns 0 otherwise, also when frames stayed [unknown]
 * because their file is missing, stripped or rebuilt, or the kernel is
 * another one: those were said on stderr.
 */
int	sym_finish(struct sym *s);

struct elfsym_file;
struct kallsyms;

/*
 * Lends the ELF file dso (as the stream names it) that s has loaded, or
 * loads it now: its Elf, its libdwfl module and its symbol table, in *ef,
 * borrowed until sym_free(). Returns 0, or -1 when dso is no ELF file or
 * cannot be used (missing, rebuilt, ...; warned about once). fgsym
 * --annotate passes it to annotate_files().
 */
int	sym_file(struct sym *s, const char *dso, struct elfsym_file *ef);

/*
 * The kernel's symbols that s has read for naming kernel frames (from
 * opts.kallsyms or /proc/kallsyms), borrowed until sym_free(); NULL when
 * it has read none, or could not.
 */
const struct kallsyms *sym_kallsyms(const struct sym *s);

struct filesearch;

/*
 * Where s looks for files besides their recorded paths (opts.symfs,
 * opts.symdirs, its debuginfod client), borrowed until sym_free: for the
 * replay of perf data, whose mappings need the same files.
 */
const struct filesearch *sym_search(const struct sym *s);

struct sample_sink;

/*
 * Makes *sink a symbolizer of samples handed over as structs
 * (stream/sample.h: a recording replayed in this process, fgsym on
 * perf.data): each header line is written to out as the stream writer
 * writes it, each sample with its frames symbolized, as sym_stream would
 * write the stream of those samples; out NULL writes nothing and calls
 * opts.leaf, as sym_stream does. The sink's flush says whether writing
 * to out failed (errno set). s and out are borrowed; the sink's state is
 * freed by sym_sink_release, before sym_free.
 */
void	sym_sink_init(struct sym *s, FILE *out, struct sample_sink *sink);

struct sample_hdr;
struct stream_head;
struct stream_frame;

/*
 * Who takes samples symbolized as structs, in the order the stream
 * would have their lines: each header (and one "# symbolized" header,
 * SAMPLE_HDR_TEXT, before the first sample), each sample's head, its
 * frames (sym and dso NUL-terminated; an inlined one with STREAM_INLINED
 * for its DSO; a frame with no name as it came, "[unknown]"; the address
 * in addrval, addr empty: no text is made of it; id, when not NULL,
 * the same for every frame of the same name in the same file, and for no
 * other, until sym_free), a frame's
 * source line after it (opts.srcline), and its end (after the truncated
 * mark, a frame of its own). Everything is borrowed for the call.
 */
struct sym_named {
	void	(*header)(void *arg, const struct sample_hdr *);
	void	(*head)(void *arg, const struct stream_head *);
	void	(*frame)(void *arg, const struct stream_frame *,
		    const void *id);
	void	(*srcline)(void *arg, const char *text);
	void	(*end)(void *arg);
};

/*
 * As sym_sink_init, handing the samples on to to (static) with arg
 * (borrowed) instead of writing them: perf.data to a profile in one
 * process (profile/foldperf.h), no text between the stages.
 */
void	sym_sink_named(struct sym *s, const struct sym_named *to, void *arg,
	    struct sample_sink *sink);
void	sym_sink_release(struct sample_sink *sink);

/* Frees s and everything it owns (files, caches); s may be NULL. */
void	sym_free(struct sym *s);

#endif
