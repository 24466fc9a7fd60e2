#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "base/buf.h"
#include "base/str.h"
#include "perf/perf.h"
#include "perf/perfdata.h"
#include "perf/perfdata_impl.h"
#include "stream/diag.h"

static const char *const type_names[PD_TYPES] = {
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PD_AUXTRACE] = "AUXTRACE",
	[PD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PD_STAT_CONFIG] = "STAT_CONFIG",
	[PD_STAT] = "STAT",
	[PD_STAT_ROUND] = "STAT_ROUND",
};

int
perfdata_init(struct perfdata *pd, int fd, const char *name, const void *head,
    size_t headlen)
{
	unsigned char h0[FILE_HEADER_SIZE];
	char q[DIAG_QUOTE_SIZE];
	struct stat st;
	uint64_t hsize;
	ssize_t n;
	size_t i;
	int status = 2;

	memset(pd, 0, sizeof(*pd));
	pd->name = name;
	pd->fd = fd;
	pd->head = head;
	pd->headlen = headlen;
	hashtab_init(&pd->ididx, 64);
	hashtab_init(&pd->bididx, 64);
	hashtab_init(&pd->throttleidx, 16);
	perfqueue_init(&pd->queue, PERFDATA_QUEUE_MAX);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		pd->seekable = 1;
		pd->file_size = (uint64_t)st.st_size;
	}
	if ((n = pd_read(pd, h0, PIPE_HEADER_SIZE)) < 0)
		goto fail;
	if (n >= 8 && (memcmp(h0, "2ELIFREP", 8) == 0 ||
	    memcmp(h0, "ELIFREP", 7) == 0)) {
		warnx("'%s' is a big-endian perf.data (recorded on another "
		    "kind of machine): fgsym reads little-endian ones only; "
		    "run perf script on a big-endian machine", pd_qname(pd, q));
		goto fail;
	}
	if (n >= 8 && memcmp(h0, "PERFFILE", 8) == 0) {
		warnx("'%s' is a perf.data of the first format (PERFFILE, "
		    "before Linux 3.0): fgsym reads PERFILE2 only; record "
		    "again", pd_qname(pd, q));
		goto fail;
	}
	if (n < 8 || memcmp(h0, "PERFILE2", 8) != 0) {
		warnx("'%s' is not perf data (no PERFILE2 at its start)",
		    pd_qname(pd, q));
		goto fail;
	}
	status = 1;	/* perf data, bad */
	if (n < PIPE_HEADER_SIZE) {
		pd_bad_at(pd, (uint64_t)n, "the file ends in its header: nothing "
		    "to read (cut short?)");
		goto fail;
	}
	memcpy(&hsize, h0 + 8, 8);
	if (hsize == PIPE_HEADER_SIZE) {
		pd->pipe = 1;
		pd->data_off = PIPE_HEADER_SIZE;
		pd->data_end = UINT64_MAX;
	} else {
		n = pd_read(pd, h0 + PIPE_HEADER_SIZE, sizeof(h0) -
		    PIPE_HEADER_SIZE);
		if (n < 0)
			goto fail;
		if ((size_t)n < sizeof(h0) - PIPE_HEADER_SIZE) {
			pd_bad_at(pd, PIPE_HEADER_SIZE + (uint64_t)n, "the file "
			    "ends in its header: nothing to read (cut short?)");
			goto fail;
		}
		if (pd_file_header(pd, h0) != 0)
			goto fail;
	}
	pd->bufoff = pd->pos;
	if (pd->pipe) {
		/* the attributes and features come as records */
		perfdata_read(pd, NULL);
		if (pd->nevents == 0 && pd->bad)
			goto fail;	/* said */
		if (pd->nevents == 0) {
			pd_bad_at(pd, pd->bufoff + pd->bufpos, "no event "
			    "attributes before the data: nothing can be read%s",
			    pd->eof ? " (cut short?)" : "; record again");
			goto fail;
		}
	}
	for (i = 0; i < pd->nevents; i++)
		pd->events[i].dec.event = pd->events[i].name;
	return 0;
fail:
	perfdata_release(pd);
	return status;
}

int
perfdata_read(struct perfdata *pd, const struct source_sink *sink)
{
	struct perf_event_header h;
	char q[DIAG_QUOTE_SIZE], why[160];
	size_t have;

	pd->sink = sink;
	for (;;) {
		uint64_t off, extra;
		const unsigned char *p;

		/* pipe mode: open reads the header records only */
		if (sink == NULL && pd->init_done)
			break;
		have = pd_need(pd, sizeof(h));
		off = pd->bufoff + pd->bufpos;
		if (have == 0 && pd->data_end != UINT64_MAX &&
		    off < pd->data_end && !pd->cut && sink != NULL)
			pd_bad_at(pd, off, "the data ends %" PRIu64 " bytes before "
			    "the end of its section: cut short; the samples "
			    "before are kept", pd->data_end - off);
		if (have == 0)
			break;
		if (have < sizeof(h)) {
			if (!pd->cut)	/* else said: the file was cut */
				pd_bad_at(pd, off, "the data ends in a record's "
				    "header (%zu bytes of 8): cut short; the "
				    "samples before are kept", have);
			break;
		}
		p = pd->buf + pd->bufpos;
		memcpy(&h, p, sizeof(h));
		if (sink == NULL && h.type < PD_HEADER_ATTR) {
			pd->init_done = 1;	/* the data: left for the caller */
			break;
		}
		if (h.size < sizeof(h)) {
			snprintf(why, sizeof(why), "a record of size %u (type "
			    "%u)", h.size, h.type);
			if (pd_corrupt_at(pd, off, why) == 0)
				continue;
			break;
		}
		if (pd->data_end != UINT64_MAX && off + h.size > pd->data_end) {
			if (pd->cut)	/* said: the file was cut */
				break;
			snprintf(why, sizeof(why), "a record of %u bytes "
			    "(type %u) goes past the data section's end at %"
			    PRIu64, h.size, h.type, pd->data_end);
			if (pd_corrupt_at(pd, off, why) == 0)
				continue;
			break;
		}
		if ((have = pd_need(pd, h.size)) < h.size) {
			if (!pd->cut)
				pd_bad_at(pd, off, "the data ends in a record of "
				    "%u bytes (type %u), %zu of them there: cut "
				    "short; the samples before are kept", h.size,
				    h.type, have);
			break;
		}
		p = pd->buf + pd->bufpos;
		pd->bufpos += h.size;
		extra = pd_trailing_bytes(pd, p, h.size);
		pd_handle(pd, p, h.size, off, 0);
		if (extra && pd_skip_input(pd, extra) != 0) {
			if (!pd->cut)
				pd_bad_at(pd, off, "the data ends in what follows "
				    "a record of type %u: cut short", h.type);
			break;
		}
	}
	if (sink == NULL)
		return pd->bad;
	pd_flush(pd, UINT64_MAX, 0);
	if (pd->lost_closing > pd->lost_said) {
		/* what perf's closing counts hold beyond the LOST records */
		struct source_event e;

		memset(&e, 0, sizeof(e));
		e.kind = SOURCE_LOST;
		e.time = pd->last_time;
		e.u.lost = pd->lost_closing - pd->lost_said;
		sink->fn(sink->arg, &e);
	}
	if (pd->zlen > 0) {
		warnx("'%s': the compressed data ends in a record: cut short; "
		    "the samples before are kept", pd_qname(pd, q));
		pd->bad = 1;
		pd->zlen = 0;
	}
	pd->sink = NULL;
	return pd->bad;
}

void
perfdata_summary(const struct perfdata *pd)
{
	char q[DIAG_QUOTE_SIZE];
	struct buf b;
	unsigned t;
	uint64_t n = 0;

	buf_init(&b);
	for (t = 0; t < PD_TYPES; t++) {
		if (pd->skipped[t] == 0)
			continue;
		buf_adds(&b, n++ ? ", " : "");
		buf_addu(&b, pd->skipped[t]);
		buf_addc(&b, ' ');
		if (type_names[t])
			buf_adds(&b, type_names[t]);
		else
			buf_addf(&b, "type-%u", t);
	}
	if (n)
		warnx("'%s': skipped records of no use to a flame graph: %.*s",
		    pd_qname(pd, q), (int)b.len, buf_str(&b));
	if (pd->unknown_id > 1)
		warnx("'%s': %" PRIu64 " samples of ids no event lists were "
		    "skipped", pd_qname(pd, q), pd->unknown_id);
	if (pd->zbad > 1)
		warnx("'%s': %" PRIu64 " more compressed records could not be "
		    "read whole: the rest of each was skipped", pd_qname(pd, q),
		    pd->zbad - 1);
	if (pd->undecoded > 1)
		warnx("'%s': %" PRIu64 " samples that did not hold their "
		    "event's layout were skipped", pd_qname(pd, q), pd->undecoded);
	buf_release(&b);
}

void
perfdata_release(struct perfdata *pd)
{
	size_t i;

	for (i = 0; i < pd->nevents; i++) {
		perf_decoder_release(&pd->events[i].dec);
		free(pd->events[i].name);
	}
	free(pd->events);
	free(pd->ids);
	hashtab_release(&pd->ididx);
	for (i = 0; i < pd->nbids; i++)
		free(pd->bids[i].path);
	free(pd->bids);
	hashtab_release(&pd->bididx);
	free(pd->cmdline);
	free(pd->hostname);
	free(pd->osrelease);
	free(pd->kernel_buildid);
	free(pd->buf);
	free(pd->meta);
	perfqueue_release(&pd->queue);
	if (pd->zs)
		ZSTD_freeDStream(pd->zs);
	free(pd->zbuf);
	free(pd->throttles);
	hashtab_release(&pd->throttleidx);
	memset(pd, 0, sizeof(*pd));
	pd->fd = -1;
}

