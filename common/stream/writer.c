#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stream/stream.h"
#include "stream/writer.h"

static int
is_control(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

/*
 * A line put together before one fwrite: a replay writes millions of
 * frames, and stdio's per-call cost was most of its time.
 */
struct line {
	FILE	*o;
	size_t	 n;
	char	 b[256];
};

static void
line_flush(struct line *l)
{
	if (l->n > 0)
		fwrite_unlocked(l->b, 1, l->n, l->o);
	l->n = 0;
}

static void
line_putc(struct line *l, char c)
{
	if (l->n == sizeof(l->b))
		line_flush(l);
	l->b[l->n++] = c;
}

/* Whether any of the eight bytes of w is below 0x20 or is 0x7f. */
static int
word_has_control(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, high = ones * 0x80;
	uint64_t del = w ^ ones * 0x7f;

	return ((((w - ones * 0x20) & ~w) | ((del - ones) & ~del)) & high) != 0;
}

/*
 * Adds s with its control characters as '?'. Copied whole, then checked
 * eight bytes at a time: names have no control characters but for a rare
 * bad one, and the byte loop was a tenth of a replay.
 */
static void
line_clean(struct line *l, const char *s)
{
	size_t n = strlen(s), i;
	char *d;

	if (n > sizeof(l->b) - l->n) {
		line_flush(l);
		if (n > sizeof(l->b)) {
			for (; *s; s++)
				line_putc(l, is_control(*s) ? '?' : *s);
			return;
		}
	}
	d = l->b + l->n;
	memcpy(d, s, n);
	l->n += n;
	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, d + i, 8);
		if (word_has_control(w))
			break;
	}
	for (; i < n; i++)
		if (is_control(d[i]))
			d[i] = '?';
}

/*
 * Adds v in decimal, at least width digits (zero-padded), two digits per
 * division: the head's six numbers were a tenth of a replay's work.
 */
static void
line_dec(struct line *l, uint64_t v, int width)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930"
	    "31323334353637383940414243444546474849505152535455565758596061"
	    "62636465666768697071727374757677787980818283848586878889909192"
	    "93949596979899";
	char b[24], *p = b + sizeof(b);

	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else
		*--p = (char)('0' + v);
	while (b + sizeof(b) - p < width)
		*--p = '0';
	if (sizeof(l->b) - l->n < sizeof(b))
		line_flush(l);
	memcpy(l->b + l->n, p, (size_t)(b + sizeof(b) - p));
	l->n += (size_t)(b + sizeof(b) - p);
}

/* A PID or TID: perf's -1 (a sample of no task) as perf script prints it. */
static void
line_id(struct line *l, uint32_t v)
{
	if (v == UINT32_MAX) {
		line_putc(l, '-');
		line_putc(l, '1');
	} else
		line_dec(l, v, 0);
}

/* Adds v in hex, lower case, no leading zeros. */
static void
line_hex(struct line *l, uint64_t v)
{
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1, i;

	if (sizeof(l->b) - l->n < 16)
		line_flush(l);
	for (i = n - 1; i >= 0; i--) {
		l->b[l->n + (size_t)i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	}
	l->n += (size_t)n;
}

int
stream_needs_clean(const char *s)
{
	for (; *s != '\0'; s++)
		if (is_control(*s))
			return 1;
	return 0;
}

int
stream_clean(char *s)
{
	int changed = 0;

	for (; *s != '\0'; s++)
		if (is_control(*s)) {
			*s = '?';
			changed = 1;
		}
	return changed;
}

void
stream_write_clean(FILE *o, const char *s)
{
	struct line l;

	l.o = o;
	l.n = 0;
	line_clean(&l, s);
	line_flush(&l);
}

/* Ends a line with s, cleaned. */
static void
end_line(FILE *o, const char *s)
{
	stream_write_clean(o, s);
	putc('\n', o);
}

void
stream_write_comment(FILE *o, const char *text)
{
	fputs("# ", o);
	end_line(o, text);
}

/* Writes t, in ns, as seconds with nine decimals. */
static void
secs(FILE *o, uint64_t t)
{
	fprintf(o, "%" PRIu64 ".%09" PRIu64, t / 1000000000U, t % 1000000000U);
}

void
stream_write_start(FILE *o, const struct stream_start *start)
{
	fputs("# " STREAM_KEY_START " : ", o);
	secs(o, start->wall_ns);
	putc(' ', o);
	secs(o, start->clock_ns);
	putc('\n', o);
}

void
stream_write_begin(FILE *o, const struct stream_start *start)
{
	fputs(STREAM_FENCE "\n" STREAM_MAGIC " 1\n", o);
	if (start != NULL)
		stream_write_start(o, start);
}

void
stream_write_fence(FILE *o)
{
	fputs(STREAM_FENCE "\n", o);
}

void
stream_write_header(FILE *o, const char *key, const char *value)
{
	fprintf(o, "# %s : ", key);
	end_line(o, value);
}

void
stream_write_headeru(FILE *o, const char *key, uint64_t n)
{
	fprintf(o, "# %s : %" PRIu64 "\n", key, n);
}

void
stream_write_event(FILE *o, const struct stream_event *ev)
{
	fputs("# " STREAM_KEY_EVENT " : ", o);
	stream_write_clean(o, ev->name);
	putc(' ', o);
	if (ev->rate_kind == STREAM_RATE_FREQ)
		fprintf(o, "freq %" PRIu64 " ", ev->rate);
	else if (ev->rate_kind == STREAM_RATE_PERIOD)
		fprintf(o, "period %" PRIu64 " ", ev->rate);
	if (ev->dwarf)
		fprintf(o, "callgraph dwarf %" PRIu32 "\n", ev->stack_size);
	else
		fputs("callgraph fp\n", o);
}

void
stream_write_buildid(FILE *o, const char *buildid, const char *path)
{
	fprintf(o, "# " STREAM_KEY_BUILDID " : %s ", buildid);
	end_line(o, path);
}

void
stream_write_inside(FILE *o, const char *path, const char *inside)
{
	fputs("# " STREAM_KEY_INSIDE " : ", o);
	stream_write_clean(o, path);
	putc('\t', o);
	end_line(o, inside);
}

void
stream_write_head(FILE *o, const struct stream_head *h)
{
	const char *comm = h->comm;
	struct line l;

	l.o = o;
	l.n = 0;
	if (comm[0] == '\0' || comm[0] == ' ' || comm[0] == '#') {
		line_putc(&l, '_');
		if (comm[0] != '\0')
			comm++;
	}
	line_clean(&l, comm);
	/* " PID/TID [CPU] SECS.USECS: PERIOD EVENT:" */
	line_putc(&l, ' ');
	line_id(&l, h->pid);
	line_putc(&l, '/');
	line_id(&l, h->tid);
	line_putc(&l, ' ');
	line_putc(&l, '[');
	line_dec(&l, h->cpu, 3);
	line_putc(&l, ']');
	line_putc(&l, ' ');
	line_dec(&l, h->time / 1000000000U, 0);
	line_putc(&l, '.');
	line_dec(&l, h->time % 1000000000U / 1000, 6);
	line_putc(&l, ':');
	line_putc(&l, ' ');
	line_dec(&l, h->period, 0);
	line_putc(&l, ' ');
	line_clean(&l, h->event);
	line_putc(&l, ':');
	line_putc(&l, '\n');
	line_flush(&l);
}

void
stream_write_frame(FILE *o, uint64_t addr, const char *sym, const char *dso)
{
	struct line l;

	l.o = o;
	l.n = 0;
	line_putc(&l, '\t');
	line_hex(&l, addr);
	line_putc(&l, ' ');
	line_clean(&l, sym ? sym : STREAM_UNKNOWN);
	line_putc(&l, ' ');
	line_putc(&l, '(');
	line_clean(&l, dso);
	line_putc(&l, ')');
	line_putc(&l, '\n');
	line_flush(&l);
}

void
stream_write_truncated(FILE *o)
{
	stream_write_frame(o, 0, STREAM_TRUNCATED, STREAM_UNKNOWN);
}

void
stream_write_inlined(FILE *o, uint64_t addr, const char *sym)
{
	stream_write_frame(o, addr, sym, STREAM_INLINED);
}

void
stream_write_srcline(FILE *o, const char *text)
{
	fputs_unlocked("  ", o);
	stream_write_clean(o, text);
	putc_unlocked('\n', o);
}

void
stream_write_end(FILE *o)
{
	putc_unlocked('\n', o);
}
