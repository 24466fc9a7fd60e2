/*
 * srccache: source files' text, read on first use (see srccache.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/safeopen.h"
#include "base/xalloc.h"
#include "sym/srccache.h"

/* One source file: its text and where its lines start. */
struct srcfile {
	char	*path;		/* owned */
	char	*text;		/* owned; NULL when unreadable */
	size_t	*lines;		/* owned; offsets of line starts */
	size_t	 nlines;
};

void
srccache_init(struct srccache *c)
{
	memset(c, 0, sizeof(*c));
}

const char *
srccache_line(struct srccache *c, const char *path, int line, size_t *len)
{
	struct srcfile *s = NULL;

	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->files[i].path, path) == 0)
			s = &c->files[i];
	if (!s) {
		size_t tlen = 0, cap = 0;

		GROW(c->files, c->n + 1, c->cap);
		s = &c->files[c->n++];
		memset(s, 0, sizeof(*s));
		s->path = xstrdup(path);
		/* DWARF names the path: only a regular file, not too large. */
		if (safeopen_read(path, SRCCACHE_MAX, &s->text, &tlen) == 0) {
			GROW(s->lines, 1, cap);
			s->lines[s->nlines++] = 0;
			for (size_t i = 0; i < tlen; i++)
				if (s->text[i] == '\n' && i + 1 < tlen) {
					GROW(s->lines, s->nlines + 1, cap);
					s->lines[s->nlines++] = i + 1;
				}
		}
	}
	if (!s->text || line < 1 || (size_t)line > s->nlines)
		return NULL;
	{
		const char *p = s->text + s->lines[line - 1];

		*len = strcspn(p, "\n");
		while (*len && isspace((unsigned char)*p)) {
			p++;
			(*len)--;
		}
		while (*len && isspace((unsigned char)p[*len - 1]))
			(*len)--;
		return p;
	}
}

void
srccache_release(struct srccache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->files[i].path);
		free(c->files[i].text);
		free(c->files[i].lines);
	}
	free(c->files);
	srccache_init(c);
}
