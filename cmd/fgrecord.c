/*
 * fgrecord: sample a program's call stacks with perf_event_open(2) and
 * write them as a text stream (fg-stream(5)). See fgrecord(1).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "record/denied.h"
#include "record/record.h"
#include "record/source.h"
#include "base/version.h"
#include "base/xalloc.h"

enum { OPT_OFFCPU = 256, OPT_WALL, OPT_SAMPLER, OPT_NOSTITCH };

/* Prints the usage: on stdout and exit 0 for --help, else stderr and 2. */
static void __attribute__((noreturn))
usage_exit(int status)
{
	static const char mode[] = "[-q] [--off-cpu | --wall] "
	    "[--sampler perf | ptrace]\n                ";
	static const char opts[] = "[-F hz | -c period] [-e event] "
	    "[--call-graph fp | dwarf[,bytes]]\n"
	    "                [--no-stitch] [-o file] [-d seconds]";

	fprintf(status ? stderr : stdout,
	    "usage: fgrecord %s%s command [arg ...]\n"
	    "       fgrecord %s%s [--any-user] -p pid[,pid ...]\n"
	    "       fgrecord [-q] %s -a\n"
	    "       fgrecord -V | --version\n", mode, opts, mode, opts, opts);
	exit(status);
}

static void __attribute__((noreturn))
usage(void)
{
	usage_exit(2);
}

static uint64_t
parse_u64(const char *s, const char *opt, uint64_t lo, uint64_t hi)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s == '-' || *s == '\0' || *end != '\0' || errno != 0 ||
	    v < lo || v > hi) {
		warnx("%s '%s': expected a whole number from %" PRIu64 " to %"
		    PRIu64, opt, s, lo, hi);
		usage();
	}
	return v;
}

static void
parse_callgraph(const char *s, struct record_opts *o)
{
	if (strcmp(s, "fp") == 0) {
		o->dwarf = 0;
		return;
	}
	if (strncmp(s, "dwarf", 5) == 0 && (s[5] == '\0' || s[5] == ',')) {
		o->dwarf = 1;
		if (s[5] == ',') {
			uint64_t n = parse_u64(s + 6, "--call-graph dwarf,", 8,
			    RECORD_STACK_MAX);

			o->stack_size = (uint32_t)((n + 7) & ~7ULL);
			if (o->stack_size > RECORD_STACK_MAX)
				o->stack_size = RECORD_STACK_MAX;
		}
		return;
	}
	warnx("--call-graph '%s': expected fp, dwarf or dwarf,BYTES", s);
	usage();
}

static void
parse_pids(const char *s, struct record_opts *o)
{
	char *copy = xstrdup(s), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok;
	    tok = strtok_r(NULL, ",", &save)) {
		o->pids = xrealloc(o->pids, (o->npids + 1) * sizeof(*o->pids));
		o->pids[o->npids++] = (pid_t)parse_u64(tok, "-p", 1, INT_MAX);
	}
	free(copy);
	if (o->npids == 0) {
		warnx("-p '%s': expected a PID or a list of PIDs", s);
		usage();
	}
}

/*
 * Chooses the sampler: the one named by --sampler, else perf_event_open
 * where it can record what was asked, else ptrace, saying why in one line.
 */
static void
choose_sampler(struct record_opts *o, const char *name)
{
	char why[512];

	if (name && strcmp(name, "perf") == 0)
		return;
	if (name && strcmp(name, "ptrace") == 0) {
		o->source = &source_ptrace;
		return;
	}
	if (name) {
		warnx("--sampler '%s': expected perf or ptrace", name);
		usage();
	}
	if (o->system_wide || denied_probe(o->mode != RECORD_CPU, why,
	    sizeof(why)) == DENIED_NONE)
		return;
	o->source = &source_ptrace;
	if (!o->quiet)
		warnx("%s: sampling with ptrace instead (user space only, "
		    "more overhead; --sampler=perf insists)", why);
}

/* Is st the null device, /dev/null? */
static int
is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	    minor(st->st_rdev) == 3;
}

/*
 * Opens the output file name for writing, truncated, and returns its
 * descriptor. fgrecord often runs as root: it refuses a symbolic link
 * (whose target could be any file) and anything but a regular file or
 * /dev/null (a FIFO would block, a device would be written to), checked
 * on the file it opens, so that nothing can be swapped in between.
 */
static int
create_output(const char *name)
{
	struct stat st;
	int fd;

	fd = open(name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC, 0666);
	if (fd < 0 && errno == ELOOP)
		errx(2, "cannot write to '%s': it is a symbolic link; name the "
		    "file itself", name);
	if (fd < 0 && errno == ENXIO)	/* a FIFO that nobody reads */
		errx(2, "cannot write to '%s': not a regular file; give a "
		    "regular file, or write to stdout", name);
	if (fd < 0)
		err(2, "cannot create '%s'", name);
	if (fstat(fd, &st) != 0)
		err(2, "fstat '%s'", name);
	if (!S_ISREG(st.st_mode) && !is_null_device(&st))
		errx(2, "cannot write to '%s': not a regular file; give a "
		    "regular file, or write to stdout", name);
	if (S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0)
		err(2, "cannot truncate '%s'", name);
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
		err(2, "fcntl '%s'", name);
	return fd;
}

static char *
join(char *const *argv, int argc)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
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
		{ "sampler",	required_argument, NULL, OPT_SAMPLER },
		{ "no-stitch",	no_argument,	   NULL, OPT_NOSTITCH },
		{ NULL, 0, NULL, 0 }
	};
	struct record_opts o;
	struct record r;
	const char *outname = NULL, *sampler = NULL;
	char *cmdline, *end;
	int ch, status, fflag = 0, eflag = 0;

	memset(&o, 0, sizeof(o));
	o.event = perf_event_find("cpu-clock");
	o.freq = 999;
	o.dwarf = 1;
	o.stack_size = 0;	/* chosen for the mode and the rate below */
	while ((ch = getopt_long(argc, argv, "+aqF:c:e:g:o:d:p:hV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			o.system_wide = 1;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'U':
			o.any_user = 1;
			break;
		case 'F':
			o.freq = parse_u64(optarg, "-F", 1, 1000000);
			o.period = 0;
			fflag = 1;
			break;
		case 'c':
			o.period = parse_u64(optarg, "-c", 1, UINT64_MAX >> 1);
			break;
		case 'e':
			if ((o.event = perf_event_find(optarg)) == NULL) {
				warnx("-e '%s': unknown event; known events: %s",
				    optarg, perf_event_names());
				usage();
			}
			eflag = 1;
			break;
		case 'g':
			parse_callgraph(optarg, &o);
			break;
		case 'o':
			outname = optarg;
			break;
		case 'd':
			errno = 0;
			o.duration = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    !(o.duration > 0) || o.duration > 1e7) {
				warnx("-d '%s': expected a positive number of "
				    "seconds", optarg);
				usage();
			}
			break;
		case 'p':
			parse_pids(optarg, &o);
			break;
		case OPT_OFFCPU:
		case OPT_WALL:
			if (o.mode != RECORD_CPU) {
				warnx("--off-cpu and --wall are exclusive: "
				    "--wall already holds the off-CPU time");
				usage();
			}
			o.mode = ch == OPT_OFFCPU ? RECORD_OFFCPU : RECORD_WALL;
			break;
		case OPT_SAMPLER:
			sampler = optarg;
			break;
		case OPT_NOSTITCH:
			o.no_stitch = 1;
			break;
		case 'h':
			usage_exit(0);
		case 'V':
			version_exit();
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (fflag && o.period) {
		warnx("-F and -c are exclusive: give a frequency or a period");
		usage();
	}
	if (o.mode != RECORD_CPU && eflag) {
		warnx("-e cannot be given with %s: it chooses its own "
		    "events", o.mode == RECORD_WALL ? "--wall" :
		    "--off-cpu");
		usage();
	}
	/*
	 * Every switch out of a thread copies its stack: half the usual copy
	 * keeps a program that switches 50,000 times a second within 1.3
	 * times its own run time (bench/offcpu.sh). On-CPU sampling copies
	 * what the rate allows (record_stack_size).
	 */
	if (o.stack_size == 0 && o.mode != RECORD_CPU)
		o.stack_size = 8192;
	if (o.mode == RECORD_WALL && o.period && o.period < 10000) {
		warnx("-c %" PRIu64 ": with --wall the period is at least 10000 "
		    "(ns of cpu-clock, the kernel's shortest)", o.period);
		usage();
	}
	if (o.mode != RECORD_CPU && o.system_wide) {
		warnx("%s follows a command or -p PID, not -a",
		    o.mode == RECORD_WALL ? "--wall" : "--off-cpu");
		usage();
	}
	if ((argc > 0) + (o.npids > 0) + o.system_wide != 1) {
		warnx("give exactly one of: a command, -p PID, -a");
		usage();
	}
	if (argc > 0)
		o.argv = argv;
	if (o.stack_size == 0)
		o.stack_size = record_stack_size(o.freq, o.period);
	choose_sampler(&o, sampler);
	if (o.source == &source_ptrace && o.system_wide) {
		warnx("--sampler ptrace follows a command or -p PID, not -a");
		usage();
	}

	if (outname && strcmp(outname, "-") != 0) {
		int fd = create_output(outname);

		if ((o.out = fdopen(fd, "w")) == NULL)
			err(2, "cannot create '%s'", outname);
		o.outname = outname;
		o.cmd_stdout = STDOUT_FILENO;
	} else {
		o.out = stdout;
		o.outname = "stdout";
		o.cmd_stdout = STDERR_FILENO;
	}
	setvbuf(o.out, NULL, _IOFBF, 1 << 20);
	cmdline = o.argv ? join(argv, argc) : join(argv - optind, argc + optind);
	o.cmdline = cmdline;

	record_init(&r, &o);
	status = record_run(&r);
	record_release(&r);
	if (fclose(o.out) != 0 && status != 2) {
		warn("write error on '%s'", o.outname);
		status = 2;
	}
	free(cmdline);
	free(o.pids);
	return status;
}
