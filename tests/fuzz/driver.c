/*
 * driver.c: replays files through a harness's LLVMFuzzerTestOneInput, for
 * builds without libFuzzer. Usage: regress_NAME FILE... ; exits 0 when every
 * file ran to the end (a crash, a sanitizer report or a hang is the failure).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

int
main(int argc, char *argv[])
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t cap = 0, n = 0, r;

		if (f == NULL)
			err(2, "'%s'", argv[i]);
		do {
			if (n == cap) {
				cap = cap ? cap * 2 : 65536;
				if ((buf = realloc(buf, cap)) == NULL)
					err(2, "realloc");
			}
			r = fread(buf + n, 1, cap - n, f);
			n += r;
		} while (r > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
		printf("ok %d - %s\n", i, argv[i]);
	}
	printf("1..%d\n", argc - 1);
	return 0;
}
