#include <string.h>

#include "base/cmdfile.h"
#include "record/record.h"
#include "record/replay.h"

int
replay_perfdata(int fd, const char *name, const char *head, size_t headlen,
    const struct sample_sink *sink, const struct filesearch *search,
    char **why)
{
	struct record_opts o;
	struct record r;
	int rc;

	*why = NULL;
	memset(&o, 0, sizeof(o));
	o.cfg.event = perf_event_find("cpu-clock");
	o.cfg.replay_name = name;
	o.cfg.replay_fd = fd;
	o.cfg.replay_head = head;
	o.cfg.replay_headlen = headlen;
	o.outname = CMDFILE_STDOUT;
	if (record_opts_check(&o, why) != 0)
		return -1;
	o.sink = *sink;
	o.search = search;
	record_init(&r, &o);
	rc = record_run(&r);
	record_release(&r);
	return rc;
}
