/*
 * driver: feeds "DSO VADDR" lines (VADDR in hex) to the annotate module
 * and prints its listing, so that tests can exercise common/sym/annotate.c
 * without fgsym.
 *
 *	driver [-c] [-n N] < samples
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/annotate.h"

int
main(int argc, char **argv)
{
	struct annotate_opts o = { .top = 5 };
	struct annotate *a;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int ch, rval = 0;

	while ((ch = getopt(argc, argv, "cn:")) != -1)
		switch (ch) {
		case 'c':
			o.color = 1;
			break;
		case 'n':
			o.top = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: driver [-c] [-n N]\n");
			return 2;
		}
	a = annotate_new(&o);
	while ((len = getline(&line, &cap, stdin)) > 0) {
		char *sp, *end;
		uint64_t v;

		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!(sp = strrchr(line, ' '))) {
			warnx("stdin:%lu: want 'DSO VADDR'", lineno);
			rval = 1;
			continue;
		}
		*sp = '\0';
		v = strtoull(sp + 1, &end, 16);
		if (*end) {
			warnx("stdin:%lu: bad address '%s'", lineno, sp + 1);
			rval = 1;
			continue;
		}
		annotate_add(a, line, v);
	}
	free(line);
	if (annotate_write(a, stdout) != 0)
		err(2, "stdout");
	annotate_free(a);
	return rval;
}
