/*
 * svg: write a flame as one self-contained, interactive SVG document, with
 * flamegraph.pl's geometry (the same x, y, width and height for every
 * frame), labels fitted when the file is written, and the embedded script
 * of svgscript.js. Also the XML escaping of names, with its inverse.
 *
 * Escaping makes any byte string safe text for XML 1.0 in two steps:
 *   svg_clean: a byte that is not part of valid UTF-8, or that XML cannot
 *     carry at all (control characters but TAB; U+FFFE, U+FFFF), becomes
 *     the four characters \xNN; a backslash that is followed by 'x' becomes
 *     \x5c, so that the step can be undone. The result is valid UTF-8.
 *   svg_xml: & < > " ' become entities.
 * svg_escape does both; svg_unescape undoes both, so that
 * svg_unescape(svg_escape(s)) == s for every s.
 */
#ifndef FG_SVG_H
#define FG_SVG_H

#include <stddef.h>

#include "svg/flame.h"
#include "svg/palette.h"
#include "svg/svgmap.h"

/* A growing output buffer. */
struct svgbuf {
	char		*buf;
	size_t		 len;
	size_t		 cap;
	int		 fd;		/* flushed here when large; -1: never */
	int		 error;		/* errno of a failed write, or 0 */
};

void	 svgbuf_init(struct svgbuf *, int fd);
void	 svgbuf_release(struct svgbuf *);
void	 svgbuf_put(struct svgbuf *, const char *, size_t);
void	 svgbuf_puts(struct svgbuf *, const char *);
void	 svgbuf_printf(struct svgbuf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* Writes what is buffered to fd. Returns 0, or -1 with errno set. */
int	 svgbuf_flush(struct svgbuf *);

/* Appends s[0..len) made safe text, as described above. */
void	 svg_clean(struct svgbuf *, const char *s, size_t len);
/* Appends s[0..len), valid UTF-8, with & < > " ' as entities. */
void	 svg_xml(struct svgbuf *, const char *s, size_t len);
/* svg_clean then svg_xml. */
void	 svg_escape(struct svgbuf *, const char *s, size_t len);

/*
 * Undoes svg_escape: the five entities, numeric character references, and
 * \xNN. Returns a newly allocated, NUL-terminated string (the caller frees
 * it) and stores its length in *outlen. An unknown entity is kept as is.
 */
char	*svg_unescape(const char *s, size_t len, size_t *outlen);

struct svg_opts {
	const char	*title;		/* NULL: "Flame Graph", "Icicle Graph"
					   or "Flame Chart" */
	const char	*subtitle;	/* NULL or "": none */
	const char	*countname;	/* "samples" */
	const char	*nametype;	/* "Function:" */
	const char	*fonttype;	/* "Verdana" */
	const char	*notes;		/* NULL or "": none */
	const char	*bgcolor1;	/* background gradient, from */
	const char	*bgcolor2;	/*   palette_background */
	int		 width;		/* image width, pixels (1200) */
	int		 frameheight;	/* pixels (16) */
	double		 fontsize;	/* 12 */
	double		 fontwidth;	/* 0.59 */
	double		 minwidth;	/* 0.1 */
	int		 minwidth_pct;	/* minwidth is a percentage of total */
	double		 total;		/* --total; 0: the sum of the counts */
	double		 factor;	/* --factor; 1 */
	int		 inverted;
	int		 reverse;	/* the stacks came reversed (--reverse):
					   the script's function view swaps
					   callers and callees */
	int		 negate;
	int		 flamechart;
	int		 timens;	/* counts are ns: tooltips print time;
					   -1: when the input holds [off-cpu]
					   frames (fgfold's off-CPU leaf) */
	size_t		 search_budget;	/* bytes of search data for the frames
					   not drawn (24 MiB); past it,
					   "Matched" is a lower bound */
	struct svg_nameattr *nameattr;	/* borrowed; NULL: none */
};

/*
 * --nameattr: extra attributes for the frames of some names. The file has
 * one line per name: the name, a TAB, then TAB-separated key=value pairs.
 * Only what flamegraph.pl's option is for is allowed, each key once:
 * "href" (or "xlink:href") makes the frame a link, to an http, https or
 * relative URL (target "_top" unless given); "target", "class" and "id"
 * become attributes of the frame's element; "title" replaces the tooltip.
 * Event handlers (on*), "style" and javascript: links are refused.
 */
struct svg_nameattr {
	struct svgmap	 attrs;		/* name -> escaped ' k="v"' pairs */
	struct svgmap	 titles;	/* name -> replacement tooltip */
	struct svgmap	 links;		/* name -> "" when it has an href */
	char		 why[160];	/* what was wrong with the first bad
					   line, or "" */
};

void	 svg_nameattr_init(struct svg_nameattr *);
void	 svg_nameattr_release(struct svg_nameattr *);

/*
 * Reads a --nameattr file into na. Returns 0, or -1 with errno set when the
 * file cannot be read. The number of the first bad line (no TAB, a pair
 * without '=', a key not allowed or given twice, an href not allowed) is
 * stored in *bad, or 0, and what was wrong in na->why; bad pairs are
 * skipped, the good ones of the line kept.
 */
int	 svg_nameattr_load(struct svg_nameattr *, const char *path,
	    unsigned long *bad);

/* Fills o with flamegraph.pl's defaults. */
void	 svg_opts_default(struct svg_opts *o);

/* The leaf pseudo-frame of off-CPU stacks (fgfold(1), fg-stream(5)). */

/*
 * Lays out the flame (flame_layout, with the minimum width converted from
 * pixels or percent) and writes the document to out, which is flushed at
 * the end. Colours come from pal, but for off-CPU frames (an [off-cpu]
 * frame, the frames above it, and the frames all of whose time is
 * off-CPU), which are drawn in blue shades; differential colours come
 * first. A flame without samples gives a small
 * document that says "no samples". Returns 0, or -1 with errno set when
 * writing failed.
 */
int	 svg_write(struct svgbuf *out, struct flame *, const struct svg_opts *,
	    struct palette *pal);

/*
 * The embedded script, common/svgscript.js made into C by make, a
 * NUL-terminated string.
 */
extern const char svg_script[];

#endif
