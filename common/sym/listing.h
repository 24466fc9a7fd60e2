/*
 * listing: the text of fgsym --annotate, in lines of at most 100 columns
 * (UTF-8 aware; a cut line ends in "..."), in colour when asked: a
 * summary that ranks the sampled functions, then the hottest of them
 * instruction by instruction (capstone), each with its sample count and
 * share of the function, source lines from libdw interleaved wherever the
 * line changes (with the inlined function's name beside them), branch and
 * call targets as symbol+offset; last the five hottest source lines.
 *
 *	struct listing L;
 *	listing_init(&L, out, color, total);
 *	listing_write(&L, fns, nfns, nlisted, files, nfiles);
 *	if (listing_release(&L) != 0) ... errno says why
 */
#ifndef FG_LISTING_H
#define FG_LISTING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "sym/afile.h"
#include "sym/srccache.h"

/* One sampled address of a file and its count. */
struct aaddr {
	uint64_t	 vaddr;
	uint64_t	 count;
};

/* A sampled function, the listing's unit. */
struct afunc {
	struct afile	*file;
	const char	*rawname;	/* borrowed from the file's symbols */
	char		*name;		/* owned; demangled or copied */
	uint64_t	 start, end;
	uint64_t	 samples;
	struct aaddr	*addrs;		/* borrowed: a sorted slice */
	size_t		 naddrs;
};

/* The line under construction, written when it is done. */
struct out {
	FILE		*fp;
	int		 color;
	int		 err;		/* errno of the first failed write, or 0 */
	struct buf	 line;		/* the current line; in memory */
};

/* The listing being written. */
struct listing {
	struct out	 o;
	struct srccache	 sc;
	uint64_t	 total;
};

/*
 * Starts a listing on fp (borrowed until listing_release) of total
 * samples in all; color: ANSI colour on the hot lines.
 */
void	listing_init(struct listing *L, FILE *fp, int color, uint64_t total);

/* Writes text (borrowed) as a line of its own. */
void	listing_note(struct listing *L, const char *text);

/*
 * Writes the listing of fns[0..nfns) (borrowed; sorted hottest first):
 * the summary, then the first nlisted functions disassembled from their
 * files (files[0..nfiles), borrowed, which also give the summary their
 * samples outside every function and their problems), then the hottest
 * source lines of all of them.
 */
void	listing_write(struct listing *L, const struct afunc *fns, size_t nfns,
	    size_t nlisted, const struct afile *files, size_t nfiles);

/*
 * Frees what the listing holds and flushes fp. Returns 0, or -1 with
 * errno set when a write failed (the listing may then be incomplete).
 */
int	listing_release(struct listing *L);

#endif
