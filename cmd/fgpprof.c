/*
 * fgpprof: convert sample streams (fgrecord, fgsym, perf script) and
 * perf data (perf.data, perf record -o -, symbolized here) into one
 * gzipped pprof profile (profile.proto), for go tool pprof, Grafana
 * Pyroscope, Parca and the other readers of that format.
 */
#include <err.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/cmdfile.h"
#include "base/version.h"
#include "pprof/pprof.h"
#include "stream/diag.h"
#include "stream/sniff.h"

/* Prints the usage: on stdout and exit 0 for --help, else stderr and 2. */
static void __attribute__((noreturn))
usage(int status)
{
	usage_exit(status,
	    "usage: fgpprof [file ...]\n"
	    "       fgpprof -V | --version\n");
}

static const struct option longopts[] = {
	VERSION_LONGOPTS
};

int
main(int argc, char *argv[])
{
	struct pprof p;
	char *stdin_only[] = { "-", NULL };
	const char *name;
	int ch, rval = 0, i, fd, r;

	signal(SIGPIPE, SIG_DFL);
	while ((ch = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (ch) {
		default:	version_or_usage(ch, usage);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		argv = stdin_only;
	if (isatty(STDOUT_FILENO))
		errx(2, "the profile is binary: redirect standard output to a "
		    "file (fgpprof rec.txt > app.pb.gz)");

	pprof_init(&p);
	for (i = 0; argv[i] != NULL; i++) {
		if ((fd = cmdfile_open(argv[i], &name)) == -1)
			r = 1;
		else
			r = pprof_stream(&p, fd, name);
		if (r == SNIFF_REFUSED)
			exit(2);	/* no stream at all: said, nothing written */
		rval = r > rval ? r : rval;
		cmdfile_close(fd);
	}
	if (rval == 0 && p.prof.nsamples == 0)
		stream_diag_empty(NULL);	/* not bad input: exit 0 */
	if (pprof_write(&p, stdout) == -1)
		cmdfile_write_failed(CMDFILE_STDOUT);
	cmdfile_finish(stdout, CMDFILE_STDOUT);
	if (p.prof.saturated)
		rval = 1;
	pprof_release(&p);
	return rval;
}
