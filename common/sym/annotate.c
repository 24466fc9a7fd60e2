/*
 * annotate: the hot instructions of the hot functions. See annotate.h.
 *
 * Adding is a hash update per sample: per file, an open-addressing table
 * from address to count. All the expensive work (opening files, symbol
 * tables, capstone, libdw) happens once per file in annotate_write().
 *
 * The write goes in four steps:
 *   1. load every file that has samples (sym/afile): symbols, the
 *      capstone handle for its machine, a Dwfl module for source lines;
 *   2. attribute each sampled address to the function that holds it
 *      (struct afunc), or to a per-file bucket when it cannot be;
 *   3. print the summary, then the N hottest functions instruction by
 *      instruction (sym/listing);
 *   4. print the five hottest source lines of all samples.
 */
#include <stdlib.h>
#include <string.h>

#include <libelf.h>

#include "base/hashtab.h"
#include "base/num.h"
#include "base/xalloc.h"
#include "elf/elfsym.h"
#include "stream/diag.h"
#include "sym/afile.h"
#include "sym/annotate.h"
#include "sym/demangle.h"
#include "sym/listing.h"

/* The samples of one file, as added. */
struct adso {
	char		*path;		/* owned */
	struct aaddr	*addrs;		/* owned; as added, or sorted */
	size_t		 naddrs, addrcap;
	struct hashtab	 index;		/* hashtab_int(vaddr) -> addrs */
	uint64_t	 total;
};

struct annotate {
	struct annotate_opts opts;
	struct adso	*dsos;		/* owned */
	size_t		 ndsos, capdsos;
	size_t		 last;		/* index of the last dso hit */
	uint64_t	 total;
	size_t		 nbad;		/* bad files in the last annotate_write */
	struct afile_lend lend;		/* what fgsym lends (annotate_files) */
};

/* --- adding --------------------------------------------------------- */

struct annotate *
annotate_new(const struct annotate_opts *opts)
{
	struct annotate *a = xcalloc(1, sizeof(*a));

	if (opts)
		a->opts = *opts;
	if (a->opts.top <= 0)
		a->opts.top = 5;
	a->lend.kallsyms_path = a->opts.kallsyms;
	return a;
}

/* Files addrs[i] in the index, whose probes must not find its address. */
static void
adso_index(struct adso *d, size_t i)
{
	struct hashtab_probe p;

	hashtab_probe(&d->index, hashtab_int(d->addrs[i].vaddr), &p);
	while (hashtab_next(&d->index, &p) != HASHTAB_NONE)
		;
	hashtab_add(&d->index, &p, i);
}

static void
adso_add(struct adso *d, uint64_t vaddr)
{
	struct hashtab_probe p;
	uint32_t i;

	d->total++;
	hashtab_probe(&d->index, hashtab_int(vaddr), &p);
	while ((i = hashtab_next(&d->index, &p)) != HASHTAB_NONE)
		if (d->addrs[i].vaddr == vaddr) {
			d->addrs[i].count++;
			return;
		}
	GROW(d->addrs, d->naddrs + 1, d->addrcap);
	d->addrs[d->naddrs].vaddr = vaddr;
	d->addrs[d->naddrs].count = 1;
	hashtab_add(&d->index, &p, d->naddrs++);
}

void
annotate_add(struct annotate *a, const char *dso, uint64_t vaddr)
{
	struct adso *d = NULL;

	if (a->ndsos && strcmp(a->dsos[a->last].path, dso) == 0)
		d = &a->dsos[a->last];
	for (size_t i = 0; !d && i < a->ndsos; i++)
		if (strcmp(a->dsos[i].path, dso) == 0) {
			d = &a->dsos[i];
			a->last = i;
		}
	if (!d) {
		GROW(a->dsos, a->ndsos + 1, a->capdsos);
		d = &a->dsos[a->ndsos];
		memset(d, 0, sizeof(*d));
		d->path = xstrdup(dso);
		hashtab_init(&d->index, 48);
		a->last = a->ndsos++;
	}
	adso_add(d, vaddr);
	a->total++;
}

void
annotate_files(struct annotate *a,
    int (*file)(void *, const char *, struct elfsym_file *),
    const struct kallsyms *(*kallsyms)(void *), void *arg)
{
	a->lend.file = file;
	a->lend.kallsyms = kallsyms;
	a->lend.arg = arg;
}

void
annotate_free(struct annotate *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->ndsos; i++) {
		free(a->dsos[i].path);
		free(a->dsos[i].addrs);
		hashtab_release(&a->dsos[i].index);
	}
	free(a->dsos);
	free(a);
}

/* --- attributing samples to functions ---------------------------------- */

static int
aaddr_cmp(const void *pa, const void *pb)
{
	const struct aaddr *a = pa, *b = pb;

	return a->vaddr < b->vaddr ? -1 : a->vaddr > b->vaddr;
}

/* Hotter first; ties by name, file and address, so output is stable. */
static int
afunc_cmp(const void *pa, const void *pb)
{
	const struct afunc *a = pa, *b = pb;
	int c;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if ((c = strcmp(a->name, b->name)))
		return c;
	if ((c = strcmp(a->file->path, b->file->path)))
		return c;
	return a->start < b->start ? -1 : a->start > b->start;
}

/*
 * Sorts the addresses of d and files them again in its index, so that
 * later samples still add to them; returns how many there are.
 */
static size_t
adso_sorted(struct adso *d)
{
	if (d->naddrs > 1)
		qsort(d->addrs, d->naddrs, sizeof(*d->addrs), aaddr_cmp);
	hashtab_release(&d->index);
	hashtab_init(&d->index, d->naddrs);
	for (size_t i = 0; i < d->naddrs; i++)
		adso_index(d, i);
	return d->naddrs;
}

/* --- the write ----------------------------------------------------------- */

int
annotate_write(struct annotate *a, FILE *out)
{
	struct listing L;
	struct afile *files;
	struct afunc *fns = NULL;
	size_t nfns = 0, capfns = 0, nlisted;

	listing_init(&L, out, a->opts.color, a->total);
	elf_version(EV_CURRENT);
	a->nbad = 0;
	if (a->total == 0) {
		listing_note(&L, "fgsym annotate: no samples");
		return listing_release(&L);
	}

	/* 1. files, 2. functions */
	files = xcalloc(a->ndsos, sizeof(*files));
	for (size_t i = 0; i < a->ndsos; i++) {
		struct adso *d = &a->dsos[i];
		struct afile *f = &files[i];
		size_t n = adso_sorted(d);

		afile_init(f, d->path, &a->lend);
		f->dmflags = a->opts.full_names ? FG_DEMANGLE_FULL : 0;
		if (f->problem)
			stream_warnx("%s", f->problem);
		/* A missing file is said, as a stripped one is, but it is
		 * not bad input (fgsym(1), EXIT STATUS). */
		if (f->bad && f->missing)
			f->bad = 0;
		a->nbad += f->bad;
		for (size_t j = 0; j < n; ) {
			const struct elfsym_ent *s = afile_lookup(f,
			    d->addrs[j].vaddr, 1);
			struct afunc *fn;

			if (!s) {
				f->unattributed += d->addrs[j++].count;
				continue;
			}
			GROW(fns, nfns + 1, capfns);
			fn = &fns[nfns++];
			memset(fn, 0, sizeof(*fn));
			fn->file = f;
			fn->rawname = s->name;
			fn->start = s->addr;
			fn->end = s->addr + s->size;
			/* A corrupt symbol table: a size past 2^64 ends there. */
			if (fn->end < fn->start)
				fn->end = UINT64_MAX;
			fn->addrs = &d->addrs[j];
			/* Slot j is the function's (afile_lookup said so), even
			 * at UINT64_MAX: the loop always moves on. */
			do {
				fn->samples += d->addrs[j].count;
				fn->naddrs++;
				j++;
			} while (j < n && d->addrs[j].vaddr >= fn->start &&
			    d->addrs[j].vaddr < fn->end);
			if ((fn->name = fg_demangle(fn->rawname,
			    fn->file->dmflags)) == NULL)
				fn->name = xstrdup(fn->rawname);
		}
	}
	if (nfns > 1)
		qsort(fns, nfns, sizeof(*fns), afunc_cmp);
	nlisted = nfns < (size_t)a->opts.top ? nfns : (size_t)a->opts.top;

	/* 3. summary and functions, 4. hottest source lines */
	listing_write(&L, fns, nfns, nlisted, files, a->ndsos);

	for (size_t i = 0; i < nfns; i++)
		free(fns[i].name);
	free(fns);
	for (size_t i = 0; i < a->ndsos; i++)
		afile_release(&files[i]);
	free(files);
	return listing_release(&L);
}

size_t
annotate_bad_files(const struct annotate *a)
{
	return a->nbad;
}

int
annotate_opt_top(const char *opt, const char *s, int *top, char **why)
{
	uint64_t n;

	*why = NULL;
	if (num_arg(s, 1, 1000, &n) != 0) {
		*why = xasprintf("%s: '%s' is not a number of functions from 1 "
		    "to 1000", opt, s);
		return 2;
	}
	*top = (int)n;
	return 0;
}

const char *
annotate_opt_to(char *arg, int *top, char **why)
{
	char *comma = strrchr(arg, ',');

	*why = NULL;
	if (comma != NULL && comma[1] != '\0' &&
	    strspn(comma + 1, "0123456789") == strlen(comma + 1)) {
		*comma = '\0';
		if (annotate_opt_top("--annotate-to", comma + 1, top, why))
			return NULL;
	}
	if (*arg == '\0') {
		*why = xasprintf("--annotate-to: no file name given");
		return NULL;
	}
	return arg;
}
