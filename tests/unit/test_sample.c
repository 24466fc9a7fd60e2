/*
 * test_sample: stream/sample, a stream as structs: the stream writer as a
 * sink writes a sample and every kind of header line with the same bytes
 * as writer.h's functions called one by one, and its flush says when the
 * output failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/sample.h"
#include "stream/stream.h"
#include "stream/writer.h"
#include "unit.h"

static const struct sample_frame frames[] = {
	{ 0x1f3a, "/usr/bin/prog", 1 },
	{ 0xffffffff81000010ULL, STREAM_KERNEL, 0 },
	{ 0x7f00, STREAM_UNKNOWN, 0 },
};

/* What the session handed over before: writer.h, call by call. */
static void
by_hand(FILE *o, const struct stream_start *st, const struct stream_event *ev,
    const struct stream_head *h, int truncated)
{
	size_t i;

	stream_write_begin(o, st);
	stream_write_header(o, "cmdline", "prog -x\tb");
	stream_write_event(o, ev);
	stream_write_buildid(o, "00ab", "/usr/bin/prog");
	stream_write_fence(o);
	stream_write_headeru(o, "lost", 12);
	stream_write_head(o, h);
	for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		stream_write_frame(o, frames[i].addr, NULL, frames[i].dso);
	if (truncated)
		stream_write_truncated(o);
	stream_write_end(o);
}

/* The same through a sink. */
static void
by_sink(const struct sample_sink *k, const struct stream_start *st,
    const struct stream_event *ev, const struct stream_head *h, int truncated)
{
	struct sample_hdr hd[] = {
		{ .kind = SAMPLE_HDR_BEGIN, .start = st },
		{ .kind = SAMPLE_HDR_TEXT, .key = "cmdline", .value = "prog -x\tb" },
		{ .kind = SAMPLE_HDR_EVENT, .event = ev },
		{ .kind = SAMPLE_HDR_BUILDID, .key = "/usr/bin/prog", .value = "00ab" },
		{ .kind = SAMPLE_HDR_FENCE },
		{ .kind = SAMPLE_HDR_NUMBER, .key = "lost", .n = 12 },
	};
	struct sample s = { *h, frames, sizeof(frames) / sizeof(frames[0]),
	    truncated };
	size_t i;

	for (i = 0; i < sizeof(hd) / sizeof(hd[0]); i++)
		k->ops->header(k->arg, &hd[i]);
	k->ops->sample(k->arg, &s);
}

static void
test_same_bytes(int truncated)
{
	struct stream_start st = { 1700000000123456789ULL, 42000000001ULL };
	struct stream_event ev = { "cpu-clock", STREAM_RATE_FREQ, 999, 1, 8192 };
	struct stream_head h = { "wo rk", 12, 13, 1, 42000000001ULL, 1001001,
	    "cpu-clock" };
	struct sample_sink k;
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);

	by_hand(fa, &st, &ev, &h, truncated);
	sample_sink_file(&k, fb);
	by_sink(&k, &st, &ev, &h, truncated);
	CHECK(k.ops->flush(k.arg) == 0, "the file sink flushes");
	fclose(fa);
	fclose(fb);
	CHECK_MEM(b, blen, a, alen, truncated ? "a truncated sample: the "
	    "writer's bytes" : "a sample and each header: the writer's bytes");
	free(a);
	free(b);
}

/* A full device: the sink's flush fails, and says so. */
static void
test_flush_fails(void)
{
	struct sample_sink k;
	FILE *f = fopen("/dev/full", "w");

	if (f == NULL) {
		SKIP("a failed write: flush is -1", "no /dev/full");
		return;
	}
	sample_sink_file(&k, f);
	stream_write_comment(f, "x");
	CHECK(k.ops->flush(k.arg) == -1, "a failed write: flush is -1");
	fclose(f);
}

int
main(void)
{
	test_same_bytes(0);
	test_same_bytes(1);
	test_flush_fails();
	return unit_done();
}
