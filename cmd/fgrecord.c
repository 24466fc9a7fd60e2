/*
 * fgrecord: sample a program's call stacks with perf_event_open(2), or
 * ptrace(2) where that is refused, and write them as a text stream
 * (fg-stream(5)). See fgrecord(1).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cmdfile.h"
#include "base/num.h"
#include "record/record.h"
#include "record/spool.h"
#include "base/version.h"
#include "base/xalloc.h"

enum { OPT_OFFCPU = 256, OPT_WALL, OPT_SAMPLER, OPT_NOSTITCH, OPT_MAXDEPTH,
    OPT_NOBUILDIDCACHE, OPT_FIXEDPERIOD, OPT_RANDOMPERIOD, OPT_ALLOC };

/* Prints the usage: on stdout and exit 0 for --help, else stderr and 2. */
static void __attribute__((noreturn))
usage_status(int status)
{
	static const char mode[] = "[-q] [--off-cpu | --wall] "
	    "[--sampler perf | ptrace]\n                ";
	static const char opts[] = "[-F hz | -c period] [--fixed-period] "
	    "[-e event]\n                [--call-graph fp | dwarf[,bytes]] "
	    "[--no-stitch]\n"
	    "                [--no-buildid-cache] [--max-depth n] [-o file] "
	    "[-d seconds]\n                ";

	usage_exit(status,
	    "usage: fgrecord %s%scommand [arg ...]\n"
	    "       fgrecord %s%s[--any-user] -p pid[,pid ...]\n"
	    "       fgrecord [-q] %s-a\n"
	    "       fgrecord [-q] --alloc [-c bytes] [--call-graph dwarf,bytes] "
	    "[-o file]\n                command [arg ...]\n"
	    "       fgrecord [-q] --alloc [-c bytes] [--call-graph dwarf,bytes] "
	    "[-o file]\n                -p pid[,pid ...]\n"
	    "       fgrecord -V | --version\n", mode, opts, mode, opts, opts);
}

static void __attribute__((noreturn))
usage(void)
{
	usage_status(2);
}

static uint64_t
parse_u64(const char *s, const char *opt, uint64_t lo, uint64_t hi)
{
	uint64_t v;

	if (num_arg(s, lo, hi, &v) != 0) {
		warnx("%s '%s': expected a whole number from %" PRIu64 " to %"
		    PRIu64, opt, s, lo, hi);
		usage();
	}
	return v;
}

/* Says *why (freed) and the usage, unless r is 0. */
static void
check(int r, char **why)
{
	if (r != 0) {
		warnx("%s", *why);
		free(*why);
		usage();
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "call-graph",	required_argument, NULL, 'g' },
		{ "freq",	required_argument, NULL, 'F' },
		{ "count",	required_argument, NULL, 'c' },
		{ "event",	required_argument, NULL, 'e' },
		{ "output",	required_argument, NULL, 'o' },
		{ "duration",	required_argument, NULL, 'd' },
		{ "pid",	required_argument, NULL, 'p' },
		{ "all-cpus",	no_argument,	   NULL, 'a' },
		{ "any-user",	no_argument,	   NULL, 'U' },
		{ "quiet",	no_argument,	   NULL, 'q' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "version",	no_argument,	   NULL, 'V' },
		{ "off-cpu",	no_argument,	   NULL, OPT_OFFCPU },
		{ "wall",	no_argument,	   NULL, OPT_WALL },
		{ "alloc",	no_argument,	   NULL, OPT_ALLOC },
		{ "sampler",	required_argument, NULL, OPT_SAMPLER },
		{ "no-stitch",	no_argument,	   NULL, OPT_NOSTITCH },
		{ "no-buildid-cache", no_argument, NULL, OPT_NOBUILDIDCACHE },
		{ "max-depth",	required_argument, NULL, OPT_MAXDEPTH },
		{ "fixed-period", no_argument,	   NULL, OPT_FIXEDPERIOD },
		{ "random-period", no_argument,	   NULL, OPT_RANDOMPERIOD },
		{ NULL, 0, NULL, 0 }
	};
	struct record_opts o;
	struct record r;
	struct spool sp;
	const char *outname = NULL;
	char *cmdline, *why;
	pid_t *pids = NULL;
	int ch, outfd, status;

	memset(&o, 0, sizeof(o));
	/* random intervals by default; --fixed-period keeps perf's */
	o.cfg.fixed_period = 0;
	o.cfg.event = perf_event_find("cpu-clock");
	o.cfg.freq = 999;
	o.cfg.dwarf = 1;
	o.cfg.stack_size = 0;	/* record_opts_check chooses it */
	while ((ch = getopt_long(argc, argv, "+aqF:c:e:g:o:d:p:hV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			o.cfg.system_wide = 1;
			break;
		case 'q':
			o.cfg.quiet = 1;
			break;
		case 'U':
			o.any_user = 1;
			break;
		case 'F':
			o.cfg.freq = parse_u64(optarg, "-F", 1, 1000000);
			o.cfg.period = 0;
			o.freq_given = 1;
			break;
		case 'c':
			o.cfg.period = parse_u64(optarg, "-c", 1,
			    UINT64_MAX >> 1);
			break;
		case 'e':
			if ((o.cfg.event = perf_event_find(optarg)) == NULL) {
				warnx("-e '%s': unknown event; known events: %s",
				    optarg, perf_event_names());
				usage();
			}
			o.event_given = 1;
			break;
		case 'g':
			check(record_opts_callgraph(&o, optarg, &why), &why);
			break;
		case 'o':
			outname = optarg;
			break;
		case 'd':
			if (num_real(optarg, 1e-9, 1e7, &o.duration) != 0) {
				warnx("-d '%s': expected a positive number of "
				    "seconds", optarg);
				usage();
			}
			break;
		case 'p':
			check(record_opts_pids(optarg, &pids, &o.cfg.npids,
			    &why), &why);
			o.cfg.pids = pids;
			break;
		case OPT_OFFCPU:
		case OPT_WALL:
		case OPT_ALLOC:
			if (o.cfg.mode != RECORD_CPU) {
				warnx("--off-cpu, --wall and --alloc are "
				    "exclusive%s", ch == OPT_ALLOC ||
				    o.cfg.mode == RECORD_ALLOC ? "" :
				    ": --wall already holds the off-CPU time");
				usage();
			}
			o.cfg.mode = ch == OPT_OFFCPU ? RECORD_OFFCPU :
			    ch == OPT_WALL ? RECORD_WALL : RECORD_ALLOC;
			break;
		case OPT_SAMPLER:
			o.sampler = optarg;
			break;
		case OPT_NOSTITCH:
			o.no_stitch = 1;
			break;
		case OPT_NOBUILDIDCACHE:
			o.no_buildid_cache = 1;
			break;
		case OPT_FIXEDPERIOD:
			o.cfg.fixed_period = 1;
			break;
		case OPT_RANDOMPERIOD:
			o.cfg.fixed_period = 0;
			break;
		case OPT_MAXDEPTH:	/* its range: record_opts_check */
			o.max_depth = (unsigned)parse_u64(optarg, "--max-depth",
			    1, UINT_MAX);
			break;
		default:
			version_or_usage(ch, usage_status);
		}
	}
	argc -= optind;
	argv += optind;

	if (argc > 0)
		o.argv = argv;
	check(record_opts_check(&o, &why), &why);

	if ((outfd = record_opts_output(&o, outname, &why)) == -1)
		errx(2, "%s", why);
	/* the kernel's rings drained at their pace, not the reader's */
	spool_init(&sp, outfd, o.outname);
	spool_sink(&sp, &o.sink);
	o.spool = &sp;
	cmdline = o.argv ? xjoin(argv, argc) : xjoin(argv - optind,
	    argc + optind);
	o.cmdline = cmdline;

	record_init(&r, &o);
	status = record_run(&r);
	record_release(&r);
	spool_release(&sp);
	if (close(outfd) != 0 && status != 2)
		cmdfile_write_failed(o.outname);
	free(cmdline);
	free(pids);
	return status;
}
