/*
 * parse-alloc, fixed version: find the four separating spaces and return
 * slices of the caller's line. No allocation, one pass.
 */
#include <string.h>

#include "logparse.h"

/* Returns the first space in s[0..len), or NULL. */
static const char *
space(const char *s, size_t len)
{
	return memchr(s, ' ', len);
}

/* Returns the last space in s[0..len), or NULL. */
static const char *
last_space(const char *s, size_t len)
{
	while (len > 0)
		if (s[--len] == ' ')
			return s + len;
	return NULL;
}

int
parse_view(const char *line, size_t len, struct entry_view *e)
{
	const char *end = line + len, *a, *b, *c, *d;

	if (memchr(line, '\0', len) != NULL)
		return -1;	/* the slow version cannot hold it: be the same */
	if ((a = space(line, len)) == NULL ||
	    (b = space(a + 1, (size_t)(end - a - 1))) == NULL ||
	    (c = space(b + 1, (size_t)(end - b - 1))) == NULL ||
	    (d = last_space(c + 1, (size_t)(end - c - 1))) == NULL)
		return -1;
	if (a == line || b == a + 1 || c == b + 1)
		return -1;
	if (end - d - 1 < 1 || end - d - 1 > 9)
		return -1;
	e->status = 0;
	for (const char *p = d + 1; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		e->status = e->status * 10 + (*p - '0');
	}
	e->timestamp = (struct slice){ line, (size_t)(a - line) };
	e->level = (struct slice){ a + 1, (size_t)(b - a - 1) };
	e->component = (struct slice){ b + 1, (size_t)(c - b - 1) };
	e->message = (struct slice){ c + 1, (size_t)(d - c - 1) };
	return 0;
}

static int
is(struct slice s, const char *word, size_t len)
{
	return s.len == len && memcmp(s.p, word, len) == 0;
}

void
summarize_fast(const char *buf, size_t len, struct log_summary *s)
{
	const char *p = buf, *end = buf + len;

	memset(s, 0, sizeof(*s));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct entry_view e;

		s->lines++;
		if (parse_view(p, l, &e) < 0)
			s->malformed++;
		else {
			if (is(e.level, "DEBUG", 5))
				s->debug++;
			else if (is(e.level, "INFO", 4))
				s->info++;
			else if (is(e.level, "WARN", 4))
				s->warn++;
			else if (is(e.level, "ERROR", 5)) {
				s->error++;
				for (size_t k = 0; k < e.component.len; k++)
					s->error_components = s->error_components * 131 + (unsigned char)e.component.p[k];
			} else
				s->other_level++;
			s->server_errors += e.status >= 500;
			s->message_bytes += e.message.len;
		}
		p += l + 1;
	}
}
