/*
 * fuzz_perfmap: the /tmp/perf-PID.map reader, perfmap_load, then lookups
 * at the start, the end and just past every entry, and of addresses taken
 * from the input itself.
 */
#include <string.h>

#include "fuzz.h"
#include "elf/perfmap.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfmap pm, *m = &pm;
	char path[64];
	uint64_t off, a;
	size_t i;
	int fd;

	perfmap_init(m);
	fd = fuzz_file(data, size, path, sizeof(path));
	if (perfmap_load(m, path) != 0)
		abort();
	for (i = 0; i < m->n; i++) {
		struct perfmap_sym *s = &m->syms[i];

		if (s->size > 0 && (perfmap_lookup(m, s->start, &off) == NULL ||
		    off != 0))
			abort();
		perfmap_lookup(m, s->start + s->size - 1, &off);
		perfmap_lookup(m, s->start + s->size, &off);
		perfmap_lookup(m, s->start - 1, &off);
	}
	perfmap_lookup(m, 0, &off);
	perfmap_lookup(m, UINT64_MAX, &off);
	for (i = 0; i + 8 <= size; i += 8) {
		memcpy(&a, data + i, 8);
		perfmap_lookup(m, a, &off);
	}
	perfmap_release(m);
	close(fd);
	return 0;
}
