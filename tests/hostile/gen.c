/*
 * gen: big synthetic inputs for scripts/stress.
 *   gen stream SAMPLES UNIQUE	a sample stream (fg-stream(5)) of SAMPLES
 *				samples cycling through UNIQUE distinct stacks
 *   gen folded UNIQUE		UNIQUE distinct folded stacks, count 1..7
 * Stack k is app;main;run;mid_(k/1000);leaf_k, so that stacks share their
 * roots as real ones do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	static char buf[1 << 20];
	unsigned long n, u, i, k;

	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	if (argc == 4 && strcmp(argv[1], "stream") == 0) {
		n = strtoul(argv[2], NULL, 10);
		u = strtoul(argv[3], NULL, 10);
		puts("# fgrecord 1\n# cmdline : gen");
		for (i = 0; i < n; i++) {
			k = (i * 2654435761UL) % u;
			printf("app 4242/%lu [%03lu] %lu.%06lu: 1001001 cpu-clock:\n"
			    "\t%lx leaf_%lu+0x1 (/usr/bin/app)\n"
			    "\t%lx mid_%lu+0x2 (/usr/bin/app)\n"
			    "\t1234 run+0x3 (/usr/bin/app)\n"
			    "\t1200 main+0x4 (/usr/bin/app)\n\n",
			    4242 + i % 16, i % 2, 1000 + i / 1000, i % 1000 * 1000,
			    0x10000 + k, k, 0x8000 + k / 1000, k / 1000);
		}
	} else if (argc == 3 && strcmp(argv[1], "folded") == 0) {
		u = strtoul(argv[2], NULL, 10);
		for (k = 0; k < u; k++)
			printf("app;main;run;mid_%lu;leaf_%lu %lu\n", k / 1000, k,
			    1 + k % 7);
	} else {
		fputs("usage: gen stream SAMPLES UNIQUE | gen folded UNIQUE\n", stderr);
		return 2;
	}
	return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
}
