/*
 * svg: write a flame as one self-contained, interactive SVG document, with
 * flamegraph.pl's geometry (the same x, y, width and height for every
 * frame), labels fitted when the file is written, and the embedded script
 * of svgscript.js. Names are made safe by svg/xml.h; the --nameattr file
 * is svg/nameattr.h's.
 *
 *	struct buf out;
 *	buf_init_fd(&out, STDOUT_FILENO);
 *	svg_opts_default(&so);
 *	... flame_build(&fl) ...
 *	if (svg_write(&out, &fl, &so, &pal) != 0)
 *		... errno says why ...
 *	buf_release(&out);
 */
#ifndef FG_SVG_H
#define FG_SVG_H

#include <stddef.h>

#include "base/buf.h"
#include "svg/flame.h"
#include "svg/nameattr.h"
#include "svg/palette.h"
#include "svg/timeline.h"

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
	struct nameattr	*nameattr;	/* borrowed; NULL: none */
	const struct timeline *timeline; /* borrowed; NULL: none (folded
					   input): drawn above the frames */
	/*
	 * NULL, or what a graph of another kind (svg/cmpdraw.h) says of
	 * each node drawn, in place of the counts and the palette: it
	 * appends the tooltip after the name to b, as XML text
	 * (svg/xml.h), " (WIDTH UNIT, ...)" for the script to read the
	 * width, and writes the node's colour (a --nameattr title is
	 * not used).
	 */
	void		(*frame_info)(void *arg, const struct flame *,
			    uint32_t node, struct buf *b,
			    char color[PALETTE_COLORLEN]);
	void		*frame_info_arg;
};

/* Fills o with flamegraph.pl's defaults. */
void	 svg_opts_default(struct svg_opts *o);

/*
 * Lays out the flame (flame_layout, with the minimum width converted from
 * pixels or percent) and appends the document to out (borrowed: a buffer
 * in memory, or one made with buf_init_fd, which is flushed at the end).
 * fl, o and pal are borrowed; fl's frames are laid out anew, and with --cp
 * pal's map gains the names drawn. Colours come from pal, but for off-CPU
 * frames (an [off-cpu] frame, the frames above it, and the frames all of
 * whose time is off-CPU), which are drawn in blue shades; differential
 * colours come first. A flame without samples gives a small document that
 * says "no samples". Returns 0, or -1 with errno set when writing failed
 * (out->error holds it too).
 */
int	 svg_write(struct buf *out, struct flame *, const struct svg_opts *,
	    struct palette *pal);

/*
 * The embedded script, common/svg/svgscript.js made into C by make, a
 * NUL-terminated string.
 */
extern const char svg_script[];

#endif
