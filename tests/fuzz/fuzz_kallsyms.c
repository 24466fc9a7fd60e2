/*
 * fuzz_kallsyms: the /proc/kallsyms reader, kallsyms_load, then lookups of
 * addresses taken from the input itself and at the edges of the table.
 */
#include <string.h>

#include "fuzz.h"
#include "elf/kallsyms.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kallsyms ks, *k = &ks;
	const char *name, *mod;
	char path[64];
	uint64_t off, a;
	size_t i;
	int fd;

	kallsyms_init(k);
	fd = fuzz_file(data, size, path, sizeof(path));
	if (kallsyms_load(k, path) == 0) {
		for (i = 0; i < k->n; i++) {
			name = kallsyms_lookup(k, k->syms[i].addr, &off, &mod);
			if (name == NULL || off != 0)
				abort();
			kallsyms_lookup(k, k->syms[i].addr - 1, &off, &mod);
			kallsyms_lookup(k, k->syms[i].addr + 1, &off, NULL);
			if (i > 0 && k->syms[i - 1].addr > k->syms[i].addr)
				abort();
		}
		kallsyms_lookup(k, 0, &off, &mod);
		kallsyms_lookup(k, UINT64_MAX, &off, &mod);
		for (i = 0; i + 8 <= size; i += 8) {
			memcpy(&a, data + i, 8);
			kallsyms_lookup(k, a, &off, &mod);
		}
	}
	/* A second load replaces the first. */
	if (size > 0 && data[0] == '0')
		kallsyms_load(k, path);
	kallsyms_release(k);
	close(fd);
	return 0;
}
