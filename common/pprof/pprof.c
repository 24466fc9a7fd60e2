#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "pprof/encode.h"
#include "pprof/pprof.h"
#include "profile/stacks.h"

void
pprof_init(struct pprof *p)
{
	memset(p, 0, sizeof(*p));
	stacks_init(&p->prof);
	intern_init(&p->strs);
	intern_init(&p->funcs);
	intern_init(&p->maps);
}

void
pprof_release(struct pprof *p)
{
	stacks_release(&p->prof);
	intern_release(&p->strs);
	intern_release(&p->funcs);
	intern_release(&p->maps);
	buf_release(&p->larena);
	buf_release(&p->tmp);
	buf_release(&p->tmp2);
	free(p->tcomm);
	free(p->fmemo);
	free(p->fids);
	free(p->comments);
	free(p->vals);
	memset(p, 0, sizeof(*p));
}

int
pprof_stream(struct pprof *p, int fd, const char *name)
{
	return stacks_stream(&p->prof, fd, name);
}

/* A note of the profile as a comment: "cmdline: ...", "lost samples: ...". */
static void
add_comment(struct pprof *p, const struct intern_entry *note)
{
	const char *prefix = note->key[0] == STACKS_NOTE_CMDLINE ?
	    "cmdline: " : "lost samples: ";
	size_t n = strlen(prefix);
	char *s = xmalloc(n + note->len);

	memcpy(s, prefix, n);
	memcpy(s + n, note->key + 1, note->len - 1);
	GROW(p->comments, p->ncomments + 1, p->comments_cap);
	p->comments[p->ncomments++] = pprof_str(p, s, n + note->len - 1);
	free(s);
}

/*
 * The tables numbered as the profile's things were first seen, as they
 * would be while reading: a thread's COMM, a build ID, a comment, a
 * location's mapping and functions each take the next string index.
 */
void
pprof_number(struct pprof *p)
{
	const struct stacks *s = &p->prof;
	size_t i, loc = 0;

	intern_release(&p->strs);
	intern_release(&p->funcs);
	intern_release(&p->maps);
	intern_init(&p->strs);
	intern_init(&p->funcs);
	intern_init(&p->maps);
	buf_reset(&p->larena);
	p->ncomments = 0;
	intern_get(&p->strs, "", 0);	/* string 0 is the empty string */
	GROW(p->tcomm, s->threads.n + 1, p->tcomm_cap);
	GROW(p->fmemo, s->frames.n + 1, p->fmemo_cap);
	memset(p->fmemo, 0, s->frames.n * sizeof(*p->fmemo));
	for (i = 0; i <= s->nseen; i++) {
		const struct stacks_seen *w = i < s->nseen ? &s->seen[i] : NULL;

		/* the locations met before it, in id order */
		while (loc < (w != NULL ? w->locs : s->locs.n))
			pprof_location(p, ++loc);
		if (w == NULL)
			break;
		switch (w->kind) {
		case STACKS_SEEN_THREAD:
			p->tcomm[w->i] = pprof_str(p, s->threads.ents[w->i].key,
			    s->thr[w->i].commlen);
			break;
		case STACKS_SEEN_BUILDID:
			pprof_str(p, s->bids.ents[w->i].key, s->bids.ents[w->i].len);
			break;
		case STACKS_SEEN_NOTE:
			add_comment(p, &s->notes.ents[w->i]);
			break;
		}
	}
}
