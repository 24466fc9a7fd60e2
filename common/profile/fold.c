#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/cmdfile.h"
#include "base/lineread.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "profile/fold.h"
#include "profile/tidy.h"
#include "stream/diag.h"
#include "stream/dso.h"
#include "stream/folded.h"
#include "stream/reader.h"
#include "stream/sniff.h"
#include "stream/stream.h"


void
fold_init(struct fold *f, const struct fold_opts *opts)
{
	memset(f, 0, sizeof(*f));
	f->opts = *opts;
	/* --event-filter may name a heap event itself. */
	f->alloc = opts->event != NULL ? stream_ev_of(opts->event,
	    strlen(opts->event)) : STREAM_EV_OTHER;
	if (!stream_ev_heap(f->alloc))
		f->alloc = STREAM_EV_OTHER;
	/* The own-functions table needs to know which frames are inlined. */
	if (opts->nown > 0)
		f->opts.inline_mark = 1;
	if (opts->event != NULL) {
		f->event = xstrdup(opts->event);
		f->event_ev = stream_ev_of(f->event, strlen(f->event));
	}
	intern_init(&f->tab);
	intern_init(&f->cache);
	intern_init(&f->scache);
}

void
fold_release(struct fold *f)
{
	intern_release(&f->tab);
	intern_release(&f->cache);
	intern_release(&f->scache);
	buf_release(&f->skey);
	buf_release(&f->ctext);
	buf_release(&f->ckey);
	free(f->event);
	free(f->event2);
	buf_release(&f->pname);
	buf_release(&f->fbuf);
	free(f->fofs);
	buf_release(&f->key);
	memset(f, 0, sizeof(*f));
}

static void
frame_begin(struct fold *f)
{
	GROW(f->fofs, f->nframes + 2, f->fofs_cap);
	f->fofs[f->nframes] = f->fbuf.len;
}

static void
frame_end(struct fold *f)
{
	f->nframes++;
	f->fofs[f->nframes] = f->fbuf.len;
}

static void
sample_reset(struct fold *f)
{
	buf_reset(&f->pname);
	buf_reset(&f->fbuf);
	f->nframes = 0;
	f->nnoname = 0;
}

/* The frames fold_feed_frame knows by their id: a direct-mapped cache. */
#define FOLD_IDS	(1u << 14)

/*
 * One input while it is folded, and the sample of it being folded. Which
 * lines are whose is the stream reader's to know (stream/reader.h): told
 * what is not wanted (stream_reader_skip_rest), it hands over the kept
 * samples' heads, frames, source lines and ends, and nothing else.
 */
struct foldin {
	int		 kept;		/* a sample of the event folded is
					   being folded: its head came, not
					   its end */
	int		 cut;		/* --skip-after cut its frames: the
					   rest are not its */
	int		 want_srcline;	/* its last frame takes a source line */
	int		 is_java;
	int		 offcpu;	/* the open sample is off-CPU time */
	uint64_t	 period;
	struct stream_diag diag;	/* its unrecognised lines, said by the
					   reader */
	unsigned long	 sample_line;	/* line of the open sample's head */
	unsigned long	 overflow;	/* samples not counted: sum past 2^64-1 */
	unsigned long	 overflow_line;	/* the first of them */
	struct fold_sample head;	/* for opts.on_sample: the open
					   sample's thread and time */
	struct foldin_id {
		const void *id;		/* fold_feed_frame's */
		uint32_t ce;		/* its frame cache entry */
		int	 java;		/* in a Java process (is_java) */
		size_t	 dsolen;	/* its DSO's length: a guard */
	}		*ids;		/* owned: FOLD_IDS, direct-mapped */
	struct buf	 comm;		/* head.comm's bytes */
};

/*
 * The length of the event name e[0..len) without perf's modifiers: the
 * ":u", ":k", ":ppp" after a name ("cycles:u" is "cycles"), or the letters
 * after the last '/' of a PMU form ("cpu/cycles/u" is "cpu/cycles/").
 * Only a group of modifier letters goes: a tracepoint's
 * "sched:sched_switch" keeps its name, as a ':' inside the slashes does.
 */
static size_t
event_base(const char *e, size_t len)
{
	static const char mods[] = "ukhIGHpPSDWebR";
	const char *slash = memrchr(e, '/', len), *colon;
	size_t start, i;

	if (slash != NULL)
		start = slash - e + 1;
	else if ((colon = memrchr(e, ':', len)) != NULL)
		start = colon - e + 1;
	else
		return len;
	for (i = start; i < len; i++)
		if (e[i] == '\0' || strchr(mods, e[i]) == NULL)
			return len;
	if (slash == NULL && i == start)
		return len;	/* "x:", nothing after the colon */
	return slash != NULL ? start : start - 1;
}

/* Whether the events a and b[0..blen) differ only by their modifiers. */
static int
event_same(struct stream_str a, const char *b, size_t blen)
{
	size_t n = event_base(a.p, a.len);

	return n == event_base(b, blen) && memcmp(a.p, b, n) == 0;
}

/*
 * Off-CPU and on-CPU time (fgrecord --wall) fold together: an event that
 * is not the one folded is kept when one of the two is offcpu-time and the
 * other a clock, unless --event-filter chose one.
 */
static int
time_pair(struct fold *f, struct stream_str ev, int off)
{
	int first_off = f->event_ev == STREAM_EV_OFFCPU;

	if (!f->event_defaulted)
		return 0;
	if (f->event2 != NULL)
		return event_same(ev, f->event2, strlen(f->event2));
	if (off ? !stream_event_is_clock(f->event, strlen(f->event)) :
	    !(first_off && stream_event_is_clock(ev.p, ev.len)))
		return 0;
	f->event2 = xmemdup0(ev.p, ev.len);
	return 1;
}

/*
 * The event folded when no --event-filter chose one and the first seen
 * is a heap event: the one the options choose, bytes allocated unless
 * told otherwise.
 */
static void
event_heap(struct fold *f)
{
	f->event_defaulted = 1;
	f->alloc = (f->opts.alloc_inuse ? STREAM_EV_INUSE_BYTES :
	    STREAM_EV_ALLOC_BYTES) + (f->opts.alloc_objects != 0);
	f->event = xstrdup(stream_ev_name(f->alloc));
}

static void
sample_head(struct fold *f, struct foldin *in, const struct stream_sample *s,
    unsigned long lineno)
{
	sample_reset(f);
	in->kept = 0;
	in->cut = 0;
	in->want_srcline = 0;
	in->offcpu = 0;
	f->heads++;
	if (s->event.len > 0) {
		int off = s->ev == STREAM_EV_OFFCPU;

		if (f->event == NULL && stream_ev_heap(s->ev))
			event_heap(f);
		if (f->event == NULL) {
			f->event = xmemdup0(s->event.p, s->event.len);
			f->event_ev = s->ev;
			f->event_defaulted = 1;
		} else if (!event_same(s->event, f->event, strlen(f->event)) &&
		    !time_pair(f, s->event, off)) {
			f->heads_other++;
			/* The other heap events go with the one folded. */
			if (f->alloc != STREAM_EV_OTHER &&
			    stream_ev_heap(s->ev))
				return;
			if (f->event_defaulted && !f->event_warned) {
				stream_warnx("%s:%lu: several events in the "
				    "input; folding only '%s' (choose one with "
				    "--event-filter=EVENT)", in->diag.name,
				    lineno, f->event);
				f->event_warned = 1;
			}
			return;
		}
		if (off) {
			in->offcpu = 1;
			f->timed = 1;
		}
	}
	in->kept = 1;
	in->sample_line = lineno;
	in->period = s->period;
	buf_add(&f->pname, s->comm.p, s->comm.len);
	if (f->opts.pid || f->opts.tid) {
		buf_addc(&f->pname, '-');
		if (s->pid.len > 0)
			buf_add(&f->pname, s->pid.p, s->pid.len);
		else
			buf_addc(&f->pname, '?');
		if (f->opts.tid) {
			buf_addc(&f->pname, '/');
			buf_add(&f->pname, s->tid.p, s->tid.len);
		}
	}
	tidy_comm(f->pname.p, f->pname.len);
	in->is_java = str_starts(f->pname.p, f->pname.len, "java");
}

/*
 * Folds one piece of a frame's symbol (split on "->") into the frame. Its
 * kernel and JIT marks follow stackcollapse-perf.pl's rules (the kernel
 * ones widened to versioned vmlinux files and module files), so that the
 * output matches it: dso_fold_kernel() and dso_fold_jit(), not fgsym's
 * dso_classify().
 */
static void
frame_piece(struct fold *f, struct foldin *in, const struct stream_frame *fr,
    const char *func, size_t flen, int piece, int *is_unknown)
{
	const char *dso = fr->dso.p;
	size_t dlen = fr->dso.len, n, start;
	char *out;

	if (piece > 0)
		buf_add(&f->fbuf, ";", 1);
	start = f->fbuf.len;
	if (str_is(func, flen, STREAM_UNKNOWN)) {
		const char *base;
		size_t blen;

		/* the one rule fgpprof names such frames by too */
		dso_unknown_base(dso, dlen, &base, &blen);
		if (str_is(dso, dlen, STREAM_UNKNOWN))
			*is_unknown = 1;
		buf_add(&f->fbuf, "[", 1);
		buf_add(&f->fbuf, base, blen);
		if (f->opts.addrs) {
			buf_add(&f->fbuf, " <", 2);
			buf_add(&f->fbuf, fr->addr.p, fr->addr.len);
			buf_add(&f->fbuf, ">", 1);
		}
		buf_add(&f->fbuf, "]", 1);
		/* Tidied in place, like any name: the tidy-up only shrinks. */
		n = tidy_name(f->fbuf.p + start, f->fbuf.len - start,
		    f->fbuf.p + start);
	} else {
		/* Rust's legacy names, as perf leaves them, first: both steps
		   only shrink the name, so they work in place. */
		buf_add(&f->fbuf, func, flen);
		n = tidy_rust_legacy(f->fbuf.p + start, flen);
		n = tidy_name(f->fbuf.p + start, n, f->fbuf.p + start);
	}
	out = f->fbuf.p + start;
	if (in->is_java)
		n = tidy_java(out, n);
	buf_setlen(&f->fbuf, start + n);
	if (piece > 0) {
		if (!str_has(out, n, "_[i]"))
			buf_add(&f->fbuf, "_[i]", 4);
	} else if (f->opts.inline_mark &&
	    str_is(dso, dlen, STREAM_INLINED)) {
		if (!str_has(out, n, "_[i]"))
			buf_add(&f->fbuf, "_[i]", 4);
	} else if (f->opts.kernel && dso_fold_kernel(dso, dlen)) {
		buf_add(&f->fbuf, "_[k]", 4);
	} else if (f->opts.jit && dso_fold_jit(dso, dlen)) {
		if (!str_has(out, n, "_[j]"))
			buf_add(&f->fbuf, "_[j]", 4);
	}
}

static int
skip_after_match(const struct fold *f, const char *func, size_t len)
{
	size_t i;

	for (i = 0; i < f->opts.nskip_after; i++)
		if (strlen(f->opts.skip_after[i]) == len &&
		    memcmp(f->opts.skip_after[i], func, len) == 0)
			return 1;
	return 0;
}

#define CF_UNKNOWN	1	/* the frame had no symbol and no DSO */
#define CF_SKIP_AFTER	2	/* the frame matches --skip-after */
#define CF_NONAME	4	/* the frame had no symbol */

/*
 * Processes one frame line's symbol into fbuf, as the pieces split on "->",
 * and returns its CF_ flags.
 */
static int
frame_process(struct fold *f, struct foldin *in, const struct stream_frame *fr,
    const char *sym, size_t len)
{
	size_t b, e;
	int is_unknown = 0, piece = 0, flags = 0;

	for (b = 0; ; b = e + 2) {
		const char *arrow = memmem(sym + b, len - b, "->", 2);

		e = arrow ? (size_t)(arrow - sym) : len;
		frame_piece(f, in, fr, sym + b, e - b, piece++, &is_unknown);
		if (arrow == NULL)
			break;
	}
	if (is_unknown)
		flags |= CF_UNKNOWN;
	if (str_is(sym, len, STREAM_UNKNOWN))
		flags |= CF_NONAME;
	if (f->opts.nskip_after > 0 && skip_after_match(f, sym, len))
		flags |= CF_SKIP_AFTER;
	return flags;
}

/*
 * The cache key of a frame line: its text after the address (from the
 * address on, for --addrs), which is all its processed form depends on,
 * with a mark for Java processes, whose names are tidied differently.
 * Returns NULL when the line does not start like a frame.
 */
static const char *
frame_key(struct fold *f, struct foldin *in, const char *line,
    const char *end, size_t *klen)
{
	const char *p = line, *a;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	a = p;
	while (p < end && tidy_isident(*p))
		p++;
	if (p == a)
		return NULL;
	if (f->opts.addrs)
		p = a;
	*klen = end - p;
	if (in->is_java) {
		buf_reset(&f->ckey);
		buf_addc(&f->ckey, '\1');
		buf_add(&f->ckey, p, *klen);
		*klen = f->ckey.len;
		return f->ckey.p;
	}
	return p;
}

/* Appends a cached frame's text; applies its flags. */
static void
frame_cached(struct fold *f, struct foldin *in, const struct intern_entry *ce)
{
	int flags = ce->u[1] >> 32;

	frame_begin(f);
	buf_add(&f->fbuf, buf_str(&f->ctext) + ce->u[0], ce->u[1] & 0xffffffff);
	frame_end(f);
	f->nnoname += (flags & CF_NONAME) != 0;
	if (f->opts.srcline && !(flags & CF_UNKNOWN))
		in->want_srcline = 1;
	if (flags & CF_SKIP_AFTER)
		in->cut = 1;
}

/*
 * The cache key frame_key makes of a frame's line, made of the frame
 * handed over as a struct (fr's sym and dso NUL-terminated): the same
 * bytes, so that both ways share the cache.
 */
static const char *
frame_key_of(struct fold *f, struct foldin *in, const struct stream_frame *fr,
    size_t *klen)
{
	buf_reset(&f->ckey);
	if (in->is_java)
		buf_addc(&f->ckey, '\1');
	if (f->opts.addrs)
		buf_add(&f->ckey, fr->addr.p, fr->addr.len);
	buf_addc(&f->ckey, ' ');
	buf_add(&f->ckey, fr->sym.p, fr->sym.len);
	buf_add(&f->ckey, " (", 2);
	buf_add(&f->ckey, fr->dso.p, fr->dso.len);
	buf_addc(&f->ckey, ')');
	*klen = f->ckey.len;
	return f->ckey.p;
}

/*
 * A frame of the sample being folded: its text (line to end), or NULL
 * for one handed over as a struct. Returns the index of its frame cache
 * entry, or -1 when it was no frame to add.
 */
static ssize_t
frame_line(struct fold *f, struct foldin *in, const struct stream_frame *fr,
    const char *line, const char *end)
{
	size_t len = stream_sym_len(fr->sym.p, fr->sym.len), klen, start;
	const char *sym = fr->sym.p, *key;
	struct intern_entry *ce;
	int flags;

	in->want_srcline = 0;
	if (len > 0 && sym[0] == '(' &&
	    !(len >= sizeof(TIDY_ANON) - 1 && memcmp(sym, TIDY_ANON, sizeof(TIDY_ANON) - 1) == 0))
		return -1;	/* a process name, not a frame */

	key = line != NULL ? frame_key(f, in, line, end, &klen) :
	    frame_key_of(f, in, fr, &klen);
	ce = intern_get(&f->cache, key, klen);
	if (ce->u[1] == 0) {
		/* Processed once into ctext; the entry records offset, length,
		 * and the flags with a bit set, so it is never all zero. */
		start = f->fbuf.len;
		flags = frame_process(f, in, fr, sym, len);
		ce->u[0] = f->ctext.len;
		ce->u[1] = (f->fbuf.len - start) | (uint64_t)(flags | 0x80) << 32;
		if (f->fbuf.len > start)
			buf_add(&f->ctext, f->fbuf.p + start, f->fbuf.len - start);
		buf_setlen(&f->fbuf, start);
	}
	frame_cached(f, in, ce);
	return ce - f->cache.ents;
}

/* Appends ":FILE:LINE" from a srcline line to the last frame. */
static void
srcline_line(struct fold *f, struct foldin *in, const char *line, size_t len)
{
	size_t i, start, n;

	in->want_srcline = 0;
	if (f->nframes == 0)
		return;
	buf_setlen(&f->fbuf, f->fofs[f->nframes]);
	buf_add(&f->fbuf, ":", 1);
	start = f->fbuf.len;
	for (i = 0; i < len; i++) {
		if (line[i] == '[') {
			const char *close = memchr(line + i, ']', len - i);

			if (close != NULL) {
				i = close - line;
				continue;
			}
		}
		buf_add(&f->fbuf, line + i, 1);
	}
	/* Trim white space on both ends. */
	n = f->fbuf.len;
	while (n > start && (f->fbuf.p[n - 1] == ' ' || f->fbuf.p[n - 1] == '\t'))
		n--;
	for (i = start; i < n && (f->fbuf.p[i] == ' ' || f->fbuf.p[i] == '\t'); i++)
		;
	memmove(f->fbuf.p + start, f->fbuf.p + i, n - i);
	n -= i - start;
	if (n == start)
		n--;		/* nothing: drop the ':' too */
	buf_setlen(&f->fbuf, n);
	f->fofs[f->nframes] = f->fbuf.len;
}

/*
 * Counts one sample of the stack e: u[0] counts it (or its period, with
 * --period), and u[1] sums its period, which becomes the count when the
 * stream turns out to hold off-CPU time (fold_settle).
 */
static void
sample_count(struct fold *f, struct foldin *in, struct intern_entry *e,
    int noname)
{
	int weigh = f->opts.period || f->alloc != STREAM_EV_OTHER;
	uint64_t w = weigh ? in->period : 1, p = in->period;
	int tover = !weigh && f->total[1] > UINT64_MAX - p;

	/* Every stack's count is at most the total: one check covers both. */
	if (f->total[0] > UINT64_MAX - w || (tover && f->timed)) {
		if (in->overflow++ == 0)
			in->overflow_line = in->sample_line;
		f->overflowed = 1;
		return;
	}
	if (tover)
		f->time_lost = 1;
	else if (!weigh) {
		e->u[1] += p;
		f->total[1] += p;
	}
	e->u[0] += w;
	f->total[0] += w;
	f->samples++;
	f->unnamed += noname != 0;
	if (f->opts.on_sample != NULL) {
		in->head.stack = (size_t)(e - f->tab.ents);
		in->head.count = w;
		in->head.period = p;
		in->head.offcpu = in->offcpu;
		f->opts.on_sample(f->opts.on_sample_arg, &in->head);
	}
}

/*
 * opts.on_sample: keeps what the callback is told of the head just read,
 * its PID and TID as the reader reads them (perf's -1 is -1).
 */
static void
head_keep(struct foldin *in, const struct stream_item *it)
{
	struct stream_head_values v;

	stream_head_values(it, &v);
	buf_reset(&in->comm);
	buf_add(&in->comm, it->head.comm.p, it->head.comm.len);
	in->head.comm = buf_str(&in->comm);
	in->head.commlen = in->comm.len;
	in->head.pid = v.has_pid ? v.pid : 0;
	in->head.tid = v.tid;
	in->head.has_time = v.has_time;
	in->head.time = v.time;
	in->head.line = it->lineno;
}

void
fold_settle(struct fold *f)
{
	size_t i;

	if (f->settled || !f->timed || f->opts.period)
		return;
	f->settled = 1;
	for (i = 0; i < f->tab.n; i++) {
		f->tab.ents[i].u[0] = f->tab.ents[i].u[1];
		f->tab.ents[i].u[1] = 0;
	}
	f->total[0] = f->total[1];
	f->total[1] = 0;
}

#define SC_NONAME	(1ULL << 61)	/* most of its frames are [unknown] */
#define SC_STACK	(1ULL << 62)	/* the sample folded into a stack */
#define SC_VALID	(1ULL << 63)
#define SC_LINES	0xffffffffULL
#define SC_MAX		65536		/* entries: about 6 MB at most */

/*
 * The end of a sample: its stack, root first, goes into the table.
 * whole_lines: when the reader read it as the text sample_cached looked
 * at (it.whole), its lines after the head, for the sample cache; else 0.
 */
static void
sample_end(struct fold *f, struct foldin *in, unsigned long whole_lines)
{
	struct intern_entry *e;
	size_t need = f->pname.len + 1, n = 0, i;
	char *key;
	int first = 1, noname = f->nnoname * 2 > f->nframes;

	if (!in->kept)
		return;
	in->kept = 0;
	in->want_srcline = 0;
	need += f->fbuf.len + f->nframes + sizeof(STREAM_OFFCPU_FRAME) +
	    sizeof("[" STREAM_INUSE_OBJECTS_EVENT "]");
	/* Room for it all once, then written in place: the hot path. */
	buf_reset(&f->key);
	buf_grow(&f->key, need);
	key = f->key.p;
	if (!f->opts.no_comm && !in->cut) {
		memcpy(key, f->pname.p, f->pname.len);
		n = f->pname.len;
		first = 0;
	}
	for (i = f->nframes; i-- > 0; ) {
		size_t a = f->fofs[i], b = f->fofs[i + 1];

		if (!first)
			key[n++] = ';';
		memcpy(key + n, f->fbuf.p + a, b - a);
		n += b - a;
		first = 0;
	}
	if (in->offcpu) {
		/* Time blocked: a pseudo-frame says so, as the leaf. */
		if (!first)
			key[n++] = ';';
		memcpy(key + n, STREAM_OFFCPU_FRAME, sizeof(STREAM_OFFCPU_FRAME) - 1);
		n += sizeof(STREAM_OFFCPU_FRAME) - 1;
		first = 0;
	}
	if (f->alloc != STREAM_EV_OTHER && !f->opts.no_leaf) {
		/* What the counts are: "[alloc-bytes]", the leaf. */
		const char *ev = stream_ev_name(f->alloc);
		size_t elen = strlen(ev);

		if (!first)
			key[n++] = ';';
		key[n++] = '[';
		memcpy(key + n, ev, elen);
		n += elen;
		key[n++] = ']';
		first = 0;
	}
	if (first)
		f->noframes++;
	buf_setlen(&f->key, n);
	e = first ? NULL : intern_get(&f->tab, key, n);
	/* whole, it was looked at by sample_cached, which kept its key */
	if (whole_lines > 0 && !f->sc_off && f->scache.n < SC_MAX) {
		struct intern_entry *se = intern_get(&f->scache, f->skey.p,
		    f->skey.len);

		se->u[0] = e ? (uint64_t)(e - f->tab.ents) : 0;
		se->u[1] = (whole_lines & SC_LINES) | (e ? SC_STACK : 0) |
		    (noname ? SC_NONAME : 0) | SC_VALID;
	}
	if (e != NULL)
		sample_count(f, in, e, noname);
}

/*
 * Called on a kept sample's head: when its whole text was seen before
 * under the same root frame, counts it and has the reader pass over it,
 * returning 1. Otherwise keeps its key in skey, for sample_end to fill
 * the cache with, should the reader read the sample as that text.
 */
static int
sample_cached(struct fold *f, struct foldin *in, struct stream_reader *r)
{
	XXH128_hash_t h;
	struct intern_entry *se;
	char *p;
	ssize_t n;

	if (f->sc_off)
		return 0;
	if (f->sc_tries >= 8192 && f->sc_hits * 4 < f->sc_tries) {
		/* Few samples repeat exactly (their leaf addresses vary):
		 * the frame cache alone is faster. */
		f->sc_off = 1;
		intern_release(&f->scache);
		intern_init(&f->scache);
		return 0;
	}
	n = stream_reader_peek_sample(r, 1 << 20, &p);
	if (n < 0)
		return 0;
	f->sc_tries++;
	h = XXH3_128bits(p, n);
	buf_reset(&f->skey);
	buf_add(&f->skey, f->pname.p, f->pname.len);
	buf_addc(&f->skey, '\0');
	buf_addc(&f->skey, in->is_java | in->offcpu << 1);
	buf_add(&f->skey, &h, sizeof(h));
	se = intern_find(&f->scache, f->skey.p, f->skey.len);
	if (se != NULL) {
		if (se->u[1] & SC_STACK)
			sample_count(f, in, &f->tab.ents[se->u[0]],
			    (se->u[1] & SC_NONAME) != 0);
		stream_reader_skip_sample(r, n, se->u[1] & SC_LINES);
		in->kept = 0;
		f->sc_hits++;
		return 1;
	}
	/* bounded (sample_end adds no more past SC_MAX): the hot samples
	   are in by now */
	return 0;
}

/*
 * Notes what an "# event : NAME ..." header says is recorded: whether a
 * stream with no sample is off-CPU time where the program never waited;
 * whether "# symbolized" says that fgsym went over the frames; and when
 * the first "# start" says the recording began.
 */
static void
event_header(struct fold *f, const struct stream_header_read *h)
{
	if (h->key == STREAM_HDR_SYMBOLIZED)
		f->symbolized = 1;
	if (h->key == STREAM_HDR_START && h->ok && !f->has_start) {
		f->start_ns = h->u.start.wall_ns;
		f->has_start = 1;
	}
	if (h->key != STREAM_HDR_EVENT)
		return;
	if (stream_ev_of(h->u.event.name.p, h->u.event.name.len) ==
	    STREAM_EV_OFFCPU)
		f->hdr_offcpu = 1;
	else
		f->hdr_other = 1;
}

static int
read_status(const struct lineread *lr, const char *name)
{
	if (lr->error) {
		/* As a file that cannot be opened: said, and the rest goes on. */
		cmdfile_read_failed(name, lr->error);
		return 1;
	}
	return 0;
}

int
fold_stream(struct fold *f, int fd, const char *name)
{
	struct lineread lr;
	int rv;

	lineread_init(&lr, fd, name);
	rv = fold_lines(f, &lr, "fgfold");
	lineread_release(&lr);
	return rv;
}

int
fold_lines(struct fold *f, struct lineread *lrp, const char *tool)
{
	struct lineread lr = *lrp;
	const char *name = lrp->name;
	struct foldin in;
	struct stream_reader r;
	struct stream_item it;
	enum stream_item_kind k;
	int rv = 0, st;

	memset(&in, 0, sizeof(in));
	in.head.name = name;
	stream_diag_init(&in.diag, name);
	sample_reset(f);
	if (sniff_refuse(&lr, SNIFF_STREAM, tool) != 0) {
		*lrp = lr;
		return SNIFF_REFUSED;
	}
	stream_reader_init(&r, &lr, &in.diag, NULL);
	/* The fast path: a frame line seen before, known by its bytes
	   before anything of it is parsed (not the line that may be the
	   last frame's source line). */
	while ((k = stream_reader_pull(&r, &it, !in.want_srcline)) !=
	    STREAM_ITEM_EOF) {
		if (k == STREAM_ITEM_LINE) {
			const struct intern_entry *ce;
			const char *key;
			size_t klen;

			if ((key = frame_key(f, &in, it.line, it.line + it.len,
			    &klen)) != NULL &&
			    (ce = intern_find(&f->cache, key, klen)) != NULL) {
				frame_cached(f, &in, ce);
				if (in.cut)
					stream_reader_skip_rest(&r,
					    in.want_srcline);
				continue;
			}
			k = stream_reader_parse(&r, &it);
		}
		switch (k) {
		case STREAM_ITEM_BLANK:
			sample_end(f, &in, it.whole ? it.lineno -
			    in.sample_line : 0);
			break;
		case STREAM_ITEM_HEADER:
			event_header(f, &it.hdr);
			break;
		case STREAM_ITEM_HEAD:
			if (in.kept) {
				/* A head with no empty line before it: keep both.
				   Such a stream's blocks are no samples: the
				   sample cache would hash many samples at each. */
				f->sc_off = 1;
				sample_end(f, &in, 0);
			}
			sample_head(f, &in, &it.head, it.lineno);
			if (in.kept && f->opts.on_sample != NULL)
				head_keep(&in, &it);
			if (in.kept && it.head.has_frame) {
				/* perf record without -g: a one-frame stack */
				frame_line(f, &in, &it.head.frame,
				    it.head.frame.indent.p, it.line + it.len);
				sample_end(f, &in, 0);
				/* what follows it up to an empty line is no
				   sample's */
				stream_reader_skip_rest(&r, 0);
			} else if (in.kept)
				sample_cached(f, &in, &r);
			else
				stream_reader_skip_rest(&r, 0);
			break;
		case STREAM_ITEM_FRAME:
			frame_line(f, &in, &it.frame, it.line,
			    it.line + it.len);
			if (in.cut)
				stream_reader_skip_rest(&r, in.want_srcline);
			break;
		case STREAM_ITEM_SRCLINE:
			/* -F+srcline lines of frames that get none appended
			   are passed over */
			if (in.want_srcline)
				srcline_line(f, &in, it.line, it.len);
			in.want_srcline = 0;
			break;
		case STREAM_ITEM_BAD:
			f->bad++;
			break;
		default:
			break;
		}
	}
	if (stream_reader_finish(&r))
		rv = 1;
	if (in.overflow > 0) {
		warnx("%s:%lu: the total passes 2^64-1 here: %lu sample%s not "
		    "counted; fold fewer samples at a time", name,
		    in.overflow_line, in.overflow, in.overflow == 1 ? "" : "s");
		rv = 1;
	}
	if ((st = read_status(&lr, name)) != 0)
		rv = st;
	*lrp = lr;
	buf_release(&in.comm);
	if (in.diag.bad > 0 && rv == 0)
		rv = 1;
	return rv;
}

/* ---- a stream handed over as structs (fold_feed_*, fold.h) ---- */

void
fold_feed_begin(struct fold *f, const char *name)
{
	struct foldin *in = xcalloc(1, sizeof(*in));

	in->head.name = name;
	in->ids = xcalloc(FOLD_IDS, sizeof(*in->ids));
	stream_diag_init(&in->diag, name);
	sample_reset(f);
	f->feed = in;
}

void
fold_feed_header(struct fold *f, const struct sample_hdr *h)
{
	if (h->kind == SAMPLE_HDR_TEXT &&
	    strcmp(h->key, STREAM_KEY_SYMBOLIZED) == 0)
		f->symbolized = 1;
	if (h->kind == SAMPLE_HDR_BEGIN && h->start != NULL &&
	    !f->has_start) {
		f->start_ns = h->start->wall_ns;
		f->has_start = 1;
	}
	if (h->kind != SAMPLE_HDR_EVENT)
		return;
	if (strcmp(h->event->name, STREAM_OFFCPU_EVENT) == 0)
		f->hdr_offcpu = 1;
	else
		f->hdr_other = 1;
}

/* n as the writer writes a PID or TID (perf's -1 for none) into b. */
static struct stream_str
feed_id(char *b, size_t size, uint32_t n)
{
	struct stream_str v;

	v.p = b;
	v.len = (size_t)snprintf(b, size, "%d", (int)n);
	return v;
}

void
fold_feed_head(struct fold *f, const struct stream_head *h)
{
	struct foldin *in = f->feed;
	struct stream_sample s;
	char comm[64], pid[16], tid[16];
	size_t n = strlen(h->comm);

	sample_end(f, in, 0);
	memset(&s, 0, sizeof(s));
	/* the name as the writer writes it, and the reader reads it back */
	if (h->comm[0] == '\0' || h->comm[0] == ' ' || h->comm[0] == '#') {
		comm[0] = '_';
		n = n > 0 ? n - 1 : 0;
		n = n < sizeof(comm) - 1 ? n : sizeof(comm) - 1;
		memcpy(comm + 1, h->comm + (h->comm[0] != '\0'), n);
		s.comm.p = comm;
		s.comm.len = n + 1;
	} else {
		s.comm.p = h->comm;
		s.comm.len = n;
	}
	if (f->opts.pid || f->opts.tid) {	/* only the root frame's */
		s.pid = feed_id(pid, sizeof(pid), h->pid);
		s.tid = feed_id(tid, sizeof(tid), h->tid);
	}
	s.event.p = h->event;
	s.event.len = strlen(h->event);
	s.period = h->period;
	s.has_period = 1;
	sample_head(f, in, &s, 0);
	if (in->kept && f->opts.on_sample != NULL) {
		buf_reset(&in->comm);
		buf_add(&in->comm, s.comm.p, s.comm.len);
		in->head.comm = buf_str(&in->comm);
		in->head.commlen = in->comm.len;
		in->head.pid = (int32_t)h->pid;
		in->head.tid = (int32_t)h->tid;
		/* the stream's microseconds, as its reader reads them */
		in->head.has_time = 1;
		in->head.time = h->time / 1000 * 1000;
		in->head.line = 0;
	}
}

/*
 * A frame of the producer's id: its cache entry found by the id, not its
 * text. Returns 0, or -1 when the id is not known (yet).
 */
static int
feed_known(struct fold *f, struct foldin *in, const void *id,
    const struct stream_frame *fr)
{
	struct foldin_id *k = &in->ids[((uintptr_t)id >> 4) & (FOLD_IDS - 1)];

	if (k->id != id || k->java != in->is_java || k->dsolen != fr->dso.len)
		return -1;
	in->want_srcline = 0;
	frame_cached(f, in, &f->cache.ents[k->ce]);
	return 0;
}

void
fold_feed_frame(struct fold *f, const struct stream_frame *fr,
    const void *id)
{
	struct foldin *in = f->feed;
	struct stream_frame a;
	char hex[24];
	ssize_t ce;

	/* no reader passes over the frames of a sample not folded */
	if (!in->kept || in->cut) {
		in->want_srcline = 0;
		return;
	}
	/* A named frame's text holds no address: --addrs changes nothing. */
	if (id != NULL && feed_known(f, in, id, fr) == 0)
		return;
	if (!f->opts.addrs || fr->addr.len > 0) {
		ce = frame_line(f, in, fr, NULL, NULL);
		if (id != NULL && ce >= 0) {
			struct foldin_id *k = &in->ids[((uintptr_t)id >> 4) &
			    (FOLD_IDS - 1)];

			k->id = id;
			k->ce = (uint32_t)ce;
			k->java = in->is_java;
			k->dsolen = fr->dso.len;
		}
		return;
	}
	/* --addrs: the address as the writer writes it, for its name */
	a = *fr;
	a.addr.p = hex;
	a.addr.len = (size_t)snprintf(hex, sizeof(hex), "%" PRIx64,
	    fr->addrval);
	frame_line(f, f->feed, &a, NULL, NULL);
}

void
fold_feed_srcline(struct fold *f, const char *text)
{
	if (f->feed->want_srcline)
		srcline_line(f, f->feed, text, strlen(text));
	f->feed->want_srcline = 0;
}

void
fold_feed_end(struct fold *f)
{
	sample_end(f, f->feed, 0);
}

int
fold_feed_finish(struct fold *f)
{
	struct foldin *in = f->feed;
	int rv = 0;

	if (in == NULL)
		return 0;
	sample_end(f, in, 0);
	if (in->overflow > 0) {
		warnx("%s: the total passes 2^64-1: %lu sample%s not counted; "
		    "fold fewer samples at a time", in->diag.name,
		    in->overflow, in->overflow == 1 ? "" : "s");
		rv = 1;
	}
	buf_release(&in->comm);
	free(in->ids);
	free(in);
	f->feed = NULL;
	return rv;
}

int
fold_finish(struct fold *f, int quiet)
{
	fold_settle(f);
	if (f->time_lost && f->timed) {
		warnx("the off-CPU and on-CPU time adds up past 2^64-1 ns: "
		    "some samples weigh 1; fold fewer samples at a time");
		return 1;
	}
	/*
	 * Names missing after fgsym (its "# symbolized" line) are the
	 * files' doing, which fgsym said, file by file: not the pipeline's.
	 */
	if (f->samples > 0 && f->unnamed * 2 > f->samples && !quiet &&
	    f->symbolized)
		warnx("most frames have no function names (in %llu of %llu "
		    "samples), although fgsym was between: the sampled files "
		    "have no symbols for them (fgsym said which files, and "
		    "why)", (unsigned long long)f->unnamed,
		    (unsigned long long)f->samples);
	else if (f->samples > 0 && f->unnamed * 2 > f->samples && !quiet)
		warnx("most frames have no function names (in %llu of %llu "
		    "samples): put fgsym between, as in 'fgrecord ./app | "
		    "fgsym | %s'", (unsigned long long)f->unnamed,
		    (unsigned long long)f->samples,
		    program_invocation_short_name);
	if ((f->opts.alloc_objects || f->opts.alloc_inuse) && f->heads > 0 &&
	    f->alloc == STREAM_EV_OTHER && !quiet) {
		stream_warnx("--objects and --inuse choose among the events "
		    "of a heap profile (fgrecord --alloc), and the input's is "
		    "'%s': weighed as it is", f->event != NULL ? f->event : "");
		return 1;
	}
	if (f->samples > 0 || quiet)
		return 0;
	if (f->alloc >= STREAM_EV_INUSE_BYTES && f->heads_other == f->heads) {
		/* No leak: a profile of nothing, and no bad input. */
		stream_warnx("nothing was still allocated when the program "
		    "ended: no '%s' sample among the %llu of the heap profile",
		    f->event, (unsigned long long)f->heads);
		return 0;
	}
	if (f->heads == 0) {
		stream_diag_empty(f->hdr_offcpu && !f->hdr_other ?
		    "it records off-CPU time, and the program never waited "
		    "off the CPU" : NULL);
		return 0;
	}
	if (f->heads_other == f->heads)
		stream_warnx("no samples of the event '%s' in the input: %llu of "
		    "other events; choose one with --event-filter=EVENT",
		    f->event, (unsigned long long)f->heads_other);
	else if (f->noframes > 0)
		warnx("no stack to fold: %llu sample%s had no frame, and "
		    "--no-comm left them nothing", (unsigned long long)
		    f->noframes, f->noframes == 1 ? "" : "s");
	else
		warnx("no sample was folded");
	return 1;
}

/* A folded line: its stack counted in the slots the reader chose. */
static void
folded_line(void *arg, const struct folded_item *it)
{
	struct fold *f = arg;
	struct intern_entry *e;
	const char *key = it->fl.stack;
	size_t klen = it->fl.stack_len;
	int c;

	if (f->opts.strip_hex) {
		buf_reset(&f->key);
		buf_grow(&f->key, klen * 2);
		klen = tidy_strip_hex(key, klen, f->key.p);
		key = f->key.p;
	}
	e = intern_get(&f->tab, key, klen);
	for (c = 0; c < it->fl.ncounts; c++) {
		const struct folded_count *cnt = &it->fl.count[c];

		if (cnt->decimal) {
			e->d[it->to[c]] += cnt->d;
			e->decimal = 1;
		} else
			e->u[it->to[c]] += cnt->u;
	}
	f->samples++;
}

int
fold_folded(struct fold *f, int fd, const char *name, int slot)
{
	struct lineread lr;
	int rv;

	lineread_init(&lr, fd, name);
	rv = fold_folded_lines(f, &lr, slot);
	lineread_release(&lr);
	return rv;
}

int
fold_folded_lines(struct fold *f, struct lineread *lr, int slot)
{
	struct folded_reader_opts o = {
		.tool = "fgfold", .slot = slot, .totals = f->total,
		.fewer = "fold fewer files at a time",
		.on_line = folded_line, .arg = f
	};
	struct folded_reader r;
	unsigned long bad;
	int rv;

	folded_reader_init(&r, &o);
	rv = folded_read(&r, lr);
	/* one reader an input: what it says once is said once an input */
	if ((bad = r.bad + r.skipped) > 0)
		warnx("%s: %lu malformed line%s skipped", lr->name, bad,
		    bad == 1 ? "" : "s");
	return rv;
}
