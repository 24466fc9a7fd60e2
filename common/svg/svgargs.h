/*
 * svgargs: fgsvg's options for the picture (title, sizes, fonts, colours,
 * order, timeline), read into the options of the libraries that draw
 * it. --compare's options are profile/cmpargs's.
 *
 *	struct svgargs a;
 *	svgargs_init(&a);
 *	while ((ch = getopt_long(...)) != -1)	(longopts hold SVGARGS_LONGOPTS)
 *		if ((r = svgargs_option(&a, ch, optarg)) == 2) exit(2);
 *		else if (r == -1) ... another option ...
 */
#ifndef FG_SVGARGS_H
#define FG_SVGARGS_H

#include <stddef.h>

#include "svg/flame.h"
#include "svg/palette.h"
#include "svg/svg.h"
#include "svg/timeline.h"

enum {
	SVGARGS_TITLE = 0x800,
	SVGARGS_SUBTITLE,
	SVGARGS_WIDTH,
	SVGARGS_HEIGHT,
	SVGARGS_MINWIDTH,
	SVGARGS_FONTTYPE,
	SVGARGS_FONTSIZE,
	SVGARGS_FONTWIDTH,
	SVGARGS_COUNTNAME,
	SVGARGS_NAMETYPE,
	SVGARGS_COLORS,
	SVGARGS_BGCOLORS,
	SVGARGS_HASH,
	SVGARGS_RANDOM,
	SVGARGS_CP,
	SVGARGS_REVERSE,
	SVGARGS_INVERTED,
	SVGARGS_FLAMECHART,
	SVGARGS_NEGATE,
	SVGARGS_NOTES,
	SVGARGS_NAMEATTR,
	SVGARGS_TOTAL,
	SVGARGS_FACTOR,
	SVGARGS_SORT,
	SVGARGS_SEARCHBUDGET,
	SVGARGS_TLBUDGET,
	SVGARGS_NOTIMELINE
};

/* The long options svgargs_option reads. */
#define SVGARGS_LONGOPTS \
	{ "title",	required_argument,	NULL,	SVGARGS_TITLE }, \
	{ "subtitle",	required_argument,	NULL,	SVGARGS_SUBTITLE }, \
	{ "width",	required_argument,	NULL,	SVGARGS_WIDTH }, \
	{ "height",	required_argument,	NULL,	SVGARGS_HEIGHT }, \
	{ "minwidth",	required_argument,	NULL,	SVGARGS_MINWIDTH }, \
	{ "fonttype",	required_argument,	NULL,	SVGARGS_FONTTYPE }, \
	{ "fontsize",	required_argument,	NULL,	SVGARGS_FONTSIZE }, \
	{ "fontwidth",	required_argument,	NULL,	SVGARGS_FONTWIDTH }, \
	{ "countname",	required_argument,	NULL,	SVGARGS_COUNTNAME }, \
	{ "nametype",	required_argument,	NULL,	SVGARGS_NAMETYPE }, \
	{ "colors",	required_argument,	NULL,	SVGARGS_COLORS }, \
	{ "color",	required_argument,	NULL,	SVGARGS_COLORS }, \
	{ "bgcolors",	required_argument,	NULL,	SVGARGS_BGCOLORS }, \
	{ "hash",	no_argument,		NULL,	SVGARGS_HASH }, \
	{ "random",	no_argument,		NULL,	SVGARGS_RANDOM }, \
	{ "cp",		no_argument,		NULL,	SVGARGS_CP }, \
	{ "reverse",	no_argument,		NULL,	SVGARGS_REVERSE }, \
	{ "inverted",	no_argument,		NULL,	SVGARGS_INVERTED }, \
	{ "flamechart",	no_argument,		NULL,	SVGARGS_FLAMECHART }, \
	{ "negate",	no_argument,		NULL,	SVGARGS_NEGATE }, \
	{ "notes",	required_argument,	NULL,	SVGARGS_NOTES }, \
	{ "nameattr",	required_argument,	NULL,	SVGARGS_NAMEATTR }, \
	{ "total",	required_argument,	NULL,	SVGARGS_TOTAL }, \
	{ "factor",	required_argument,	NULL,	SVGARGS_FACTOR }, \
	{ "sort",	required_argument,	NULL,	SVGARGS_SORT }, \
	{ "search-budget", required_argument,	NULL,	SVGARGS_SEARCHBUDGET }, \
	{ "timeline-budget", required_argument,	NULL,	SVGARGS_TLBUDGET }, \
	{ "no-timeline", no_argument,		NULL,	SVGARGS_NOTIMELINE }

struct svgargs {
	struct svg_opts		so;
	struct flame_opts	fo;
	struct palette_opts	po;
	struct timeline_opts	to;
	const char		*bgcolors;	/* --bgcolors, borrowed */
	const char		*nameattr;	/* --nameattr's file, borrowed */
	int			 cp;		/* --cp */
	int			 notimeline;	/* --no-timeline */
};

/* Each option at its default: sorted by name, the hot palette. */
void	 svgargs_init(struct svgargs *);

/*
 * One option getopt gave, with its value arg (--minwidth's "%" is cut
 * off it): 0 when it was the picture's and is kept, 2 when its value
 * is bad (said in one line), -1 when it is not the picture's.
 */
int	 svgargs_option(struct svgargs *, int ch, char *arg);

#endif
