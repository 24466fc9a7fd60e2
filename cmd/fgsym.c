/*
 * fgsym: symbolize a sample stream (fg-stream(5)) in process.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lineread.h"
#include "sym.h"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: fgsym [--no-inline] [--srcline] [--full-path] "
	    "[--no-demangle] [--keep-hash]\n"
	    "             [--kallsyms=FILE] [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "no-inline",	no_argument,		NULL, 'I' },
		{ "srcline",	no_argument,		NULL, 's' },
		{ "full-path",	no_argument,		NULL, 'F' },
		{ "no-demangle", no_argument,		NULL, 'D' },
		{ "keep-hash",	no_argument,		NULL, 'H' },
		{ "kallsyms",	required_argument,	NULL, 'k' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL,		0,			NULL, 0 }
	};
	struct sym_opts o = SYM_OPTS_DEFAULT;
	struct lineread lr;
	struct sym *s;
	int ch, fd, i, rc, rval = 0;
	static char obuf[1 << 20];

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
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
		case 'D':
			o.demangle = 0;
			break;
		case 'H':
			o.keep_hash = 1;
			break;
		case 'k':
			o.kallsyms = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	o.progress = isatty(STDERR_FILENO);
	s = sym_new(&o);
	for (i = 0; i < (argc ? argc : 1); i++) {
		const char *name = argc ? argv[i] : "-";

		if (strcmp(name, "-") == 0) {
			fd = STDIN_FILENO;
			name = "<stdin>";
		} else if ((fd = open(name, O_RDONLY | O_CLOEXEC)) == -1) {
			warn("'%s'", name);
			rval = 1;
			continue;
		}
		lineread_init(&lr, fd, name);
		rc = sym_stream(s, &lr, stdout);
		if (rc == -1)
			err(2, "write error on standard output");
		if (rc == -2) {
			warnx("'%s': read error: %s", name, strerror(lr.error));
			rval = 1;
		}
		lineread_release(&lr);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	if (sym_finish(s) != 0)
		rval = 1;
	sym_free(s);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "write error on standard output");
	return rval;
}
