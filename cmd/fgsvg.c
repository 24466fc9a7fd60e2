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
#include "base/version.h"
#include "profile/cmpargs.h"
#include "svg/cmpdraw.h"
#include "svg/draw.h"
#include "svg/nameattr.h"
#include "svg/palette.h"
#include "svg/svg.h"
#include "svg/svgargs.h"

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
	    "             [--min-change=PCT] [--objects] [--inuse] [option ...]\n"
	    "             before ... -- after ...\n"
	    "       fgsvg -V | --version\n");
}

static const struct option longopts[] = {
	SVGARGS_LONGOPTS,
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
	struct svgargs a;
	struct nameattr na;
	struct palette pal;
	struct buf out;
	struct draw d;
	struct flame fl;
	struct cmpargs ca;
	struct cmpdraw cd;
	const char *name;
	char *why;
	int ch, fd, rval = 0, i, r, cmp;

	/*
	 * When the reader of the output goes away (| head), die of SIGPIPE
	 * quietly, as cat(1) does, even where the parent ignored it.
	 */
	signal(SIGPIPE, SIG_DFL);
	svgargs_init(&a);
	cmpargs_init(&ca, &argc, argv);
	cmp = ca.on;
	while ((ch = getopt_long(argc, argv, "V", longopts, NULL)) != -1)
		if ((r = svgargs_option(&a, ch, optarg)) == -1 &&
		    (r = cmpargs_option(&ca, ch, optarg)) == -1)
			version_or_usage(ch, usage);
		else if (r == 2)
			exit(2);
	argc -= optind;
	argv += optind;
	if (cmpargs_finish(&ca, argc, argv, ca.heap, "--self, --per, "
	    "--normalize, --min-change, --objects and --inuse") != 0)
		exit(2);

	said(palette_background(a.po.scheme, a.bgcolors, &a.so.bgcolor1,
	    &a.so.bgcolor2, &why), &why);
	a.fo.chain = strcmp(a.po.scheme, "chain") == 0;
	said(palette_seed(getenv("FGSVG_SEED"), &a.po.seed, &why), &why);
	if (palette_init(&pal, &a.po) != 0)
		errx(2, "--colors '%s' is not a palette", a.po.scheme);
	if (a.cp && said(palette_cp_load(&pal, PALETTE_CP_FILE, &why), &why))
		rval = 1;
	nameattr_init(&na);
	if (a.nameattr != NULL) {
		rval |= said(nameattr_opt_load(&na, a.nameattr, &why), &why);
		a.so.nameattr = &na;
	}

	a.fo.ends = !a.notimeline || cmp;
	flame_init(&fl, &a.fo);
	draw_init(&d, &fl, &a.to, a.notimeline);
	cmpdraw_init(&cd, &ca.opts, &fl);
	signal(SIGBUS, draw_on_sigbus);
	/* a run that cannot be compared: said, nothing written */
	if (cmp && (cmpdraw_read_runs(&cd, ca.runs) != 0 ||
	    cmpdraw_finish(&cd, &a.so) != 0))
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
	if (!cmp && draw_finish(&d, rval != 0, &a.so, &pal) != 0)
		rval = 1;

	buf_init_fd(&out, STDOUT_FILENO);
	if (svg_write(&out, &fl, &a.so, &pal) != 0)
		cmdfile_write_failed(CMDFILE_STDOUT);
	if (a.cp)
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
