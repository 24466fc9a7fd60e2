#include <string.h>

#include "base/num.h"
#include "base/str.h"
#include "stream/stream.h"

static int
isspc(char c)
{
	return c == ' ' || c == '\t';
}

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

static int
isword(char c)
{
	return isdig(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    c == '_';
}

/*
 * The event field: the line ends in ":" after optional space; before that is
 * the event name, and before that, after space, an optional period.
 * Mirrors /:\s*(\d+)*\s+(\S+):\s*$/.
 */
static void
parse_event(const char *line, size_t len, struct stream_sample *s)
{
	size_t e = len, b;

	while (e > 0 && isspc(line[e - 1]))
		e--;
	if (e == 0 || line[e - 1] != ':')
		return;
	e--;
	b = e;
	while (b > 0 && !isspc(line[b - 1]))
		b--;
	if (b == e || b == 0)
		return;
	s->event.p = line + b;
	s->event.len = e - b;
	/* Space, then maybe digits, then maybe space, then ':'. */
	e = b;
	while (e > 0 && isspc(line[e - 1]))
		e--;
	b = e;
	while (b > 0 && isdig(line[b - 1]))
		b--;
	if (b < e) {
		uint64_t v;

		/* Past 2^64-1 it stays there: fgfold --period then says the
		   total overflowed, rather than count the sample as 1. */
		num_u64(line + b, e - b, &v, NULL);
		while (b > 0 && isspc(line[b - 1]))
			b--;
		if (b > 0 && line[b - 1] == ':' && v > 0) {
			s->period = v;
			s->has_period = 1;
		}
	}
}

static int parse_frame(const char *, size_t, struct stream_frame *);

/* A time stamp, "3459.250647": digits and dots only. */
static int
is_stamp(struct stream_str e)
{
	size_t i;

	for (i = 0; i < e.len; i++)
		if (!isdig(e.p[i]) && e.p[i] != '.')
			return 0;
	return 1;
}

/*
 * The head of a sample that perf script printed on one line, its frame
 * after the event: the first ": " from 'from' on where what comes before
 * ends in an event (not the time stamp) and what follows is a frame.
 */
static void
parse_oneline(const char *line, size_t len, size_t from,
    struct stream_sample *s)
{
	size_t i;

	for (i = from; i + 1 < len; i++) {
		if (line[i] != ':' || !isspc(line[i + 1]))
			continue;
		s->event.len = 0;
		s->period = 1;
		s->has_period = 0;
		parse_event(line, i + 1, s);
		if (s->event.len == 0 || is_stamp(s->event))
			continue;
		if (parse_frame(line + i + 1, len - i - 1, &s->frame)) {
			s->has_frame = 1;
			return;
		}
	}
	s->event.len = 0;
	s->period = 1;
	s->has_period = 0;
}

/* The head's event, or its event and frame when it has one. */
static void
parse_tail(const char *line, size_t len, size_t from, struct stream_sample *s)
{
	parse_event(line, len, s);
	if (s->event.len == 0)
		parse_oneline(line, len, from, s);
}

/*
 * The shortest COMM that is followed by a PID (the reference's rule): for
 * the layouts head_right does not know (perf script -F without a time,
 * a tracepoint's payload after the event).
 */
static int
parse_sample_left(const char *line, size_t len, struct stream_sample *s)
{
	size_t i, j, k, m;

	if (len == 0 || isspc(line[0]))
		return 0;
	for (i = 1; i < len; i++) {
		if (!isspc(line[i]))
			continue;
		/* COMM is line[0..i); then white space; then digits. */
		j = i;
		while (j < len && isspc(line[j]))
			j++;
		k = j < len && line[j] == '-' ? j + 1 : j;	/* perf's -1 */
		m = k;
		while (k < len && isdig(line[k]))
			k++;
		if (k == m)
			continue;
		memset(s, 0, sizeof(*s));
		s->comm.p = line;
		s->comm.len = i;
		s->period = 1;
		if (k < len && line[k] == '/') {
			size_t t, d;

			m = k;
			while (m < len && line[m] == '/')
				m++;
			d = m < len && line[m] == '-' ? m + 1 : m;
			t = d;
			while (t < len && isdig(line[t]))
				t++;
			if (t > d && t < len && isspc(line[t])) {
				s->pid.p = line + j;
				s->pid.len = k - j;
				s->tid.p = line + m;
				s->tid.len = t - m;
				parse_tail(line, len, t, s);
				return 1;
			}
			if (t == d && d == m && m < len && isspc(line[m])) {
				s->tid.p = line + j;
				s->tid.len = k - j;
				parse_tail(line, len, m, s);
				return 1;
			}
			continue;
		}
		if (k < len && isspc(line[k])) {
			s->tid.p = line + j;
			s->tid.len = k - j;
			parse_tail(line, len, k, s);
			return 1;
		}
	}
	return 0;
}

/* Scanning back over line[0..e): the end of the white space before e. */
static size_t
ws_back(const char *line, size_t e)
{
	while (e > 0 && isspc(line[e - 1]))
		e--;
	return e;
}

/* The start of the token that ends at e. */
static size_t
tok_back(const char *line, size_t e)
{
	while (e > 0 && !isspc(line[e - 1]))
		e--;
	return e;
}

/* The start of the run of digits that ends at e. */
static inline size_t
digits_back(const char *line, size_t e)
{
	while (e > 0 && isdig(line[e - 1]))
		e--;
	return e;
}

#define NO_TIME	((size_t)-1)

/*
 * The start of the time, "SECONDS.FRACTION:", that ends at e, a token of
 * its own; or NO_TIME.
 */
static inline __attribute__((always_inline)) size_t
time_back(const char *line, size_t e)
{
	size_t d, b;

	if (e == 0 || line[e - 1] != ':')
		return NO_TIME;
	d = digits_back(line, e - 1);
	if (d == e - 1 || d == 0 || line[d - 1] != '.')
		return NO_TIME;
	b = digits_back(line, d - 1);
	if (b == d - 1 || (b > 0 && !isspc(line[b - 1])))
		return NO_TIME;
	return b;
}

/*
 * The head of a sample read from the right, where every field after COMM
 * has a fixed shape, so that a COMM of any bytes ("a 1/1", "x [001] 1.0:")
 * is left whole: "COMM PID[/TID] [[CPU]] SECS.FRAC: [PERIOD] [EVENT:]",
 * line[0..len) ending after the last field (trailing white space allowed).
 * Each field is scanned once, from its end. Fills *s (not s->frame) and
 * returns 1, or returns 0 when the line has not that shape.
 */
static int
head_right(const char *line, size_t len, struct stream_sample *s)
{
	size_t e = ws_back(line, len), b, t, m;

	if (e == 0 || line[e - 1] != ':')
		return 0;
	s->event.p = NULL;
	s->event.len = 0;
	s->period = 1;
	s->has_period = 0;
	if ((t = time_back(line, e)) == NO_TIME) {
		/* EVENT: ("cpu-clock:", "cpu-clock:ppp:"), maybe a PERIOD */
		b = tok_back(line, e);
		if (e - b < 2)
			return 0;
		s->event.p = line + b;
		s->event.len = e - 1 - b;
		e = ws_back(line, b);
		b = digits_back(line, e);
		if (b < e && (b == 0 || isspc(line[b - 1]))) {
			uint64_t v;

			/* Past 2^64-1 it stays there: fgfold --period then
			   says the total overflowed. */
			num_u64(line + b, e - b, &v, NULL);
			if (v > 0) {
				s->period = v;
				s->has_period = 1;
			}
			e = ws_back(line, b);
		}
		if ((t = time_back(line, e)) == NO_TIME)
			return 0;
	}
	e = ws_back(line, t);
	s->cpu.p = NULL;
	s->cpu.len = 0;
	/* [CPU] */
	if (e > 0 && line[e - 1] == ']') {
		b = digits_back(line, e - 1);
		if (b == e - 1 || b == 0 || line[b - 1] != '[' ||
		    (b > 1 && !isspc(line[b - 2])))
			return 0;
		s->cpu.p = line + b;
		s->cpu.len = e - 1 - b;
		e = ws_back(line, b - 1);
	}
	/* PID/TID, or a TID alone; each may be perf's -1 */
	b = digits_back(line, e);
	if (b == e)
		return 0;
	if (b > 0 && line[b - 1] == '-')
		b--;
	s->tid.p = line + b;
	s->tid.len = e - b;
	s->pid.p = NULL;
	s->pid.len = 0;
	if (b > 0 && line[b - 1] == '/') {
		for (m = b; m > 0 && line[m - 1] == '/'; m--)
			;
		t = digits_back(line, m);
		if (t == m)
			return 0;
		if (t > 0 && line[t - 1] == '-')
			t--;
		s->pid.p = line + t;
		s->pid.len = m - t;
		b = t;
	}
	if (b == 0 || !isspc(line[b - 1]) || (e = ws_back(line, b)) == 0)
		return 0;
	s->comm.p = line;
	s->comm.len = e;
	s->has_frame = 0;
	return 1;
}

/*
 * A sample that perf script printed on one line, its frame after the
 * event: the last ": " after which a frame follows and before which a
 * head ends in an event.
 */
static int
oneline_right(const char *line, size_t len, struct stream_sample *s)
{
	const char *c;
	size_t e = len;

	while (e > 0 && (c = memrchr(line, ':', e)) != NULL) {
		size_t i = c - line;

		e = i;
		if (i + 1 >= len || !isspc(line[i + 1]))
			continue;
		if (head_right(line, i + 1, s) && s->event.len > 0 &&
		    parse_frame(line + i + 1, len - i - 1, &s->frame)) {
			s->has_frame = 1;
			return 1;
		}
	}
	return 0;
}

/* A head from the right, as fgrecord and perf script write them. */
static int
head_strict(const char *line, size_t len, struct stream_sample *s)
{
	if (len == 0 || isspc(line[0]))
		return 0;
	return head_right(line, len, s) || oneline_right(line, len, s);
}

static int
parse_sample(const char *line, size_t len, struct stream_sample *s)
{
	if (!head_strict(line, len, s) && !parse_sample_left(line, len, s))
		return 0;
	s->ev = stream_ev_of(s->event.p, s->event.len);
	return 1;
}

/*
 * A frame line: the reference's /^\s*(\w+)\s*(.+) \((.*)\)/, except that
 * DSO is the last balanced parenthesised group, so that a path holding
 * " (deleted)" stays whole.
 */
static int
parse_frame(const char *line, size_t len, struct stream_frame *f)
{
	size_t i = 0, a, ae, e, open, depth;
	uint64_t v = 0;
	int ok = 1;
	const char *p;

	while (i < len && isspc(line[i]))
		i++;
	a = i;
	for (; i < len && isword(line[i]); i++) {
		int h = str_hexval(line[i]);

		if (h < 0 || (v >> 60) != 0)
			ok = 0;
		v = v << 4 | (h & 0xf);
	}
	if (i == a)
		return 0;
	ae = i;
	/* The line must end with ')' (trailing space allowed). */
	e = len;
	while (e > ae && isspc(line[e - 1]))
		e--;
	if (e <= ae || line[e - 1] != ')')
		return 0;
	/* The '(' that balances the last ')': usually the last '(' of all. */
	p = memrchr(line + ae, '(', e - 1 - ae);
	if (p != NULL && memchr(p, ')', e - 1 - (p - line)) == NULL)
		open = p - line + 1;
	else {
		depth = 0;
		for (open = e; open > ae; open--) {
			char c = line[open - 1];

			if (c == ')')
				depth++;
			else if (c == '(' && --depth == 0)
				break;
		}
	}
	if (open == ae || open - 1 == ae || line[open - 2] != ' ') {
		/* Unbalanced: fall back to the last " (" on the line. */
		for (open = e - 1; open > ae + 1; open--)
			if (line[open - 1] == '(' && line[open - 2] == ' ')
				break;
		if (open <= ae + 1)
			return 0;
	}
	open--;			/* index of '(' */
	i = ae;
	while (i < open - 1 && isspc(line[i]))
		i++;
	if (i >= open - 1) {
		/* Only blanks: as the reference, the symbol is the last one. */
		if (open - 1 <= ae)
			return 0;
		i = open - 2;
	}
	f->indent.p = line;
	f->indent.len = a;
	f->addr.p = line + a;
	f->addr.len = ae - a;
	f->sym.p = line + i;
	f->sym.len = open - 1 - i;
	f->dso.p = line + open + 1;
	f->dso.len = e - 1 - (open + 1);
	f->addr_ok = ok;
	f->addrval = ok ? v : 0;
	return 1;
}

/*
 * A source line's text, after its indent: what fgsym --srcline and perf
 * script -F+srcline write, "FILE:LINE" (perf's unknown "??:0", a
 * "(discriminator N)" after it), perf's "DSO[ADDR]" or "SYM+0xOFF", no
 * longer than a path and a number.
 */
static int
is_srcline(const char *p, size_t n)
{
	const char *c;
	size_t i;

	if (n > STREAM_SRCLINE_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return 0;
	if (p[n - 1] == ']' && memchr(p, '[', n) != NULL)
		return 1;
	if (stream_sym_len(p, n) < n)
		return 1;
	for (c = p; (c = memchr(c, ':', n - (c - p))) != NULL; c++)
		if (c + 1 < p + n && (isdig(c[1]) || c[1] == '?'))
			return 1;
	return 0;
}

int
stream_indented_head(const char *line, size_t len)
{
	struct stream_sample tmp;
	const char *c = line, *end = line + len;
	size_t i = 0;

	/* This is every frame's test. perf pads a COMM with spaces and
	   starts a frame with a tab; and a head holds a time, "SECS.FRAC:",
	   where a frame seldom has a digit before a ':' ("ns::f" has none). */
	if (len == 0 || line[0] != ' ')
		return 0;
	while ((c = memchr(c, ':', end - c)) != NULL && !isdig(c[-1]))
		c++;
	if (c == NULL)
		return 0;
	while (i < len && isspc(line[i]))
		i++;
	return head_strict(line + i, len - i, &tmp);
}

enum stream_kind
stream_classify(const char *line, size_t len, struct stream_sample *s,
    struct stream_frame *f)
{
	struct stream_sample ss;
	struct stream_frame ff;

	if (len == 0)
		return STREAM_BLANK;
	/* Names and paths become C strings downstream: a NUL would cut them. */
	if (memchr(line, '\0', len) != NULL)
		return STREAM_OTHER;
	if (line[0] == '#')
		return STREAM_COMMENT;
	if (isspc(line[0])) {
		size_t i = 0;

		if (stream_indented_head(line, len)) {
			while (isspc(line[i]))
				i++;
			if (parse_sample(line + i, len - i, s ? s : &ss))
				return STREAM_SAMPLE;
			i = 0;
		}
		if (parse_frame(line, len, f ? f : &ff))
			return STREAM_FRAME;
		while (i < len && isspc(line[i]))
			i++;
		if (i == len)
			return STREAM_BLANK;
		return is_srcline(line + i, len - i) ? STREAM_SRCLINE :
		    STREAM_OTHER;
	}
	if (parse_sample(line, len, s ? s : &ss))
		return STREAM_SAMPLE;
	/* Old perf printed frames with no indent. */
	if (parse_frame(line, len, f ? f : &ff))
		return STREAM_FRAME;
	return STREAM_OTHER;
}

int
stream_header(const char *line, size_t len, struct stream_str *key,
    struct stream_str *val)
{
	size_t i = 1, ks, ke, vs, ve;
	const char *colon;

	if (len == 0 || line[0] != '#')
		return 0;
	while (i < len && isspc(line[i]))
		i++;
	ks = i;
	colon = memchr(line + i, ':', len - i);
	if (colon == NULL)
		return 0;
	ke = colon - line;
	vs = ke + 1;
	while (ke > ks && isspc(line[ke - 1]))
		ke--;
	if (ke == ks)
		return 0;
	while (vs < len && isspc(line[vs]))
		vs++;
	ve = len;
	while (ve > vs && isspc(line[ve - 1]))
		ve--;
	key->p = line + ks;
	key->len = ke - ks;
	val->p = line + vs;
	val->len = ve - vs;
	return 1;
}

/*
 * Reads "SECONDS.FRACTION" at p[b..len), at most ten digits of seconds and
 * digits past nanoseconds ignored: sets *ns and returns the index past it,
 * or returns 0 when there is none there.
 */
static size_t
read_secs(const char *p, size_t len, size_t b, uint64_t *ns)
{
	size_t i = b, dot, k;
	uint64_t secs = 0, frac = 0;

	while (i < len && isdig(p[i]))
		i++;
	if (i == b || i == len || p[i] != '.' || i - b > 10)
		return 0;
	dot = i++;
	while (i < len && isdig(p[i]))
		i++;
	if (i == dot + 1)
		return 0;
	for (k = b; k < dot; k++)
		secs = secs * 10 + (unsigned)(p[k] - '0');
	for (k = dot + 1; k < dot + 10; k++)
		frac = frac * 10 + (k < i ? (unsigned)(p[k] - '0') : 0);
	*ns = secs * 1000000000 + frac;
	return i;
}

int
stream_sample_time(const struct stream_sample *s, const char *line,
    size_t len, uint64_t *ns)
{
	size_t i = s->tid.p + s->tid.len - line, e;
	uint64_t t;

	for (; i < len; i++) {
		if (!isdig(line[i]) || (i > 0 && !isspc(line[i - 1])))
			continue;
		e = read_secs(line, len, i, &t);
		if (e != 0 && e < len && line[e] == ':') {
			*ns = t;
			return 1;
		}
	}
	return 0;
}

int
stream_is_magic(const char *line, size_t len)
{
	size_t n = sizeof(STREAM_MAGIC) - 1;

	return len >= n && memcmp(line, STREAM_MAGIC, n) == 0 &&
	    (len == n || isspc(line[n]));
}

int
stream_start(struct stream_str v, uint64_t *wall_ns, uint64_t *clock_ns)
{
	size_t i;

	if ((i = read_secs(v.p, v.len, 0, wall_ns)) == 0 || i == v.len ||
	    !isspc(v.p[i]))
		return 0;
	while (i < v.len && isspc(v.p[i]))
		i++;
	return read_secs(v.p, v.len, i, clock_ns) == v.len;
}

static const char *const ev_names[STREAM_EV_COUNT] = {
	[STREAM_EV_OFFCPU] = STREAM_OFFCPU_EVENT,
	[STREAM_EV_ALLOC_BYTES] = STREAM_ALLOC_BYTES_EVENT,
	[STREAM_EV_ALLOC_OBJECTS] = STREAM_ALLOC_OBJECTS_EVENT,
	[STREAM_EV_INUSE_BYTES] = STREAM_INUSE_BYTES_EVENT,
	[STREAM_EV_INUSE_OBJECTS] = STREAM_INUSE_OBJECTS_EVENT,
};

enum stream_ev
stream_ev_of(const char *e, size_t len)
{
	const char *colon;
	int i;

	if (len == 0)
		return STREAM_EV_OTHER;		/* e may be NULL */
	if ((colon = memchr(e, ':', len)) != NULL)
		len = (size_t)(colon - e);
	/* the names differ in their first letter or their length */
	for (i = STREAM_EV_OTHER + 1; i < STREAM_EV_COUNT; i++)
		if (len > 0 && e[0] == ev_names[i][0] &&
		    str_is(e, len, ev_names[i]))
			return (enum stream_ev)i;
	return STREAM_EV_OTHER;
}

const char *
stream_ev_name(enum stream_ev ev)
{
	return ev > STREAM_EV_OTHER && ev < STREAM_EV_COUNT ? ev_names[ev] :
	    NULL;
}

int
stream_event_is(const char *e, size_t len, const char *name)
{
	const char *colon = memchr(e, ':', len);

	if (colon != NULL)
		len = colon - e;
	return str_is(e, len, name);
}

int
stream_event_is_clock(const char *e, size_t len)
{
	return stream_event_is(e, len, "cpu-clock") ||
	    stream_event_is(e, len, "task-clock");
}

enum stream_ev
stream_ev_frame(const char *f, size_t len)
{
	enum stream_ev ev;

	if (len < 3 || f[0] != '[' || f[len - 1] != ']')
		return STREAM_EV_OTHER;
	ev = stream_ev_of(f + 1, len - 2);
	return stream_ev_heap(ev) ? ev : STREAM_EV_OTHER;
}

size_t
stream_sym_len(const char *s, size_t len)
{
	size_t i = len;

	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') ||
	    (s[i - 1] >= 'a' && s[i - 1] <= 'f')))
		i--;
	if (i < len && i >= 3 && memcmp(s + i - 3, "+0x", 3) == 0)
		return i - 3;
	return len;
}
