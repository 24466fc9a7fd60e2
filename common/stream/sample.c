#include <stdio.h>

#include "stream/sample.h"
#include "stream/writer.h"

void
sample_write_header(FILE *o, const struct sample_hdr *h)
{
	switch (h->kind) {
	case SAMPLE_HDR_BEGIN:
		stream_write_begin(o, h->start);
		break;
	case SAMPLE_HDR_FENCE:
		stream_write_fence(o);
		break;
	case SAMPLE_HDR_TEXT:
		stream_write_header(o, h->key, h->value);
		break;
	case SAMPLE_HDR_NUMBER:
		stream_write_headeru(o, h->key, h->n);
		break;
	case SAMPLE_HDR_EVENT:
		stream_write_event(o, h->event);
		break;
	case SAMPLE_HDR_BUILDID:
		stream_write_buildid(o, h->value, h->key);
		break;
	case SAMPLE_HDR_INSIDE:
		stream_write_inside(o, h->key, h->value);
		break;
	}
}

void
sample_write(FILE *o, const struct sample *s)
{
	size_t i;

	stream_write_head(o, &s->head);
	for (i = 0; i < s->nframes; i++)
		stream_write_frame(o, s->frames[i].addr, NULL,
		    s->frames[i].dso);
	if (s->truncated)
		stream_write_truncated(o);
	stream_write_end(o);
}

static void
file_header(void *arg, const struct sample_hdr *h)
{
	sample_write_header(arg, h);
}

static void
file_sample(void *arg, const struct sample *s)
{
	sample_write(arg, s);
}

static int
file_flush(void *arg)
{
	FILE *o = arg;

	/* errno is fflush's, or the failed write's before it */
	return fflush(o) != 0 || ferror(o) ? -1 : 0;
}

static const struct sample_sink_ops file_ops = {
	.header = file_header,
	.sample = file_sample,
	.flush = file_flush,
};

void
sample_sink_file(struct sample_sink *sink, FILE *o)
{
	sink->ops = &file_ops;
	sink->arg = o;
}
