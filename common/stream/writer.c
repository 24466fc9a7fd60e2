#include <inttypes.h>
#include <stdio.h>

#include "stream/stream.h"
#include "stream/writer.h"

static int
is_control(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

void
stream_write_clean(FILE *o, const char *s)
{
	for (; *s; s++)
		putc(is_control(*s) ? '?' : *s, o);
}

/* Ends a line with s, cleaned. */
static void
end_line(FILE *o, const char *s)
{
	stream_write_clean(o, s);
	putc('\n', o);
}

void
stream_write_comment(FILE *o, const char *text)
{
	fputs("# ", o);
	end_line(o, text);
}

/* Writes t, in ns, as seconds with nine decimals. */
static void
secs(FILE *o, uint64_t t)
{
	fprintf(o, "%" PRIu64 ".%09" PRIu64, t / 1000000000U, t % 1000000000U);
}

void
stream_write_begin(FILE *o, const struct stream_start *start)
{
	fputs(STREAM_FENCE "\n" STREAM_MAGIC " 1\n", o);
	if (start == NULL)
		return;
	fputs("# start : ", o);
	secs(o, start->wall_ns);
	putc(' ', o);
	secs(o, start->clock_ns);
	putc('\n', o);
}

void
stream_write_fence(FILE *o)
{
	fputs(STREAM_FENCE "\n", o);
}

void
stream_write_header(FILE *o, const char *key, const char *value)
{
	fprintf(o, "# %s : ", key);
	end_line(o, value);
}

void
stream_write_headeru(FILE *o, const char *key, uint64_t n)
{
	fprintf(o, "# %s : %" PRIu64 "\n", key, n);
}

void
stream_write_event(FILE *o, const struct stream_event *ev)
{
	fputs("# event : ", o);
	stream_write_clean(o, ev->name);
	putc(' ', o);
	if (ev->rate_kind == STREAM_RATE_FREQ)
		fprintf(o, "freq %" PRIu64 " ", ev->rate);
	else if (ev->rate_kind == STREAM_RATE_PERIOD)
		fprintf(o, "period %" PRIu64 " ", ev->rate);
	if (ev->dwarf)
		fprintf(o, "callgraph dwarf %" PRIu32 "\n", ev->stack_size);
	else
		fputs("callgraph fp\n", o);
}

void
stream_write_buildid(FILE *o, const char *buildid, const char *path)
{
	fprintf(o, "# buildid : %s ", buildid);
	end_line(o, path);
}

void
stream_write_head(FILE *o, const struct stream_head *h)
{
	const char *comm = h->comm;

	if (comm[0] == '\0' || comm[0] == ' ' || comm[0] == '#') {
		putc('_', o);
		if (comm[0] != '\0')
			comm++;
	}
	stream_write_clean(o, comm);
	fprintf(o, " %" PRIu32 "/%" PRIu32 " [%03" PRIu32 "] %" PRIu64 ".%06"
	    PRIu64 ": %" PRIu64 " ", h->pid, h->tid, h->cpu,
	    h->time / 1000000000U, h->time % 1000000000U / 1000, h->period);
	stream_write_clean(o, h->event);
	fputs(":\n", o);
}

void
stream_write_frame(FILE *o, uint64_t addr, const char *sym, const char *dso)
{
	fprintf(o, "\t%" PRIx64 " ", addr);
	stream_write_clean(o, sym ? sym : STREAM_UNKNOWN);
	fputs(" (", o);
	stream_write_clean(o, dso);
	fputs(")\n", o);
}

void
stream_write_truncated(FILE *o)
{
	stream_write_frame(o, 0, STREAM_TRUNCATED, STREAM_UNKNOWN);
}

void
stream_write_end(FILE *o)
{
	putc('\n', o);
}
