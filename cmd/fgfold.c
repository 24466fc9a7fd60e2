/*
 * fgfold: collapse sample streams (perf script, fgrecord, fgsym) into
 * folded stacks; merge folded files; make differential folded files;
 * compare two sets of runs.
 */
#include <err.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cmdfile.h"
#include "base/num.h"
#include "base/version.h"
#include "base/xalloc.h"
#include "fold/cmprun.h"
#include "fold/top.h"
#include "fold/write.h"
#include "profile/cmpargs.h"
#include "profile/compare.h"
#include "profile/fold.h"
#include "profile/foldperf.h"
#include "stream/sniff.h"

/* Prints the usage: on stdout and exit 0 for --help, else stderr and 2. */
static void __attribute__((noreturn))
usage(int status)
{
	usage_exit(status,
	    "usage: fgfold [--pid | --tid] [--kernel] [--jit] [--inline-mark] [--all]\n"
	    "              [--addrs] [--srcline] [--period] [--no-comm]\n"
	    "              [--objects] [--inuse]\n"
	    "              [--event-filter=EVENT] [--skip-after=FUNC]\n"
	    "              [--top=N [--own=CRATE ...]] [file ...]\n"
	    "       fgfold --folded [--top=N [--own=CRATE ...]] [file ...]\n"
	    "       fgfold --diff [-n] [-s] before after\n"
	    "       fgfold --compare [--self] [--per=N|FILE] [--normalize=share|median]\n"
	    "              [--min-change=PCT] [--fail-slower=PCT [--gate=all|functions]]\n"
	    "              [--own=CRATE ...] [--event-filter=EVENT] [--objects] [--inuse]\n"
	    "              before ... -- after ...\n"
	    "       fgfold -V | --version\n");
}

enum {
	OPT_PID = 256, OPT_TID, OPT_KERNEL, OPT_JIT, OPT_ALL, OPT_ADDRS,
	OPT_EVENT, OPT_SRCLINE, OPT_INLINE_MARK, OPT_PERIOD, OPT_SKIP_AFTER,
	OPT_NO_COMM, OPT_FOLDED, OPT_DIFF, OPT_TOP, OPT_OWN, OPT_FAIL_SLOWER,
	OPT_GATE
};

static const struct option longopts[] = {
	{ "pid",		no_argument,		NULL, OPT_PID },
	{ "tid",		no_argument,		NULL, OPT_TID },
	{ "kernel",		no_argument,		NULL, OPT_KERNEL },
	{ "jit",		no_argument,		NULL, OPT_JIT },
	{ "all",		no_argument,		NULL, OPT_ALL },
	{ "addrs",		no_argument,		NULL, OPT_ADDRS },
	{ "event-filter",	required_argument,	NULL, OPT_EVENT },
	{ "srcline",		no_argument,		NULL, OPT_SRCLINE },
	{ "inline-mark",	no_argument,		NULL, OPT_INLINE_MARK },
	{ "period",		no_argument,		NULL, OPT_PERIOD },
	{ "skip-after",		required_argument,	NULL, OPT_SKIP_AFTER },
	{ "no-comm",		no_argument,		NULL, OPT_NO_COMM },
	{ "folded",		no_argument,		NULL, OPT_FOLDED },
	{ "diff",		no_argument,		NULL, OPT_DIFF },
	{ "normalize",		optional_argument,	NULL, 'n' },
	{ "strip-hex",		no_argument,		NULL, 's' },
	{ "top",		required_argument,	NULL, OPT_TOP },
	{ "own",		required_argument,	NULL, OPT_OWN },
	CMPARGS_LONGOPTS,
	{ "fail-slower",	required_argument,	NULL, OPT_FAIL_SLOWER },
	{ "gate",		required_argument,	NULL, OPT_GATE },
	VERSION_LONGOPTS
};

int
main(int argc, char *argv[])
{
	struct fold_opts opts;
	struct cmpargs ca;
	struct fold f;
	static char obuf[1 << 20];
	char *stdin_only[] = { "-", NULL }, *end;
	const char *name;
	size_t nskip = 0, nown = 0, top = 0;
	double fail = -1;
	enum compare_gate gate = COMPARE_GATE_ALL;
	int gated = 0;
	int ch, folded = 0, diff = 0, rval = 0, i, fd, r;

	/*
	 * When the reader of the output goes away (| head), die of SIGPIPE
	 * quietly, as cat(1) does, even where the parent ignored it.
	 */
	signal(SIGPIPE, SIG_DFL);
	memset(&opts, 0, sizeof(opts));
	cmpargs_init(&ca, &argc, argv);
	opts.skip_after = xcalloc(argc + 1, sizeof(char *));
	opts.own = xcalloc(argc + 1, sizeof(char *));
	while ((ch = getopt_long(argc, argv, "hnsV", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_PID:		opts.pid = 1; break;
		case OPT_TID:		opts.tid = 1; break;
		case OPT_KERNEL:	opts.kernel = 1; break;
		case OPT_JIT:		opts.jit = 1; break;
		case OPT_ALL:
			opts.kernel = opts.jit = opts.inline_mark = 1;
			break;
		case OPT_ADDRS:		opts.addrs = 1; break;
		case OPT_EVENT:		opts.event = optarg; break;
		case OPT_SRCLINE:	opts.srcline = 1; break;
		case OPT_INLINE_MARK:	opts.inline_mark = 1; break;
		case OPT_PERIOD:	opts.period = 1; break;
		case OPT_SKIP_AFTER:	opts.skip_after[nskip++] = optarg; break;
		case OPT_OWN:
			/* A package name's '-' is '_' in the crate's paths. */
			if (optarg[0] == '\0' || strpbrk(optarg, ":;<> ") != NULL)
				errx(2, "--own: '%s' is not a crate name", optarg);
			for (end = optarg; (end = strchr(end, '-')) != NULL; )
				*end = '_';
			opts.own[nown++] = optarg;
			break;
		case OPT_NO_COMM:	opts.no_comm = 1; break;
		case OPT_FOLDED:	folded = 1; break;
		case OPT_DIFF:		diff = 1; break;
		case 'n':
			if (optarg == NULL)
				opts.normalize = 1;
			else if (cmpargs_option(&ca, CMPARGS_NORMALIZE,
			    optarg) != 0)
				exit(2);
			break;
		case OPT_FAIL_SLOWER:
			if (num_real(optarg, 0, 1e6, &fail) != 0)
				errx(2, "--fail-slower: '%s' is not a percentage",
				    optarg);
			break;
		case OPT_GATE:
			if (strcmp(optarg, "all") == 0)
				gate = COMPARE_GATE_ALL;
			else if (strcmp(optarg, "functions") == 0)
				gate = COMPARE_GATE_FUNCTIONS;
			else
				errx(2, "--gate: '%s' is neither 'all' nor "
				    "'functions'", optarg);
			gated = 1;
			break;
		case 's':		opts.strip_hex = 1; break;
		case OPT_TOP: {
			uint64_t n;

			if (num_arg(optarg, 1, SIZE_MAX, &n) != 0)
				errx(2, "--top: '%s' is not a positive number", optarg);
			top = n;
			break;
		}
		default:
			if ((r = cmpargs_option(&ca, ch, optarg)) == 2)
				exit(2);
			if (r != 0)
				version_or_usage(ch, usage);
		}
	}
	argc -= optind;
	argv += optind;
	opts.nskip_after = nskip;
	opts.nown = nown;
	opts.alloc_objects = ca.opts.alloc_objects;
	opts.alloc_inuse = ca.opts.alloc_inuse;
	if (cmpargs_finish(&ca, argc, argv, fail >= 0 || gated, "--self, "
	    "--per, --normalize=HOW, --min-change, --fail-slower and --gate"))
		exit(2);
	if (nown > 0 && top == 0 && !ca.on)
		errx(2, "--own goes with --top=N or --compare");
	if ((opts.normalize || opts.strip_hex) && !diff)
		errx(2, "-n and -s go with --diff");
	if ((opts.alloc_objects || opts.alloc_inuse) && opts.event != NULL)
		errx(2, "--objects and --inuse choose the heap profile's event: "
		    "not with --event-filter");
	if ((opts.alloc_objects || opts.alloc_inuse) && (diff || folded))
		errx(2, "--objects and --inuse go with a sample stream, not "
		    "folded stacks");
	if (diff && argc != 2)
		errx(2, "--diff takes two folded files, BEFORE and AFTER");
	if (ca.on) {
		if (gated && fail < 0)
			errx(2, "--gate goes with --fail-slower=PCT");
		ca.opts.event = opts.event;
		ca.opts.own = opts.own;
		ca.opts.nown = nown;
		rval = cmprun(&ca.opts, ca.runs, fail, gate);
		goto done;
	}
	if (argc == 0)
		argv = stdin_only;

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	fold_init(&f, &opts);
	for (i = 0; argv[i] != NULL; i++) {
		if ((fd = cmdfile_open(argv[i], &name)) == -1)
			r = 1;
		else if (diff || folded)
			r = fold_folded(&f, fd, name, diff ? i : 0);
		else {
			struct lineread lr;

			lineread_init(&lr, fd, name);
			r = fold_input(&f, &lr, fd, "fgfold");
			lineread_release(&lr);
		}
		if (r == SNIFF_REFUSED)
			exit(2);	/* no stream at all: said, nothing written */
		rval = r > rval ? r : rval;
		cmdfile_close(fd);
	}
	if (!diff && !folded && fold_finish(&f, rval != 0) > rval)
		rval = 1;
	if (top > 0 ? fold_top(&f, stdout, top) : fold_write(&f, stdout, diff))
		cmdfile_write_failed(CMDFILE_STDOUT);
	cmdfile_finish(stdout, CMDFILE_STDOUT);
	fold_release(&f);
done:
	free(opts.skip_after);
	free(opts.own);
	cmpargs_release(&ca);
	return rval;
}
