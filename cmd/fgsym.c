/*
 * fgsym: symbolize a sample stream (fg-stream(5)) or a perf.data file in
 * process, or, with --annotate, list the hottest instructions of the
 * hottest functions.
 */
#include <err.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cmdfile.h"
#include "base/lineread.h"
#include "base/xalloc.h"
#include "base/version.h"
#include "elf/filesearch.h"
#include "record/replay.h"
#include "stream/sniff.h"
#include "sym/annotate.h"
#include "sym/sym.h"

/* Prints the usage: on stdout and exit 0 for --help, else stderr and 2. */
static void __attribute__((noreturn))
usage(int status)
{
	usage_exit(status,
	    "usage: fgsym [--no-inline] [--srcline] [--full-path] [--demangle=short|full|none]\n"
	    "             [--no-demangle] [--keep-hash] [--kallsyms=FILE]\n"
	    "             [--symfs=DIR] [--symbol-dir=DIR ...] [--no-debuginfod]\n"
	    "             [--annotate[=N] | --annotate-to=FILE[,N]] [file ...]\n"
	    "       fgsym -V | --version\n");
}

static void
leaf_add(void *arg, const char *dso, uint64_t vaddr)
{
	annotate_add(arg, dso, vaddr);
}

/* The annotator reads the files fgsym has loaded. */
static int
file_lend(void *arg, const char *dso, struct elfsym_file *ef)
{
	return sym_file(arg, dso, ef);
}

static const struct kallsyms *
kallsyms_lend(void *arg)
{
	return sym_kallsyms(arg);
}

/*
 * Symbolizes the perf data (perf.data, or perf record -o -) on fd in this
 * process: fgrecord's session replays it (record/replay.h) and hands each
 * sample, as a struct, to the symbolizer (sym_sink_init). head is what
 * was read of fd already. Returns the session's status: 0, 1 (part of the
 * input bad, said), or 2 (the stream could not be written, said).
 */
static int
perfdata_stream(struct sym *s, int fd, const char *name, const char *head,
    size_t headlen, FILE *out)
{
	struct sample_sink symsink;
	char *why;
	int rc;

	sym_sink_init(s, out, &symsink);
	rc = replay_perfdata(fd, name, head, headlen, &symsink,
	    sym_search(s), &why);
	if (rc == -1)
		errx(2, "%s", why);
	sym_sink_release(&symsink);
	return rc;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "no-inline",	 no_argument,		NULL, 'I' },
		{ "srcline",	 no_argument,		NULL, 's' },
		{ "full-path",	 no_argument,		NULL, 'F' },
		{ "demangle",	 required_argument,	NULL, 'd' },
		{ "no-demangle", no_argument,		NULL, 'D' },
		{ "keep-hash",	 no_argument,		NULL, 'H' },
		{ "kallsyms",	 required_argument,	NULL, 'k' },
		{ "annotate",	 optional_argument,	NULL, 'a' },
		{ "annotate-to", required_argument,	NULL, 'A' },
		{ "symfs",	 required_argument,	NULL, 'R' },
		{ "symbol-dir",	 required_argument,	NULL, 'S' },
		{ "no-debuginfod", no_argument,		NULL, 'N' },
		VERSION_LONGOPTS
	};
	static char obuf[1 << 20];
	struct sym_opts o = SYM_OPTS_DEFAULT;
	struct annotate_opts ao = { .top = 5 };
	struct annotate *an = NULL;
	struct lineread lr;
	struct sym *s;
	const char *listing = NULL, **dirs = NULL;
	size_t ndirs = 0, dircap = 0;
	FILE *lfp = NULL;
	char *why;
	int ch, fd, i, rc, rval = 0, annotate = 0;

	/*
	 * When the reader of the output goes away (| head), die of SIGPIPE
	 * quietly, as cat(1) does, even where the parent ignored it.
	 */
	signal(SIGPIPE, SIG_DFL);
	while ((ch = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'I':
			o.inlines = 0;
			break;
		case 's':
			o.srcline = 1;
			break;
		case 'F':
			o.full_path = 1;
			break;
		case 'd':
			if (strcmp(optarg, "none") == 0) {
				o.demangle = 0;
			} else if (strcmp(optarg, "short") == 0 ||
			    strcmp(optarg, "full") == 0) {
				o.demangle = 1;
				o.full_names = optarg[0] == 'f';
			} else
				errx(2, "--demangle: '%s' is not a style: use "
				    "short, full or none", optarg);
			break;
		case 'D':
			o.demangle = 0;
			break;
		case 'H':
			o.keep_hash = 1;
			break;
		case 'k':
			o.kallsyms = optarg;
			break;
		case 'R':
			if (filesearch_opt_dir("--symfs", optarg, &why))
				errx(2, "%s", why);
			o.symfs = optarg;
			break;
		case 'S':
			if (filesearch_opt_dir("--symbol-dir", optarg, &why))
				errx(2, "%s", why);
			GROW(dirs, ndirs + 1, dircap);
			dirs[ndirs++] = optarg;
			break;
		case 'N':
			o.no_debuginfod = 1;
			break;
		case 'a':
			annotate = 1;
			if (optarg != NULL && annotate_opt_top("--annotate",
			    optarg, &ao.top, &why))
				errx(2, "%s", why);
			break;
		case 'A':
			if ((listing = annotate_opt_to(optarg, &ao.top,
			    &why)) == NULL)
				errx(2, "%s", why);
			break;
		default:
			version_or_usage(ch, usage);
		}
	}
	argc -= optind;
	argv += optind;
	o.symdirs = dirs;
	o.nsymdirs = ndirs;
	if (annotate && listing != NULL)
		errx(2, "--annotate and --annotate-to are exclusive: "
		    "use one of them");

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (annotate || listing != NULL) {
		if (listing != NULL)
			lfp = cmdfile_create(listing);
		ao.color = isatty(fileno(annotate ? stdout : lfp));
		ao.kallsyms = o.kallsyms;
		ao.full_names = o.full_names;
		an = annotate_new(&ao);
		o.leaf = leaf_add;
		o.leaf_arg = an;
	}
	o.progress = isatty(STDERR_FILENO);
	s = sym_new(&o);
	if (an != NULL)
		annotate_files(an, file_lend, kallsyms_lend, s);
	for (i = 0; i < (argc ? argc : 1); i++) {
		const char *name, *head;
		enum sniff_kind k;
		size_t n;

		if ((fd = cmdfile_open(argc ? argv[i] : "-", &name)) == -1) {
			rval = 1;
			continue;
		}
		lineread_init(&lr, fd, name);
		n = lineread_peek(&lr, 16, &head);
		k = sniff(head, n, SNIFF_STREAM, NULL);
		if (k == SNIFF_PERFDATA || k == SNIFF_PERFPIPE) {
			rc = perfdata_stream(s, fd, name, head, n, annotate ?
			    NULL : stdout);
			if (rc == 2)
				exit(2);	/* said: no perf data it reads,
						   or a write failed */
			rval |= rc;
			rc = 0;
		} else if (sniff_refuse(&lr, SNIFF_STREAM, "fgsym") != 0)
			exit(2);	/* no stream at all: said, none of it written */
		else
			rc = sym_stream(s, &lr, annotate ? NULL : stdout);
		if (rc == -1)
			cmdfile_write_failed(CMDFILE_STDOUT);
		if (rc == -2) {
			cmdfile_read_failed(name, lr.error);
			rval = 1;
		}
		lineread_release(&lr);
		cmdfile_close(fd);
	}
	if (sym_finish(s) != 0)
		rval = 1;
	if (an != NULL) {
		FILE *out = annotate ? stdout : lfp;
		const char *oname = annotate ? CMDFILE_STDOUT : listing;

		if (annotate_write(an, out) != 0)
			cmdfile_write_failed(oname);
		cmdfile_finish(out, oname);
		if (annotate_bad_files(an) > 0)
			rval = 1;
		if (lfp != NULL && fclose(lfp) != 0)
			cmdfile_write_failed(listing);
		annotate_free(an);
	}
	sym_free(s);
	free(dirs);
	cmdfile_finish(stdout, CMDFILE_STDOUT);
	return rval;
}
