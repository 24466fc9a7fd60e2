#include <err.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/xalloc.h"
#include "record/record.h"
#include "record/source_uprobe.h"

/* The name of o's mode in messages: --off-cpu, --wall or --alloc. */
static const char *
mode_option(const struct record_opts *o)
{
	return o->cfg.mode == RECORD_WALL ? "--wall" :
	    o->cfg.mode == RECORD_ALLOC ? "--alloc" : "--off-cpu";
}

/*
 * --alloc's own checks: a launched command (the library is preloaded at
 * its exec), sampled by bytes (-c), its stack copied. Returns 0, or -1
 * with *why.
 */
static int
alloc_check(struct record_opts *o, char **why)
{
	struct source_config *c = &o->cfg;

	if (c->system_wide) {
		*why = xasprintf("--alloc follows a command or -p PID, not -a");
		return -1;
	}
	c->argv = o->argv;
	if (o->sampler == NULL || strcmp(o->sampler, "alloc") == 0) {
		const char *fix;
		char *need;
		int must;

		need = uprobe_alloc_needed(o->argv, c->npids, &must);
		if (need != NULL && o->sampler == NULL &&
		    uprobe_alloc_allowed(&fix))
			o->sampler = "uprobe";
		else if (need != NULL && must)
			/* not a usage error: the same line without the usage */
			errx(2, "--alloc: %s: %s; %s", need, c->npids > 0 ?
			    "a running process loads no preloaded library" :
			    "it loads no preloaded library, so its allocations "
			    "cannot be seen that way", o->sampler ?
			    "--sampler uprobe probes it instead" : fix);
		free(need);
	}
	if (o->freq_given) {
		*why = xasprintf("--alloc samples by bytes, not at a frequency: "
		    "give -c BYTES (the mean bytes between samples), not -F");
		return -1;
	}
	if (!c->dwarf) {
		*why = xasprintf("--alloc copies the stack and unwinds it with "
		    "the program's CFI: --call-graph fp is not done with it");
		return -1;
	}
	if (c->period == 0)
		c->period = RECORD_ALLOC_PERIOD;
	if (c->stack_size == 0)
		c->stack_size = RECORD_ALLOC_STACK;
	if (c->stack_size > RECORD_ALLOC_STACK_MAX) {
		*why = xasprintf("--call-graph dwarf,%u: --alloc copies at most "
		    "%d bytes of stack", (unsigned)c->stack_size,
		    RECORD_ALLOC_STACK_MAX);
		return -1;
	}
	return 0;
}

int
record_opts_check(struct record_opts *o, char **why)
{
	struct source_config *c = &o->cfg;
	char *note;

	*why = NULL;
	c->alloc_fd = -1;
	if (c->mode == RECORD_ALLOC && alloc_check(o, why) != 0)
		return -1;
	if (o->freq_given && c->period) {
		*why = xasprintf("-F and -c are exclusive: give a frequency or "
		    "a period");
		return -1;
	}
	if (c->mode != RECORD_CPU && o->event_given) {
		*why = xasprintf("-e cannot be given with %s: it chooses its "
		    "own events", mode_option(o));
		return -1;
	}
	/*
	 * Every switch out of a thread copies its stack: half the usual copy
	 * keeps a program that switches 50,000 times a second within 1.3
	 * times its own run time (bench/offcpu.sh). On-CPU sampling copies
	 * what the rate allows (record_stack_size).
	 */
	if (c->stack_size == 0 && c->mode != RECORD_CPU)
		c->stack_size = 8192;
	if (c->mode == RECORD_WALL && c->period && c->period < 10000) {
		*why = xasprintf("-c %" PRIu64 ": with --wall the period is at "
		    "least 10000 (ns of cpu-clock, the kernel's shortest)",
		    c->period);
		return -1;
	}
	if (c->mode != RECORD_CPU && c->system_wide) {
		*why = xasprintf("%s follows a command or -p PID, not -a",
		    mode_option(o));
		return -1;
	}
	if ((o->argv != NULL) + (c->npids > 0) + (c->system_wide != 0) +
	    (c->replay_name != NULL) != 1) {
		*why = xasprintf("give exactly one of: a command, -p PID, -a");
		return -1;
	}
	if (c->stack_size == 0)
		c->stack_size = record_stack_size(c->freq, c->period);
	if (o->max_depth == 0)
		o->max_depth = RECORD_DEPTH_DEFAULT;
	if (o->max_depth > RECORD_DEPTH_MAX) {
		*why = xasprintf("--max-depth %u: at most %d frames (the "
		    "default, %d, holds every compiler's stacks)",
		    o->max_depth, RECORD_DEPTH_MAX, RECORD_DEPTH_DEFAULT);
		return -1;
	}
	if ((o->source = source_choose(c, o->sampler, &note)) == NULL) {
		*why = note;
		return -1;
	}
	if (note && !c->quiet)
		warnx("%s", note);
	free(note);
	return 0;
}

/*
 * Reads s as a whole number of [lo, hi] for option opt into *v. Returns
 * 0, or -1 with *why.
 */
static int
whole(const char *s, const char *opt, uint64_t lo, uint64_t hi,
    uint64_t *v, char **why)
{
	if (num_arg(s, lo, hi, v) == 0)
		return 0;
	*why = xasprintf("%s '%s': expected a whole number from %" PRIu64
	    " to %" PRIu64, opt, s, lo, hi);
	return -1;
}

int
record_opts_callgraph(struct record_opts *o, const char *s, char **why)
{
	uint64_t n;

	if (strcmp(s, "fp") == 0) {
		o->cfg.dwarf = 0;
		return 0;
	}
	if (strncmp(s, "dwarf", 5) != 0 || (s[5] != '\0' && s[5] != ',')) {
		*why = xasprintf("--call-graph '%s': expected fp, dwarf or "
		    "dwarf,BYTES", s);
		return -1;
	}
	o->cfg.dwarf = 1;
	if (s[5] == ',') {
		if (whole(s + 6, "--call-graph dwarf,", 8, RECORD_STACK_MAX, &n,
		    why) != 0)
			return -1;
		o->cfg.stack_size = (uint32_t)((n + 7) & ~7ULL);
		if (o->cfg.stack_size > RECORD_STACK_MAX)
			o->cfg.stack_size = RECORD_STACK_MAX;
	}
	return 0;
}

int
record_opts_pids(const char *s, pid_t **pids, size_t *npids, char **why)
{
	char *copy = xstrdup(s), *tok, *save = NULL;
	uint64_t n;
	int r = 0;

	for (tok = strtok_r(copy, ",", &save); tok && r == 0;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((r = whole(tok, "-p", 1, INT_MAX, &n, why)) == 0) {
			*pids = xrealloc(*pids, (*npids + 1) * sizeof(**pids));
			(*pids)[(*npids)++] = (pid_t)n;
		}
	}
	free(copy);
	if (r == 0 && *npids == 0) {
		*why = xasprintf("-p '%s': expected a PID or a list of PIDs", s);
		r = -1;
	}
	return r;
}
