/*
 * fuzz_perfdata: the perf.data reader (perfdata.c, and perfdecode under
 * it) on any bytes, twice: as a regular file (a memfd: pread, the
 * feature sections) and as a pipe's bytes already read (no seeking).
 * Every event the sink gets is read whole, so that a length pointing past
 * its record shows under ASan.
 */
#include <string.h>

#include "fuzz.h"
#include "record/perfdata.h"

static void
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

static void
one(int fd, const uint8_t *data, size_t size)
{
	struct source_sink sink = { touch, NULL };
	struct perfdata *pd;
	size_t i;
	int st;

	pd = perfdata_open(fd, "fuzz.data", fd < 0 ? data : NULL,
	    fd < 0 ? size : 0, &st);
	if (pd == NULL)
		return;
	for (i = 0; i < pd->nevents; i++)
		if (strlen(pd->events[i].name) == (size_t)-1)
			abort();
	perfdata_read(pd, &sink);
	perfdata_summary(pd);
	perfdata_free(pd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_fd(data, size);

	one(fd, data, size);
	close(fd);
	one(-1, data, size);
	return 0;
}
