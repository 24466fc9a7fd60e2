#include <err.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/cmdfile.h"
#include "base/num.h"
#include "profile/cmpargs.h"

void
cmpargs_init(struct cmpargs *a, int *argc, char **argv)
{
	memset(a, 0, sizeof(*a));
	a->opts.min_change = COMPARE_MIN_CHANGE;
	a->opts.q = 0.05;
	a->on = cmdfile_split(argc, argv, "--compare", &a->runs[1]);
}

int
cmpargs_option(struct cmpargs *a, int ch, const char *arg)
{
	switch (ch) {
	case CMPARGS_COMPARE:
		return 0;	/* seen by cmpargs_init */
	case CMPARGS_SELF:
		a->opts.self = 1;
		break;
	case CMPARGS_PER:
		if (compare_per_option(&a->opts, arg, &a->pers) != 0)
			return 2;
		break;
	case CMPARGS_NORMALIZE:
		if (strcmp(arg, "share") == 0)
			a->opts.norm = COMPARE_SHARE;
		else if (strcmp(arg, "median") == 0)
			a->opts.norm = COMPARE_MEDIAN;
		else {
			warnx("--normalize: '%s' is neither 'share' nor "
			    "'median'", arg);
			return 2;
		}
		break;
	case CMPARGS_MIN_CHANGE:
		if (num_real(arg, 0, 1e6, &a->opts.min_change) != 0) {
			warnx("--min-change: '%s' is not a percentage", arg);
			return 2;
		}
		break;
	case CMPARGS_OBJECTS:
		a->opts.alloc_objects = a->heap = 1;
		return 0;
	case CMPARGS_INUSE:
		a->opts.alloc_inuse = a->heap = 1;
		return 0;
	default:
		return -1;
	}
	a->set = 1;
	return 0;
}

int
cmpargs_finish(struct cmpargs *a, int argc, char **argv, int other,
    const char *names)
{
	if (a->on) {
		if (a->runs[1] == NULL || argc == 0 || *a->runs[1] == NULL) {
			warnx("--compare takes the runs before, '--', and the "
			    "runs after");
			return 2;
		}
		a->runs[0] = argv;
		return 0;
	}
	if (a->set || other) {
		warnx("%s go with --compare", names);
		return 2;
	}
	return 0;
}

void
cmpargs_release(struct cmpargs *a)
{
	free(a->pers);
	memset(a, 0, sizeof(*a));
}
