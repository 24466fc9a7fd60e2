/*
 * fgsvg: draw folded stacks, or a sample stream folded as fgfold folds it,
 * as an interactive SVG flame graph; a stream's times and threads make
 * the timeline above it (svg/timeline.h). With --compare, two sets of
 * runs compared as fgfold --compare compares them, drawn as one
 * differential graph (svg/cmpdraw.h).
 */
#include <err.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/cmdfile.h"
#include "base/num.h"
#include "base/version.h"
#include "profile/cmpargs.h"
#include "svg/cmpdraw.h"
#include "svg/draw.h"
#include "svg/nameattr.h"
#include "svg/palette.h"
#include "svg/svg.h"

static void __attribute__((noreturn))
usage(int status)
{
	usage_exit(status,
	    "usage: fgsvg [--cp] [--flamechart] [--hash] [--inverted] [--negate]\n"
	    "             [--random] [--reverse] [--bgcolors color] [--colors palette]\n"
	    "             [--countname name] [--factor n] [--fonttype font]\n"
	    "             [--fontsize n] [--fontwidth n] [--height n] [--minwidth n[%%]]\n"
	    "             [--nameattr file] [--nametype text] [--notes text]\n"
	    "             [--search-budget MiB] [--sort name | weight]\n"
	    "             [--subtitle text] [--timeline-budget MiB] [--no-timeline]\n"
	    "             [--title text] [--total n] [--width n]\n"
	    "             [file ...]\n"
	    "       fgsvg --compare [--self] [--per=N|FILE] [--normalize=share|median]\n"
	    "             [--min-change=PCT] [option ...] before ... -- after ...\n"
	    "       fgsvg -V | --version\n");
}

/* Parses a number option within [lo, hi], or exits with the bad value. */
static double
number(const char *opt, const char *s, double lo, double hi)
{
	double v;

	if (num_real(s, lo, hi, &v) != 0)
		errx(2, "--%s '%s' is not a number from %.15g to %.15g", opt, s,
		    lo, hi);
	return v;
}

enum { OPT_TITLE = 256, OPT_SUBTITLE, OPT_WIDTH, OPT_HEIGHT, OPT_MINWIDTH, OPT_FONTTYPE,
	OPT_FONTSIZE, OPT_FONTWIDTH, OPT_COUNTNAME, OPT_NAMETYPE, OPT_COLORS, OPT_BGCOLORS,
	OPT_HASH, OPT_RANDOM, OPT_CP, OPT_REVERSE, OPT_INVERTED, OPT_FLAMECHART, OPT_NEGATE,
	OPT_NOTES, OPT_NAMEATTR, OPT_TOTAL, OPT_FACTOR, OPT_SORT, OPT_SEARCHBUDGET,
	OPT_TLBUDGET, OPT_NOTIMELINE };

static const struct option longopts[] = {
	{ "title",	required_argument,	NULL,	OPT_TITLE },
	{ "subtitle",	required_argument,	NULL,	OPT_SUBTITLE },
	{ "width",	required_argument,	NULL,	OPT_WIDTH },
	{ "height",	required_argument,	NULL,	OPT_HEIGHT },
	{ "minwidth",	required_argument,	NULL,	OPT_MINWIDTH },
	{ "fonttype",	required_argument,	NULL,	OPT_FONTTYPE },
	{ "fontsize",	required_argument,	NULL,	OPT_FONTSIZE },
	{ "fontwidth",	required_argument,	NULL,	OPT_FONTWIDTH },
	{ "countname",	required_argument,	NULL,	OPT_COUNTNAME },
	{ "nametype",	required_argument,	NULL,	OPT_NAMETYPE },
	{ "colors",	required_argument,	NULL,	OPT_COLORS },
	{ "color",	required_argument,	NULL,	OPT_COLORS },
	{ "bgcolors",	required_argument,	NULL,	OPT_BGCOLORS },
	{ "hash",	no_argument,		NULL,	OPT_HASH },
	{ "random",	no_argument,		NULL,	OPT_RANDOM },
	{ "cp",		no_argument,		NULL,	OPT_CP },
	{ "reverse",	no_argument,		NULL,	OPT_REVERSE },
	{ "inverted",	no_argument,		NULL,	OPT_INVERTED },
	{ "flamechart",	no_argument,		NULL,	OPT_FLAMECHART },
	{ "negate",	no_argument,		NULL,	OPT_NEGATE },
	{ "notes",	required_argument,	NULL,	OPT_NOTES },
	{ "nameattr",	required_argument,	NULL,	OPT_NAMEATTR },
	{ "total",	required_argument,	NULL,	OPT_TOTAL },
	{ "factor",	required_argument,	NULL,	OPT_FACTOR },
	{ "sort",	required_argument,	NULL,	OPT_SORT },
	{ "search-budget", required_argument,	NULL,	OPT_SEARCHBUDGET },
	{ "timeline-budget", required_argument,	NULL,	OPT_TLBUDGET },
	{ "no-timeline", no_argument,		NULL,	OPT_NOTIMELINE },
	{ "normalize",	required_argument,	NULL,	CMPARGS_NORMALIZE },
	CMPARGS_LONGOPTS,
	VERSION_LONGOPTS
};

/* Says *why (freed) unless r is 0; exits 2 when r is 2, else returns r. */
static int
said(int r, char **why)
{
	if (r != 0)
		warnx("%s", *why);
	free(*why);
	if (r == 2)
		exit(2);
	return r;
}

int
main(int argc, char *argv[])
{
	struct flame_opts fo = { .sort = FLAME_SORT_NAME };
	struct palette_opts po = { .scheme = "hot" };
	struct nameattr na;
	struct svg_opts so;
	struct palette pal;
	struct buf out;
	struct draw d;
	struct flame fl;
	struct timeline_opts to = { .budget = 0 };
	struct cmpargs ca;
	struct cmpdraw cd;
	const char *bgcolors = NULL, *nameattr = NULL, *name;
	char *why;
	int ch, cp = 0, fd, rval = 0, i, r, notimeline = 0, cmp;
	size_t n;

	/*
	 * When the reader of the output goes away (| head), die of SIGPIPE
	 * quietly, as cat(1) does, even where the parent ignored it.
	 */
	signal(SIGPIPE, SIG_DFL);
	svg_opts_default(&so);
	cmpargs_init(&ca, &argc, argv);
	cmp = ca.on;
	while ((ch = getopt_long(argc, argv, "V", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_TITLE:		so.title = optarg; break;
		case OPT_SUBTITLE:	so.subtitle = optarg; break;
		case OPT_WIDTH:
			so.width = (int)number("width", optarg, 21, 1000000);
			break;
		case OPT_HEIGHT:
			so.frameheight = (int)number("height", optarg, 1,
			    100000);
			break;
		case OPT_MINWIDTH:
			n = strlen(optarg);
			so.minwidth_pct = n > 0 && optarg[n - 1] == '%';
			if (so.minwidth_pct)
				optarg[n - 1] = '\0';
			so.minwidth = number("minwidth", optarg, 0,
			    so.minwidth_pct ? 100 : 1e9);
			break;
		case OPT_FONTTYPE:	so.fonttype = optarg; break;
		case OPT_FONTSIZE:
			so.fontsize = number("fontsize", optarg, 0.1, 1000);
			break;
		case OPT_FONTWIDTH:
			so.fontwidth = number("fontwidth", optarg, 0.01, 100);
			break;
		case OPT_COUNTNAME:
			/* "ns": the counts are nanoseconds, shown as time */
			so.countname = optarg;
			so.timens = strcmp(optarg, "ns") == 0;
			break;
		case OPT_NAMETYPE:	so.nametype = optarg; break;
		case OPT_COLORS:
			said(palette_scheme_check(optarg, &why), &why);
			po.scheme = optarg;
			break;
		case OPT_BGCOLORS:	bgcolors = optarg; break;
		case OPT_HASH:		po.hash = 1; break;
		case OPT_RANDOM:		po.random = 1; break;
		case OPT_CP:		cp = 1; break;
		case OPT_REVERSE:		fo.reverse = so.reverse = 1; break;
		case OPT_INVERTED:	so.inverted = 1; break;
		case OPT_FLAMECHART:	fo.flamechart = so.flamechart = 1; break;
		case OPT_NEGATE:		so.negate = 1; break;
		case OPT_NOTES:		so.notes = optarg; break;
		case OPT_NAMEATTR:	nameattr = optarg; break;
		case OPT_TOTAL:
			so.total = number("total", optarg, 0, 1e300);
			break;
		case OPT_FACTOR:
			so.factor = number("factor", optarg, 1e-300, 1e300);
			break;
		case OPT_SORT:
			if (strcmp(optarg, "name") == 0)
				fo.sort = FLAME_SORT_NAME;
			else if (strcmp(optarg, "weight") == 0)
				fo.sort = FLAME_SORT_WEIGHT;
			else
				errx(2, "--sort '%s' is not a sort order; use "
				    "name or weight", optarg);
			break;
		case OPT_SEARCHBUDGET:
			so.search_budget = (size_t)(number("search-budget", optarg,
			    0, 65536) * 1048576);
			break;
		case OPT_TLBUDGET:
			/* 0 is no budget to fit: as small as it gets */
			to.budget = (size_t)(number("timeline-budget", optarg,
			    0, 65536) * 1048576);
			if (to.budget == 0)
				to.budget = 1;
			break;
		case OPT_NOTIMELINE:	notimeline = 1; break;
		default:
			if ((r = cmpargs_option(&ca, ch, optarg)) == 2)
				exit(2);
			if (r != 0)
				version_or_usage(ch, usage);
		}
	}
	argc -= optind;
	argv += optind;
	if (cmpargs_finish(&ca, argc, argv, 0, "--self, --per, --normalize "
	    "and --min-change") != 0)
		exit(2);

	said(palette_background(po.scheme, bgcolors, &so.bgcolor1, &so.bgcolor2,
	    &why), &why);
	fo.chain = strcmp(po.scheme, "chain") == 0;
	said(palette_seed(getenv("FGSVG_SEED"), &po.seed, &why), &why);
	if (palette_init(&pal, &po) != 0)
		errx(2, "--colors '%s' is not a palette", po.scheme);
	if (cp && said(palette_cp_load(&pal, PALETTE_CP_FILE, &why), &why))
		rval = 1;
	nameattr_init(&na);
	if (nameattr != NULL) {
		rval |= said(nameattr_opt_load(&na, nameattr, &why), &why);
		so.nameattr = &na;
	}

	fo.ends = !notimeline || cmp;
	flame_init(&fl, &fo);
	draw_init(&d, &fl, &to, notimeline);
	cmpdraw_init(&cd, &ca.opts, &fl);
	signal(SIGBUS, draw_on_sigbus);
	/* a run that cannot be compared: said, nothing written */
	if (cmp && (cmpdraw_read_runs(&cd, ca.runs) != 0 ||
	    cmpdraw_finish(&cd, &so) != 0))
		exit(2);
	for (i = 0; !cmp && i < (argc > 0 ? argc : 1); i++) {	/* none: stdin */
		if ((fd = cmdfile_open(argc > 0 ? argv[i] : "-", &name)) == -1) {
			rval = 1;
			continue;
		}
		r = draw_read(&d, fd, name);
		if (r == 2)
			exit(2);	/* said, nothing written */
		if (r != 0)
			rval = 1;
		cmdfile_close(fd);
	}
	if (!cmp && draw_finish(&d, rval != 0, &so, &pal) != 0)
		rval = 1;

	buf_init_fd(&out, STDOUT_FILENO);
	if (svg_write(&out, &fl, &so, &pal) != 0)
		cmdfile_write_failed(CMDFILE_STDOUT);
	if (cp)
		said(palette_cp_save(&pal, PALETTE_CP_FILE, &why), &why);
	buf_release(&out);
	flame_release(&fl);
	draw_release(&d);
	cmpdraw_release(&cd);
	nameattr_release(&na);
	palette_release(&pal);
	cmpargs_release(&ca);
	return rval;
}
