/*
 * version.h: -V/--version for every tool. FG_VERSION comes from the
 * Makefile's VERSION (the one place it is written).
 */
#ifndef FG_VERSION_H
#define FG_VERSION_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FG_VERSION
#define FG_VERSION "unknown"
#endif

/* Prints "TOOL (fgtools) VERSION" on stdout and exits 0. */
static inline void __attribute__((noreturn))
version_exit(void)
{
	printf("%s (fgtools) %s\n", program_invocation_short_name, FG_VERSION);
	exit(fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2);
}

#endif
