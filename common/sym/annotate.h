/*
 * annotate: the hot instructions of the hot functions, as fgsym --annotate
 * prints them.
 *
 * The caller feeds one leaf address per sample (the interrupted
 * instruction) with the file it belongs to. annotate_write() then finds,
 * for every distinct (file, address), the function that holds it (ELF
 * .symtab, else .dynsym), ranks the functions by self samples and prints
 * the N hottest ones: every instruction disassembled with capstone for the
 * file's own architecture (from the ELF header, not the host), its sample
 * count and share of the function's samples, source lines from libdw
 * interleaved wherever the line changes (with the inlined function's name
 * beside them), and branch and call targets as symbol+offset. A summary at
 * the top ranks the functions; the five hottest source lines across all of
 * them close the listing. The text fits in 100 columns.
 *
 * Nothing here is fatal. A missing file, a file that is not ELF, a function
 * whose bytes are not in the file (JIT code, a kernel without a readable
 * /proc/kcore) or an instruction capstone cannot decode are each stated in
 * the listing and, for files, warned about once on stderr.
 */
#ifndef FG_ANNOTATE_H
#define FG_ANNOTATE_H

#include <stdint.h>
#include <stdio.h>

struct annotate_opts {
	int	top;	/* N hottest functions; 0 or less means the default, 5 */
	int	color;	/* nonzero: ANSI colour on the hot lines */
	int	full_names; /* nonzero: C++ names with return type and
			       parameters, as c++filt prints them */
	const char *kallsyms;	/* borrowed; NULL means "/proc/kallsyms" */
};

struct annotate;

/*
 * Returns a new, empty annotation table configured by *opts (copied; NULL
 * means the defaults; opts->kallsyms is borrowed until annotate_free()).
 * Never returns NULL. The caller frees it with annotate_free(). struct
 * annotate is opaque, so annotate makes it (HACKING.md, "Lifecycle").
 */
/*
 * The options' values: --annotate's N into *top (0, or 2 and *why, which
 * the caller frees, when it is not 1 to 1000; opt names the option); and
 * --annotate-to's FILE[,N], arg cut at the comma (written), N into *top:
 * returns FILE, or NULL and *why.
 */
int	 annotate_opt_top(const char *opt, const char *s, int *top,
	    char **why);
const char *annotate_opt_to(char *arg, int *top, char **why);

struct annotate *annotate_new(const struct annotate_opts *opts);

/*
 * Counts one sample at its leaf. dso is the file's path, or
 * "[kernel.kallsyms]" for the kernel; it is copied. vaddr is the address in
 * the ELF file's own address space (what nm and addr2line -e use); for the
 * kernel it is the absolute address. Files are not opened until
 * annotate_write(), so adding is cheap: a hash lookup per call.
 */
void	annotate_add(struct annotate *a, const char *dso, uint64_t vaddr);

struct elfsym_file;

struct kallsyms;

/*
 * Has annotate_write() ask file(arg, dso, &ef) for each ELF file it
 * needs before it opens the file itself: when that returns 0, the file
 * in ef (fgsym's, see sym_file()) is used as lent, its symbol table
 * included. Likewise kallsyms(arg), when not NULL, may lend the kernel's
 * symbols (see sym_kallsyms()) instead of a read of opts.kallsyms. What
 * is lent must stay valid until annotate_write() returns. With both NULL
 * (the default) every file is read here.
 */
void	annotate_files(struct annotate *a,
	    int (*file)(void *arg, const char *dso, struct elfsym_file *ef),
	    const struct kallsyms *(*kallsyms)(void *arg), void *arg);

/*
 * Writes the listing of everything added so far to out. Returns 0, or -1
 * on a write error with errno set (the listing may then be incomplete).
 * Problems with the input files are not errors: they are warned about on
 * stderr once per file via warnx(3) and stated in the listing too. With no
 * samples at all it writes a one-line note. It may be called more than
 * once; the table is not changed.
 */
int	annotate_write(struct annotate *a, FILE *out);

/*
 * Returns the number of files that the last annotate_write() could not use,
 * or only in part, because they are unreadable, not regular ELF files,
 * truncated, or hold corrupt DWARF (each was warned about); a missing file
 * is warned about but not counted. 0 before
 * any annotate_write(). fgsym exits 1 when it is not 0.
 */
size_t	annotate_bad_files(const struct annotate *a);

/* Frees a and everything it owns. a may be NULL. */
void	annotate_free(struct annotate *a);

#endif
