#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include "base/buf.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "record/perf.h"
#include "record/perfdata.h"
#include "stream/diag.h"
#include "stream/stream.h"

/* perf's own record types, after the kernel's (tools/perf/util/event.h). */
enum {
	PD_HEADER_ATTR = 64,
	PD_HEADER_EVENT_TYPE,
	PD_HEADER_TRACING_DATA,
	PD_HEADER_BUILD_ID,
	PD_FINISHED_ROUND,
	PD_ID_INDEX,
	PD_AUXTRACE_INFO,
	PD_AUXTRACE,
	PD_AUXTRACE_ERROR,
	PD_THREAD_MAP,
	PD_CPU_MAP,
	PD_STAT_CONFIG,
	PD_STAT,
	PD_STAT_ROUND,
	PD_EVENT_UPDATE,
	PD_TIME_CONV,
	PD_HEADER_FEATURE,
	PD_COMPRESSED,
	PD_FINISHED_INIT,
	PD_COMPRESSED2,
	PD_TYPES = 128
};

/* The feature sections read (tools/perf/util/header.h). */
enum {
	FEAT_BUILD_ID = 2,
	FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4,
	FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12,
	FEAT_BITS = 256
};

#define EVENT_UPDATE_NAME	2	/* PERF_EVENT_UPDATE__NAME (UNIT 0, SCALE 1) */
#define MISC_BUILD_ID_SIZE	(1 << 15)
#define MISC_LOST_SAMPLES_BPF	(1 << 15)	/* perf's PERF_RECORD_MISC_LOST_SAMPLES_BPF */
#define FILE_HEADER_SIZE	104
#define PIPE_HEADER_SIZE	16
#define ATTR_SIZE_VER0		64	/* the first perf_event_attr */
#define META_MAX		(256u << 20)	/* attributes, ids, a feature */
#define READ_CHUNK		(1u << 20)

struct section {
	uint64_t	 offset, size;
};

struct file_header {
	char		 magic[8];
	uint64_t	 size;
	uint64_t	 attr_size;
	struct section	 attrs, data, event_types;
	uint64_t	 features[FEAT_BITS / 64];
};

struct perfdata_bid {
	char		*path;		/* owned */
	unsigned char	 id[20];
	size_t		 len;
};

struct perfdata_rec {
	uint64_t	 time, seq;
	uint64_t	 off;		/* in the input, for messages */
	size_t		 at;		/* in the arena */
	uint32_t	 len;
	int32_t		 event;
};

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

/* ---- messages ---- */

static const char *
qname(const struct perfdata *pd, char *q)
{
	return stream_quote(q, DIAG_QUOTE_SIZE, pd->name, strlen(pd->name), 80);
}

/* Says what is wrong at offset off, in one line. */
static void __attribute__((format(printf, 3, 4)))
bad_at(struct perfdata *pd, uint64_t off, const char *fmt, ...)
{
	char q[DIAG_QUOTE_SIZE], msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warnx("'%s':%" PRIu64 ": %s", qname(pd, q), off, msg);
	pd->bad = 1;
}

/* ---- input ---- */

/*
 * Reads up to n bytes at the input's offset pd->pos: from head first,
 * then fd. Returns what it read (short only at the end), or -1 (said).
 */
static ssize_t
in_read(struct perfdata *pd, void *b, size_t n)
{
	unsigned char *p = b;
	size_t got = 0;

	if (!pd->seekable && pd->pos < pd->headlen) {
		size_t k = pd->headlen - pd->pos;

		if (k > n)
			k = n;
		memcpy(p, pd->head + pd->pos, k);
		got = k;
		pd->pos += k;
	}
	while (got < n && pd->fd >= 0) {
		ssize_t r = pd->seekable ?
		    pread(pd->fd, p + got, n - got, (off_t)pd->pos) :
		    read(pd->fd, p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			char q[DIAG_QUOTE_SIZE];

			warnx("cannot read '%s': %s", qname(pd, q),
			    strerror(errno));
			pd->bad = 1;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
		pd->pos += (uint64_t)r;
	}
	return (ssize_t)got;
}

/*
 * Reads n bytes at offset off into a new buffer: a pipe skips forward to
 * it, and cannot go back (returns NULL with *back set). NULL with *got
 * less than n when the input ends first.
 */
static unsigned char *
in_get(struct perfdata *pd, uint64_t off, size_t n, size_t *got, int *back)
{
	unsigned char *b, tmp[4096];
	ssize_t r;

	*got = 0;
	*back = 0;
	if (pd->meta && off <= pd->metalen) {
		*got = pd->metalen - off < n ? (size_t)(pd->metalen - off) : n;
		if (*got < n)
			return NULL;
		b = xmalloc(n ? n : 1);
		memcpy(b, pd->meta + off, n);
		return b;
	}
	if (pd->seekable) {
		pd->pos = off;
	} else if (off < pd->pos) {
		*back = 1;
		return NULL;
	}
	while (pd->pos < off) {
		uint64_t k = off - pd->pos;

		if ((r = in_read(pd, tmp, k > sizeof(tmp) ? sizeof(tmp) :
		    (size_t)k)) <= 0)
			return NULL;
	}
	b = xmalloc(n ? n : 1);
	if ((r = in_read(pd, b, n)) < 0 || (size_t)r < n) {
		*got = r < 0 ? 0 : (size_t)r;
		free(b);
		return NULL;
	}
	*got = n;
	return b;
}

/* ---- events and ids ---- */

static void
event_set_name(struct perfdata_event *e, const char *name)
{
	free(e->name);
	e->name = xstrdup(name);
	e->dec.event = e->name;
}

/* A name from the attribute alone, when no EVENT_DESC says one. */
static void
event_default_name(struct perfdata_event *e)
{
	const char *n = perf_event_name(e->attr.type, e->attr.config);
	char buf[64];

	if (n == NULL) {
		snprintf(buf, sizeof(buf), "event-%u-%" PRIx64, e->attr.type,
		    (uint64_t)e->attr.config);
		n = buf;
	}
	event_set_name(e, n);
}

/* Adds an event from an attribute of size bytes as the file holds it. */
static int
event_add(struct perfdata *pd, const unsigned char *a, size_t size)
{
	struct perfdata_event *e;

	if (pd->nevents >= HASHTAB_NONE / 2)
		return -1;
	GROW(pd->events, pd->nevents + 1, pd->events_cap);
	e = &pd->events[pd->nevents++];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, a, size < sizeof(e->attr) ? size : sizeof(e->attr));
	perf_decoder_init_attr(&e->dec, &e->attr, NULL);
	event_default_name(e);
	return (int)(pd->nevents - 1);
}

static void
id_add(struct perfdata *pd, uint64_t id, int ev)
{
	struct hashtab_probe hp;
	uint32_t i;

	hashtab_probe(&pd->ididx, hashtab_int(id), &hp);
	while ((i = hashtab_next(&pd->ididx, &hp)) != HASHTAB_NONE)
		if (pd->ids[i].id == id) {
			pd->ids[i].event = (uint32_t)ev;
			return;
		}
	GROW(pd->ids, pd->nids + 1, pd->ids_cap);
	pd->ids[pd->nids].id = id;
	pd->ids[pd->nids].event = (uint32_t)ev;
	hashtab_add(&pd->ididx, &hp, (uint32_t)pd->nids++);
}

/* The event of id, or -1. */
static int
id_find(const struct perfdata *pd, uint64_t id)
{
	struct hashtab_probe hp;
	uint32_t i;

	hashtab_probe(&pd->ididx, hashtab_int(id), &hp);
	while ((i = hashtab_next(&pd->ididx, &hp)) != HASHTAB_NONE)
		if (pd->ids[i].id == id)
			return (int)pd->ids[i].event;
	return -1;
}

/* ---- feature sections (and pipe mode's HEADER_FEATURE) ---- */

struct rd {
	const unsigned char *p, *end;
	int	 bad;
};

static uint32_t
rd32(struct rd *r)
{
	uint32_t v = 0;

	if (r->bad || r->end - r->p < 4) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, 4);
	r->p += 4;
	return v;
}

static uint64_t
rd64(struct rd *r)
{
	uint64_t v = 0;

	if (r->bad || r->end - r->p < 8) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	return v;
}

/* A perf_header_string: u32 len, then len bytes, NUL-padded. Owned. */
static char *
rdstr(struct rd *r)
{
	uint32_t len = rd32(r);
	char *s;

	if (r->bad || (size_t)(r->end - r->p) < len) {
		r->bad = 1;
		return NULL;
	}
	s = xmalloc((size_t)len + 1);
	memcpy(s, r->p, len);
	s[len] = '\0';
	r->p += len;
	return s;
}

static void
bid_add(struct perfdata *pd, const char *path, const unsigned char *id,
    size_t len, int kernel)
{
	struct hashtab_probe hp;
	struct perfdata_bid *b;
	uint32_t i;

	if (len == 0 || len > 20)
		return;
	if (kernel && strcmp(path, STREAM_KERNEL) == 0) {
		free(pd->kernel_buildid);
		pd->kernel_buildid = str_hexdup(id, len);
		return;
	}
	hashtab_probe(&pd->bididx, XXH3_64bits(path, strlen(path)), &hp);
	while ((i = hashtab_next(&pd->bididx, &hp)) != HASHTAB_NONE)
		if (strcmp(pd->bids[i].path, path) == 0)
			return;		/* the first one (a rebuild: another file) */
	GROW(pd->bids, pd->nbids + 1, pd->bids_cap);
	b = &pd->bids[pd->nbids];
	b->path = xstrdup(path);
	memcpy(b->id, id, len);
	b->len = len;
	hashtab_add(&pd->bididx, &hp, (uint32_t)pd->nbids++);
}

static const struct perfdata_bid *
bid_find(const struct perfdata *pd, const char *path)
{
	struct hashtab_probe hp;
	uint32_t i;

	if (pd->nbids == 0)
		return NULL;
	hashtab_probe(&pd->bididx, XXH3_64bits(path, strlen(path)), &hp);
	while ((i = hashtab_next(&pd->bididx, &hp)) != HASHTAB_NONE)
		if (strcmp(pd->bids[i].path, path) == 0)
			return &pd->bids[i];
	return NULL;
}

/*
 * One build ID record (the BUILD_ID feature's entries, pipe mode's
 * HEADER_BUILD_ID): header, pid, 24 bytes of ID (20, and its size when
 * misc says so), the file name. Returns 0, or -1 when it is cut.
 */
static int
buildid_record(struct perfdata *pd, const unsigned char *p, size_t n)
{
	struct perf_event_header h;
	const unsigned char *name;
	size_t len = 20;

	if (n < sizeof(h))
		return -1;
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h) + 4 + 24 + 1 || h.size > n)
		return -1;
	name = p + sizeof(h) + 4 + 24;
	if (memchr(name, '\0', h.size - (size_t)(name - p)) == NULL)
		return -1;
	if (h.misc & MISC_BUILD_ID_SIZE)
		len = p[sizeof(h) + 4 + 20];
	bid_add(pd, (const char *)name, p + sizeof(h) + 4, len,
	    (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL);
	return 0;
}

/* EVENT_DESC: the events' names, matched by id, else by order. */
static void
event_desc(struct perfdata *pd, struct rd *r)
{
	uint32_t nre = rd32(r), sz = rd32(r), i, nid, k;
	uint64_t id;
	char *name;
	int ev;

	if (sz < ATTR_SIZE_VER0)
		r->bad = 1;
	for (i = 0; i < nre && !r->bad; i++) {
		if ((size_t)(r->end - r->p) < sz) {
			r->bad = 1;
			break;
		}
		r->p += sz;
		nid = rd32(r);
		if ((name = rdstr(r)) == NULL)
			break;
		ev = i < pd->nevents ? (int)i : -1;
		for (k = 0; k < nid && !r->bad; k++) {
			id = rd64(r);
			if (k == 0 && id_find(pd, id) >= 0)
				ev = id_find(pd, id);
		}
		if (ev >= 0 && name[0] != '\0')
			event_set_name(&pd->events[ev], name);
		free(name);
	}
}

/* Reads feature feat from p[0..n). Returns -1 when it is corrupt. */
static int
feature(struct perfdata *pd, int feat, const unsigned char *p, size_t n)
{
	struct rd r = { p, p + n, 0 };
	struct buf b;
	uint32_t nr, i;
	char *s;

	switch (feat) {
	case FEAT_BUILD_ID:
		while (r.p < r.end) {
			struct perf_event_header h;

			if ((size_t)(r.end - r.p) < sizeof(h) ||
			    buildid_record(pd, r.p, (size_t)(r.end - r.p)) != 0)
				return -1;
			memcpy(&h, r.p, sizeof(h));
			r.p += h.size;
		}
		return 0;
	case FEAT_HOSTNAME:
	case FEAT_OSRELEASE:
		if ((s = rdstr(&r)) == NULL)
			return -1;
		free(feat == FEAT_HOSTNAME ? pd->hostname : pd->osrelease);
		*(feat == FEAT_HOSTNAME ? &pd->hostname : &pd->osrelease) = s;
		return 0;
	case FEAT_CMDLINE:
		nr = rd32(&r);
		buf_init(&b);
		for (i = 0; i < nr && !r.bad; i++) {
			if ((s = rdstr(&r)) == NULL)
				break;
			if (i > 0)
				buf_addc(&b, ' ');
			buf_adds(&b, s);
			free(s);
		}
		if (r.bad) {
			buf_release(&b);
			return -1;
		}
		free(pd->cmdline);
		pd->cmdline = buf_detach(&b, NULL);
		return 0;
	case FEAT_EVENT_DESC:
		event_desc(pd, &r);
		return r.bad ? -1 : 0;
	}
	return 0;
}

static const char *
feature_name(int feat)
{
	switch (feat) {
	case FEAT_BUILD_ID:	return "BUILD_ID";
	case FEAT_HOSTNAME:	return "HOSTNAME";
	case FEAT_OSRELEASE:	return "OSRELEASE";
	case FEAT_CMDLINE:	return "CMDLINE";
	default:		return "EVENT_DESC";
	}
}

static int
feature_wanted(int feat)
{
	return feat == FEAT_BUILD_ID || feat == FEAT_HOSTNAME ||
	    feat == FEAT_OSRELEASE || feat == FEAT_CMDLINE ||
	    feat == FEAT_EVENT_DESC;
}

/* A file's feature sections, after its data section. */
static void
file_features(struct perfdata *pd, const struct file_header *fh)
{
	struct section *secs;
	unsigned char *p;
	size_t n = 0, got, i = 0;
	uint64_t at = fh->data.offset + fh->data.size, missing_at = 0;
	char missing[256] = "";
	size_t nmissing = 0, len = 0;
	int f, back;

	for (f = 0; f < FEAT_BITS; f++)
		n += (fh->features[f / 64] >> (f % 64)) & 1;
	if (n == 0)
		return;
	secs = (struct section *)in_get(pd, at, n * sizeof(*secs), &got, &back);
	if (secs == NULL) {
		bad_at(pd, at, "the file ends before its feature sections "
		    "(cut short?): the events' names, command line and build "
		    "IDs are unknown");
		return;
	}
	for (f = 0; f < FEAT_BITS; f++) {
		if (!((fh->features[f / 64] >> (f % 64)) & 1))
			continue;
		if (feature_wanted(f)) {
			if (secs[i].size > META_MAX ||
			    (p = in_get(pd, secs[i].offset, (size_t)secs[i].size,
			    &got, &back)) == NULL) {
				/* one line for them all: a file cut short */
				if (nmissing++ == 0)
					missing_at = secs[i].offset;
				len += snprintf(missing + len, len <
				    sizeof(missing) ? sizeof(missing) - len : 0,
				    "%s%s", nmissing > 1 ? ", " : "",
				    feature_name(f));
			} else {
				if (feature(pd, f, p, (size_t)secs[i].size) != 0)
					bad_at(pd, secs[i].offset, "the %s feature "
					    "section is corrupt: ignored",
					    feature_name(f));
				free(p);
			}
		}
		i++;
	}
	free(secs);
	if (nmissing > 0)
		bad_at(pd, missing_at, "the file ends before %s feature "
		    "section%s (%s): ignored; cut short?", nmissing == 1 ?
		    "its" : "these", nmissing == 1 ? "" : "s", missing);
}

/* ---- the header ---- */

static int
file_attrs(struct perfdata *pd, const struct file_header *fh)
{
	unsigned char *attrs, *ids;
	size_t n, i, k, got;
	int back;

	if (fh->attr_size < ATTR_SIZE_VER0 + sizeof(struct section) ||
	    fh->attr_size > 4096 || fh->attrs.size % fh->attr_size != 0 ||
	    fh->attrs.size == 0 || fh->attrs.size > META_MAX) {
		bad_at(pd, 16, "the header is corrupt (attributes of %" PRIu64
		    " bytes, %" PRIu64 " in all): nothing can be read; record "
		    "again", fh->attr_size, fh->attrs.size);
		return -1;
	}
	attrs = in_get(pd, fh->attrs.offset, (size_t)fh->attrs.size, &got,
	    &back);
	if (attrs == NULL) {
		bad_at(pd, fh->attrs.offset + got, "%s the event attributes: "
		    "nothing can be read%s", back ? "cannot seek back to" :
		    "the file ends in", back ? " from a pipe; give the file's "
		    "name" : " (cut short?)");
		return -1;
	}
	n = (size_t)(fh->attrs.size / fh->attr_size);
	for (i = 0; i < n; i++) {
		const unsigned char *a = attrs + i * fh->attr_size;
		struct section ids_sec;
		int ev;

		memcpy(&ids_sec, a + fh->attr_size - sizeof(ids_sec),
		    sizeof(ids_sec));
		if ((ev = event_add(pd, a, (size_t)fh->attr_size -
		    sizeof(ids_sec))) < 0)
			break;
		if (ids_sec.size == 0)
			continue;
		if (ids_sec.size % 8 != 0 || ids_sec.size > META_MAX ||
		    (ids = in_get(pd, ids_sec.offset, (size_t)ids_sec.size,
		    &got, &back)) == NULL) {
			bad_at(pd, ids_sec.offset, "the ids of event %zu "
			    "(%" PRIu64 " bytes) cannot be read: its samples "
			    "may go unnamed", i, ids_sec.size);
			continue;
		}
		for (k = 0; k < ids_sec.size / 8; k++) {
			uint64_t id;

			memcpy(&id, ids + 8 * k, 8);
			id_add(pd, id, ev);
		}
		free(ids);
	}
	free(attrs);
	return 0;
}

static int
file_header(struct perfdata *pd, const unsigned char *h0)
{
	struct file_header fh;
	char q[DIAG_QUOTE_SIZE];
	uint64_t end;

	memcpy(&fh, h0, sizeof(fh));
	if (fh.size < FILE_HEADER_SIZE || fh.size > 4096) {
		bad_at(pd, 8, "the header is corrupt (its size is %" PRIu64
		    ", not %d): nothing can be read; record again", fh.size,
		    FILE_HEADER_SIZE);
		return -1;
	}
	if (fh.data.offset < fh.size || fh.data.offset > UINT64_MAX / 2 ||
	    fh.data.size > UINT64_MAX / 4) {
		bad_at(pd, 40, "the header is corrupt (a data section at "
		    "offset %" PRIu64 "): nothing can be read; record again",
		    fh.data.offset);
		return -1;
	}
	if (!pd->seekable) {
		/* a pipe: the ids come before the attributes; hold both */
		size_t got;

		if (fh.data.offset > META_MAX) {
			bad_at(pd, 40, "the header is corrupt (a data section "
			    "at offset %" PRIu64 "): nothing can be read",
			    fh.data.offset);
			return -1;
		}
		pd->meta = xmalloc((size_t)fh.data.offset);
		memcpy(pd->meta, h0, FILE_HEADER_SIZE);
		got = (size_t)fh.data.offset - FILE_HEADER_SIZE;
		if (in_read(pd, pd->meta +
		    FILE_HEADER_SIZE, got) != (ssize_t)got) {
			bad_at(pd, pd->pos, "the input ends before its data "
			    "section: nothing can be read (cut short?)");
			return -1;
		}
		pd->metalen = fh.data.offset;
	}
	if (file_attrs(pd, &fh) != 0)
		return -1;
	pd->data_off = fh.data.offset;
	pd->data_end = fh.data.offset + fh.data.size;
	if (fh.data.size == 0) {
		/* perf record was killed before it wrote the header back */
		warnx("'%s': the header says the data section is empty: perf "
		    "record did not finish; reading on to the file's end",
		    qname(pd, q));
		pd->data_end = UINT64_MAX;
	}
	end = pd->data_end;
	if (pd->seekable && end != UINT64_MAX && end > pd->file_size) {
		bad_at(pd, pd->file_size, "the file ends in its data section, "
		    "%" PRIu64 " bytes before its end: cut short (copied while "
		    "perf record ran?); the samples before are kept",
		    end - pd->file_size);
		pd->data_end = pd->file_size;
		pd->cut = 1;
	} else if (pd->seekable && end != UINT64_MAX) {
		file_features(pd, &fh);
	}
	pd->pos = pd->data_off;
	return 0;
}

struct perfdata *
perfdata_open(int fd, const char *name, const void *head, size_t headlen,
    int *status)
{
	struct perfdata *pd = xcalloc(1, sizeof(*pd));
	unsigned char h0[FILE_HEADER_SIZE];
	char q[DIAG_QUOTE_SIZE];
	struct stat st;
	uint64_t hsize;
	ssize_t n;
	size_t i;

	*status = 2;
	pd->name = name;
	pd->fd = fd;
	pd->head = head;
	pd->headlen = headlen;
	hashtab_init(&pd->ididx, 64);
	hashtab_init(&pd->bididx, 64);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		pd->seekable = 1;
		pd->file_size = (uint64_t)st.st_size;
	}
	if ((n = in_read(pd, h0, PIPE_HEADER_SIZE)) < 0)
		goto fail;
	if (n >= 8 && (memcmp(h0, "2ELIFREP", 8) == 0 ||
	    memcmp(h0, "ELIFREP", 7) == 0)) {
		warnx("'%s' is a big-endian perf.data (recorded on another "
		    "kind of machine): fgsym reads little-endian ones only; "
		    "run perf script on a big-endian machine", qname(pd, q));
		goto fail;
	}
	if (n >= 8 && memcmp(h0, "PERFFILE", 8) == 0) {
		warnx("'%s' is a perf.data of the first format (PERFFILE, "
		    "before Linux 3.0): fgsym reads PERFILE2 only; record "
		    "again", qname(pd, q));
		goto fail;
	}
	if (n < 8 || memcmp(h0, "PERFILE2", 8) != 0) {
		warnx("'%s' is not perf data (no PERFILE2 at its start)",
		    qname(pd, q));
		goto fail;
	}
	*status = 1;	/* perf data, bad */
	if (n < PIPE_HEADER_SIZE) {
		bad_at(pd, (uint64_t)n, "the file ends in its header: nothing "
		    "to read (cut short?)");
		goto fail;
	}
	memcpy(&hsize, h0 + 8, 8);
	if (hsize == PIPE_HEADER_SIZE) {
		pd->pipe = 1;
		pd->data_off = PIPE_HEADER_SIZE;
		pd->data_end = UINT64_MAX;
	} else {
		n = in_read(pd, h0 + PIPE_HEADER_SIZE, sizeof(h0) -
		    PIPE_HEADER_SIZE);
		if (n < 0)
			goto fail;
		if ((size_t)n < sizeof(h0) - PIPE_HEADER_SIZE) {
			bad_at(pd, PIPE_HEADER_SIZE + (uint64_t)n, "the file "
			    "ends in its header: nothing to read (cut short?)");
			goto fail;
		}
		if (file_header(pd, h0) != 0)
			goto fail;
	}
	pd->bufoff = pd->pos;
	if (pd->pipe) {
		/* the attributes and features come as records */
		perfdata_read(pd, NULL);
		if (pd->nevents == 0 && pd->bad)
			goto fail;	/* said */
		if (pd->nevents == 0) {
			bad_at(pd, pd->bufoff + pd->bufpos, "no event "
			    "attributes before the data: nothing can be read%s",
			    pd->eof ? " (cut short?)" : "; record again");
			goto fail;
		}
	}
	for (i = 0; i < pd->nevents; i++)
		pd->events[i].dec.event = pd->events[i].name;
	return pd;
fail:
	perfdata_free(pd);
	return NULL;
}

/* ---- the ordering queue ---- */

static int
rec_cmp(const void *a, const void *b)
{
	const struct perfdata_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The sink between perfdecode and the caller's: build IDs, counts. */
static void
on_decoded(void *arg, const struct source_event *ev)
{
	struct perfdata *pd = arg;
	struct source_event e;
	const struct perfdata_bid *b;

	if (ev->kind == SOURCE_SAMPLE) {
		pd->events[pd->cur_event].samples++;
		if (ev->u.sample.nr > 0 &&
		    ev->u.sample.callchain[0] == PERF_CONTEXT_KERNEL)
			pd->kernel_frames = 1;
	}
	if (ev->kind == SOURCE_MMAP && ev->u.mmap.buildid == NULL &&
	    (b = bid_find(pd, ev->u.mmap.path)) != NULL) {
		e = *ev;
		e.u.mmap.buildid = b->id;
		e.u.mmap.buildid_len = b->len;
		pd->sink->fn(pd->sink->arg, &e);
		return;
	}
	pd->sink->fn(pd->sink->arg, ev);
}

static void
deliver(struct perfdata *pd, const struct perfdata_rec *r)
{
	struct source_sink mine = { on_decoded, pd };
	const struct perf_event_header *h =
	    (const void *)(pd->arena + r->at);
	struct perf_event_header hh;

	pd->cur_event = r->event;
	memcpy(&hh, h, sizeof(hh));
	if (perf_decode(&pd->events[r->event].dec, h, &mine) == 0 &&
	    hh.type == PERF_RECORD_SAMPLE) {
		if (pd->undecoded++ == 0)
			bad_at(pd, r->off, "a sample of %u bytes does not hold "
			    "what event '%s' says it records: skipped (and any "
			    "more such, counted at the end)", hh.size,
			    pd->events[r->event].name);
	}
}

static int
rec_at_cmp(const void *a, const void *b)
{
	const struct perfdata_rec *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* Whether q[0..n) is in time order already (one CPU, or few records). */
static int
sorted(const struct perfdata_rec *q, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (rec_cmp(&q[i - 1], &q[i]) > 0)
			return 0;
	return 1;
}

/*
 * Hands over the queued records of time up to limit, or the first half
 * when half is set, in time order, and keeps the others, moved to the
 * front of the arena in place (no second arena: the bound is the
 * memory's).
 */
static void
flush(struct perfdata *pd, uint64_t limit, int half)
{
	size_t i, n, alen = 0;

	if (pd->nq == 0)
		return;
	if (!sorted(pd->q, pd->nq))
		qsort(pd->q, pd->nq, sizeof(*pd->q), rec_cmp);
	for (n = 0; n < pd->nq && (half ? n < (pd->nq + 1) / 2 :
	    pd->q[n].time <= limit); n++)
		if (pd->sink)
			deliver(pd, &pd->q[n]);
	if (n == pd->nq) {
		pd->nq = 0;
		pd->alen = 0;
		return;
	}
	memmove(pd->q, pd->q + n, (pd->nq - n) * sizeof(*pd->q));
	pd->nq -= n;
	/* in the arena's order, each record moves down, never over another */
	qsort(pd->q, pd->nq, sizeof(*pd->q), rec_at_cmp);
	for (i = 0; i < pd->nq; i++) {
		if (pd->q[i].at != alen)
			memmove(pd->arena + alen, pd->arena + pd->q[i].at,
			    pd->q[i].len);
		pd->q[i].at = alen;
		alen += pd->q[i].len;
	}
	pd->alen = alen;
}

/* A record of the kernel's: queued under its event and time. */
static void
enqueue(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off)
{
	const struct perf_event_header *h = (const void *)p;
	struct perf_record_ids ids;
	struct perfdata_rec *r;
	uint32_t type;
	int ev = 0;

	memcpy(&type, p, 4);	/* perf_event_header: type, misc, size */
	if (pd->nevents == 0) {
		bad_at(pd, off, "a record before any event attributes: "
		    "skipped; the file's header is corrupt");
		return;
	}
	if (pd->nevents > 1 && perf_decode_ids(&pd->events[0].dec, h,
	    &ids) == 0 && ids.has_id) {
		if ((ev = id_find(pd, ids.id)) < 0 && type ==
		    PERF_RECORD_SAMPLE) {
			if (pd->unknown_id++ == 0)
				bad_at(pd, off, "a sample of id %" PRIu64 ", "
				    "which no event's attributes list: skipped "
				    "(and any more, counted at the end); the "
				    "file's attributes are corrupt", ids.id);
			return;
		}
		if (ev < 0)
			ev = 0;
	}
	if (perf_decode_ids(&pd->events[ev].dec, h, &ids) != 0 ||
	    !ids.has_time)
		ids.time = pd->last_time;	/* keeps its place */
	if (ids.time > pd->last_time)
		pd->last_time = ids.time;
	/* the records' bytes and their entries, within the bound */
	if (pd->alen + len + (pd->nq + 1) * sizeof(*pd->q) >
	    PERFDATA_QUEUE_MAX && pd->nq > 0)
		flush(pd, 0, 1);
	if (pd->alen + len > pd->acap)
		GROW(pd->arena, pd->alen + len, pd->acap);
	if (pd->nq + 1 > pd->qcap)
		GROW(pd->q, pd->nq + 1, pd->qcap);
	r = &pd->q[pd->nq++];
	r->time = ids.time;
	r->seq = pd->seq++;
	r->off = off;
	r->at = pd->alen;
	r->len = len;
	r->event = ev;
	memcpy(pd->arena + pd->alen, p, len);
	pd->alen += len;
}

/* ---- records ---- */

static void handle(struct perfdata *, const unsigned char *, uint32_t,
    uint64_t, int);

/* Hands over the whole records in zbuf; keeps a part cut at its end. */
static void
zrecords(struct perfdata *pd, uint64_t off)
{
	struct perf_event_header h;
	size_t at = 0;

	while (pd->zlen - at >= sizeof(h)) {
		memcpy(&h, pd->zbuf + at, sizeof(h));
		if (h.size < sizeof(h)) {
			bad_at(pd, off, "a compressed record holds a record of "
			    "size %u: the rest of its data is skipped", h.size);
			at = pd->zlen;
			break;
		}
		if (pd->zlen - at < h.size)
			break;
		handle(pd, pd->zbuf + at, h.size, off, 1);
		at += h.size;
	}
	memmove(pd->zbuf, pd->zbuf + at, pd->zlen - at);
	pd->zlen -= at;
}

/* COMPRESSED (perf record -z): zstd frames of records. */
static void
compressed(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off, int two)
{
	ZSTD_inBuffer in;
	size_t r;

	in.src = p + 8;
	in.size = len - 8;
	in.pos = 0;
	if (two) {
		uint64_t dsz;

		if (len < 16) {
			bad_at(pd, off, "a COMPRESSED2 record of %u bytes: "
			    "skipped", len);
			return;
		}
		memcpy(&dsz, p + 8, 8);
		in.src = p + 16;
		in.size = dsz < (uint64_t)len - 16 ? (size_t)dsz : len - 16;
	}
	if (pd->zs == NULL)
		pd->zs = ZSTD_createDStream();
	if (pd->zs == NULL)
		errx(2, "cannot decompress '%s': ZSTD_createDStream failed",
		    pd->name);
	for (;;) {
		ZSTD_outBuffer out;

		GROW(pd->zbuf, pd->zlen + READ_CHUNK, pd->zcap);
		out.dst = pd->zbuf + pd->zlen;
		out.size = pd->zcap - pd->zlen;
		out.pos = 0;
		r = ZSTD_decompressStream(pd->zs, &out, &in);
		if (ZSTD_isError(r)) {
			bad_at(pd, off, "cannot decompress a compressed record "
			    "(%s): its samples are skipped", ZSTD_getErrorName(r));
			ZSTD_initDStream(pd->zs);
			pd->zlen = 0;
			return;
		}
		pd->zlen += out.pos;
		zrecords(pd, off);
		/* all read, and no more output waiting */
		if (in.pos == in.size && out.pos < out.size)
			break;
	}
}

/* PERF_RECORD_HEADER_ATTR (pipe mode): an attribute and its ids. */
static void
header_attr(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off)
{
	uint32_t asz;
	size_t i;
	int ev;

	if (len < 8 + ATTR_SIZE_VER0) {
		bad_at(pd, off, "an attribute record of %u bytes: skipped", len);
		return;
	}
	memcpy(&asz, p + 8 + offsetof(struct perf_event_attr, size), 4);
	if (asz == 0)
		asz = ATTR_SIZE_VER0;
	if (asz < ATTR_SIZE_VER0 || asz > len - 8u || (len - 8 - asz) % 8) {
		bad_at(pd, off, "an attribute record of %u bytes holds an "
		    "attribute of %u: skipped", len, asz);
		return;
	}
	if ((ev = event_add(pd, p + 8, asz)) < 0)
		return;
	for (i = 0; i < (len - 8 - asz) / 8; i++) {
		uint64_t id;

		memcpy(&id, p + 8 + asz + 8 * i, 8);
		id_add(pd, id, ev);
	}
}

/* PERF_RECORD_EVENT_UPDATE: an event's name, in pipe mode. */
static void
event_update(struct perfdata *pd, const unsigned char *p, uint32_t len)
{
	uint64_t type, id;
	int ev;

	if (len < 25)
		return;
	memcpy(&type, p + 8, 8);
	memcpy(&id, p + 16, 8);
	if (type != EVENT_UPDATE_NAME || (ev = id_find(pd, id)) < 0 ||
	    memchr(p + 24, '\0', len - 24) == NULL || p[24] == '\0')
		return;
	event_set_name(&pd->events[ev], (const char *)p + 24);
}

/*
 * The identity of side-band record h: its trailer read with the layout
 * of the event its id names (the first event's when it names none).
 * Returns 0, or -1 when the record is too short for it.
 */
static int
side_ids(const struct perfdata *pd, const struct perf_event_header *h,
    struct perf_record_ids *ids)
{
	int ev;

	if (perf_decode_ids(&pd->events[0].dec, h, ids) != 0)
		return -1;
	if (pd->nevents > 1 && ids->has_id && (ev = id_find(pd, ids->id)) > 0)
		return perf_decode_ids(&pd->events[ev].dec, h, ids);
	return 0;
}

/*
 * LOST_SAMPLES: the kernel's, where it dropped samples (queued as any
 * record), or perf record's closing count of an event's losses, written
 * at its end with no time (time 0): those count what LOST records count,
 * and are kept for the end (lost_closing).
 */
static void
lost_samples(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off)
{
	struct perf_event_header h;
	struct perf_record_ids ids;
	uint64_t n;

	memcpy(&h, p, sizeof(h));
	if (h.misc & MISC_LOST_SAMPLES_BPF)
		return;		/* left out on purpose by perf record --filter */
	if (len >= 16 && side_ids(pd, (const void *)p, &ids) == 0 &&
	    (!ids.has_time || ids.time == 0)) {
		memcpy(&n, p + 8, 8);
		pd->lost_closing += n;
		return;
	}
	enqueue(pd, p, len, off);
}

/*
 * THROTTLE and UNTHROTTLE (time, id, stream_id): the time between the
 * two of an event's id is time the kernel did not sample it.
 */
static void
throttle(struct perfdata *pd, const unsigned char *p, uint32_t len, int on)
{
	uint64_t time, id;
	size_t i;

	if (len < 24)
		return;
	memcpy(&time, p + 8, 8);
	memcpy(&id, p + 16, 8);
	for (i = 0; i < pd->nthrottles; i++)
		if (pd->throttles[i].id == id)
			break;
	if (on) {
		if (i == pd->nthrottles) {
			GROW(pd->throttles, pd->nthrottles + 1,
			    pd->throttles_cap);
			pd->nthrottles++;
		}
		pd->throttles[i].id = id;
		pd->throttles[i].since = time;
		return;
	}
	pd->unthrottles++;
	if (i == pd->nthrottles)
		return;		/* throttled before the recording began */
	if (time > pd->throttles[i].since)
		pd->throttled_ns += time - pd->throttles[i].since;
	pd->throttles[i] = pd->throttles[--pd->nthrottles];
}

static void
skip_type(struct perfdata *pd, unsigned type)
{
	pd->skipped[type < PD_TYPES ? type : PD_TYPES - 1]++;
}

/*
 * One record of len bytes (whole, at any alignment) found at input offset
 * off; nested: inside a compressed one.
 */
static void
handle(struct perfdata *pd, const unsigned char *p, uint32_t len,
    uint64_t off, int nested)
{
	struct perf_event_header h;

	memcpy(&h, p, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_SAMPLE:
		pd->init_done = 1;
		enqueue(pd, p, len, off);
		break;
	case PERF_RECORD_LOST:
		if (len >= 24) {	/* id, lost */
			uint64_t n;

			memcpy(&n, p + 16, 8);
			pd->lost_said += n;
		}
		pd->init_done = 1;
		enqueue(pd, p, len, off);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		pd->init_done = 1;
		if (pd->nevents > 0)
			lost_samples(pd, p, len, off);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		pd->init_done = 1;
		throttle(pd, p, len, h.type == PERF_RECORD_THROTTLE);
		if (h.type == PERF_RECORD_THROTTLE)
			enqueue(pd, p, len, off);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/*
		 * --switch-events: when a thread left the CPU and came back,
		 * without its stack; the waits a flame graph could draw need
		 * one (fgrecord --off-cpu takes it)
		 */
		pd->init_done = 1;
		break;
	case PD_HEADER_ATTR:
		header_attr(pd, p, len, off);
		break;
	case PD_HEADER_BUILD_ID:
		buildid_record(pd, p, len);
		break;
	case PD_HEADER_FEATURE:
		if (len >= 16) {
			uint64_t feat;

			memcpy(&feat, p + 8, 8);
			if (feat < FEAT_BITS && feature_wanted((int)feat) &&
			    feature(pd, (int)feat, p + 16, len - 16) != 0)
				bad_at(pd, off, "the %s feature record is "
				    "corrupt: ignored", feature_name((int)feat));
		}
		break;
	case PD_EVENT_UPDATE:
		event_update(pd, p, len);
		break;
	case PD_FINISHED_ROUND:
		/*
		 * perf writes a round after reading every buffer: a record of
		 * the next round may be older than this round's newest, not
		 * older than the round before's.
		 */
		flush(pd, pd->flush_limit, 0);
		pd->flush_limit = pd->last_time;
		break;
	case PD_FINISHED_INIT:
		pd->init_done = 1;
		break;
	case PD_COMPRESSED:
	case PD_COMPRESSED2:
		if (nested)
			skip_type(pd, h.type);
		else
			compressed(pd, p, len, off, h.type == PD_COMPRESSED2);
		break;
	case PD_HEADER_EVENT_TYPE:
	case PD_ID_INDEX:
	case PD_THREAD_MAP:
	case PD_CPU_MAP:
	case PD_TIME_CONV:
		break;
	default:
		skip_type(pd, h.type);
		break;
	}
}

/*
 * Makes n bytes of input available at pd->buf + pd->bufpos, reading no
 * further than the data section's end. Returns what is available.
 */
static size_t
need(struct perfdata *pd, size_t n)
{
	size_t have = pd->buflen - pd->bufpos;

	if (have >= n || pd->eof)
		return have;
	if (have > 0)
		memmove(pd->buf, pd->buf + pd->bufpos, have);
	pd->bufoff += pd->bufpos;
	pd->bufpos = 0;
	pd->buflen = have;
	GROW(pd->buf, n > READ_CHUNK ? n : READ_CHUNK, pd->bufcap);
	while (pd->buflen < n && !pd->eof) {
		size_t want = pd->bufcap - pd->buflen;
		uint64_t left = pd->data_end - pd->pos;
		ssize_t r;

		if (left < want)
			want = (size_t)left;
		if (want == 0 || (r = in_read(pd, pd->buf + pd->buflen,
		    want)) <= 0) {
			pd->eof = 1;
			break;
		}
		pd->buflen += (size_t)r;
	}
	return pd->buflen - pd->bufpos;
}

/* Skips n bytes of input after a record (AUXTRACE's data). */
static int
skip_input(struct perfdata *pd, uint64_t n)
{
	while (n > 0) {
		size_t have = need(pd, 1), k;

		if (have == 0)
			return -1;
		k = have < n ? have : (size_t)n;
		pd->bufpos += k;
		n -= k;
	}
	return 0;
}

/* What follows a record outside its size: AUXTRACE's and tracing data. */
static uint64_t
trailing_bytes(const struct perfdata *pd, const unsigned char *p,
    uint32_t len)
{
	struct perf_event_header h;
	uint64_t n = 0;
	uint32_t sz;

	memcpy(&h, p, sizeof(h));
	if (h.type == PD_AUXTRACE && len >= 16)
		memcpy(&n, p + 8, 8);
	if (h.type == PD_HEADER_TRACING_DATA && pd->pipe && len >= 12) {
		memcpy(&sz, p + 8, 4);
		n = ((uint64_t)sz + 7) & ~7ULL;
	}
	return n;
}

/*
 * Could h, at input offset off, be a record perf wrote? A known type, a
 * size that fits the data (a multiple of 8 but for the compressed ones,
 * 8 for FINISHED_ROUND), and a sample that names a known event.
 */
static int
plausible(const struct perfdata *pd, const unsigned char *p, uint64_t off)
{
	struct perf_event_header h;
	struct perf_record_ids ids;

	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h) || (pd->data_end != UINT64_MAX &&
	    off + h.size > pd->data_end))
		return 0;
	if (h.type == PD_COMPRESSED || h.type == PD_COMPRESSED2)
		return h.size > 16;
	if (h.size % 8 != 0 || h.type == 0 || (h.type >= PERF_RECORD_MAX &&
	    (h.type < PD_HEADER_ATTR || h.type > PD_COMPRESSED2)))
		return 0;
	if (h.type == PD_FINISHED_ROUND || h.type == PD_FINISHED_INIT)
		return h.size == 8 && h.misc == 0;
	if (h.type == PERF_RECORD_SAMPLE && pd->nevents > 0)
		return perf_decode_ids(&pd->events[0].dec, (const void *)p,
		    &ids) == 0 && (pd->nevents == 1 || !ids.has_id ||
		    id_find(pd, ids.id) >= 0);
	return 1;
}

/*
 * Do RESYNC_CHAIN plausible records follow each other from the input at
 * rel bytes past pd->bufpos (or fewer, ending where the data ends)?
 */
#define RESYNC_CHAIN	4
static int
chain_at(struct perfdata *pd, size_t rel)
{
	struct perf_event_header h;
	size_t have;
	int k;

	for (k = 0; k < RESYNC_CHAIN; k++) {
		have = need(pd, rel + sizeof(h));
		if (have == rel && k > 0)
			return 1;	/* the data's end, right after one */
		if (have < rel + sizeof(h) || !plausible(pd, pd->buf +
		    pd->bufpos + rel, pd->bufoff + pd->bufpos + rel))
			return 0;
		memcpy(&h, pd->buf + pd->bufpos + rel, sizeof(h));
		rel += h.size;
		if (need(pd, rel) < rel)
			return 0;
	}
	return 1;
}

/*
 * After a record that cannot be one, at pd->bufpos: finds the next place
 * where records follow each other again and moves there. Returns 0, or
 * -1 when the data holds none (all of it read).
 */
static int
resync(struct perfdata *pd)
{
	for (;;) {
		pd->bufpos++;
		if (need(pd, sizeof(struct perf_event_header)) <
		    sizeof(struct perf_event_header))
			return -1;
		if (chain_at(pd, 0))
			return 0;
	}
}

/*
 * Says that the record at off is corrupt (what, in why), and reads on
 * from the next good record when there is one. Returns 0 when reading
 * goes on.
 */
static int
corrupt_at(struct perfdata *pd, uint64_t off, const char *why)
{
	char q[DIAG_QUOTE_SIZE];
	uint64_t at;

	if (resync(pd) != 0) {
		bad_at(pd, off, "%s: the data is corrupt from here; the "
		    "samples before are kept", why);
		return -1;
	}
	at = pd->bufoff + pd->bufpos;
	bad_at(pd, off, "%s: skipped %" PRIu64 " corrupt bytes; reading "
	    "resumed at '%s':%" PRIu64 ", the next good record", why,
	    at - off, qname(pd, q), at);
	return 0;
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
		have = need(pd, sizeof(h));
		off = pd->bufoff + pd->bufpos;
		if (have == 0 && pd->data_end != UINT64_MAX &&
		    off < pd->data_end && !pd->cut && sink != NULL)
			bad_at(pd, off, "the data ends %" PRIu64 " bytes before "
			    "the end of its section: cut short; the samples "
			    "before are kept", pd->data_end - off);
		if (have == 0)
			break;
		if (have < sizeof(h)) {
			if (!pd->cut)	/* else said: the file was cut */
				bad_at(pd, off, "the data ends in a record's "
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
			if (corrupt_at(pd, off, why) == 0)
				continue;
			break;
		}
		if (pd->data_end != UINT64_MAX && off + h.size > pd->data_end) {
			if (pd->cut)	/* said: the file was cut */
				break;
			snprintf(why, sizeof(why), "a record of %u bytes "
			    "(type %u) goes past the data section's end at %"
			    PRIu64, h.size, h.type, pd->data_end);
			if (corrupt_at(pd, off, why) == 0)
				continue;
			break;
		}
		if ((have = need(pd, h.size)) < h.size) {
			if (!pd->cut)
				bad_at(pd, off, "the data ends in a record of "
				    "%u bytes (type %u), %zu of them there: cut "
				    "short; the samples before are kept", h.size,
				    h.type, have);
			break;
		}
		p = pd->buf + pd->bufpos;
		pd->bufpos += h.size;
		extra = trailing_bytes(pd, p, h.size);
		handle(pd, p, h.size, off, 0);
		if (extra && skip_input(pd, extra) != 0) {
			if (!pd->cut)
				bad_at(pd, off, "the data ends in what follows "
				    "a record of type %u: cut short", h.type);
			break;
		}
	}
	if (sink == NULL)
		return pd->bad;
	flush(pd, UINT64_MAX, 0);
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
		    "the samples before are kept", qname(pd, q));
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
		    qname(pd, q), (int)b.len, b.p ? b.p : "");
	if (pd->unknown_id > 1)
		warnx("'%s': %" PRIu64 " samples of ids no event lists were "
		    "skipped", qname(pd, q), pd->unknown_id);
	if (pd->undecoded > 1)
		warnx("'%s': %" PRIu64 " samples that did not hold their "
		    "event's layout were skipped", qname(pd, q), pd->undecoded);
	buf_release(&b);
}

void
perfdata_free(struct perfdata *pd)
{
	size_t i;

	if (pd == NULL)
		return;
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
	free(pd->q);
	free(pd->arena);
	if (pd->zs)
		ZSTD_freeDStream(pd->zs);
	free(pd->zbuf);
	free(pd->throttles);
	free(pd);
}
