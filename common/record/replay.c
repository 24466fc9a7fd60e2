#include <pthread.h>
#include <string.h>

#include "base/cmdfile.h"
#include "base/xalloc.h"
#include "record/record.h"
#include "record/replay.h"
#include "stream/samplepipe.h"

struct replay {
	struct record	 r;
	struct samplepipe pipe;
	int		 rc;
};

/* The replay's thread: the session, then the pipe's end. */
static void *
replay_run(void *arg)
{
	struct replay *rp = arg;

	rp->rc = record_run(&rp->r);
	samplepipe_close(&rp->pipe);
	return NULL;
}

int
replay_perfdata(int fd, const char *name, const char *head, size_t headlen,
    const struct sample_sink *sink, char **why)
{
	struct record_opts o;
	struct replay rp;
	pthread_t t;
	int e;

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
	samplepipe_init(&rp.pipe, sink);
	o.sink = rp.pipe.sink;
	record_init(&rp.r, &o);
	if ((e = pthread_create(&t, NULL, replay_run, &rp)) != 0) {
		*why = xasprintf("pthread_create: %s", strerror(e));
		record_release(&rp.r);
		samplepipe_release(&rp.pipe);
		return -1;
	}
	samplepipe_run(&rp.pipe);
	pthread_join(t, NULL);
	record_release(&rp.r);
	samplepipe_release(&rp.pipe);
	return rp.rc;
}
