#include <string.h>

#include "base/num.h"
#include "base/str.h"
#include "stream/reader.h"

void
stream_reader_init(struct stream_reader *r, struct lineread *lr,
    struct stream_diag *diag, const struct stream_reader_opts *opts)
{
	memset(r, 0, sizeof(*r));
	r->lr = lr;
	r->diag = diag;
	if (opts != NULL)
		r->opts = *opts;
	r->headless = 1;
}

static void
before_say(struct stream_reader *r)
{
	if (r->opts.before_say != NULL)
		r->opts.before_say(r->opts.arg);
}

/*
 * The value of the decimal digits s: sets *v and returns 1, or returns 0
 * when s is empty, holds anything else, or passes 2^64-1.
 */
static int
dec_u64(struct stream_str s, uint64_t *v)
{
	uint64_t x;

	if (num_u64(s.p, s.len, &x, NULL) != NUM_OK)
		return 0;
	*v = x;
	return 1;
}

/*
 * A PID, a TID or a CPU of a head, digits the parser checked, a '-' first
 * for perf's -1; past 2^63-1 it stays there.
 */
static int64_t
head_number(struct stream_str s)
{
	int neg = s.len > 0 && s.p[0] == '-';
	struct stream_str d;
	uint64_t v = 0;

	if (s.len == 0)
		return 0;	/* absent (s.p may be NULL) */
	d.p = s.p + neg;
	d.len = s.len - neg;
	if (!dec_u64(d, &v) || v > INT64_MAX)
		v = INT64_MAX;
	return neg ? -(int64_t)v : (int64_t)v;
}

/* The next word of p[0..end), after white space; *p moves past it. */
static struct stream_str
word(const char **p, const char *end)
{
	struct stream_str w;

	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
	w.p = *p;
	while (*p < end && **p != ' ' && **p != '\t')
		(*p)++;
	w.len = *p - w.p;
	return w;
}

/* "NAME [freq N | period N] callgraph fp | callgraph dwarf N" */
static int
event_value(struct stream_str v, struct stream_event_read *e)
{
	const char *p = v.p, *end = v.p + v.len;
	struct stream_str w;
	uint64_t n;
	int ok = 1;

	memset(e, 0, sizeof(*e));
	e->name = word(&p, end);
	while ((w = word(&p, end)).len > 0) {
		if (stream_str_eq(w, "freq") || stream_str_eq(w, "period")) {
			enum stream_rate k = w.p[0] == 'f' ? STREAM_RATE_FREQ :
			    STREAM_RATE_PERIOD;

			if (dec_u64(word(&p, end), &e->rate))
				e->rate_kind = k;
			else
				ok = 0;
		} else if (stream_str_eq(w, "callgraph")) {
			w = word(&p, end);
			e->callgraph = 1;
			if (stream_str_eq(w, "dwarf") &&
			    dec_u64(word(&p, end), &n) && n <= UINT32_MAX) {
				e->dwarf = 1;
				e->stack_size = (uint32_t)n;
			} else if (!stream_str_eq(w, "fp"))
				ok = 0;
		} else
			ok = 0;
	}
	return ok && e->name.len > 0 && e->callgraph;
}

/* "ID PATH": PATH may hold spaces. */
static int
buildid_value(struct stream_str v, struct stream_str *id,
    struct stream_str *path)
{
	const char *p = v.p, *end = v.p + v.len;

	*id = word(&p, end);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	path->p = p;
	path->len = end - p;
	return id->len > 0 && path->len > 0;
}

/* "PATH<tab>INSIDE": neither holds a tab (the writer cleans them). */
static int
inside_value(struct stream_str v, struct stream_str *path,
    struct stream_str *inside)
{
	const char *tab = memchr(v.p, '\t', v.len);

	if (tab == NULL)
		return 0;
	path->p = v.p;
	path->len = (size_t)(tab - v.p);
	inside->p = tab + 1;
	inside->len = v.len - path->len - 1;
	return path->len > 0 && inside->len > 0 &&
	    memchr(inside->p, '\t', inside->len) == NULL;
}

static const struct {
	const char	*name;
	enum stream_hdr	 key;
} keys[] = {
	{ STREAM_KEY_EVENT, STREAM_HDR_EVENT },
	{ STREAM_KEY_BUILDID, STREAM_HDR_BUILDID },
	{ STREAM_KEY_INSIDE, STREAM_HDR_INSIDE },
	{ STREAM_KEY_CMDLINE, STREAM_HDR_CMDLINE },
	{ STREAM_KEY_KERNEL, STREAM_HDR_KERNEL },
	{ STREAM_KEY_LOST, STREAM_HDR_LOST },
	{ STREAM_KEY_START, STREAM_HDR_START },
	{ STREAM_KEY_SYMBOLIZED, STREAM_HDR_SYMBOLIZED },
};

/* A '#' line: the fence, the magic, a header, or a comment. */
static enum stream_item_kind
comment(struct stream_reader *r, struct stream_item *it)
{
	struct stream_header_read *h = &it->hdr;
	size_t i;

	if (str_is(it->line, it->len, STREAM_FENCE))
		return STREAM_ITEM_FENCE;
	if (stream_is_magic(it->line, it->len)) {
		if (!r->seen_head)
			r->fgrecord = 1;
		return STREAM_ITEM_MAGIC;
	}
	memset(h, 0, sizeof(*h));
	if (!stream_header(it->line, it->len, &h->name, &h->value))
		return STREAM_ITEM_COMMENT;
	h->key = STREAM_HDR_OTHER;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (stream_str_eq(h->name, keys[i].name))
			h->key = keys[i].key;
	switch (h->key) {
	case STREAM_HDR_EVENT:
		h->ok = event_value(h->value, &h->u.event);
		break;
	case STREAM_HDR_BUILDID:
		h->ok = buildid_value(h->value, &h->u.buildid.id,
		    &h->u.buildid.path);
		break;
	case STREAM_HDR_INSIDE:
		h->ok = inside_value(h->value, &h->u.inside.path,
		    &h->u.inside.inside);
		break;
	case STREAM_HDR_KERNEL:
		h->ok = stream_str_eq(h->value, STREAM_KERNEL_INCLUDED) ||
		    stream_str_eq(h->value, STREAM_KERNEL_EXCLUDED);
		break;
	case STREAM_HDR_LOST:
		h->ok = dec_u64(h->value, &h->u.lost);
		break;
	case STREAM_HDR_START:
		h->ok = stream_start(h->value, &h->u.start.wall_ns,
		    &h->u.start.clock_ns);
		break;
	default:
		h->ok = 1;
		break;
	}
	return STREAM_ITEM_HEADER;
}

void
stream_head_values(const struct stream_item *it, struct stream_head_values *v)
{
	const struct stream_sample *s = &it->head;

	v->has_pid = s->pid.len > 0;
	v->pid = v->has_pid ? head_number(s->pid) : -1;
	v->tid = head_number(s->tid);
	v->has_cpu = s->cpu.len > 0;
	v->cpu = (uint64_t)head_number(s->cpu);
	v->has_time = stream_sample_time(s, it->line, it->len, &v->time);
}

/*
 * A line that is no part of the format. The last line of an input with
 * no newline after it is one the writer was cut off in the middle of:
 * inside a sample, stream_reader_finish says so with the sample it
 * drops; elsewhere it is said here, as a cut, not as a stranger.
 */
static enum stream_item_kind
bad(struct stream_reader *r, struct stream_item *it)
{
	r->clean = 0;
	if (r->lr->partial) {
		r->cut_line = it->lineno;
		r->diag->bad++;
		if (!r->open) {
			before_say(r);
			stream_diag_cut_line(r->diag, it->lineno);
		}
		return STREAM_ITEM_BAD;
	}
	if (r->diag->bad < DIAG_BAD_SHOWN + 1)
		before_say(r);
	stream_diag_bad(r->diag, it->lineno, it->line, it->len);
	return STREAM_ITEM_BAD;
}

enum stream_item_kind
stream_reader_parse(struct stream_reader *r, struct stream_item *it)
{
	enum stream_item_kind k;

	switch (stream_classify(it->line, it->len, &it->head, &it->frame)) {
	case STREAM_BLANK:
		it->ended = r->open;
		it->whole = r->open && r->peeked && r->clean && it->len == 0;
		r->skip = 0;
		r->open = 0;
		r->headless = 1;
		k = STREAM_ITEM_BLANK;
		break;
	case STREAM_COMMENT:
		k = comment(r, it);
		break;
	case STREAM_SAMPLE:
		it->unended = r->open;
		/* a one-line sample is whole */
		r->open = !it->head.has_frame;
		r->headless = 0;
		r->skip = 0;
		r->peeked = 0;
		r->clean = 1;
		r->seen_head = 1;
		r->head_line = it->lineno;
		k = STREAM_ITEM_HEAD;
		break;
	case STREAM_FRAME:
		if (r->headless && !r->opts.pass)
			return it->kind = bad(r, it);
		it->inlined = stream_str_eq(it->frame.dso, STREAM_INLINED);
		k = STREAM_ITEM_FRAME;
		break;
	case STREAM_SRCLINE:
		if (r->headless && !r->opts.pass)
			return it->kind = bad(r, it);
		it->text.p = it->line;
		it->text.len = it->len;
		while (it->text.len > 0 && (it->text.p[0] == ' ' ||
		    it->text.p[0] == '\t')) {
			it->text.p++;
			it->text.len--;
		}
		k = STREAM_ITEM_SRCLINE;
		break;
	default:
		k = bad(r, it);
		break;
	}
	return it->kind = k;
}

enum stream_item_kind
stream_reader_next(struct stream_reader *r, struct stream_item *it)
{
	return stream_reader_pull(r, it, 0);
}

int
stream_reader_finish(struct stream_reader *r)
{
	if (!r->open)
		return 0;
	before_say(r);
	if (r->cut_line == 0 && r->lr->partial)
		r->cut_line = r->lr->lineno;
	if (r->cut_line != 0)
		stream_diag_cut_inside(r->diag, r->cut_line, r->head_line,
		    r->opts.pass);
	else if (r->opts.pass)
		stream_diag_cut_kept(r->diag, r->head_line);
	else
		stream_diag_cut(r->diag, r->head_line);
	r->open = 0;
	return 1;
}
