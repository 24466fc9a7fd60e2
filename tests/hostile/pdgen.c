/*
 * pdgen: small hostile perf.data files, written to standard output, for
 * t425-perfdata-hostile.sh (and by hand, to measure):
 *
 *   pdgen attrs N IDS     N HEADER_ATTR records of IDS ids each, compressed,
 *                         in a file's data section
 *   pdgen pipeattrs N IDS the same in pipe mode, plain, before the data
 *   pdgen forks M F       M mappings of one process, then F forks of it
 *   pdgen mmaps N         N mappings of one process, in a shuffled order
 *   pdgen throttles N     N THROTTLE records of N ids, none unthrottled
 *   pdgen zeros MIB       a compressed record of MIB MiB of zero bytes
 *   pdgen bomb MIB        compressed records of MIB MiB of samples
 *
 * Every file has one cpu-clock event (IP, TID, TIME, ID, PERIOD,
 * CALLCHAIN; sample_id_all), a COMM, an MMAP2 of /tmp/pdgen-app and a
 * sample, so that a reader has something to write. Standalone (libzstd
 * only), as the tests build it with cc.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define ID	77
#define PID	42
#define TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

struct b {
	unsigned char	*p;
	size_t		 len, cap;
};

static void
add(struct b *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		if ((b->p = realloc(b->p, b->cap)) == NULL) {
			perror("pdgen");
			exit(2);
		}
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void
u64(struct b *b, uint64_t v)
{
	add(b, &v, 8);
}

static void
u32x2(struct b *b, uint32_t x, uint32_t y)
{
	uint32_t v[2] = { x, y };

	add(b, v, 8);
}

static void
head(struct b *b, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = { type, misc, (uint16_t)size };

	add(b, &h, sizeof(h));
}

static void
attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_type = TYPE;
	a->sample_period = 1000;
	a->freq = 1;
	a->sample_id_all = 1;
}

/* The sample_id_all trailer: TID, TIME, ID. */
static void
trailer(struct b *b, uint32_t pid, uint64_t time)
{
	u32x2(b, pid, pid);
	u64(b, time);
	u64(b, ID);
}

static void
sample(struct b *b, uint32_t pid, uint64_t time, uint64_t ip)
{
	head(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 8 * 8);
	u64(b, ip);
	u32x2(b, pid, pid);
	u64(b, time);
	u64(b, ID);
	u64(b, 1000);
	u64(b, 2);
	u64(b, PERF_CONTEXT_USER);
	u64(b, ip);
}

static void
mmap2(struct b *b, uint32_t pid, uint64_t addr, uint64_t len,
    const char *path, uint64_t time)
{
	char name[64];
	size_t n = (strlen(path) + 8) & ~(size_t)7;

	memset(name, 0, sizeof(name));
	snprintf(name, sizeof(name), "%s", path);
	head(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER,
	    8 + 8 + 24 + 24 + 8 + n + 24);
	u32x2(b, pid, pid);
	u64(b, addr);
	u64(b, len);
	u64(b, 0);
	u64(b, 0);		/* maj, min */
	u64(b, 0);		/* ino */
	u64(b, 0);		/* ino generation */
	u32x2(b, 5, 2);		/* prot, flags */
	add(b, name, n);
	trailer(b, pid, time);
}

/* COMM, MMAP2 of the app, a sample in it. */
static void
start(struct b *b)
{
	char comm[16] = "app";

	head(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, 8 + 8 + 16 + 24);
	u32x2(b, PID, PID);
	add(b, comm, sizeof(comm));
	trailer(b, PID, 1);
	mmap2(b, PID, 0x400000, 0x1000, "/tmp/pdgen-app", 2);
	sample(b, PID, 3, 0x400100);
}

/* HEADER_ATTR: the attribute, then ids first, first + 1, ... */
static void
header_attr(struct b *b, uint64_t first, size_t ids)
{
	struct perf_event_attr a;
	size_t i;

	attr(&a);
	head(b, 64, 0, 8 + sizeof(a) + 8 * ids);
	add(b, &a, sizeof(a));
	for (i = 0; i < ids; i++)
		u64(b, first + i);
}

/*
 * What d holds, compressed as one zstd stream cut into COMPRESSED records
 * of at most 60000 bytes each.
 */
static void
compressed(struct b *b, const struct b *d)
{
	size_t bound = ZSTD_compressBound(d->len), n, at;
	unsigned char *z = malloc(bound);

	if (z == NULL)
		exit(2);
	n = ZSTD_compress(z, bound, d->p, d->len, 19);
	if (ZSTD_isError(n)) {
		fprintf(stderr, "pdgen: %s\n", ZSTD_getErrorName(n));
		exit(2);
	}
	for (at = 0; at < n; ) {
		size_t k = n - at < 60000 ? n - at : 60000;

		/* unpadded: the readers take records at any alignment */
		head(b, 81, 0, 8 + k);
		add(b, z + at, k);
		at += k;
	}
	free(z);
}

/* MIB MiB of zero bytes, streamed into one zstd frame of one record. */
static void
zeros(struct b *b, size_t mib)
{
	static unsigned char in[1 << 20];
	unsigned char *out = malloc(65000);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	ZSTD_outBuffer o = { out, 65000 - 8, 0 };
	size_t i, r;

	for (i = 0; i < mib; i++) {
		ZSTD_inBuffer inb = { in, sizeof(in), 0 };

		while (inb.pos < inb.size) {
			r = ZSTD_compressStream2(cc, &o, &inb, ZSTD_e_continue);
			if (ZSTD_isError(r))
				exit(2);
		}
	}
	do {
		ZSTD_inBuffer none = { in, 0, 0 };

		r = ZSTD_compressStream2(cc, &o, &none, ZSTD_e_end);
		if (ZSTD_isError(r) || o.pos == o.size) {
			fprintf(stderr, "pdgen: %zu MiB of zeros do not fit in a "
			    "record\n", mib);
			exit(2);
		}
	} while (r != 0);
	head(b, 81, 0, 8 + o.pos);
	add(b, out, o.pos);
	ZSTD_freeCCtx(cc);
	free(out);
}

/* A PERFILE2 file of the data records d: header, ids, attribute, data. */
static void
file(struct b *b, const struct b *d)
{
	struct perf_event_attr a;
	uint64_t attr_off = 112, data_off;
	int i;

	attr(&a);
	data_off = attr_off + sizeof(a) + 16;
	add(b, "PERFILE2", 8);
	u64(b, 104);
	u64(b, sizeof(a) + 16);
	u64(b, attr_off);
	u64(b, sizeof(a) + 16);
	u64(b, data_off);
	u64(b, d->len);
	u64(b, 0);
	u64(b, 0);
	for (i = 0; i < 4; i++)
		u64(b, 0);		/* no features */
	u64(b, ID);			/* the ids, at 104 */
	add(b, &a, sizeof(a));
	u64(b, 104);
	u64(b, 8);
	add(b, d->p, d->len);
}

static size_t
arg(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v > (1ULL << 30)) {
		fprintf(stderr, "pdgen: '%s' is not a count\n", s);
		exit(2);
	}
	return (size_t)v;
}

int
main(int argc, char **argv)
{
	struct b out = { 0 }, d = { 0 }, z = { 0 };
	const char *m = argc > 1 ? argv[1] : "";
	size_t n = argc > 2 ? arg(argv[2]) : 0, k = argc > 3 ? arg(argv[3]) : 0;
	size_t i;
	int pipe = 0;

	if ((strcmp(m, "attrs") == 0 || strcmp(m, "pipeattrs") == 0 ||
	    strcmp(m, "forks") == 0) && argc == 4) {
		pipe = strcmp(m, "pipeattrs") == 0;
		if (pipe) {
			add(&out, "PERFILE2", 8);
			u64(&out, 16);
			header_attr(&out, ID, 1);
			for (i = 0; i < n; i++)
				header_attr(&out, 1000 + i * k, k);
		}
		start(&d);
		if (strcmp(m, "forks") == 0) {
			for (i = 0; i < n; i++)
				mmap2(&d, PID, 0x10000000 + 0x2000 * i, 0x1000,
				    "/tmp/pdgen-lib", 4);
			for (i = 0; i < k; i++) {
				head(&d, PERF_RECORD_FORK, 0, 8 + 24 + 24);
				u32x2(&d, 1000 + i, PID);
				u32x2(&d, 1000 + i, PID);
				u64(&d, 5);
				trailer(&d, 1000 + i, 5);
			}
		} else if (!pipe) {
			for (i = 0; i < n; i++)
				header_attr(&z, 1000 + i * k, k);
			compressed(&d, &z);
		}
		sample(&d, PID, 9, 0x400200);
	} else if (strcmp(m, "mmaps") == 0 && argc == 3) {
		start(&d);
		for (i = 0; i < n; i++) {
			/* a shuffle: i * an odd number, modulo a power of two */
			size_t p = 1;

			while (p < n)
				p <<= 1;
			mmap2(&d, PID, 0x10000000 + 0x2000 * ((i * 40503) & (p - 1)),
			    0x1000, "/tmp/pdgen-lib", 4);
		}
		sample(&d, PID, 9, 0x400200);
	} else if (strcmp(m, "throttles") == 0 && argc == 3) {
		start(&d);
		for (i = 0; i < n; i++) {
			head(&d, PERF_RECORD_THROTTLE, 0, 8 + 24 + 24);
			u64(&d, 4);
			u64(&d, 1000 + i);
			u64(&d, 1000 + i);
			trailer(&d, PID, 4);
		}
		sample(&d, PID, 9, 0x400200);
	} else if (strcmp(m, "zeros") == 0 && argc == 3) {
		start(&d);
		zeros(&d, n);
		sample(&d, PID, 9, 0x400200);
	} else if (strcmp(m, "bomb") == 0 && argc == 3) {
		start(&d);
		while (z.len < n << 20)
			sample(&z, PID, 5, 0x400100);
		compressed(&d, &z);
		sample(&d, PID, 9, 0x400200);
	} else {
		fputs("usage: pdgen attrs|pipeattrs N IDS | forks MMAPS FORKS | "
		    "mmaps N | throttles N | zeros MIB | bomb MIB\n", stderr);
		return 2;
	}
	if (pipe)
		add(&out, d.p, d.len);
	else
		file(&out, &d);
	if (fwrite(out.p, 1, out.len, stdout) != out.len || fflush(stdout))
		return 1;
	return 0;
}
