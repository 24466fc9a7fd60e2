#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stream/samplepipe.h"

/* A batch is passed on when it holds this many items or string bytes. */
#define BATCH_ITEMS	4096
#define BATCH_BYTES	(1 << 20)

enum { IT_HEADER, IT_SAMPLE, IT_FLUSH };

/* One header, sample or flush; strings are offsets + 1 into strs (0: NULL). */
struct item {
	int		 kind;
	enum sample_hdr_kind hkind;
	size_t		 key, value;
	uint64_t	 n;
	int		 has_start, has_event;
	struct stream_start start;
	struct stream_event ev;
	size_t		 evname;
	struct stream_head head;
	size_t		 comm, event;
	size_t		 frame0, nframes;
	int		 truncated;
};

struct pframe {
	uint64_t	 addr;
	size_t		 dso;
};

struct samplepipe_batch {
	struct item	*items;
	size_t		 n, cap;
	char		*strs;
	size_t		 slen, scap;
	struct pframe	*fr;
	size_t		 fn, fcap;
	struct sample_frame *out;	/* the consumer's frames */
	size_t		 ocap;
	struct samplepipe_batch *next;	/* among the spares */
};

static size_t
str_add(struct samplepipe_batch *b, const char *s)
{
	size_t len, off;

	if (s == NULL)
		return 0;
	len = strlen(s) + 1;
	GROW(b->strs, b->slen + len, b->scap);
	off = b->slen;
	memcpy(b->strs + off, s, len);
	b->slen += len;
	return off + 1;
}

static const char *
str_get(const struct samplepipe_batch *b, size_t off)
{
	return off ? b->strs + off - 1 : NULL;
}

/* The producer's batch to fill: a spare one, or a new one. */
static struct samplepipe_batch *
fill(struct samplepipe *p)
{
	struct samplepipe_batch *b;

	if (p->fill != NULL)
		return p->fill;
	pthread_mutex_lock(&p->lock);
	if ((b = p->spares) != NULL)
		p->spares = b->next;
	pthread_mutex_unlock(&p->lock);
	if (b == NULL)
		b = xcalloc(1, sizeof(*b));
	b->n = b->slen = b->fn = 0;
	return p->fill = b;
}

/* Queues the batch being filled, waiting for room. */
static void
push(struct samplepipe *p)
{
	if (p->fill == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	while (p->count == SAMPLEPIPE_BATCHES)
		pthread_cond_wait(&p->changed, &p->lock);
	p->queue[(p->head + p->count) % SAMPLEPIPE_BATCHES] = p->fill;
	p->count++;
	p->fill = NULL;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

static struct item *
item_add(struct samplepipe *p, int kind)
{
	struct samplepipe_batch *b = fill(p);
	struct item *it;

	GROW(b->items, b->n + 1, b->cap);
	it = &b->items[b->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	return it;
}

/* Queues the batch when it is full. */
static void
item_done(struct samplepipe *p)
{
	if (p->fill->n >= BATCH_ITEMS || p->fill->slen >= BATCH_BYTES)
		push(p);
}

static void
pipe_header(void *arg, const struct sample_hdr *h)
{
	struct samplepipe *p = arg;
	struct item *it = item_add(p, IT_HEADER);
	struct samplepipe_batch *b = p->fill;

	it->hkind = h->kind;
	it->key = str_add(b, h->key);
	it->value = str_add(b, h->value);
	it->n = h->n;
	if ((it->has_start = h->start != NULL))
		it->start = *h->start;
	if ((it->has_event = h->event != NULL)) {
		it->ev = *h->event;
		it->evname = str_add(b, h->event->name);
	}
	item_done(p);
}

static void
pipe_sample(void *arg, const struct sample *s)
{
	struct samplepipe *p = arg;
	struct item *it = item_add(p, IT_SAMPLE);
	struct samplepipe_batch *b = p->fill;
	size_t i;

	it->head = s->head;
	it->comm = str_add(b, s->head.comm);
	it->event = str_add(b, s->head.event);
	it->frame0 = b->fn;
	it->nframes = s->nframes;
	it->truncated = s->truncated;
	GROW(b->fr, b->fn + s->nframes, b->fcap);
	for (i = 0; i < s->nframes; i++) {
		b->fr[b->fn].addr = s->frames[i].addr;
		b->fr[b->fn].dso = str_add(b, s->frames[i].dso);
		b->fn++;
	}
	item_done(p);
}

/* Waits until the consumer has passed on all before, and flushed. */
static int
pipe_flush(void *arg)
{
	struct samplepipe *p = arg;
	unsigned long want;
	int rc;

	item_add(p, IT_FLUSH);
	push(p);
	pthread_mutex_lock(&p->lock);
	want = ++p->flushes_asked;
	while (p->flushes_done < want)
		pthread_cond_wait(&p->changed, &p->lock);
	rc = p->flush_rc;
	errno = p->flush_errno;
	pthread_mutex_unlock(&p->lock);
	return rc;
}

static const struct sample_sink_ops pipe_ops = {
	.header = pipe_header,
	.sample = pipe_sample,
	.flush = pipe_flush,
};

void
samplepipe_init(struct samplepipe *p, const struct sample_sink *consumer)
{
	memset(p, 0, sizeof(*p));
	p->sink.ops = &pipe_ops;
	p->sink.arg = p;
	p->consumer = *consumer;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
}

void
samplepipe_close(struct samplepipe *p)
{
	push(p);
	pthread_mutex_lock(&p->lock);
	p->closed = 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/* Hands the consumer the items of b, in order. */
static void
pass_on(struct samplepipe *p, struct samplepipe_batch *b)
{
	const struct sample_sink *c = &p->consumer;
	size_t i, j;

	for (i = 0; i < b->n; i++) {
		const struct item *it = &b->items[i];

		if (it->kind == IT_HEADER) {
			struct sample_hdr h = { it->hkind,
			    it->has_start ? &it->start : NULL,
			    str_get(b, it->key), str_get(b, it->value), it->n,
			    NULL };
			struct stream_event ev = it->ev;

			if (it->has_event) {
				ev.name = str_get(b, it->evname);
				h.event = &ev;
			}
			c->ops->header(c->arg, &h);
		} else if (it->kind == IT_SAMPLE) {
			struct sample s = { it->head, NULL, it->nframes,
			    it->truncated };

			GROW(b->out, it->nframes + 1, b->ocap);
			for (j = 0; j < it->nframes; j++) {
				b->out[j].addr = b->fr[it->frame0 + j].addr;
				b->out[j].dso = str_get(b,
				    b->fr[it->frame0 + j].dso);
			}
			s.head.comm = str_get(b, it->comm);
			s.head.event = str_get(b, it->event);
			s.frames = b->out;
			c->ops->sample(c->arg, &s);
		} else {
			int rc = c->ops->flush(c->arg), e = errno;

			pthread_mutex_lock(&p->lock);
			p->flush_rc = rc;
			p->flush_errno = e;
			p->flushes_done++;
			pthread_cond_broadcast(&p->changed);
			pthread_mutex_unlock(&p->lock);
		}
	}
}

void
samplepipe_run(struct samplepipe *p)
{
	struct samplepipe_batch *b;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (p->count == 0 && !p->closed)
			pthread_cond_wait(&p->changed, &p->lock);
		if (p->count == 0) {
			pthread_mutex_unlock(&p->lock);
			return;
		}
		b = p->queue[p->head];
		p->head = (p->head + 1) % SAMPLEPIPE_BATCHES;
		p->count--;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
		pass_on(p, b);
		pthread_mutex_lock(&p->lock);
		b->next = p->spares;
		p->spares = b;
		pthread_mutex_unlock(&p->lock);
	}
}

static void
batch_free(struct samplepipe_batch *b)
{
	free(b->items);
	free(b->strs);
	free(b->fr);
	free(b->out);
	free(b);
}

void
samplepipe_release(struct samplepipe *p)
{
	struct samplepipe_batch *b;

	while ((b = p->spares) != NULL) {
		p->spares = b->next;
		batch_free(b);
	}
	while (p->count > 0) {
		batch_free(p->queue[p->head]);
		p->head = (p->head + 1) % SAMPLEPIPE_BATCHES;
		p->count--;
	}
	if (p->fill != NULL)
		batch_free(p->fill);
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->lock);
}
