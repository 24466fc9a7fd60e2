/*
 * source_perfdata: a perf.data file or pipe replayed through the session
 * (perfdata.h reads it), so that the mappings, the unwinder, stitching,
 * the stream and the summary are fgrecord's. Nothing is sampled,
 * launched or attached to: the events are the file's, handed over in
 * one drain.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/xalloc.h"
#include "perf/perfdata.h"
#include "record/source.h"
#include "stream/diag.h"
#include "stream/stream.h"

struct replay {
	struct perfdata	 pd;
	struct source_info info;
	struct stream_event *events;	/* owned: one per event */
	int		 drained;
};

/*
 * A recording with kernel frames but no build ID of its kernel (pipe
 * mode, perf record -B) cannot be checked against this kernel by the
 * build ID; its OSRELEASE can: under another release the running
 * kernel's symbols name its kernel frames wrongly. Said once, at the
 * end, with the host and release that recorded it, when there were
 * kernel frames.
 */
static void
other_kernel(const struct perfdata *pd)
{
	struct utsname u;
	char q[DIAG_QUOTE_SIZE], qr[DIAG_QUOTE_SIZE], qh[DIAG_QUOTE_SIZE];
	const char *h = pd->hostname ? pd->hostname : "";

	if (!pd->kernel_frames || pd->kernel_buildid != NULL ||
	    pd->osrelease == NULL ||
	    pd->osrelease[0] == '\0' || uname(&u) != 0 ||
	    strcmp(pd->osrelease, u.release) == 0)
		return;
	warnx("'%s' was recorded under Linux %s%s%s%s, and this machine runs "
	    "Linux %s; the file holds no build ID of its kernel: its kernel "
	    "frames are named from this machine's /proc/kallsyms, another "
	    "kernel's, and are wrong; run fgsym on the machine that recorded "
	    "it, or pass that kernel's symbols (--kallsyms=FILE)",
	    stream_quote(q, sizeof(q), pd->name, strlen(pd->name), 80),
	    stream_quote(qr, sizeof(qr), pd->osrelease, strlen(pd->osrelease),
	    80), h[0] ? " on '" : "", stream_quote(qh, sizeof(qh), h,
	    strlen(h), 80), h[0] ? "'" : "", u.release);
}

static void
pd_open(struct source *src, const struct source_config *cfg)
{
	struct replay *rp;
	struct perfdata *pd;
	size_t i, kernel = 0;
	int status;

	rp = xcalloc(1, sizeof(*rp));
	pd = &rp->pd;
	status = perfdata_init(pd, cfg->replay_fd, cfg->replay_name,
	    cfg->replay_head, cfg->replay_headlen);
	if (status != 0) {
		/* said; the caller goes on with its other inputs */
		free(rp);
		src->failed = status;
		return;
	}
	rp->events = xcalloc(pd->nevents, sizeof(*rp->events));
	for (i = 0; i < pd->nevents; i++) {
		const struct perf_event_attr *a = &pd->events[i].attr;
		struct stream_event *e = &rp->events[i];

		e->name = pd->events[i].name;
		e->rate_kind = a->freq ? STREAM_RATE_FREQ : STREAM_RATE_PERIOD;
		e->rate = a->sample_period;	/* a union with sample_freq */
		e->dwarf = pd->events[i].dec.dwarf;
		e->stack_size = e->dwarf ? a->sample_stack_user : 0;
		rp->info.dwarf |= e->dwarf;
		kernel += !a->exclude_kernel;
	}
	rp->info.cmdline = pd->cmdline;
	rp->info.events = rp->events;
	rp->info.nevents = pd->nevents;
	rp->info.kernel_buildid = pd->kernel_buildid;
	src->user_only = kernel == 0;
	src->info = &rp->info;
	src->priv = rp;
	if (pd->bad)
		src->partial = 1;
}

static void
pd_nothing(struct source *src)
{
	(void)src;
}

static void
pd_wait(struct source *src, int timeout_ms)
{
	(void)src;
	(void)timeout_ms;
}

static void
pd_drain(struct source *src, uint64_t limit, const struct source_sink *sink)
{
	struct replay *rp = src->priv;

	(void)limit;
	if (rp->drained)
		return;
	rp->drained = 1;
	if (perfdata_read(&rp->pd, sink) != 0)
		src->partial = 1;
	src->bytes = rp->pd.pos;
}

static void
pd_summary(const struct source *src, uint64_t throttled)
{
	const struct replay *rp = src->priv;
	const struct perfdata *pd = &rp->pd;
	char span[64] = "";

	perfdata_summary(pd);
	other_kernel(pd);
	if (pd->throttled_ns)
		snprintf(span, sizeof(span), ", %.3f s without samples in all",
		    pd->throttled_ns / 1e9);
	if (throttled)
		warnx("the kernel throttled sampling %" PRIu64 " time%s while "
		    "perf recorded (a rate above kernel.perf_event_max_sample_"
		    "rate)%s: fewer samples than asked for", throttled,
		    throttled == 1 ? "" : "s", span);
}

static void
pd_close(struct source *src)
{
	struct replay *rp = src->priv;

	perfdata_release(&rp->pd);
	free(rp->events);
	free(rp);
}

const struct source_ops source_perfdata = {
	.name = "perfdata",
	.system_wide = 1,
	.measures_event = NULL,
	.measures = "what perf recorded",
	.limits = "replays a perf.data file",
	.replays = 1,
	.offline = 1,
	.open = pd_open,
	.enable = pd_nothing,
	.wait = pd_wait,
	.drain = pd_drain,
	.disable = pd_nothing,
	.summary = pd_summary,
	.close = pd_close,
};
