/*
 * parse-alloc, slow version: split the line into owned tokens, then copy
 * the fields out of them. Every field of every line is a malloc and a free.
 */
#include <stdlib.h>
#include <string.h>

#include "logparse.h"

static void *
xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL)
		abort();
	return p;
}

static char *
copy(const char *s, size_t len)
{
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Splits line on single spaces into malloc'ed tokens; *n gets their count. */
__attribute__((noinline)) static char **
split(const char *line, size_t len, size_t *n)
{
	size_t cap = 8, count = 0, start = 0;
	char **tok = xmalloc(cap * sizeof(*tok));

	for (size_t k = 0; k <= len; k++) {
		if (k < len && line[k] != ' ')
			continue;
		if (count == cap) {
			cap *= 2;
			tok = realloc(tok, cap * sizeof(*tok));
			if (tok == NULL)
				abort();
		}
		tok[count++] = copy(line + start, k - start);
		start = k + 1;
	}
	*n = count;
	return tok;
}

/* Joins tok[from..to) with single spaces into a new string. */
static char *
join(char **tok, size_t from, size_t to)
{
	size_t len = 0, at = 0;
	char *s;

	for (size_t k = from; k < to; k++)
		len += strlen(tok[k]) + (k > from);
	s = xmalloc(len + 1);
	for (size_t k = from; k < to; k++) {
		size_t l = strlen(tok[k]);

		if (k > from)
			s[at++] = ' ';
		memcpy(s + at, tok[k], l);
		at += l;
	}
	s[at] = '\0';
	return s;
}

static int
parse_status(const char *s, long *status)
{
	size_t len = strlen(s);

	if (len < 1 || len > 9)
		return -1;
	*status = 0;
	for (size_t k = 0; k < len; k++) {
		if (s[k] < '0' || s[k] > '9')
			return -1;
		*status = *status * 10 + (s[k] - '0');
	}
	return 0;
}

int
parse_owned(const char *line, size_t len, struct entry_owned *e)
{
	size_t n;
	char **tok;
	int rc = -1;

	if (memchr(line, '\0', len) != NULL)
		return -1;	/* a C string cannot hold it */
	tok = split(line, len, &n);

	if (n >= 5 && *tok[0] && *tok[1] && *tok[2] &&
	    parse_status(tok[n - 1], &e->status) == 0) {
		e->timestamp = copy(tok[0], strlen(tok[0]));
		e->level = copy(tok[1], strlen(tok[1]));
		e->component = copy(tok[2], strlen(tok[2]));
		e->message = join(tok, 3, n - 1);
		rc = 0;
	}
	for (size_t k = 0; k < n; k++)
		free(tok[k]);
	free(tok);
	return rc;
}

void
entry_owned_release(struct entry_owned *e)
{
	free(e->timestamp);
	free(e->level);
	free(e->component);
	free(e->message);
}

void
summarize_slow(const char *buf, size_t len, struct log_summary *s)
{
	const char *p = buf, *end = buf + len;

	memset(s, 0, sizeof(*s));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct entry_owned e;

		s->lines++;
		if (parse_owned(p, l, &e) < 0)
			s->malformed++;
		else {
			if (strcmp(e.level, "DEBUG") == 0)
				s->debug++;
			else if (strcmp(e.level, "INFO") == 0)
				s->info++;
			else if (strcmp(e.level, "WARN") == 0)
				s->warn++;
			else if (strcmp(e.level, "ERROR") == 0) {
				s->error++;
				for (const char *c = e.component; *c; c++)
					s->error_components = s->error_components * 131 + (unsigned char)*c;
			} else
				s->other_level++;
			s->server_errors += e.status >= 500;
			s->message_bytes += strlen(e.message);
			entry_owned_release(&e);
		}
		p += l + 1;
	}
}
