/*
 * fuzz_perfdata: the perf.data reader (perfdata.c, and perfdecode under
 * it) on any bytes, twice: as a regular file (a memfd: pread, the
 * feature sections) and as a pipe's bytes already read (no seeking).
 * Every event the sink gets is read whole, so that a length pointing past
 * its record shows under ASan.
 */
#include <string.h>

#include "fuzz.h"
#include "touchevent.h"
#include "perf/perfdata.h"

static void
one(int fd, const uint8_t *data, size_t size)
{
	struct source_sink sink = { touch, NULL };
	struct perfdata pdata, *pd = &pdata;
	size_t i;

	if (perfdata_init(pd, fd, "fuzz.data", fd < 0 ? data : NULL,
	    fd < 0 ? size : 0) != 0)
		return;
	for (i = 0; i < pd->nevents; i++)
		if (strlen(pd->events[i].name) == (size_t)-1)
			abort();
	perfdata_read(pd, &sink);
	perfdata_summary(pd);
	perfdata_release(pd);
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
