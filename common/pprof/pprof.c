#include <err.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/cmdfile.h"
#include "base/lineread.h"
#include "base/xalloc.h"
#include "pprof/encode.h"
#include "pprof/pprof.h"
#include "stream/reader.h"
#include "stream/sniff.h"

void
pprof_init(struct pprof *p)
{
	memset(p, 0, sizeof(*p));
	stacktab_init(&p->strs);
	stacktab_init(&p->funcs);
	stacktab_init(&p->maps);
	stacktab_init(&p->locs);
	stacktab_init(&p->samples);
	stacktab_init(&p->threads);
	stacktab_init(&p->buildids);
	p->lcache = xcalloc(PPROF_LCACHE, sizeof(*p->lcache));
	stacktab_get(&p->strs, "", 0);	/* string 0 is the empty string */
}

void
pprof_release(struct pprof *p)
{
	stacktab_release(&p->strs);
	stacktab_release(&p->funcs);
	stacktab_release(&p->maps);
	stacktab_release(&p->locs);
	stacktab_release(&p->samples);
	stacktab_release(&p->threads);
	stacktab_release(&p->buildids);
	buf_release(&p->larena);
	buf_release(&p->key);
	buf_release(&p->tmp);
	buf_release(&p->tmp2);
	free(p->thr);
	free(p->comments);
	free(p->event);
	free(p->prog);
	buf_release(&p->grp);
	free(p->vals);
	free(p->lcache);
	memset(p, 0, sizeof(*p));
}

/* A sum that stops at 2^63-1, the largest value profile.proto holds. */
static uint64_t
sat_add(struct pprof *p, uint64_t a, uint64_t b)
{
	if (b > (uint64_t)INT64_MAX - a) {
		p->saturated = 1;
		return INT64_MAX;
	}
	return a + b;
}

static void
add_comment(struct pprof *p, const char *prefix, struct stream_str v)
{
	size_t n = strlen(prefix), i;
	char *s = xmalloc(n + v.len + 1);
	uint64_t id;

	memcpy(s, prefix, n);
	memcpy(s + n, v.p, v.len);
	id = pprof_str(p, s, n + v.len);
	free(s);
	for (i = 0; i < p->ncomments; i++)
		if (p->comments[i] == id)
			return;
	GROW(p->comments, p->ncomments + 1, p->comments_cap);
	p->comments[p->ncomments++] = id;
}

/*
 * A header line: the event's period, build IDs, and the command line and
 * lost samples as comments. Other keys pass.
 */
static void
header_line(struct pprof *p, const struct stream_header_read *h)
{
	const struct stream_event_read *e = &h->u.event;
	size_t n;

	switch (h->key) {
	case STREAM_HDR_BUILDID:
		if (h->ok)
			stacktab_get(&p->buildids, h->u.buildid.path.p,
			    h->u.buildid.path.len)->u[0] = pprof_str(p,
			    h->u.buildid.id.p, h->u.buildid.id.len);
		break;
	case STREAM_HDR_EVENT:
		/* "cpu-clock freq 999 callgraph dwarf 16384" */
		if (!stream_event_is_clock(e->name.p, e->name.len) ||
		    e->rate == 0)
			break;
		if (e->rate_kind == STREAM_RATE_FREQ)
			p->hdr_period = (1000000000 + e->rate / 2) / e->rate;
		else if (e->rate_kind == STREAM_RATE_PERIOD)
			p->hdr_period = e->rate;
		break;
	case STREAM_HDR_CMDLINE:
		add_comment(p, "cmdline: ", h->value);
		if (p->prog == NULL && h->value.len > 0) {
			/* The program's file name: the first word's last part. */
			const char *v = h->value.p, *w = memchr(v, ' ',
			    h->value.len), *slash;

			n = w ? (size_t)(w - v) : h->value.len;
			slash = memrchr(v, '/', n);
			w = slash ? slash + 1 : v;
			p->prog = xmemdup0(w, v + n - w);
		}
		break;
	case STREAM_HDR_LOST:
		add_comment(p, "lost samples: ", h->value);
		break;
	case STREAM_HDR_START:
		if (!h->ok)
			break;
		if (h->u.start.wall_ns <= INT64_MAX && (p->time_nanos == 0 ||
		    h->u.start.wall_ns < p->time_nanos))
			p->time_nanos = h->u.start.wall_ns;
		p->in_start = h->u.start.clock_ns;
		p->in_has_start = 1;
		break;
	default:
		break;
	}
}

/*
 * Closes the open frame group: its location's id joins the sample's key.
 * A location is known by the 128-bit hash of its text (as fgfold's sample
 * cache knows a sample), which keeps the table small; the recent ones are
 * found in lcache first, which stays in the processor's cache where the
 * table, with a million locations, does not.
 */
static void
group_close(struct pprof *p)
{
	struct stacktab_entry *e;
	struct pprof_lcache *c;
	XXH128_hash_t h;
	size_t n = p->locs.n;
	uint64_t id;

	if (p->grp.len == 0)
		return;
	h = XXH3_128bits(p->grp.p, p->grp.len);
	c = &p->lcache[h.low64 & (PPROF_LCACHE - 1)];
	if (c->id != 0 && c->lo == h.low64 && c->hi == h.high64)
		id = c->id;
	else {
		e = stacktab_get(&p->locs, (const char *)&h, sizeof(h));
		id = e - p->locs.ents + 1;
		if (p->locs.n != n)
			pprof_location(p, e, p->grp.p, p->grp.len);
		c->lo = h.low64;
		c->hi = h.high64;
		c->id = id;
	}
	pb_varint(&p->key, id);
	buf_reset(&p->grp);
	p->grp_phys = 0;
}

static void
group_add(struct pprof *p, const char *line, size_t len)
{
	buf_add(&p->grp, line, len);
	buf_addc(&p->grp, '\n');
}

/* The index of the thread (COMM, PID, TID) of a sample head. */
static uint64_t
thread_id(struct pprof *p, const struct stream_sample *s,
    const struct stream_head_values *v)
{
	size_t klen = s->comm.len + s->pid.len + s->tid.len + 2, n = p->threads.n;
	char *k = xmalloc(klen);
	uint64_t id;

	memcpy(k, s->comm.p, s->comm.len);
	k[s->comm.len] = '\0';
	if (s->pid.len > 0)	/* NULL when perf printed only a TID */
		memcpy(k + s->comm.len + 1, s->pid.p, s->pid.len);
	k[s->comm.len + 1 + s->pid.len] = '\0';
	memcpy(k + s->comm.len + 2 + s->pid.len, s->tid.p, s->tid.len);
	id = stacktab_get(&p->threads, k, klen) - p->threads.ents;
	free(k);
	if (p->threads.n != n) {
		struct pprof_thread *t;

		GROW(p->thr, id + 1, p->thr_cap);
		t = &p->thr[id];
		t->comm = pprof_str(p, s->comm.p, s->comm.len);
		t->pid = v->has_pid ? v->pid : -1;
		t->tid = v->tid;
	}
	return id;
}

static void
sample_head(struct pprof *p, const struct stream_item *it, const char *name)
{
	const struct stream_sample *s = &it->head;
	struct stream_head_values v;

	p->in_sample = 0;
	buf_reset(&p->grp);
	p->grp_phys = 0;
	if (s->event.len > 0 && stream_str_eq(s->event, STREAM_OFFCPU_EVENT)) {
		p->kind = PPROF_OFF;
		p->weight = s->has_period ? s->period : 0;
	} else {
		/* A head with no event has an empty one (and event.p NULL). */
		if (p->event == NULL)
			p->event = s->event.len > 0 ?
			    xmemdup0(s->event.p, s->event.len) : xstrdup("");
		else if (strlen(p->event) != s->event.len || (s->event.len > 0 &&
		    !stream_str_eq(s->event, p->event))) {
			if (!p->event_warned)
				warnx("%s:%lu: several events in the input; converting "
				    "only '%s' (and " STREAM_OFFCPU_EVENT ")", name,
				    it->lineno, p->event);
			p->event_warned = 1;
			return;
		}
		p->kind = PPROF_ON;
		p->weight = s->has_period ? s->period : p->hdr_period;
		if (p->first_period == 0 && s->has_period)
			p->first_period = s->period;
	}
	stream_head_values(it, &v);
	p->has_time = v.has_time;
	p->time = v.time;
	buf_reset(&p->key);
	pb_varint(&p->key, p->kind);
	pb_varint(&p->key, thread_id(p, s, &v));
	p->in_sample = 1;
}

/* The end of a sample: it is counted under its key. */
static void
sample_end(struct pprof *p)
{
	struct stacktab_entry *e;

	if (!p->in_sample)
		return;
	group_close(p);
	p->in_sample = 0;
	e = stacktab_get(&p->samples, p->key.p, p->key.len);
	e->u[0] = sat_add(p, e->u[0], 1);
	e->u[1] = sat_add(p, e->u[1], p->weight);
	p->nsamples++;
	if (p->has_time) {
		/* an off-CPU sample's time is when its thread blocked */
		uint64_t end = sat_add(p, p->time, p->kind == PPROF_OFF ?
		    p->weight : 0);

		if (!p->in_has_time || p->time < p->t_first)
			p->t_first = p->time;
		if (!p->in_has_time || end > p->t_end)
			p->t_end = end;
		p->in_has_time = 1;
	}
	if (p->kind == PPROF_OFF)
		p->has_off = 1;
	else {
		p->has_on = 1;
		if (p->weight > 0)
			p->has_weight = 1;
	}
}

int
pprof_stream(struct pprof *p, int fd, const char *name)
{
	struct lineread lr;
	struct stream_diag diag;
	struct stream_reader r;
	struct stream_item it;
	const char *f;
	int rv = 0;

	stream_diag_init(&diag, name);
	p->in_sample = 0;
	buf_reset(&p->grp);
	p->grp_phys = 0;
	p->in_has_time = 0;
	p->in_has_start = 0;
	lineread_init(&lr, fd, name);
	if (sniff_refuse(&lr, SNIFF_STREAM, "fgpprof") != 0) {
		lineread_release(&lr);
		return SNIFF_REFUSED;
	}
	stream_reader_init(&r, &lr, &diag, NULL);
	while (stream_reader_next(&r, &it) != STREAM_ITEM_EOF) {
		switch (it.kind) {
		case STREAM_ITEM_BLANK:
			sample_end(p);
			break;
		case STREAM_ITEM_HEADER:
			header_line(p, &it.hdr);
			break;
		case STREAM_ITEM_HEAD:
			/* A head with no empty line before it: keep both. */
			sample_end(p);
			sample_head(p, &it, name);
			if (p->in_sample && it.head.has_frame) {
				/* perf record without -g: a one-frame stack */
				f = it.head.frame.indent.p;
				group_add(p, f, it.line + it.len - f);
				sample_end(p);
			}
			break;
		case STREAM_ITEM_FRAME:
			if (!p->in_sample)
				break;		/* of an event not converted */
			if (p->grp_phys)
				group_close(p);
			group_add(p, it.line, it.len);
			if (!it.inlined)
				p->grp_phys = 1;
			break;
		case STREAM_ITEM_SRCLINE:
			if (p->in_sample && p->grp.len > 0)
				group_add(p, it.line, it.len);
			break;
		default:
			break;
		}
	}
	if (stream_reader_finish(&r))
		rv = 1;
	p->in_sample = 0;
	if (lr.error) {
		cmdfile_read_failed(name, lr.error);
		rv = 1;
	}
	lineread_release(&lr);
	if (p->in_has_time) {
		uint64_t from = p->in_has_start && p->in_start < p->t_first ?
		    p->in_start : p->t_first;

		p->duration = sat_add(p, p->duration, p->t_end - from);
	}
	if (diag.bad > 0)
		rv = 1;
	return rv;
}
