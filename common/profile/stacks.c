#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/cmdfile.h"
#include "base/lineread.h"
#include "base/num.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "profile/stacks.h"
#include "stream/diag.h"
#include "stream/reader.h"
#include "stream/sample.h"
#include "stream/sniff.h"
#include "stream/stream.h"
#include "stream/writer.h"

void
stacks_init(struct stacks *s)
{
	memset(s, 0, sizeof(*s));
	intern_init(&s->locs);
	intern_init(&s->stacks);
	intern_init(&s->threads);
	intern_init(&s->bids);
	intern_init(&s->buildids);
	intern_init(&s->notes);
	intern_init(&s->frames);
	s->lcache = xcalloc(STACKS_LCACHE, sizeof(*s->lcache));
}

void
stacks_release(struct stacks *s)
{
	intern_release(&s->locs);
	intern_release(&s->stacks);
	intern_release(&s->threads);
	intern_release(&s->bids);
	intern_release(&s->buildids);
	intern_release(&s->notes);
	intern_release(&s->frames);
	buf_release(&s->lframes);
	buf_release(&s->fkey);
	free(s->frm);
	buf_release(&s->key);
	buf_release(&s->grp);
	buf_release(&s->fline);
	free(s->gl);
	free(s->thr);
	free(s->seen);
	free(s->event);
	free(s->prog);
	free(s->lcache);
	memset(s, 0, sizeof(*s));
}

/* Notes that the entry i of a table, new, is the next thing first seen. */
static void
seen_add(struct stacks *s, enum stacks_seen_kind kind, size_t i)
{
	GROW(s->seen, s->nseen + 1, s->seen_cap);
	s->seen[s->nseen].kind = kind;
	s->seen[s->nseen].i = i;
	s->seen[s->nseen++].locs = s->locs.n;
}

/* A sum that stops at 2^63-1, the largest value profile.proto holds. */
static uint64_t
sat_add(struct stacks *s, uint64_t a, uint64_t b)
{
	if (b > (uint64_t)INT64_MAX - a) {
		s->saturated = 1;
		return INT64_MAX;
	}
	return a + b;
}

/* A note: kind, then the value. Each is kept once. */
static void
add_note(struct stacks *s, int kind, struct stream_str v)
{
	char *k = xmalloc(v.len + 1);
	size_t n = s->notes.n;

	k[0] = (char)kind;
	if (v.len > 0)
		memcpy(k + 1, v.p, v.len);
	intern_get(&s->notes, k, v.len + 1);
	free(k);
	if (s->notes.n != n)
		seen_add(s, STACKS_SEEN_NOTE, n);
}

/* "# buildid : ID FILE": the file's build ID is the last one said. */
static void
add_buildid(struct stacks *s, const struct stream_header_read *h)
{
	size_t n = s->bids.n;
	uint64_t i = intern_get(&s->bids, h->u.buildid.id.p,
	    h->u.buildid.id.len) - s->bids.ents;

	if (s->bids.n != n)
		seen_add(s, STACKS_SEEN_BUILDID, i);
	intern_get(&s->buildids, h->u.buildid.path.p,
	    h->u.buildid.path.len)->u[0] = i;
}

/*
 * A header line: the event's period, build IDs, and the command line and
 * lost samples as notes. Other keys pass.
 */
static void
header_line(struct stacks *s, const struct stream_header_read *h)
{
	const struct stream_event_read *e = &h->u.event;
	size_t n;

	switch (h->key) {
	case STREAM_HDR_BUILDID:
		if (h->ok)
			add_buildid(s, h);
		break;
	case STREAM_HDR_EVENT:
		/* "cpu-clock freq 999 callgraph dwarf 16384" */
		if (stream_ev_of(e->name.p, e->name.len) ==
		    STREAM_EV_ALLOC_BYTES && e->rate_kind == STREAM_RATE_PERIOD)
			s->heap_period = e->rate;
		if (!stream_event_is_clock(e->name.p, e->name.len) ||
		    e->rate == 0)
			break;
		if (e->rate_kind == STREAM_RATE_FREQ)
			s->hdr_period = (1000000000 + e->rate / 2) / e->rate;
		else if (e->rate_kind == STREAM_RATE_PERIOD)
			s->hdr_period = e->rate;
		break;
	case STREAM_HDR_CMDLINE:
		add_note(s, STACKS_NOTE_CMDLINE, h->value);
		if (s->prog == NULL && h->value.len > 0) {
			/* The program's file name: the first word's last part. */
			const char *v = h->value.p, *w = memchr(v, ' ',
			    h->value.len), *slash;

			n = w ? (size_t)(w - v) : h->value.len;
			slash = memrchr(v, '/', n);
			w = slash ? slash + 1 : v;
			s->prog = xmemdup0(w, v + n - w);
		}
		break;
	case STREAM_HDR_LOST:
		add_note(s, STACKS_NOTE_LOST, h->value);
		break;
	case STREAM_HDR_START:
		if (!h->ok)
			break;
		if (h->u.start.wall_ns <= INT64_MAX && (s->time_nanos == 0 ||
		    h->u.start.wall_ns < s->time_nanos))
			s->time_nanos = h->u.start.wall_ns;
		s->in_start = h->u.start.clock_ns;
		s->in_has_start = 1;
		break;
	default:
		break;
	}
}

/* One line of a frame group as it is parsed. */
struct gline {
	const char	*name, *dso, *file;
	size_t		 nlen, dlen, flen;
	uint64_t	 line, addr;
};

/*
 * A source line "  FILE:LINE": sets l's file and line. "??:0" and text
 * without a line number leave them unset.
 */
static void
srcline(struct gline *l, const char *p, size_t len)
{
	const char *colon;
	size_t used;
	uint64_t n;

	while (len > 0 && (*p == ' ' || *p == '\t'))
		p++, len--;
	while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
		len--;
	if ((colon = memrchr(p, ':', len)) == NULL || colon == p)
		return;
	num_u64(colon + 1, p + len - (colon + 1), &n, &used);
	if (used == 0 || str_is(p, colon - p, "??"))
		return;
	l->file = p;
	l->flen = colon - p;
	l->line = n > INT64_MAX ? 0 : n;
}

/* The id of the raw frame l, added when new. */
static uint32_t
frame_id(struct stacks *s, const struct gline *l)
{
	uint64_t head[4] = { l->nlen, l->dlen, l->flen, l->line };
	size_t n = s->frames.n;
	struct intern_entry *e;
	struct stacks_frame *f;

	buf_reset(&s->fkey);
	buf_add(&s->fkey, head, sizeof(head));
	buf_add(&s->fkey, l->name, l->nlen);
	buf_add(&s->fkey, l->dso, l->dlen);
	buf_add(&s->fkey, l->file, l->flen);
	e = intern_get(&s->frames, s->fkey.p, s->fkey.len);
	if (s->frames.n != n) {
		GROW(s->frm, n + 1, s->frm_cap);
		f = &s->frm[n];
		f->name = e->key + sizeof(head);
		f->nlen = l->nlen;
		f->dso = f->name + l->nlen;
		f->dlen = l->dlen;
		f->file = l->flen > 0 ? f->dso + l->dlen : NULL;
		f->flen = l->flen;
		f->line = l->line;
		f->inlined = str_is(l->dso, l->dlen, STREAM_INLINED);
	}
	return (uint32_t)(e - s->frames.ents);
}

/*
 * A new location, the open frame group: its frames (the function's name
 * without its offset, the DSO, the source line after it) as the reader
 * parsed them, as raw frames; its address is the non-inlined frame's
 * (else the first's). Its entry e gets u[0], its frame ids' place in
 * lframes, and u[1], its address.
 */
static void
location_new(struct stacks *s, struct intern_entry *e)
{
	const char *t = s->grp.p;
	struct gline l;
	size_t i;

	e->u[0] = s->lframes.len;
	e->u[1] = s->gaddr;
	buf_varint(&s->lframes, s->ngl);
	for (i = 0; i < s->ngl; i++) {
		const struct stacks_gline *g = &s->gl[i];

		memset(&l, 0, sizeof(l));
		l.name = t + g->name;
		l.nlen = stream_sym_len(l.name, g->nlen);
		l.dso = t + g->dso;
		l.dlen = g->dlen;
		l.file = g->flen > 0 ? t + g->file : NULL;
		l.flen = g->flen;
		l.line = g->line;
		buf_varint(&s->lframes, frame_id(s, &l));
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
group_close(struct stacks *s)
{
	struct intern_entry *e;
	struct stacks_lcache *c;
	XXH128_hash_t h;
	size_t n = s->locs.n;
	uint64_t id;

	if (s->grp.len == 0)
		return;
	h = XXH3_128bits(s->grp.p, s->grp.len);
	c = &s->lcache[h.low64 & (STACKS_LCACHE - 1)];
	if (c->id != 0 && c->lo == h.low64 && c->hi == h.high64)
		id = c->id;
	else {
		e = intern_get(&s->locs, (const char *)&h, sizeof(h));
		id = e - s->locs.ents + 1;
		if (s->locs.n != n)
			location_new(s, e);
		c->lo = h.low64;
		c->hi = h.high64;
		c->id = id;
	}
	buf_varint(&s->key, id);
	buf_reset(&s->grp);
	s->grp_phys = 0;
	s->ngl = 0;
}

/* Adds a line to the open group's text, returning where it starts. */
static size_t
group_add(struct stacks *s, const char *line, size_t len)
{
	size_t at = s->grp.len;

	buf_add(&s->grp, line, len);
	buf_addc(&s->grp, '\n');
	return at;
}

/*
 * A frame line the reader parsed into fr joins the open group; inlined:
 * its DSO is STREAM_INLINED. Only where things are is noted: a location
 * seen before needs nothing more (location_new reads the rest).
 */
static void
group_frame(struct stacks *s, const char *line, size_t len,
    const struct stream_frame *fr, int inlined)
{
	size_t at = group_add(s, line, len);
	struct stacks_gline *g;

	if (s->ngl == s->glcap)
		GROW(s->gl, s->ngl + 1, s->glcap);
	g = &s->gl[s->ngl];
	g->name = at + (size_t)(fr->sym.p - line);
	g->nlen = fr->sym.len;
	g->dso = at + (size_t)(fr->dso.p - line);
	g->dlen = fr->dso.len;
	g->flen = 0;
	g->line = 0;
	if (s->ngl++ == 0 || !inlined)
		s->gaddr = fr->addrval;
}

/* A source line joins the open group, the file and line of its last frame. */
static void
group_srcline(struct stacks *s, const char *line, size_t len)
{
	size_t at = group_add(s, line, len);
	struct stacks_gline *g;
	struct gline l;

	if (s->ngl == 0)
		return;
	memset(&l, 0, sizeof(l));
	srcline(&l, line, len);
	if (l.file == NULL)
		return;
	g = &s->gl[s->ngl - 1];
	g->file = at + (size_t)(l.file - line);
	g->flen = l.flen;
	g->line = l.line;
}

/* The index of the thread (COMM, PID, TID) of a sample head. */
static uint64_t
thread_id(struct stacks *s, const struct stream_sample *h,
    const struct stream_head_values *v)
{
	size_t klen = h->comm.len + h->pid.len + h->tid.len + 2, n = s->threads.n;
	char *k = xmalloc(klen);
	uint64_t id;

	memcpy(k, h->comm.p, h->comm.len);
	k[h->comm.len] = '\0';
	if (h->pid.len > 0)	/* NULL when perf printed only a TID */
		memcpy(k + h->comm.len + 1, h->pid.p, h->pid.len);
	k[h->comm.len + 1 + h->pid.len] = '\0';
	memcpy(k + h->comm.len + 2 + h->pid.len, h->tid.p, h->tid.len);
	id = intern_get(&s->threads, k, klen) - s->threads.ents;
	free(k);
	if (s->threads.n != n) {
		struct stacks_thread *t;

		GROW(s->thr, id + 1, s->thr_cap);
		t = &s->thr[id];
		t->commlen = h->comm.len;
		t->pid = v->has_pid ? v->pid : -1;
		t->tid = v->tid;
		seen_add(s, STACKS_SEEN_THREAD, id);
	}
	return id;
}

/*
 * A sample head h, its values v: a sample of the side its event says
 * opens, unless its event is not the one kept (said once, from line
 * lineno of name; 0 when it came as a struct).
 */
static void
sample_head(struct stacks *s, const struct stream_sample *h,
    const struct stream_head_values *v, const char *name,
    unsigned long lineno)
{

	s->in_sample = 0;
	buf_reset(&s->grp);
	s->grp_phys = 0;
	s->ngl = 0;
	if (h->ev == STREAM_EV_OFFCPU) {
		s->side = STACKS_OFF;
		s->weight = h->has_period ? h->period : 0;
	} else if (stream_ev_heap(h->ev)) {
		/* A heap event: its own side, weighing bytes or allocations. */
		s->side = STACKS_HEAP + (h->ev - STREAM_EV_ALLOC_BYTES);
		s->weight = h->has_period ? h->period : 0;
	} else {
		/* A head with no event has an empty one (and event.p NULL). */
		if (s->event == NULL)
			s->event = h->event.len > 0 ?
			    xmemdup0(h->event.p, h->event.len) : xstrdup("");
		else if (strlen(s->event) != h->event.len || (h->event.len > 0 &&
		    !stream_str_eq(h->event, s->event))) {
			if (!s->event_warned && lineno > 0)
				stream_warnx("%s:%lu: several events in the "
				    "input; converting only '%s' (and "
				    STREAM_OFFCPU_EVENT ")", name, lineno,
				    s->event);
			else if (!s->event_warned)
				stream_warnx("%s: several events in the "
				    "input; converting only '%s' (and "
				    STREAM_OFFCPU_EVENT ")", name, s->event);
			s->event_warned = 1;
			return;
		}
		s->side = STACKS_ON;
		s->weight = h->has_period ? h->period : s->hdr_period;
		if (s->first_period == 0 && h->has_period)
			s->first_period = h->period;
	}
	s->has_time = v->has_time;
	s->time = v->time;
	buf_reset(&s->key);
	buf_varint(&s->key, s->side);
	buf_varint(&s->key, thread_id(s, h, v));
	s->in_sample = 1;
}

/* The end of a sample: it is counted under its key. */
static void
sample_end(struct stacks *s)
{
	struct intern_entry *e;

	if (!s->in_sample)
		return;
	group_close(s);
	s->in_sample = 0;
	e = intern_get(&s->stacks, s->key.p, s->key.len);
	e->u[0] = sat_add(s, e->u[0], 1);
	e->u[1] = sat_add(s, e->u[1], s->weight);
	s->nsamples++;
	if (s->has_time) {
		/* an off-CPU sample's time is when its thread blocked */
		uint64_t end = sat_add(s, s->time, s->side == STACKS_OFF ?
		    s->weight : 0);

		if (!s->in_has_time || s->time < s->t_first)
			s->t_first = s->time;
		if (!s->in_has_time || end > s->t_end)
			s->t_end = end;
		s->in_has_time = 1;
	}
	if (s->side >= STACKS_HEAP)
		s->has_heap |= 1 << (s->side - STACKS_HEAP);
	else if (s->side == STACKS_OFF)
		s->has_off = 1;
	else {
		s->has_on = 1;
		if (s->weight > 0)
			s->has_weight = 1;
	}
}

/* The start of an input: nothing of the last one is open. */
static void
input_begin(struct stacks *s)
{
	s->in_sample = 0;
	buf_reset(&s->grp);
	s->grp_phys = 0;
	s->ngl = 0;
	s->in_has_time = 0;
	s->in_has_start = 0;
}

/* The end of an input: its time joins the duration. */
static void
input_end(struct stacks *s)
{
	s->in_sample = 0;
	if (s->in_has_time) {
		uint64_t from = s->in_has_start && s->in_start < s->t_first ?
		    s->in_start : s->t_first;

		s->duration = sat_add(s, s->duration, s->t_end - from);
	}
	s->in_has_time = 0;
}

int
stacks_stream(struct stacks *s, int fd, const char *name)
{
	struct lineread lr;
	int rv;

	lineread_init(&lr, fd, name);
	if (sniff_refuse(&lr, SNIFF_STREAM, "fgpprof") != 0)
		rv = SNIFF_REFUSED;
	else
		rv = stacks_lines(s, &lr, name);
	lineread_release(&lr);
	return rv;
}

int
stacks_lines(struct stacks *s, struct lineread *lr, const char *name)
{
	struct stream_diag diag;
	struct stream_reader r;
	struct stream_item it;
	struct stream_head_values v;
	const char *f;
	int rv = 0;

	stream_diag_init(&diag, name);
	input_begin(s);
	stream_reader_init(&r, lr, &diag, NULL);
	while (stream_reader_next(&r, &it) != STREAM_ITEM_EOF) {
		switch (it.kind) {
		case STREAM_ITEM_BLANK:
			sample_end(s);
			break;
		case STREAM_ITEM_HEADER:
			header_line(s, &it.hdr);
			break;
		case STREAM_ITEM_HEAD:
			/* A head with no empty line before it: keep both. */
			sample_end(s);
			stream_head_values(&it, &v);
			sample_head(s, &it.head, &v, name, it.lineno);
			if (s->in_sample && it.head.has_frame) {
				/* perf record without -g: a one-frame stack */
				f = it.head.frame.indent.p;
				group_frame(s, f, it.line + it.len - f,
				    &it.head.frame, str_is(it.head.frame.dso.p,
				    it.head.frame.dso.len, STREAM_INLINED));
				sample_end(s);
			}
			break;
		case STREAM_ITEM_FRAME:
			if (!s->in_sample)
				break;		/* of an event not kept */
			if (s->grp_phys)
				group_close(s);
			group_frame(s, it.line, it.len, &it.frame, it.inlined);
			if (!it.inlined)
				s->grp_phys = 1;
			break;
		case STREAM_ITEM_SRCLINE:
			if (s->in_sample && s->grp.len > 0)
				group_srcline(s, it.line, it.len);
			break;
		default:
			break;
		}
	}
	if (stream_reader_finish(&r))
		rv = 1;
	if (lr->error) {
		cmdfile_read_failed(name, lr->error);
		rv = 1;
	}
	input_end(s);
	if (diag.bad > 0)
		rv = 1;
	return rv;
}

/* ---- samples handed over as structs (stacks_feed_*, stacks.h) ---- */

/* The NUL-terminated c as a stream string. */
static struct stream_str
str_of(const char *c)
{
	struct stream_str v = { c, strlen(c) };

	return v;
}

void
stacks_feed_begin(struct stacks *s, const char *name)
{
	input_begin(s);
	s->feed_name = name;
}

void
stacks_feed_header(struct stacks *s, const struct sample_hdr *sh)
{
	struct stream_header_read h;
	char num[24];

	memset(&h, 0, sizeof(h));
	h.ok = 1;
	switch (sh->kind) {
	case SAMPLE_HDR_BEGIN:
		if (sh->start == NULL)
			return;
		h.key = STREAM_HDR_START;
		h.u.start = *sh->start;
		break;
	case SAMPLE_HDR_EVENT:
		h.key = STREAM_HDR_EVENT;
		h.u.event.name = str_of(sh->event->name);
		h.u.event.rate_kind = sh->event->rate_kind;
		h.u.event.rate = sh->event->rate;
		break;
	case SAMPLE_HDR_BUILDID:
		h.key = STREAM_HDR_BUILDID;
		h.u.buildid.id = str_of(sh->value);
		h.u.buildid.path = str_of(sh->key);
		break;
	case SAMPLE_HDR_TEXT:
	case SAMPLE_HDR_NUMBER:
		if (strcmp(sh->key, STREAM_KEY_CMDLINE) == 0)
			h.key = STREAM_HDR_CMDLINE;
		else if (strcmp(sh->key, STREAM_KEY_LOST) == 0)
			h.key = STREAM_HDR_LOST;
		else
			return;
		if (sh->kind == SAMPLE_HDR_NUMBER) {
			snprintf(num, sizeof(num), "%" PRIu64, sh->n);
			h.value = str_of(num);
		} else
			h.value = str_of(sh->value);
		/* the reader trims the value */
		while (h.value.len > 0 && (h.value.p[0] == ' ' ||
		    h.value.p[0] == '\t'))
			h.value.p++, h.value.len--;
		while (h.value.len > 0 && (h.value.p[h.value.len - 1] == ' ' ||
		    h.value.p[h.value.len - 1] == '\t'))
			h.value.len--;
		break;
	default:
		return;
	}
	header_line(s, &h);
}

void
stacks_feed_head(struct stacks *s, const struct stream_head *h)
{
	struct stream_sample sm;
	struct stream_head_values v;
	char comm[64], pid[16], tid[16];
	size_t n = strlen(h->comm);

	sample_end(s);
	memset(&sm, 0, sizeof(sm));
	/* the name as the writer writes it, and the reader reads it back */
	if (h->comm[0] == '\0' || h->comm[0] == ' ' || h->comm[0] == '#') {
		comm[0] = '_';
		n = n > 0 ? n - 1 : 0;
		n = n < sizeof(comm) - 1 ? n : sizeof(comm) - 1;
		memcpy(comm + 1, h->comm + (h->comm[0] != '\0'), n);
		sm.comm.p = comm;
		sm.comm.len = n + 1;
	} else
		sm.comm = str_of(h->comm);
	sm.pid.p = pid;
	sm.pid.len = (size_t)snprintf(pid, sizeof(pid), "%d", (int)h->pid);
	sm.tid.p = tid;
	sm.tid.len = (size_t)snprintf(tid, sizeof(tid), "%d", (int)h->tid);
	sm.event = str_of(h->event);
	sm.ev = stream_ev_of(h->event, sm.event.len);
	sm.period = h->period;
	sm.has_period = 1;
	memset(&v, 0, sizeof(v));
	v.has_pid = 1;
	v.pid = (int32_t)h->pid;
	v.tid = (int32_t)h->tid;
	/* the writer's time is to the microsecond */
	v.time = h->time / 1000 * 1000;
	v.has_time = 1;
	sample_head(s, &sm, &v, s->feed_name, 0);
}

void
stacks_feed_frame(struct stacks *s, const struct stream_frame *fr)
{
	struct stream_frame f = *fr;
	int inlined = stream_str_eq(fr->dso, STREAM_INLINED);

	if (!s->in_sample)
		return;		/* of an event not kept */
	if (s->grp_phys)
		group_close(s);
	/* its text: the address, then the name and the DSO */
	buf_reset(&s->fline);
	buf_add(&s->fline, &fr->addrval, sizeof(fr->addrval));
	buf_add(&s->fline, fr->sym.p, fr->sym.len);
	buf_addc(&s->fline, ' ');
	buf_add(&s->fline, fr->dso.p, fr->dso.len);
	f.sym.p = s->fline.p + sizeof(fr->addrval);
	f.dso.p = f.sym.p + fr->sym.len + 1;
	group_frame(s, s->fline.p, s->fline.len, &f, inlined);
	if (!inlined)
		s->grp_phys = 1;
}

void
stacks_feed_srcline(struct stacks *s, const char *text)
{
	if (s->in_sample && s->grp.len > 0)
		group_srcline(s, text, strlen(text));
}

void
stacks_feed_end(struct stacks *s)
{
	sample_end(s);
}

void
stacks_feed_finish(struct stacks *s)
{
	sample_end(s);
	input_end(s);
	s->feed_name = NULL;
}
