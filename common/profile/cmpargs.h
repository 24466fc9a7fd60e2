/*
 * cmpargs: --compare's command line, parsed once for fgfold and fgsvg:
 * the runs before and after, and the options that go with them (--self,
 * --per, --normalize, --min-change; --objects and --inuse, a heap
 * profile's value). Each tool keeps its own options.
 *
 *	struct cmpargs a;
 *	cmpargs_init(&a, &argc, argv);		(takes "-- after ..." away)
 *	while ((ch = getopt_long(...)) != -1)	(longopts hold CMPARGS_LONGOPTS,
 *		switch (ch) {			 and "normalize" as the tool has it)
 *		...
 *		default:
 *			if ((r = cmpargs_option(&a, ch, optarg)) == 2) exit(2);
 *			if (r == -1) version_or_usage(ch, usage);
 *		}
 *	if (cmpargs_finish(&a, argc - optind, argv + optind, 0, "...") != 0)
 *		exit(2);
 *	if (a.on) ... a.opts, a.runs ...
 *	cmpargs_release(&a);
 */
#ifndef FG_CMPARGS_H
#define FG_CMPARGS_H

#include "profile/compare.h"

enum {
	CMPARGS_COMPARE = 0x1000,
	CMPARGS_SELF,
	CMPARGS_PER,
	CMPARGS_NORMALIZE,
	CMPARGS_MIN_CHANGE,
	CMPARGS_OBJECTS,
	CMPARGS_INUSE
};

/* --compare's long options but --normalize (fgfold's is -n's too). */
#define CMPARGS_LONGOPTS \
	{ "compare",	no_argument,		NULL, CMPARGS_COMPARE }, \
	{ "self",	no_argument,		NULL, CMPARGS_SELF }, \
	{ "per",	required_argument,	NULL, CMPARGS_PER }, \
	{ "min-change",	required_argument,	NULL, CMPARGS_MIN_CHANGE }, \
	{ "objects",	no_argument,		NULL, CMPARGS_OBJECTS }, \
	{ "inuse",	no_argument,		NULL, CMPARGS_INUSE }

struct cmpargs {
	struct compare_opts opts;	/* min_change and q at their defaults */
	char		**runs[2];	/* before, after: NULL-ended, borrowed
					   from argv */
	double		*pers;		/* --per=FILE's counts, owned */
	int		 on;		/* --compare was given */
	int		 set;		/* an option of --compare's was given */
	int		 heap;		/* --objects or --inuse was given (in
					   opts; fgfold's without --compare
					   too, so not in set) */
};

/*
 * Ready, and --compare's "-- after ..." taken off argv (getopt would take
 * the "--" away): a.on, a.runs[1].
 */
void	 cmpargs_init(struct cmpargs *, int *argc, char **argv);

/*
 * One option getopt gave: 0 when it was --compare's and is kept, 2 when
 * its value is bad (said in one line), -1 when it is not --compare's.
 */
int	 cmpargs_option(struct cmpargs *, int ch, const char *arg);

/*
 * After the options: argv[0 .. argc) are the operands, the runs before
 * with --compare. Returns 0, or 2 (said) when --compare has no runs
 * before, no "--" or none after, or when an option of --compare's (or
 * one of the tool's, other set; names lists them all) came without it.
 * --objects and --inuse alone are the tool's to check (a.heap).
 */
int	 cmpargs_finish(struct cmpargs *, int argc, char **argv, int other,
	    const char *names);

void	 cmpargs_release(struct cmpargs *);

#endif
