/*
 * perfdata_say: what the perf.data reader says of its input, in one line
 * that names the input and the offset. Every part of the reader says
 * things; this file calls none of them, so none calls another back for a
 * message.
 */
#include <err.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "perf/perfdata_impl.h"
#include "stream/diag.h"

const char *
pd_qname(const struct perfdata *pd, char *q)
{
	return stream_quote(q, DIAG_QUOTE_SIZE, pd->name, strlen(pd->name), 80);
}

/* Says what is wrong at offset off, in one line. */
void __attribute__((format(printf, 3, 4)))
pd_bad_at(struct perfdata *pd, uint64_t off, const char *fmt, ...)
{
	char q[DIAG_QUOTE_SIZE], msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	stream_warnx("'%s':%" PRIu64 ": %s", pd_qname(pd, q), off, msg);
	pd->bad = 1;
}
