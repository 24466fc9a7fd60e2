/*
 * perfdata_features: the feature sections of a perf.data file (and pipe
 * mode's HEADER_FEATURE and HEADER_BUILD_ID records): build IDs, host,
 * command line, the events' names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "perf/cursor.h"
#include "perf/perfdata_impl.h"

/* ---- feature sections (and pipe mode's HEADER_FEATURE) ---- */

/* A perf_header_string: u32 len, then len bytes, NUL-padded. Owned. */
static char *
rdstr(struct cursor *r)
{
	uint32_t len = cursor_u32(r);
	const unsigned char *at = cursor_skip(r, len);
	char *s;

	if (at == NULL)
		return NULL;
	s = xmalloc((size_t)len + 1);
	memcpy(s, at, len);
	s[len] = '\0';
	return s;
}

/*
 * One build ID record (the BUILD_ID feature's entries, pipe mode's
 * HEADER_BUILD_ID): header, pid, 24 bytes of ID (20, and its size when
 * misc says so), the file name. Returns 0, or -1 when it is cut.
 */
int
pd_buildid_record(struct perfdata *pd, const unsigned char *p, size_t n)
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
	pd_bid_add(pd, (const char *)name, p + sizeof(h) + 4, len,
	    (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL);
	return 0;
}

/* EVENT_DESC: the events' names, matched by id, else by order. */
static void
event_desc(struct perfdata *pd, struct cursor *r)
{
	uint32_t nre = cursor_u32(r), sz = cursor_u32(r), i, nid, k;
	uint64_t id;
	char *name;
	int ev;

	if (sz < ATTR_SIZE_VER0)
		r->bad = 1;
	for (i = 0; i < nre && !r->bad; i++) {
		if (cursor_skip(r, sz) == NULL)
			break;
		nid = cursor_u32(r);
		if ((name = rdstr(r)) == NULL)
			break;
		ev = i < pd->nevents ? (int)i : -1;
		for (k = 0; k < nid && !r->bad; k++) {
			id = cursor_u64(r);
			if (k == 0 && pd_id_find(pd, id) >= 0)
				ev = pd_id_find(pd, id);
		}
		if (ev >= 0 && name[0] != '\0')
			pd_event_set_name(&pd->events[ev], name);
		free(name);
	}
}

/* Reads feature feat from p[0..n). Returns -1 when it is corrupt. */
int
pd_feature(struct perfdata *pd, int feat, const unsigned char *p, size_t n)
{
	struct cursor r = { p, p + n, 0 };
	struct buf b;
	uint32_t nr, i;
	char *s;

	switch (feat) {
	case FEAT_BUILD_ID:
		while (r.p < r.end) {
			struct perf_event_header h;

			if ((size_t)(r.end - r.p) < sizeof(h) ||
			    pd_buildid_record(pd, r.p, (size_t)(r.end - r.p)) != 0)
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
		nr = cursor_u32(&r);
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

const char *
pd_feature_name(int feat)
{
	switch (feat) {
	case FEAT_BUILD_ID:	return "BUILD_ID";
	case FEAT_HOSTNAME:	return "HOSTNAME";
	case FEAT_OSRELEASE:	return "OSRELEASE";
	case FEAT_CMDLINE:	return "CMDLINE";
	default:		return "EVENT_DESC";
	}
}

int
pd_feature_wanted(int feat)
{
	return feat == FEAT_BUILD_ID || feat == FEAT_HOSTNAME ||
	    feat == FEAT_OSRELEASE || feat == FEAT_CMDLINE ||
	    feat == FEAT_EVENT_DESC;
}

/* A file's feature sections, after its data section. */
void
pd_file_features(struct perfdata *pd, const struct file_header *fh)
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
	secs = (struct section *)pd_get(pd, at, n * sizeof(*secs), &got, &back);
	if (secs == NULL) {
		pd_bad_at(pd, at, "the file ends before its feature sections "
		    "(cut short?): the events' names, command line and build "
		    "IDs are unknown");
		return;
	}
	for (f = 0; f < FEAT_BITS; f++) {
		if (!((fh->features[f / 64] >> (f % 64)) & 1))
			continue;
		if (pd_feature_wanted(f)) {
			if (secs[i].size > META_MAX ||
			    (p = pd_get(pd, secs[i].offset, (size_t)secs[i].size,
			    &got, &back)) == NULL) {
				/* one line for them all: a file cut short */
				if (nmissing++ == 0)
					missing_at = secs[i].offset;
				len += snprintf(missing + len, len <
				    sizeof(missing) ? sizeof(missing) - len : 0,
				    "%s%s", nmissing > 1 ? ", " : "",
				    pd_feature_name(f));
			} else {
				if (pd_feature(pd, f, p, (size_t)secs[i].size) != 0)
					pd_bad_at(pd, secs[i].offset, "the %s feature "
					    "section is corrupt: ignored",
					    pd_feature_name(f));
				free(p);
			}
		}
		i++;
	}
	free(secs);
	if (nmissing > 0)
		pd_bad_at(pd, missing_at, "the file ends before %s feature "
		    "section%s (%s): ignored; cut short?", nmissing == 1 ?
		    "its" : "these", nmissing == 1 ? "" : "s", missing);
}

