/*
 * palette: the colour of a frame, as flamegraph.pl computes it, so that the
 * same name gets the same colour in fgsvg and in the reference (with
 * --hash, and with neither --hash nor --random). Also the differential
 * scale (red for growth, blue for shrinkage), the background gradients and
 * the --cp palette file that keeps colours stable across runs.
 *
 * Schemes: hot (default), mem, io, wakeup, chain, java, js, perl, rust,
 * python, red, green, blue, aqua, yellow, purple, orange.
 */
#ifndef FG_PALETTE_H
#define FG_PALETTE_H

#include <stddef.h>
#include <stdint.h>

#include "svg/svgmap.h"

#define PALETTE_COLORLEN	24	/* "rgb(255,255,255)" and its NUL fit */
#define PALETTE_CP_FILE		"palette.map"	/* --cp's, in the working
						   directory */

struct palette_opts {
	const char	*scheme;	/* borrowed; NULL means "hot" */
	int		 hash;		/* --hash: colour by a hash of the name */
	int		 random;	/* --random: a new colour every frame */
	uint64_t	 seed;		/* the seed of --random */
};

struct palette {
	struct palette_opts opts;
	int		 scheme;	/* index into the scheme table */
	uint64_t	 rstate;	/* drand48 state for --random */
	int		 use_map;	/* --cp: look names up in map first */
	struct svgmap	 map;		/* name -> "rgb(...)", for --cp */
};

/* Returns 1 when name is a known scheme, 0 otherwise. */
int	 palette_scheme_ok(const char *name);

/*
 * --colors: returns 0 when name is a known scheme, else 2 with *why (the
 * caller frees it) saying so and naming every scheme; *why is NULL on 0.
 */
int	 palette_scheme_check(const char *name, char **why);

/*
 * Sets up a palette. opts is copied (its strings stay borrowed). Returns 0,
 * or -1 when opts->scheme is not a known scheme.
 */
int	 palette_init(struct palette *, const struct palette_opts *);
/* Frees what the palette owns, not the struct itself. */
void	 palette_release(struct palette *);

/*
 * Writes the colour of the frame called name[0..len) to out, as
 * "rgb(R,G,B)" with a NUL. The name keeps its _[k]/_[i]/_[j]/_[w]
 * annotation, which steers the java, js, perl, chain, rust and python
 * schemes. With --cp (palette_load was called) a name seen before keeps its
 * colour and a new name is added to the map.
 */
void	 palette_color(struct palette *, const char *name, size_t len,
	    char out[PALETTE_COLORLEN]);

/*
 * Writes the differential colour of a change to out: white for none,
 * towards red for growth (value > 0) and towards blue for shrinkage, with
 * the strength |value| / max. negate swaps the hues.
 */
void	 palette_diff(double value, double max, int negate,
	    char out[PALETTE_COLORLEN]);

/*
 * Writes the colour of a change that a comparison called (svg/cmpdraw.h)
 * to out: red for slower, blue for faster (negate swaps them), from a
 * light shade at strength 0 to a deep one at 1, each light enough for
 * black labels.
 */
void	 palette_change(double strength, int slower, int negate,
	    char out[PALETTE_COLORLEN]);

/*
 * Stores the two stops of the background gradient for bgcolors ("yellow",
 * "blue", "green", "grey", or "#rrggbb"; NULL or "" picks the scheme's
 * default) in c1 and c2 (borrowed static strings, or pointers into
 * bgcolors). Returns 0, or 2 when bgcolors is not recognized, with *why
 * (the caller frees it) the line --bgcolors says; *why is NULL on 0.
 */
int	 palette_background(const char *scheme, const char *bgcolors,
	    const char **c1, const char **c2, char **why);

/*
 * --cp: reads the palette file at path ("NAME->rgb(R,G,B)" lines, the format
 * of flamegraph.pl's palette.map) into the map and turns the map on. A
 * missing file is not an error: the map starts empty. Returns 0, or -1 with
 * errno set when the file exists but cannot be read. A malformed line (no
 * "->", or a colour that is not "rgb(R,G,B)" with each from 0 to 255: the
 * colour goes into the SVG unescaped) is skipped, and *bad (when not NULL)
 * gets the number of the first one.
 */
int	 palette_load(struct palette *, const char *path, unsigned long *bad);

/*
 * Writes every name of the map, sorted bytewise, with its colour to path,
 * replacing the file. Returns 0, or -1 with errno set.
 */
int	 palette_save(struct palette *, const char *path);

/*
 * --cp: palette_load, with the line to say. Returns 0; 1 when a line was
 * bad (skipped, the others kept); 2 when the file is no regular file or
 * cannot be read (draw no graph). When not 0, *why (the caller frees it)
 * is the message, else NULL.
 */
int	 palette_cp_load(struct palette *, const char *path, char **why);

/*
 * --cp: palette_save, with the line to say. Returns 0, or 2 with *why (the
 * caller frees it) saying why the file was not written: no longer a
 * regular file, or a write that failed (base/cmdfile.h's wording).
 */
int	 palette_cp_save(struct palette *, const char *path, char **why);

/*
 * --random's seed: env (FGSVG_SEED's value, borrowed) when it is set and
 * not empty, so that a run can be repeated; else one from the clock and
 * the process ID. Returns 0, or 2 with *why (the caller frees it) when
 * env is not a whole number; *seed is then untouched.
 */
int	 palette_seed(const char *env, uint64_t *seed, char **why);

#endif
