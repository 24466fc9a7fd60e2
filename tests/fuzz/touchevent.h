/*
 * touchevent.h: reads every byte a source event points to, so that a
 * length past its record shows under ASan (fuzz_perf, fuzz_perfdata).
 */
#ifndef FG_TOUCHEVENT_H
#define FG_TOUCHEVENT_H

#include <stdlib.h>
#include <string.h>

#include "record/source.h"

static inline void
touch(void *arg, const struct source_event *ev)
{
	volatile unsigned sum = 0;
	size_t i;

	(void)arg;
	switch (ev->kind) {
	case SOURCE_SAMPLE:
		for (i = 0; i < ev->u.sample.nr; i++)
			sum += (unsigned)ev->u.sample.callchain[i];
		for (i = 0; i < ev->u.sample.stack_len; i++)
			sum += ev->u.sample.stack[i];
		sum += (unsigned)strlen(ev->u.sample.event);
		break;
	case SOURCE_MMAP:
		sum += (unsigned)strlen(ev->u.mmap.path);
		if (ev->u.mmap.buildid_len > 20)
			abort();
		for (i = 0; i < ev->u.mmap.buildid_len; i++)
			sum += ev->u.mmap.buildid[i];
		break;
	case SOURCE_COMM:
		sum += (unsigned)strlen(ev->u.comm.name);
		break;
	default:
		break;
	}
	(void)sum;
}

#endif
