/*
 * svgargs: fgsvg's picture options read into the drawing libraries'
 * options (svgargs.h).
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "svg/svgargs.h"

/*
 * Reads number option opt within [lo, hi]; a bad value is said in one
 * line and clears *ok.
 */
static double
number(int *ok, const char *opt, const char *s, double lo, double hi)
{
	double v;

	if (num_real(s, lo, hi, &v) == 0)
		return v;
	warnx("--%s '%s' is not a number from %.15g to %.15g", opt, s, lo,
	    hi);
	*ok = 0;
	return 0;
}

void
svgargs_init(struct svgargs *a)
{
	memset(a, 0, sizeof(*a));
	svg_opts_default(&a->so);
	a->fo.sort = FLAME_SORT_NAME;
	a->po.scheme = "hot";
}

int
svgargs_option(struct svgargs *a, int ch, char *arg)
{
	char *why;
	size_t n;
	int ok = 1;

	switch (ch) {
	case SVGARGS_TITLE:	a->so.title = arg; break;
	case SVGARGS_SUBTITLE:	a->so.subtitle = arg; break;
	case SVGARGS_WIDTH:
		a->so.width = (int)number(&ok, "width", arg, 21, 1000000);
		break;
	case SVGARGS_HEIGHT:
		a->so.frameheight = (int)number(&ok, "height", arg, 1, 100000);
		break;
	case SVGARGS_MINWIDTH:
		n = strlen(arg);
		a->so.minwidth_pct = n > 0 && arg[n - 1] == '%';
		if (a->so.minwidth_pct)
			arg[n - 1] = '\0';
		a->so.minwidth = number(&ok, "minwidth", arg, 0,
		    a->so.minwidth_pct ? 100 : 1e9);
		break;
	case SVGARGS_FONTTYPE:	a->so.fonttype = arg; break;
	case SVGARGS_FONTSIZE:
		a->so.fontsize = number(&ok, "fontsize", arg, 0.1, 1000);
		break;
	case SVGARGS_FONTWIDTH:
		a->so.fontwidth = number(&ok, "fontwidth", arg, 0.01, 100);
		break;
	case SVGARGS_COUNTNAME:
		/* "ns": the counts are nanoseconds, shown as time */
		a->so.countname = arg;
		a->so.timens = strcmp(arg, "ns") == 0;
		break;
	case SVGARGS_NAMETYPE:	a->so.nametype = arg; break;
	case SVGARGS_COLORS:
		if (palette_scheme_check(arg, &why) != 0) {
			warnx("%s", why);
			free(why);
			return 2;
		}
		a->po.scheme = arg;
		break;
	case SVGARGS_BGCOLORS:	a->bgcolors = arg; break;
	case SVGARGS_HASH:	a->po.hash = 1; break;
	case SVGARGS_RANDOM:	a->po.random = 1; break;
	case SVGARGS_CP:	a->cp = 1; break;
	case SVGARGS_REVERSE:	a->fo.reverse = a->so.reverse = 1; break;
	case SVGARGS_INVERTED:	a->so.inverted = 1; break;
	case SVGARGS_FLAMECHART: a->fo.flamechart = a->so.flamechart = 1; break;
	case SVGARGS_NEGATE:	a->so.negate = 1; break;
	case SVGARGS_NOTES:	a->so.notes = arg; break;
	case SVGARGS_NAMEATTR:	a->nameattr = arg; break;
	case SVGARGS_TOTAL:
		a->so.total = number(&ok, "total", arg, 0, 1e300);
		break;
	case SVGARGS_FACTOR:
		a->so.factor = number(&ok, "factor", arg, 1e-300, 1e300);
		break;
	case SVGARGS_SORT:
		if (strcmp(arg, "name") == 0)
			a->fo.sort = FLAME_SORT_NAME;
		else if (strcmp(arg, "weight") == 0)
			a->fo.sort = FLAME_SORT_WEIGHT;
		else {
			warnx("--sort '%s' is not a sort order; use name or "
			    "weight", arg);
			return 2;
		}
		break;
	case SVGARGS_SEARCHBUDGET:
		a->so.search_budget = (size_t)(number(&ok, "search-budget",
		    arg, 0, 65536) * 1048576);
		break;
	case SVGARGS_TLBUDGET:
		/* 0 is no budget to fit: as small as it gets */
		a->to.budget = (size_t)(number(&ok, "timeline-budget", arg, 0,
		    65536) * 1048576);
		if (a->to.budget == 0)
			a->to.budget = 1;
		break;
	case SVGARGS_NOTIMELINE: a->notimeline = 1; break;
	default:
		return -1;
	}
	return ok ? 0 : 2;
}
