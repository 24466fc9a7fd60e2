/*
 * fgsvg: draw folded stacks as an interactive SVG flame graph.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "svg/flame.h"
#include "stream/folded.h"
#include "base/lineread.h"
#include "svg/palette.h"
#include "svg/svg.h"
#include "base/version.h"
#include "base/xalloc.h"

#define PALETTE_FILE	"palette.map"

static void __attribute__((noreturn))
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: fgsvg [--cp] [--flamechart] [--hash] [--inverted] [--negate]\n"
	    "             [--random] [--reverse] [--bgcolors color] [--colors palette]\n"
	    "             [--countname name] [--factor n] [--fonttype font]\n"
	    "             [--fontsize n] [--fontwidth n] [--height n] [--minwidth n[%%]]\n"
	    "             [--nameattr file] [--nametype text] [--notes text]\n"
	    "             [--search-budget MiB] [--sort name | weight]\n"
	    "             [--subtitle text] [--title text] [--total n] [--width n]\n"
	    "             [file ...]\n"
	    "       fgsvg -V | --version\n");
	exit(status);
}

/* Parses a number option within [lo, hi], or exits with the bad value. */
static double
number(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < lo || v > hi)
		errx(2, "--%s '%s' is not a number from %.15g to %.15g", opt, s,
		    lo, hi);
	return v;
}

enum { O_TITLE = 256, O_SUBTITLE, O_WIDTH, O_HEIGHT, O_MINWIDTH, O_FONTTYPE,
	O_FONTSIZE, O_FONTWIDTH, O_COUNTNAME, O_NAMETYPE, O_COLORS, O_BGCOLORS,
	O_HASH, O_RANDOM, O_CP, O_REVERSE, O_INVERTED, O_FLAMECHART, O_NEGATE,
	O_NOTES, O_NAMEATTR, O_TOTAL, O_FACTOR, O_SORT, O_SEARCHBUDGET, O_HELP, O_VERSION };

static const struct option longopts[] = {
	{ "title",	required_argument,	NULL,	O_TITLE },
	{ "subtitle",	required_argument,	NULL,	O_SUBTITLE },
	{ "width",	required_argument,	NULL,	O_WIDTH },
	{ "height",	required_argument,	NULL,	O_HEIGHT },
	{ "minwidth",	required_argument,	NULL,	O_MINWIDTH },
	{ "fonttype",	required_argument,	NULL,	O_FONTTYPE },
	{ "fontsize",	required_argument,	NULL,	O_FONTSIZE },
	{ "fontwidth",	required_argument,	NULL,	O_FONTWIDTH },
	{ "countname",	required_argument,	NULL,	O_COUNTNAME },
	{ "nametype",	required_argument,	NULL,	O_NAMETYPE },
	{ "colors",	required_argument,	NULL,	O_COLORS },
	{ "color",	required_argument,	NULL,	O_COLORS },
	{ "bgcolors",	required_argument,	NULL,	O_BGCOLORS },
	{ "hash",	no_argument,		NULL,	O_HASH },
	{ "random",	no_argument,		NULL,	O_RANDOM },
	{ "cp",		no_argument,		NULL,	O_CP },
	{ "reverse",	no_argument,		NULL,	O_REVERSE },
	{ "inverted",	no_argument,		NULL,	O_INVERTED },
	{ "flamechart",	no_argument,		NULL,	O_FLAMECHART },
	{ "negate",	no_argument,		NULL,	O_NEGATE },
	{ "notes",	required_argument,	NULL,	O_NOTES },
	{ "nameattr",	required_argument,	NULL,	O_NAMEATTR },
	{ "total",	required_argument,	NULL,	O_TOTAL },
	{ "factor",	required_argument,	NULL,	O_FACTOR },
	{ "sort",	required_argument,	NULL,	O_SORT },
	{ "search-budget", required_argument,	NULL,	O_SEARCHBUDGET },
	{ "help",	no_argument,		NULL,	O_HELP },
	{ "version",	no_argument,		NULL,	O_VERSION },
	{ NULL,		0,			NULL,	0 }
};

/* A mapped input that shrank under us: say so, rather than die of it. */
static void
on_sigbus(int sig)
{
	static const char msg[] = "fgsvg: an input file shrank while it was "
	    "being read; run again on a file that is not being written\n";

	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	_exit(2);
}

/* Reports the first bad line of each kind; returns 1 for a bad line. */
static unsigned long
report_bad(enum folded_status st, const char *name, unsigned long lineno,
    int seen[])
{
	if (st == FOLDED_BLANK)
		return 0;
	if (!seen[st]++)
		warnx("%s:%lu: %s; expected \"STACK COUNT\" or "
		    "\"STACK BEFORE AFTER\"", name, lineno, folded_strerror(st));
	return 1;
}

/*
 * The integer counts summed so far, BEFORE and AFTER (a plain line's count
 * is AFTER): a line that would take a sum past 2^64-1 is skipped and said,
 * as fgfold does, rather than rounded silently.
 */
static uint64_t totals[2];

/* Returns 1 when the line was skipped for that (said once), 0 otherwise. */
static unsigned long
overflows(const struct folded_line *f, const char *name, unsigned long lineno)
{
	static int said;
	int c, to;

	for (c = 0; c < f->ncounts; c++) {
		to = f->ncounts == 2 ? c : 1;
		if (!f->count[c].decimal && totals[to] > UINT64_MAX - f->count[c].u)
			break;
	}
	if (c == f->ncounts) {
		for (c = 0; c < f->ncounts; c++)
			if (!f->count[c].decimal)
				totals[f->ncounts == 2 ? c : 1] += f->count[c].u;
		return 0;
	}
	if (!said++)
		warnx("%s:%lu: the counts add up past 2^64-1 here: skipped the "
		    "line; draw fewer stacks at a time", name, lineno);
	return 1;
}

/*
 * Reads the folded lines of one input into fl; returns the number of bad
 * lines, and sets *failed on a read error. A regular file is mapped, and
 * fl keeps its lines in place: then *lr holds the mapping, to unmap once
 * fl is released.
 */
static unsigned long
readinput(struct flame *fl, int fd, const char *name, int seen[],
    struct lineread *lr, int *failed)
{
	struct folded_line f;
	enum folded_status st;
	unsigned long bad = 0;
	ssize_t len;
	char *line;
	const char *kept;

	if (lineread_map(lr, fd, name) == 0) {
		while ((len = lineread_next_kept(lr, &kept)) >= 0) {
			if ((st = folded_parse(kept, len, &f)) != FOLDED_OK)
				bad += report_bad(st, name, lr->lineno, seen);
			else if (overflows(&f, name, lr->lineno))
				*failed = 1;
			else
				flame_add_kept(fl, kept, len, &f);
		}
		lineread_release(lr);
		return bad;
	}
	while ((len = lineread_next(lr, &line)) >= 0) {
		if ((st = folded_parse(line, len, &f)) != FOLDED_OK)
			bad += report_bad(st, name, lr->lineno, seen);
		else if (overflows(&f, name, lr->lineno))
			*failed = 1;
		else
			flame_add(fl, line, len, &f);
	}
	if (lr->error != 0) {
		warnx("cannot read '%s': %s", name, strerror(lr->error));
		*failed = 1;
	}
	lineread_release(lr);
	return bad;
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
	struct flame fl;
	struct lineread *inputs;
	const char *bgcolors = NULL, *nameattr = NULL, *seedenv;
	char *seedend;
	unsigned long bad = 0, badline;
	int seen[16] = { 0 };
	int ch, cp = 0, fd, rval = 0, i;
	size_t n;

	/*
	 * When the reader of the output goes away (| head), die of SIGPIPE
	 * quietly, as cat(1) does, even where the parent ignored it.
	 */
	signal(SIGPIPE, SIG_DFL);
	svg_opts_default(&so);
	while ((ch = getopt_long(argc, argv, "V", longopts, NULL)) != -1) {
		switch (ch) {
		case O_TITLE:		so.title = optarg; break;
		case O_SUBTITLE:	so.subtitle = optarg; break;
		case O_WIDTH:
			so.width = (int)number("width", optarg, 21, 1000000);
			break;
		case O_HEIGHT:
			so.frameheight = (int)number("height", optarg, 1,
			    100000);
			break;
		case O_MINWIDTH:
			n = strlen(optarg);
			so.minwidth_pct = n > 0 && optarg[n - 1] == '%';
			if (so.minwidth_pct)
				optarg[n - 1] = '\0';
			so.minwidth = number("minwidth", optarg, 0,
			    so.minwidth_pct ? 100 : 1e9);
			break;
		case O_FONTTYPE:	so.fonttype = optarg; break;
		case O_FONTSIZE:
			so.fontsize = number("fontsize", optarg, 0.1, 1000);
			break;
		case O_FONTWIDTH:
			so.fontwidth = number("fontwidth", optarg, 0.01, 100);
			break;
		case O_COUNTNAME:
			/* "ns": the counts are nanoseconds, shown as time */
			so.countname = optarg;
			so.timens = strcmp(optarg, "ns") == 0;
			break;
		case O_NAMETYPE:	so.nametype = optarg; break;
		case O_COLORS:
			if (!palette_scheme_ok(optarg))
				errx(2, "--colors '%s' is not a palette; use hot, "
				    "mem, io, wakeup, chain, java, js, perl, "
				    "rust, python, red, green, blue, aqua, "
				    "yellow, purple or orange", optarg);
			po.scheme = optarg;
			break;
		case O_BGCOLORS:	bgcolors = optarg; break;
		case O_HASH:		po.hash = 1; break;
		case O_RANDOM:		po.random = 1; break;
		case O_CP:		cp = 1; break;
		case O_REVERSE:		fo.reverse = so.reverse = 1; break;
		case O_INVERTED:	so.inverted = 1; break;
		case O_FLAMECHART:	fo.flamechart = so.flamechart = 1; break;
		case O_NEGATE:		so.negate = 1; break;
		case O_NOTES:		so.notes = optarg; break;
		case O_NAMEATTR:	nameattr = optarg; break;
		case O_TOTAL:
			so.total = number("total", optarg, 0, 1e300);
			break;
		case O_FACTOR:
			so.factor = number("factor", optarg, 1e-300, 1e300);
			break;
		case O_SORT:
			if (strcmp(optarg, "name") == 0)
				fo.sort = FLAME_SORT_NAME;
			else if (strcmp(optarg, "weight") == 0)
				fo.sort = FLAME_SORT_WEIGHT;
			else
				errx(2, "--sort '%s' is not a sort order; use "
				    "name or weight", optarg);
			break;
		case O_SEARCHBUDGET:
			so.search_budget = (size_t)(number("search-budget", optarg,
			    0, 65536) * 1048576);
			break;
		case O_HELP:
			usage(0);
		case 'V':
		case O_VERSION:
			version_exit();
		default:
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;

	if (palette_background(po.scheme, bgcolors, &so.bgcolor1,
	    &so.bgcolor2) != 0)
		errx(2, "--bgcolors '%s' is not a background; use yellow, "
		    "blue, green, grey or #rrggbb", bgcolors);
	fo.chain = strcmp(po.scheme, "chain") == 0;
	/* --random's seed: FGSVG_SEED when set (repeatable), else the clock. */
	if ((seedenv = getenv("FGSVG_SEED")) != NULL && *seedenv != '\0') {
		errno = 0;
		po.seed = strtoull(seedenv, &seedend, 10);
		if (errno != 0 || *seedend != '\0' || *seedenv == '-')
			errx(2, "FGSVG_SEED='%s': expected a whole number",
			    seedenv);
	} else
		po.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	if (palette_init(&pal, &po) != 0)
		errx(2, "--colors '%s' is not a palette", po.scheme);
	if (cp) {
		if (palette_load(&pal, PALETTE_FILE, &badline) != 0) {
			if (errno == EINVAL || errno == ELOOP)
				errx(2, "'%s' is not a regular file%s: move it "
				    "away, or run --cp in another directory",
				    PALETTE_FILE, errno == ELOOP ?
				    " but a symbolic link, not followed" : "");
			err(2, "cannot read the palette file '%s'",
			    PALETTE_FILE);
		}
		if (badline != 0) {
			warnx("%s:%lu: expected \"NAME->rgb(R,G,B)\"; line "
			    "skipped", PALETTE_FILE, badline);
			rval = 1;
		}
	}
	nameattr_init(&na);
	if (nameattr != NULL) {
		if (nameattr_load(&na, nameattr, &badline) != 0)
			err(2, "cannot read the --nameattr file '%s'",
			    nameattr);
		if (badline != 0) {
			warnx("%s:%lu: %s; skipped (expected \"NAME<TAB>"
			    "key=value...\")", nameattr, badline, na.why);
			rval = 1;
		}
		so.nameattr = &na;
	}

	flame_init(&fl, &fo);
	signal(SIGBUS, on_sigbus);
	inputs = xcalloc(argc + 1, sizeof(*inputs));
	if (argc == 0)
		bad += readinput(&fl, 0, "<stdin>", seen, &inputs[0], &rval);
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			bad += readinput(&fl, 0, "<stdin>", seen, &inputs[i],
			    &rval);
			continue;
		}
		if ((fd = open(argv[i], O_RDONLY)) < 0) {
			warn("cannot open '%s'", argv[i]);
			rval = 1;
			continue;
		}
		bad += readinput(&fl, fd, argv[i], seen, &inputs[i], &rval);
		close(fd);
	}
	if (bad > 0) {
		warnx("skipped %lu malformed line%s", bad, bad == 1 ? "" : "s");
		rval = 1;
	}
	flame_build(&fl);
	if (so.total > 0 && so.total < fl.time) {
		warnx("--total %g is less than the sum of the counts, %g; "
		    "using the sum", so.total, fl.time);
		so.total = 0;
	}

	buf_init_fd(&out, STDOUT_FILENO);
	if (svg_write(&out, &fl, &so, &pal) != 0)
		err(2, "cannot write the SVG to standard output");
	if (cp && palette_save(&pal, PALETTE_FILE) != 0) {
		if (errno == EINVAL || errno == ELOOP)
			errx(2, "'%s' is no longer a regular file%s: not "
			    "written; move it away", PALETTE_FILE, errno == ELOOP ?
			    " but a symbolic link, not followed" : "");
		err(2, "cannot write the palette file '%s'", PALETTE_FILE);
	}
	buf_release(&out);
	flame_release(&fl);
	for (i = 0; i < argc || i == 0; i++)
		lineread_unmap(&inputs[i]);
	free(inputs);
	nameattr_release(&na);
	palette_release(&pal);
	return rval;
}
