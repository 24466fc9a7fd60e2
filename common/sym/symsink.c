/*
 * symsink: samples handed over as structs (stream/sample.h: a recording
 * replayed in this process, fgsym on perf.data) symbolized as sym_stream
 * does a stream's lines, with no lines: written as the stream (fgsym), or
 * handed on as structs (sym_sink_named: fgfold, fgsvg on perf.data).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "base/xalloc.h"
#include "stream/sample.h"
#include "stream/stream.h"
#include "stream/writer.h"
#include "sym/sym.h"
#include "sym/symstate.h"

struct symsink {
	struct sym	*s;
	FILE		*out;		/* or NULL: parsed only, as sym_stream */
	struct symout	 o;		/* where sym_frame hands the frames */
	const struct symout *to;	/* &o, or NULL: parsed only */
	struct sstate	 st;
	uint64_t	 pid;		/* st.pid's number, or none (> 2^32) */
	uint32_t	*fns;		/* owned: by the producer's file number,
					   the file's number in s + 1, or 0 */
	size_t		 nfns;
	const char	*rawdso;	/* the last frame's DSO as handed over */
	char		*dso;		/* and as the stream writes it: owned */
	size_t		 dsolen;
};

/*
 * path as the writer writes it, control characters as '?' (a file name
 * is the recorded program's choice): path itself when it is clean, else
 * a copy in k->dso, good until the next call.
 */
static const char *
clean_path(struct symsink *k, const char *path)
{
	size_t n;

	if (!stream_needs_clean(path))
		return path;
	n = strlen(path);
	if (n >= k->dsolen) {
		free(k->dso);
		k->dsolen = n + 1;
		k->dso = xmalloc(k->dsolen);
	}
	memcpy(k->dso, path, n + 1);
	stream_clean(k->dso);
	return k->dso;
}

/*
 * Takes note of the build ID a "# buildid" line gives the file path: the
 * file is checked against it when it is opened, unless it was already.
 */
static void
recorded_buildid(struct sym *s, const char *hex, const char *path)
{
	uint32_t fn = file_get(s, path, strlen(path));
	struct sfile *f = s->files[fn];

	if (f->opened != 0)
		return;
	free(f->recorded);
	f->recorded = xstrdup(hex);
}

static void
sink_header(void *arg, const struct sample_hdr *h)
{
	struct symsink *k = arg;

	if (h->kind == SAMPLE_HDR_BUILDID) {
		recorded_buildid(k->s, h->value, clean_path(k, h->key));
		k->rawdso = NULL;	/* k->dso is no longer its copy */
	}
	if (h->kind == SAMPLE_HDR_INSIDE) {
		const char *path = clean_path(k, h->key);
		struct sfile *f = k->s->files[file_get(k->s, path,
		    strlen(path))];

		if (f->opened == 0 && f->inside == NULL)
			f->inside = xstrdup(h->value);
		k->rawdso = NULL;
	}
	k->st.fi = 0;
	k->st.drop_src = 0;
	if (k->o.to != NULL)
		k->o.to->header(k->o.arg, h);
	else if (k->out != NULL)
		sample_write_header(k->out, h);
}

/* The "# symbolized" mark, once, handed on as a header. */
static void
named_mark(struct symsink *k)
{
	struct sample_hdr h = { .kind = SAMPLE_HDR_TEXT,
	    .key = STREAM_KEY_SYMBOLIZED, .value = "fgsym " FG_VERSION };

	if (k->s->marked)
		return;
	k->s->marked = 1;
	k->o.to->header(k->o.arg, &h);
}

/* Puts v in hex into b (17 bytes at least), as the writer does. */
static size_t
hex(char *b, uint64_t v)
{
	size_t n = (size_t)(64 - __builtin_clzll(v | 1) + 3) / 4, i;

	b[n] = '\0';
	for (i = n; i > 0; v >>= 4)
		b[--i] = "0123456789abcdef"[v & 15];
	return n;
}

/*
 * The number in s + 1 of the file the producer numbers n (from 1), path
 * as the stream writes it: looked up by its path once, then by n.
 */
static uint32_t
file_of(struct symsink *k, uint32_t n, const char *path)
{
	if (n >= k->nfns) {
		size_t m = n + 1 > 2 * k->nfns ? n + 1 : 2 * k->nfns;

		k->fns = xrealloc(k->fns, m * sizeof(*k->fns));
		memset(k->fns + k->nfns, 0, (m - k->nfns) * sizeof(*k->fns));
		k->nfns = m;
	}
	if (k->fns[n] == 0)
		k->fns[n] = file_get(k->s, path, strlen(path)) + 1;
	return k->fns[n];
}

/* One sample: what sym_stream does with its lines, with no lines. */
static void
sink_sample(void *arg, const struct sample *smp)
{
	struct symsink *k = arg;
	struct sym *s = k->s;
	struct stream_frame fr;
	char addr[24];
	size_t i;

	k->st.fi = 0;
	k->st.drop_src = 0;
	/* one snprintf per run of a process's samples, not per sample */
	if (k->pid != smp->head.pid) {
		k->pid = smp->head.pid;
		/* as the stream writes it: -1 for none */
		snprintf(k->st.pid, sizeof(k->st.pid), "%d",
		    (int)smp->head.pid);
	}
	if ((++s->samples & 255) == 0 && s->o.progress)
		sym_progress(s);
	if (k->o.to != NULL) {
		named_mark(k);
		k->o.to->head(k->o.arg, &smp->head);
	} else {
		sym_mark(s, k->out);
		if (k->out != NULL)
			stream_write_head(k->out, &smp->head);
	}
	memset(&fr, 0, sizeof(fr));
	k->rawdso = NULL;	/* fr.dso is set anew below */
	fr.indent.p = "\t";
	fr.indent.len = 1;
	fr.addr.p = addr;
	fr.addr_ok = 1;
	for (i = 0; i <= smp->nframes; i++) {
		const char *dso = STREAM_UNKNOWN, *sym = STREAM_TRUNCATED;

		k->st.fn_given = 0;
		if (i < smp->nframes) {
			dso = smp->frames[i].dso;
			sym = STREAM_UNKNOWN;
			fr.addrval = smp->frames[i].addr;
		} else if (smp->truncated)
			fr.addrval = 0;
		else
			break;
		/* the address as text only for a stream's text */
		fr.addr.len = k->o.to == NULL ? hex(addr, fr.addrval) : 0;
		fr.sym.p = sym;
		fr.sym.len = i < smp->nframes ? sizeof(STREAM_UNKNOWN) - 1 :
		    sizeof(STREAM_TRUNCATED) - 1;
		/* a sample's frames are mostly in the file of the one before */
		if (dso != k->rawdso) {
			k->rawdso = dso;
			fr.dso.p = clean_path(k, dso);
			fr.dso.len = strlen(fr.dso.p);
		}
		if (i < smp->nframes && smp->frames[i].file > 0)
			k->st.fn_given = file_of(k, smp->frames[i].file,
			    fr.dso.p);
		sym_frame(s, &k->st, NULL, NULL, 0, &fr, k->to);
	}
	k->st.fi = 0;
	k->st.drop_src = 0;
	k->st.fn_given = 0;
	if (k->o.to != NULL)
		k->o.to->end(k->o.arg);
	else if (k->out != NULL)
		stream_write_end(k->out);
}

static int
sink_flush(void *arg)
{
	struct symsink *k = arg;

	/* the session's summary follows a flush: not over the progress */
	progress_clear();
	if (k->out == NULL)
		return 0;
	return fflush(k->out) != 0 || ferror(k->out) ? -1 : 0;
}

static const struct sample_sink_ops sink_ops = {
	.header = sink_header,
	.sample = sink_sample,
	.flush = sink_flush,
};

static struct symsink *
symsink_new(struct sym *s, struct sample_sink *sink)
{
	struct symsink *k = xcalloc(1, sizeof(*k));

	k->s = s;
	k->st.fgrecord = 1;	/* a recording's addresses are the files' */
	k->st.map_fn = -1;
	k->pid = UINT64_MAX;
	sink->ops = &sink_ops;
	sink->arg = k;
	return k;
}

void
sym_sink_init(struct sym *s, FILE *out, struct sample_sink *sink)
{
	struct symsink *k = symsink_new(s, sink);

	k->out = out;
	k->o.fp = out;
	k->to = out != NULL ? &k->o : NULL;
}

void
sym_sink_named(struct sym *s, const struct sym_named *to, void *arg,
    struct sample_sink *sink)
{
	struct symsink *k = symsink_new(s, sink);

	k->o.to = to;
	k->o.arg = arg;
	k->to = &k->o;
}

void
sym_sink_release(struct sample_sink *sink)
{
	struct symsink *k = sink->arg;

	if (k != NULL) {
		free(k->dso);
		free(k->fns);
	}
	free(sink->arg);
	sink->arg = NULL;
}

