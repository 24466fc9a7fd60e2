#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "base/xalloc.h"
#include "pprof/number.h"
#include "pprof/pb.h"
#include "pprof/proto.h"
#include "profile/stacks.h"
#include "stream/dso.h"
#include "stream/stream.h"

uint64_t
pprof_str(struct pprof *p, const char *s, size_t len)
{
	if (len == 0)
		return 0;	/* s may be NULL */
	return intern_get(&p->strs, s, len) - p->strs.ents;
}

static uint64_t
map_id(struct pprof *p, const char *dso, size_t len)
{
	size_t n = p->maps.n;
	struct intern_entry *e = intern_get(&p->maps, dso, len);
	uint64_t id = e - p->maps.ents + 1;

	if (p->maps.n != n)
		p->maps.ents[id - 1].u[0] = pprof_str(p, dso, len);
	return id;
}

static uint64_t
func_id(struct pprof *p, const char *name, size_t nlen, const char *file,
    size_t flen)
{
	char *k = xmalloc(nlen + flen + 1);
	size_t n = p->funcs.n;
	uint64_t id;

	memcpy(k, name, nlen);
	k[nlen] = '\0';
	if (flen > 0)		/* file is NULL when there is none */
		memcpy(k + nlen + 1, file, flen);
	id = intern_get(&p->funcs, k, nlen + 1 + flen) - p->funcs.ents + 1;
	free(k);
	if (p->funcs.n != n) {
		uint64_t nid = pprof_str(p, name, nlen), fid = pprof_str(p, file, flen);

		p->funcs.ents[id - 1].u[0] = nid;
		p->funcs.ents[id - 1].u[1] = fid;
	}
	return id;
}

/*
 * The function of a location's line f: its name, or for an [unknown] last
 * line of a location with a non-inlined frame pf, the DSO's name where the
 * DSO is not a file ([kernel.kallsyms], [vdso], [unknown]: "[[vdso]]", as
 * fgfold names it), and none (NOLINE: pprof may symbolize it) where it is;
 * its file is its source file, else pf's DSO as a file name (bracketed:
 * "[/usr/lib/libc.so.6]", "[kernel.kallsyms]").
 */
#define NOLINE	UINT64_MAX
static uint64_t
line_func(struct pprof *p, const struct stacks_frame *f,
    const struct stacks_frame *pf, int last)
{
	const char *name = f->name, *file = f->file;
	size_t nlen = f->nlen, flen = f->flen;
	char *dname = NULL, *dtmp = NULL;
	uint64_t id;

	if (pf != NULL && last && str_is(name, nlen, STREAM_UNKNOWN)) {
		const char *b;
		size_t bl;

		if (pf->dlen > 0 && pf->dso[0] == '/')
			return NOLINE;
		dso_unknown_base(pf->dso, pf->dlen, &b, &bl);
		dname = xasprintf("[%.*s]", (int)bl, b);
		name = dname;
		nlen = strlen(dname);
	}
	if (flen == 0 && pf != NULL) {
		if (pf->dlen > 0 && pf->dso[0] == '[') {
			file = pf->dso;
			flen = pf->dlen;
		} else {
			dtmp = xasprintf("[%.*s]", (int)pf->dlen, pf->dso);
			file = dtmp;
			flen = strlen(dtmp);
		}
	}
	id = func_id(p, name, nlen, file, flen);
	free(dname);
	free(dtmp);
	return id;
}

void
pprof_location(struct pprof *p, size_t id)
{
	const struct stacks *s = &p->prof;
	const struct stacks_frame *f, *pf = NULL;
	const uint8_t *ids;
	uint64_t addr, mid = 0, flags = 0, func;
	size_t nl = stacks_loc(s, id, &addr, &ids), i, phys = 0;

	GROW(p->fids, nl + 1, p->fids_cap);
	for (i = 0; i < nl; i++) {
		p->fids[i] = (uint32_t)buf_varint_get(&ids);
		if (!s->frm[p->fids[i]].inlined) {
			phys = i;
			pf = &s->frm[p->fids[i]];
		} else
			flags |= PPROF_MAP_INLINE;
	}
	if (pf != NULL) {
		struct pprof_fmemo *m = &p->fmemo[p->fids[phys]];

		if (m->map == 0)
			m->map = map_id(p, pf->dso, pf->dlen);
		mid = m->map;
	}
	/* The id and mapping id are written by pprof_encode, which puts the
	   main program's mapping first. */
	buf_reset(&p->tmp);
	if (addr != 0)
		pb_uint(&p->tmp, LOCATION_ADDRESS, addr);
	for (i = 0; i < nl; i++) {
		f = &s->frm[p->fids[i]];
		if (pf != NULL && i == nl - 1 && phys == i) {
			/* The usual last line: its function depends on
			   nothing but the frame. */
			struct pprof_fmemo *m = &p->fmemo[p->fids[i]];

			if (m->func == 0)
				m->func = line_func(p, f, pf, 1);
			func = m->func;
		} else
			func = line_func(p, f, pf, i == nl - 1);
		if (func == NOLINE)
			continue;
		buf_reset(&p->tmp2);
		pb_uint(&p->tmp2, LINE_FUNCTION_ID, func);
		if (f->line > 0)
			pb_uint(&p->tmp2, LINE_LINE, f->line);
		pb_msg(&p->tmp, LOCATION_LINE, &p->tmp2);
		flags |= PPROF_MAP_FUNCS;
		if (f->flen > 0)
			flags |= PPROF_MAP_FILES;
		if (f->line > 0)
			flags |= PPROF_MAP_LINES;
	}
	if (mid != 0)
		p->maps.ents[mid - 1].u[1] |= flags;
	/* Its mapping, the message's length and the message, after the
	   location before it. It may be empty (an [unknown] frame at
	   address 0). */
	buf_varint(&p->larena, mid);
	buf_varint(&p->larena, p->tmp.len);
	buf_add(&p->larena, p->tmp.p, p->tmp.len);
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
