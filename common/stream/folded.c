#include <err.h>
#include <string.h>

#include "base/cmdfile.h"
#include "base/num.h"
#include "stream/diag.h"
#include "stream/folded.h"
#include "stream/sniff.h"

static int
isspc(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Parses the last white-space separated token of line[0..*end) as a count.
 * On success moves *end to the start of the white space before it. With
 * quick, a token that is not all digits and dots is FOLDED_NOCOUNT as soon
 * as that is seen: the stack before a single count is not scanned whole.
 */
static enum folded_status
last_count(const char *line, size_t *end, struct folded_count *c, int quick)
{
	size_t e = *end, b, i, dot = 0;
	int ndot = 0;

	while (e > 0 && isspc(line[e - 1]))
		e--;
	b = e;
	while (b > 0 && !isspc(line[b - 1])) {
		if (quick && line[b - 1] != '.' &&
		    (line[b - 1] < '0' || line[b - 1] > '9'))
			return FOLDED_NOCOUNT;
		b--;
	}
	if (b == e)
		return FOLDED_NOCOUNT;
	memset(c, 0, sizeof(*c));
	for (i = b; i < e; i++) {
		if (line[i] == '.') {
			ndot++;
			dot = i;
		} else if (line[i] < '0' || line[i] > '9')
			return line[b] == '-' ? FOLDED_BADCOUNT : FOLDED_NOCOUNT;
	}
	if (ndot > 1 || (ndot == 1 && dot == b))
		return FOLDED_NOCOUNT;
	if (ndot == 1) {
		if (num_decimal(line + b, e - b, &c->d) == NUM_RANGE)
			return FOLDED_OVERFLOW;
		c->decimal = 1;
	} else {
		if (num_u64(line + b, e - b, &c->u, NULL) == NUM_RANGE)
			return FOLDED_OVERFLOW;
		c->d = (double)c->u;
	}
	while (b > 0 && isspc(line[b - 1]))
		b--;
	*end = b;
	return FOLDED_OK;
}

enum folded_status
folded_parse(const char *line, size_t len, struct folded_line *out)
{
	struct folded_count c1, c2;
	enum folded_status st;
	size_t end = len, e2;
	size_t i;

	for (i = 0; i < len && isspc(line[i]); i++)
		;
	if (i == len)
		return FOLDED_BLANK;
	if (memchr(line, '\0', len) != NULL)
		return FOLDED_NUL;
	memset(out, 0, sizeof(*out));
	if ((st = last_count(line, &end, &c1, 0)) != FOLDED_OK)
		return st;
	if (end == 0)
		return FOLDED_NOSTACK;
	out->ncounts = 1;
	out->count[0] = c1;
	e2 = end;
	if (last_count(line, &e2, &c2, 1) == FOLDED_OK && e2 > 0) {
		out->ncounts = 2;
		out->count[0] = c2;
		out->count[1] = c1;
		end = e2;
	}
	out->stack = line;
	out->stack_len = end;
	return FOLDED_OK;
}

enum folded_status
folded_parse_stack(const char *stack, size_t len, uint64_t count,
    struct folded_line *out)
{
	struct folded_count c2;
	size_t end = len, e2;

	if (memchr(stack, '\0', len) != NULL)
		return FOLDED_NUL;
	memset(out, 0, sizeof(*out));
	while (end > 0 && isspc(stack[end - 1]))
		end--;
	if (end == 0)
		return FOLDED_NOSTACK;
	out->ncounts = 1;
	out->count[0].u = count;
	out->count[0].d = (double)count;
	e2 = end;
	if (last_count(stack, &e2, &c2, 1) == FOLDED_OK && e2 > 0) {
		out->ncounts = 2;
		out->count[1] = out->count[0];
		out->count[0] = c2;
		end = e2;
	}
	out->stack = stack;
	out->stack_len = end;
	return FOLDED_OK;
}

const char *
folded_strerror(enum folded_status st)
{
	switch (st) {
	case FOLDED_OK:		return "ok";
	case FOLDED_BLANK:	return "blank line";
	case FOLDED_NOCOUNT:	return "no count at the end of the line";
	case FOLDED_BADCOUNT:	return "count is negative or not a number";
	case FOLDED_OVERFLOW:	return "count does not fit in 64 bits (scale "
				    "the counts down)";
	case FOLDED_NUL:	return "a NUL byte in the line";
	case FOLDED_NOSTACK:	return "count with no stack";
	}
	return "unknown error";
}

void
folded_reader_init(struct folded_reader *r,
    const struct folded_reader_opts *opts)
{
	memset(r, 0, sizeof(*r));
	r->opts = *opts;
}

/* Counts a bad line, saying the first of each kind. */
static void
bad_line(struct folded_reader *r, enum folded_status st,
    const struct folded_item *it, const char *name)
{
	char q[DIAG_QUOTE_SIZE];

	r->bad++;
	if (r->seen[st]++ != 0)
		return;
	if (r->opts.say_forms)
		warnx("%s:%lu: %s; expected \"STACK COUNT\" or "
		    "\"STACK BEFORE AFTER\"", name, it->lineno,
		    folded_strerror(st));
	else
		warnx("%s:%lu: %s: '%s'", name, it->lineno, folded_strerror(st),
		    stream_quote(q, sizeof(q), it->line, it->len, 60));
}

/*
 * Adds the line's integer counts to the sums and returns 0; or, when that
 * would take a sum past 2^64-1, leaves them, says so the first time and
 * returns -1. Every stack's count is at most its slot's sum: one check
 * covers both.
 */
static int
add_totals(struct folded_reader *r, const struct folded_item *it,
    const char *name)
{
	const struct folded_line *fl = &it->fl;
	uint64_t *t = r->opts.totals;
	int c;

	for (c = 0; c < fl->ncounts; c++)
		if (!fl->count[c].decimal &&
		    t[it->to[c]] > UINT64_MAX - fl->count[c].u)
			break;
	if (c == fl->ncounts) {
		for (c = 0; c < fl->ncounts; c++)
			if (!fl->count[c].decimal)
				t[it->to[c]] += fl->count[c].u;
		return 0;
	}
	if (r->skipped++ == 0)
		warnx("%s:%lu: the counts add up past 2^64-1 here: skipped the "
		    "line; %s", name, it->lineno, r->opts.fewer);
	return -1;
}

int
folded_read(struct folded_reader *r, struct lineread *lr)
{
	struct folded_item it;
	enum folded_status st;
	unsigned long bad = r->bad, skipped = r->skipped;
	const char *name = lr->name;
	char *line;
	ssize_t len;

	if (sniff_refuse(lr, SNIFF_FOLDED, r->opts.tool) != 0)
		return SNIFF_REFUSED;
	memset(&it, 0, sizeof(it));
	it.kept = lr->map != NULL;
	for (;;) {
		if (it.kept)
			len = lineread_next_kept(lr, &it.line);
		else if ((len = lineread_next(lr, &line)) >= 0)
			it.line = line;
		if (len < 0)
			break;
		it.len = (size_t)len;
		it.lineno = lr->lineno;
		st = folded_parse(it.line, it.len, &it.fl);
		if (st == FOLDED_BLANK)
			continue;
		if (st != FOLDED_OK) {
			bad_line(r, st, &it, name);
			continue;
		}
		it.to[0] = it.fl.ncounts == 2 ? 0 : r->opts.slot;
		it.to[1] = 1;
		if (add_totals(r, &it, name) != 0)
			continue;
		r->opts.on_line(r->opts.arg, &it);
	}
	if (lr->error != 0) {
		cmdfile_read_failed(name, lr->error);
		r->read_failed = 1;
		return 1;
	}
	return r->bad > bad || r->skipped > skipped;
}
