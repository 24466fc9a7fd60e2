/*
 * version.h: what every tool says of itself, the same way: -V/--version,
 * --help and its usage. FG_VERSION comes from the Makefile's VERSION (the
 * one place it is written).
 */
#ifndef FG_VERSION_H
#define FG_VERSION_H

#include <errno.h>
#include <stdarg.h>
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

/*
 * The cases every tool's getopt loop ends with, as its default: 'h'
 * (--help) prints the usage on stdout and exits 0, 'V' (-V, --version)
 * the version; any other option is a usage error, usage(2).
 */
static inline void __attribute__((noreturn))
version_or_usage(int ch, void (*usage)(int status))
{
	if (ch == 'V')
		version_exit();
	usage(ch == 'h' ? 0 : 2);
	exit(2);	/* usage does not return */
}

/*
 * The last entries of every tool's getopt_long table: --help as 'h' and
 * --version as 'V', then the end.
 */
#define VERSION_LONGOPTS \
	{ "help",	no_argument,	NULL, 'h' }, \
	{ "version",	no_argument,	NULL, 'V' }, \
	{ NULL,		0,		NULL, 0 }

/*
 * Prints the usage (printf's fmt and what follows) and exits with status:
 * on stdout for --help (status 0), else on stderr (a usage error, 2).
 */
static inline void __attribute__((noreturn, format(printf, 2, 3)))
usage_exit(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(status ? stderr : stdout, fmt, ap);
	va_end(ap);
	exit(status);
}

#endif
