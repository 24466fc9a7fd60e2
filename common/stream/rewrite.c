#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stream/rewrite.h"
#include "stream/writer.h"

/*
 * The line as it was read. One that ends in '\r' came as "\r\r\n": it is
 * written so, for "\r\n" would be read as a newline.
 */
static void
raw(FILE *o, const struct stream_item *it)
{
	fwrite(it->line, 1, it->len, o);
	if (it->len > 0 && it->line[it->len - 1] == '\r')
		putc('\r', o);
	putc('\n', o);
}

static char *
cstr(struct stream_str s)
{
	return xmemdup0(s.len > 0 ? s.p : "", s.len);
}

/* A head in the writer's layout: every field there, each of its width. */
static int
head_writable(const struct stream_sample *s, const struct stream_head_values *v)
{
	return v->has_pid && v->pid >= 0 && v->pid <= UINT32_MAX &&
	    v->tid >= 0 && v->tid <= UINT32_MAX && v->has_cpu &&
	    v->cpu <= UINT32_MAX && v->has_time && s->has_period &&
	    s->event.len > 0 && !s->has_frame;
}

static void
head(FILE *o, const struct stream_item *it)
{
	struct stream_head_values v;
	struct stream_head w;
	char *comm, *event;

	stream_head_values(it, &v);
	if (!head_writable(&it->head, &v)) {
		raw(o, it);
		return;
	}
	comm = cstr(it->head.comm);
	event = cstr(it->head.event);
	w.comm = comm;
	w.pid = (uint32_t)v.pid;
	w.tid = (uint32_t)v.tid;
	w.cpu = (uint32_t)v.cpu;
	w.time = v.time;
	w.period = it->head.period;
	w.event = event;
	stream_write_head(o, &w);
	free(comm);
	free(event);
}

/*
 * A frame in the writer's layout, when that reads back as the same
 * frame: a symbol and a DSO of unbalanced parentheses may split
 * elsewhere ("\t1(/a b (c))" is the symbol "(/a b" in "c)", and written
 * "\t1 (/a b (c))" is no frame), and then the line stays as it was.
 */
static void
frame(FILE *o, const struct stream_item *it)
{
	struct stream_frame f;
	char *sym, *dso, *p = NULL;
	size_t n = 0;
	FILE *m;

	if (!it->frame.addr_ok) {
		raw(o, it);
		return;
	}
	sym = cstr(it->frame.sym);
	dso = cstr(it->frame.dso);
	if ((m = open_memstream(&p, &n)) == NULL)
		xnomem(0);
	if (it->inlined)
		stream_write_inlined(m, it->frame.addrval, sym);
	else
		stream_write_frame(m, it->frame.addrval, sym, dso);
	fclose(m);
	if (n > 0 && stream_classify(p, n - 1, NULL, &f) == STREAM_FRAME &&
	    f.sym.len == it->frame.sym.len && f.dso.len == it->frame.dso.len)
		fwrite(p, 1, n, o);
	else
		raw(o, it);
	free(p);
	free(sym);
	free(dso);
}

/* A header of two strings written again by its writer function. */
static void
two(FILE *o, void (*write)(FILE *, const char *, const char *),
    struct stream_str x, struct stream_str y)
{
	char *a = cstr(x), *b = cstr(y);

	write(o, a, b);
	free(a);
	free(b);
}

static void
header(FILE *o, const struct stream_item *it)
{
	const struct stream_header_read *h = &it->hdr;
	const struct stream_event_read *e = &h->u.event;
	char *a, *b;

	if (!h->ok) {
		raw(o, it);
		return;
	}
	switch (h->key) {
	case STREAM_HDR_EVENT: {
		struct stream_event ev = { NULL, e->rate_kind, e->rate,
		    e->dwarf, e->stack_size };

		ev.name = a = cstr(e->name);
		stream_write_event(o, &ev);
		free(a);
		break;
	}
	case STREAM_HDR_BUILDID:
		two(o, stream_write_buildid, h->u.buildid.id, h->u.buildid.path);
		break;
	case STREAM_HDR_INSIDE:
		two(o, stream_write_inside, h->u.inside.path, h->u.inside.inside);
		break;
	case STREAM_HDR_LOST:
		stream_write_headeru(o, STREAM_KEY_LOST, h->u.lost);
		break;
	case STREAM_HDR_START:
		stream_write_start(o, &h->u.start);
		break;
	default:
		/* "# fgrecord:1" is a header; "# fgrecord : 1" the magic */
		a = xasprintf("# %.*s :", (int)h->name.len, h->name.p);
		if (stream_is_magic(a, strlen(a))) {
			free(a);
			raw(o, it);
			break;
		}
		free(a);
		a = cstr(h->name);
		b = cstr(h->value);
		stream_write_header(o, a, b);
		free(a);
		free(b);
		break;
	}
}

void
stream_write_item(FILE *o, const struct stream_item *it)
{
	char *t;

	switch (it->kind) {
	case STREAM_ITEM_HEAD:
		head(o, it);
		break;
	case STREAM_ITEM_FRAME:
		frame(o, it);
		break;
	case STREAM_ITEM_SRCLINE:
		/* Indented by spaces, a tab-indented text may read as a
		   padded head ("\tsh 1 1.5: 3 e:1:"): then it stays as it is. */
		t = xasprintf("  %.*s", (int)it->text.len, it->text.p);
		if (stream_indented_head(t, strlen(t)))
			raw(o, it);
		else
			stream_write_srcline(o, t + 2);
		free(t);
		break;
	case STREAM_ITEM_BLANK:
		stream_write_end(o);
		break;
	case STREAM_ITEM_HEADER:
		header(o, it);
		break;
	case STREAM_ITEM_FENCE:
		stream_write_fence(o);
		break;
	case STREAM_ITEM_EOF:
		break;
	default:
		raw(o, it);
		break;
	}
}
