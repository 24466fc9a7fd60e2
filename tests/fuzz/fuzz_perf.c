/*
 * fuzz_perf: the perf record decoder, perf_decode, on a run of records as
 * a ring buffer holds them: each begins with a perf_event_header whose
 * size says where the next one starts. Byte 0 says whether samples carry
 * registers and a stack copy (dwarf). Every event the sink gets is read
 * whole, so that a length that points past the record shows under ASan.
 */
#include <string.h>

#include "fuzz.h"
#include "record/perfdecode.h"

static void
touch(void *arg, const struct source_event *ev)
{
	volatile unsigned sum = 0;
	size_t i;

	(void)arg;
	switch (ev->kind) {
	case SOURCE_SAMPLE:
		for (i = 0; i < ev->u.sample.nr; i++)
			sum += (unsigned)ev->u.sample.callchain[i];
		for (i = 0; i < ev->u.sample.stack_len; i++)
			sum += ev->u.sample.stack[i];
		sum += (unsigned)strlen(ev->u.sample.event);
		break;
	case SOURCE_MMAP:
		sum += (unsigned)strlen(ev->u.mmap.path);
		if (ev->u.mmap.buildid_len > 20)
			abort();
		for (i = 0; i < ev->u.mmap.buildid_len; i++)
			sum += ev->u.mmap.buildid[i];
		break;
	case SOURCE_COMM:
		sum += (unsigned)strlen(ev->u.comm.name);
		break;
	default:
		break;
	}
	(void)sum;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source_sink sink = { touch, NULL };
	struct perf_decoder d;
	struct perf_event_header h;
	unsigned char *rec;
	size_t off = 1;

	if (size < 1)
		return 0;
	perf_decoder_init(&d, data[0] & 1, "cpu-clock");
	while (size - off >= sizeof(h)) {
		memcpy(&h, data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > size - off)
			break;
		/* exactly h.size bytes, so that ASan sees a read past them */
		rec = malloc(h.size);
		memcpy(rec, data + off, h.size);
		perf_decode(&d, (const void *)rec, &sink);
		perf_record_time((const void *)rec);
		free(rec);
		off += h.size;
	}
	perf_decoder_release(&d);
	return 0;
}
