#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "record/denied.h"
#include "record/source.h"

/*
 * Every source, in the order source_choose tries them: perf_event_open
 * first, which samples the kernel too and costs least.
 */
static const struct source_ops *const sources[] = {
	&source_perf,
	&source_ptrace,
	&source_perfdata,
	&source_alloc,
	&source_uprobe,
};

#define NSOURCES	(sizeof(sources) / sizeof(sources[0]))

/*
 * Can ops record cfg? Returns 1, or 0 with *why (when why is not NULL)
 * saying what it cannot do.
 */
static int
can_record(const struct source_ops *ops, const struct source_config *cfg,
    char **why)
{
	if ((cfg->replay_name != NULL) != ops->replays) {
		if (why)
			*why = ops->replays ? xasprintf("--sampler %s replays "
			    "a perf.data file: run fgsym FILE.data", ops->name) :
			    xasprintf("the %s sampler records, it does not "
			    "replay a file", ops->name);
		return 0;
	}
	if ((cfg->mode == RECORD_ALLOC) != ops->alloc) {
		if (why)
			*why = ops->alloc ? xasprintf("--sampler %s records "
			    "heap allocations: give --alloc", ops->name) :
			    xasprintf("the %s sampler does not record heap "
			    "allocations: --alloc has its own", ops->name);
		return 0;
	}
	if (cfg->system_wide && !ops->system_wide) {
		if (why)
			*why = xasprintf("--sampler %s follows a command or -p "
			    "PID, not -a", ops->name);
		return 0;
	}
	if (ops->measures_event && !ops->measures_event(cfg->event)) {
		if (why)
			*why = xasprintf("the %s sampler measures %s only, not "
			    "event '%s': use -e cpu-clock, or --sampler=%s",
			    ops->name, ops->measures, cfg->event->name,
			    sources[0]->name);
		return 0;
	}
	return 1;
}

/*
 * "--sampler 'NAME': expected perf or ptrace", from the table: the
 * samplers, not the replay.
 */
static char *
unknown_name(const char *name)
{
	struct buf b;
	size_t i, n = 0, k = 0;

	for (i = 0; i < NSOURCES; i++)
		n += !sources[i]->replays && !sources[i]->alloc;
	buf_init(&b);
	buf_addf(&b, "--sampler '%s': expected ", name);
	for (i = 0; i < NSOURCES; i++) {
		if (sources[i]->replays || sources[i]->alloc)
			continue;
		if (k > 0)
			buf_adds(&b, k + 1 == n ? " or " : ", ");
		buf_adds(&b, sources[i]->name);
		k++;
	}
	return buf_detach(&b, NULL);
}

const struct source_ops *
source_choose(const struct source_config *cfg, const char *name, char **why)
{
	const struct source_ops *other = NULL;
	char denied[512];
	size_t i;

	*why = NULL;
	if (name) {
		for (i = 0; i < NSOURCES; i++)
			if (strcmp(sources[i]->name, name) == 0)
				return can_record(sources[i], cfg, why) ?
				    sources[i] : NULL;
		*why = unknown_name(name);
		return NULL;
	}
	for (i = 1; i < NSOURCES && other == NULL; i++)
		if (can_record(sources[i], cfg, NULL))
			other = sources[i];
	/* what perf_event_open cannot do at all (a replay): no fallback */
	if (other != NULL && !can_record(sources[0], cfg, NULL))
		return other;
	if (other == NULL || denied_probe(cfg->mode != RECORD_CPU, denied,
	    sizeof(denied)) == DENIED_NONE)
		return sources[0];
	*why = xasprintf("%s: sampling with %s instead (%s; --sampler=%s "
	    "insists)", denied, other->name, other->limits, sources[0]->name);
	return other;
}
