/*
 * jailswap: a jailed program's trick on its recorder. Run as
 * "jailswap LINK TARGET READY SECONDS": it puts a symbolic link to
 * TARGET where its own file LINK was (the mapping stays), creates READY,
 * then spends SECONDS of CPU time in jail_hot(). Built again with
 * -Djail_hot=host_secret, it is the host's file the link points to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spin.h"

__attribute__((noinline)) void
jail_hot(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		spin_sink += i * i;
}

int
main(int argc, char **argv)
{
	double end;
	FILE *f;

	if (argc != 5) {
		fprintf(stderr, "usage: jailswap LINK TARGET READY SECONDS\n");
		return 2;
	}
	if (unlink(argv[1]) != 0 || symlink(argv[2], argv[1]) != 0) {
		perror(argv[1]);
		return 1;
	}
	if ((f = fopen(argv[3], "w")) == NULL || fclose(f) != 0) {
		perror(argv[3]);
		return 1;
	}
	end = spin_cpu() + atof(argv[4]);
	while (spin_cpu() < end)
		jail_hot(200000);
	return 0;
}
