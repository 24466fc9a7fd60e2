/*
 * nameattr: fgsvg's --nameattr file, extra attributes for the frames of
 * some names. The file has one line per name: the name, a TAB, then
 * TAB-separated key=value pairs. Only what flamegraph.pl's option is for
 * is allowed, each key once: "href" (or "xlink:href") makes the frame a
 * link, to an http, https or relative URL (target "_top" unless given);
 * "target" and "class" become attributes of the frame's element; "title"
 * replaces the tooltip. Event handlers (on*), "style" and javascript:
 * links are refused; so is "id" (the SVG's script finds its own elements
 * by id), and that one is fatal: no graph is written without the ids its
 * maker asked for.
 *
 *	struct nameattr na;
 *	nameattr_init(&na);
 *	if ((r = nameattr_opt_load(&na, path, &why)) != 0)
 *		... say why, free it; r 2: exit 2, r 1: exit 1 at the end ...
 *	... svgmap_get(&na.attrs, name, len, NULL) ...
 *	nameattr_release(&na);
 */
#ifndef FG_SVG_NAMEATTR_H
#define FG_SVG_NAMEATTR_H

#include "svg/svgmap.h"

struct nameattr {
	struct svgmap	 attrs;		/* name -> ' k="v"' pairs, the values
					   escaped (xml_escape) */
	struct svgmap	 titles;	/* name -> replacement tooltip, raw */
	struct svgmap	 links;		/* name -> "" when it has an href */
	char		 why[160];	/* what was wrong with the first bad
					   line, or "" */
	int		 fatal;		/* that line had an id: draw no graph */
};

/* Sets up na empty; nameattr_release frees what nameattr_load adds. */
void	 nameattr_init(struct nameattr *na);
void	 nameattr_release(struct nameattr *na);

/*
 * Reads the --nameattr file at path (borrowed) into na, which owns copies
 * of what it keeps. Returns 0, or -1 with errno set when the file cannot
 * be opened or read, or SAFEOPEN_NOTREG when it is no regular file (a
 * FIFO, never opened: base/safeopen). The number of the first bad line (no TAB, a pair
 * without '=', a key not allowed or given twice, an href not allowed) is
 * stored in *bad, or 0, and what was wrong in na->why; bad pairs are
 * skipped, the good ones of the line kept. An "id" pair sets na->fatal,
 * and *bad and na->why are then the first line with one.
 */
int	 nameattr_load(struct nameattr *na, const char *path,
	    unsigned long *bad);

/*
 * --nameattr: nameattr_load, with the line to say. Returns 0; 1 when a
 * line was bad (its bad pairs skipped); 2 when the file cannot be read,
 * or a line has an id (draw no graph). When not 0, *why (the caller frees
 * it) is the message, else NULL.
 */
int	 nameattr_opt_load(struct nameattr *na, const char *path, char **why);

#endif
