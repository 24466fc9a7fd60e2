/*
 * fuzz_perf: the perf record decoder, perf_decode, on a run of records as
 * a ring buffer holds them: each begins with a perf_event_header whose
 * size says where the next one starts. Byte 0 says whether samples carry
 * registers and a stack copy (dwarf). Every event the sink gets is read
 * whole, so that a length that points past the record shows under ASan.
 */
#include <string.h>

#include "fuzz.h"
#include "touchevent.h"
#include "perf/perfdecode.h"

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
