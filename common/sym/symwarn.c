/*
 * symwarn: fgsym's lines on stderr. The progress line stays on the
 * terminal until something else is written there: every warning clears it
 * first. The files of the symbolizer (the stream, the file table, the
 * resolution, the summary) all say things; this file is below them all,
 * so that none of them calls back into another for a message.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "stream/diag.h"
#include "sym/symstate.h"

/* The state of the screen is one thing per process, hence a file-static flag. */
static int progress_on_screen;

void
progress_clear(void)
{
	if (progress_on_screen) {
		fputs("\r\033[K", stderr);
		progress_on_screen = 0;
	}
}

void
progress_show(const char *fmt, ...)
{
	va_list ap;

	fputc('\r', stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	progress_on_screen = 1;
}

void
sym_warnx(const char *fmt, ...)
{
	va_list ap;

	progress_clear();
	va_start(ap, fmt);
	stream_vwarnx(fmt, ap);
	va_end(ap);
}

void
sym_warn(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	progress_clear();
	errno = e;
	va_start(ap, fmt);
	stream_vwarn(fmt, ap);
	va_end(ap);
}
