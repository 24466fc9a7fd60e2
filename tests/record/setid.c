/*
 * setid SECONDS FILE [WORD]: prints its effective user ID, reads the
 * first 8 bytes of FILE (or, when it cannot, takes WORD, a hex number)
 * into a fake frame on its stack, and spins for SECONDS of CPU time with
 * its frame pointer at that frame: a frame-pointer walk finds the word
 * where a return address would be. Built set-user-ID root by
 * t314, as a program that keeps what it read as root on its stack.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "spin.h"

int
main(int argc, char **argv)
{
	uint64_t frame[2] = { 0, 0 };
	double end;
	int fd;

	if (argc < 3)
		return 2;
	printf("euid %d\n", (int)geteuid());
	fflush(stdout);
	if ((fd = open(argv[2], O_RDONLY)) >= 0) {
		if (read(fd, &frame[1], 8) != 8)
			frame[1] = 0;
		close(fd);
	} else if (argc > 3) {
		frame[1] = strtoull(argv[3], NULL, 16);
	}
	end = spin_cpu() + atof(argv[1]);
	while (spin_cpu() < end) {
		unsigned long n = 50000000;

		__asm__ volatile("push %%rbp\n\t"
		    "mov %1, %%rbp\n"
		    "1:\tdec %0\n\t"
		    "jnz 1b\n\t"
		    "pop %%rbp"
		    : "+r"(n) : "r"(frame) : "memory", "cc");
	}
	return frame[0] != 0;
}
