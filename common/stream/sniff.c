#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/cmdfile.h"
#include "stream/diag.h"
#include "stream/sniff.h"
#include "stream/stream.h"

static int
starts(const char *p, size_t n, const char *magic, size_t mlen)
{
	return n >= mlen && memcmp(p, magic, mlen) == 0;
}

/* The perf data header's size field: 16 in pipe mode, 104 in a file. */
static uint64_t
perf_header_size(const unsigned char *u, size_t n, int swapped)
{
	uint64_t v = 0;
	int i;

	if (n < 16)
		return 0;
	for (i = 0; i < 8; i++)
		v |= (uint64_t)u[8 + (swapped ? 7 - i : i)] << (8 * i);
	return v;
}

/* An SVG: white space (and a UTF-8 byte order mark), '<', "<svg" soon. */
static int
is_svg(const char *p, size_t n)
{
	size_t i = 0;

	if (starts(p, n, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
	    p[i] == '\r'))
		i++;
	if (i == n || p[i] != '<')
		return 0;
	return memmem(p + i, n - i, "<svg", 4) != NULL;
}

/*
 * Whether the first lines of p[0..n) that are no comment are a sample head
 * and a frame (perf script's output), which no folded line is. A line may
 * end in CR LF, as fg-stream(5) allows.
 */
static int
starts_stream(const char *p, size_t n)
{
	const char *e = p + n, *nl, *l[2];
	size_t len[2];
	int k = 0;

	while (k < 2 && p < e && (nl = memchr(p, '\n', e - p)) != NULL) {
		if (*p != '#') {
			l[k] = p;
			len[k] = nl - p;
			if (len[k] > 0 && p[len[k] - 1] == '\r')
				len[k]--;
			k++;
		}
		p = nl + 1;
	}
	return k == 2 &&
	    stream_classify(l[0], len[0], NULL, NULL) == STREAM_SAMPLE &&
	    stream_classify(l[1], len[1], NULL, NULL) == STREAM_FRAME;
}

enum sniff_kind
sniff(const char *p, size_t n, enum sniff_want want, size_t *at)
{
	const unsigned char *u = (const unsigned char *)p;
	const char *nl;
	size_t i, k, bad = 0, first = SIZE_MAX, line1;
	int nul1 = 0;

	if (n > SNIFF_BLOCK)
		n = SNIFF_BLOCK;
	if (starts(p, n, "PERFILE2", 8) || starts(p, n, "2ELIFREP", 8))
		return perf_header_size(u, n, p[0] == '2') == 16 ?
		    SNIFF_PERFPIPE : SNIFF_PERFDATA;
	if (starts(p, n, "PERFFILE", 8))
		return SNIFF_PERFDATA;
	if (starts(p, n, "\x1f\x8b", 2))
		return SNIFF_GZIP;
	if (starts(p, n, "\x28\xb5\x2f\xfd", 4))
		return SNIFF_ZSTD;
	if (starts(p, n, "\xfd" "7zXZ\0", 6))
		return SNIFF_XZ;
	if (starts(p, n, "BZh", 3) && n > 3 && p[3] >= '1' && p[3] <= '9')
		return SNIFF_BZIP2;
	if (starts(p, n, "\x7f" "ELF", 4))
		return SNIFF_ELF;
	if (is_svg(p, n))
		return SNIFF_SVG;
	/* Text: printable UTF-8 and the white space of lines. */
	nl = memchr(p, '\n', n);
	line1 = nl != NULL ? (size_t)(nl - p) : n;
	for (i = 0; i < n; i += k) {
		if (u[i] == '\n' || u[i] == '\r' || u[i] == '\f' ||
		    u[i] == '\v') {
			k = 1;
			continue;
		}
		if ((k = stream_text_char(u + i, n - i)) > 0)
			continue;
		k = 1;
		/* a character cut by the end of the block is no fault */
		if (n == SNIFF_BLOCK && i + 4 > n && u[i] >= 0xc2)
			continue;
		if (first == SIZE_MAX)
			first = i;
		nul1 |= u[i] == '\0' && i < line1;
		bad++;
	}
	if (nul1 || bad * 10 > n) {
		if (u[0] == 0x0a && n > 2 && u[1] < 0x80 && u[2] == 0x08)
			return SNIFF_PPROF;
		if (at != NULL)
			*at = first;
		return SNIFF_BINARY;
	}
	if (want == SNIFF_FOLDED && (starts(p, n, STREAM_FENCE "\n",
	    sizeof(STREAM_FENCE)) || starts(p, n, STREAM_FENCE "\r\n",
	    sizeof(STREAM_FENCE) + 1) || starts(p, n, STREAM_MAGIC,
	    sizeof(STREAM_MAGIC) - 1) || starts_stream(p, n)))
		return SNIFF_STREAM_TEXT;
	return SNIFF_TEXT;
}

int
sniff_refuse(struct lineread *lr, enum sniff_want want, const char *tool)
{
	char q[DIAG_QUOTE_SIZE], chain[64];
	const char *p, *what, *f, *noun;
	enum sniff_kind k;
	size_t n, at = 0;

	n = lineread_peek(lr, 16, &p);
	if ((k = sniff(p, n, want, &at)) == SNIFF_TEXT)
		return 0;
	stream_quote(q, sizeof(q), lr->name, strlen(lr->name), 80);
	f = strcmp(lr->name, CMDFILE_STDIN) == 0 ? "FILE" : q;
	noun = want == SNIFF_FOLDED ? "folded stacks" : "a sample stream";
	/* What turns perf's samples into what the tool reads. */
	snprintf(chain, sizeof(chain), "fgsym%s%s%s",
	    want == SNIFF_FOLDED && strcmp(tool, "fgfold") != 0 ?
	    " | fgfold" : "", strcmp(tool, "fgsym") != 0 ? " | " : "",
	    strcmp(tool, "fgsym") != 0 ? tool : "");
	switch (k) {
	case SNIFF_PERFDATA:
		/* chain + 5: what follows "fgsym", which reads perf data */
		warnx("'%s' is a perf.data file, not %s: run fgsym %s%s", q,
		    noun, f, chain + 5);
		break;
	case SNIFF_PERFPIPE:
		warnx("'%s' is perf data in pipe mode (perf record -o -), not "
		    "%s: run fgsym < %s%s", q, noun, f, chain + 5);
		break;
	case SNIFF_GZIP:
		warnx("'%s' is gzip-compressed, not %s: run zcat %s | %s (or, "
		    "for a pprof profile, go tool pprof %s)", q, noun, f, tool,
		    f);
		break;
	case SNIFF_ZSTD:
	case SNIFF_XZ:
	case SNIFF_BZIP2:
		what = k == SNIFF_ZSTD ? "zstd" : k == SNIFF_XZ ? "xz" : "bzip2";
		warnx("'%s' is %s-compressed, not %s: run %scat %s | %s", q,
		    what, noun, k == SNIFF_BZIP2 ? "bz" : what, f, tool);
		break;
	case SNIFF_ELF:
		warnx("'%s' is an ELF file (a program or a library), not %s: "
		    "record a run of the program with fgrecord PROGRAM | %s",
		    q, noun, chain);
		break;
	case SNIFF_SVG:
		warnx("'%s' is an SVG image, not %s: it is already a flame "
		    "graph; open it in a web browser", q, noun);
		break;
	case SNIFF_PPROF:
		warnx("'%s' is a pprof profile (protocol buffers), not %s: "
		    "read it with go tool pprof %s", q, noun, f);
		break;
	case SNIFF_STREAM_TEXT:
		if (strcmp(tool, "fgfold") == 0)
			warnx("'%s' is a sample stream, not %s: fold it "
			    "without --folded or --diff", q, noun);
		else
			warnx("'%s' is a sample stream, not %s: run fgfold %s "
			    "| %s", q, noun, f, tool);
		break;
	default:
		warnx("'%s' is binary data (byte 0x%02x at offset %zu), not "
		    "%s: is it the right file?", q, (unsigned char)p[at], at,
		    noun);
		break;
	}
	return -1;
}
