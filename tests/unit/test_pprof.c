/* Unit tests of the profile that pprof builds from a small stream,
 * read back with a decoder written here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pprof/pb.h"
#include "pprof/pprof.h"
#include "unit.h"

/* A decoder for the test: one field of a message. */
struct fld {
	uint32_t	 num;
	int		 wire;
	uint64_t	 v;		/* wire 0 */
	const uint8_t	*p;		/* wire 2 */
	size_t		 len;
};

static int
dvarint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		uint8_t c = *(*p)++;

		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return 1;
		shift += 7;
	}
	return 0;
}

/* Reads the next field of [*p, end); returns 0 at the end or on bad data. */
static int
dnext(const uint8_t **p, const uint8_t *end, struct fld *f)
{
	uint64_t tag;

	if (*p >= end || !dvarint(p, end, &tag))
		return 0;
	f->num = tag >> 3;
	f->wire = tag & 7;
	if (f->wire == 0)
		return dvarint(p, end, &f->v);
	if (f->wire != 2 || !dvarint(p, end, &f->v) || f->v > (uint64_t)(end - *p))
		return 0;
	f->p = *p;
	f->len = f->v;
	*p += f->len;
	return 1;
}

/* The first varint field num of a message, or dflt. */
static uint64_t
dget(const uint8_t *p, size_t len, uint32_t num, uint64_t dflt)
{
	const uint8_t *end = p + len;
	struct fld f;

	while (dnext(&p, end, &f))
		if (f.num == num && f.wire == 0)
			return f.v;
	return dflt;
}

struct prof {
	const char	*str[64];
	size_t		 nstr;
	struct fld	 f[256];
	size_t		 nf;
};

static const char *
pstr(struct prof *pr, uint64_t i)
{
	return i < pr->nstr ? pr->str[i] : "(bad index)";
}

static void
prof_read(struct prof *pr, const struct buf *b)
{
	const uint8_t *p = (const uint8_t *)b->p, *end = p + b->len;
	struct fld f;

	memset(pr, 0, sizeof(*pr));
	while (pr->nf < 256 && dnext(&p, end, &f)) {
		pr->f[pr->nf++] = f;
		if (f.num == 6 && pr->nstr < 64)
			pr->str[pr->nstr++] = strndup((const char *)f.p, f.len);
	}
	CHECK(p == end, "the profile decodes to its end");
}

static void
prof_free(struct prof *pr)
{
	size_t i;

	for (i = 0; i < pr->nstr; i++)
		free((void *)pr->str[i]);
}

static size_t
count(struct prof *pr, uint32_t num)
{
	size_t i, n = 0;

	for (i = 0; i < pr->nf; i++)
		n += pr->f[i].num == num;
	return n;
}

/* The k-th field num. */
static struct fld *
nth(struct prof *pr, uint32_t num, size_t k)
{
	size_t i;

	for (i = 0; i < pr->nf; i++)
		if (pr->f[i].num == num && k-- == 0)
			return &pr->f[i];
	return NULL;
}

static const char stream[] =
    "# fgrecord 1\n"
    "# cmdline : ./app -x\n"
    "# buildid : abcd01 /bin/app\n"
    "app 10/11 [000] 1.000000: 1000 cpu-clock:\n"
    "\t10 inner (inlined)\n"
    "  in.h:3\n"
    "\t10 outer+0x4 (/bin/app)\n"
    "  app.c:7\n"
    "\t20 main+0x1 (/bin/app)\n"
    "\n"
    "app 10/12 [000] 1.500000: 1000 cpu-clock:\n"
    "\t10 inner (inlined)\n"
    "  in.h:3\n"
    "\t10 outer+0x4 (/bin/app)\n"
    "  app.c:7\n"
    "\t20 main+0x1 (/bin/app)\n"
    "\n"
    "app 10/12 [000] 1.700000: 1000 cpu-clock:\n"
    "\t10 inner (inlined)\n"
    "  in.h:3\n"
    "\t10 outer+0x4 (/bin/app)\n"
    "  app.c:7\n"
    "\t20 main+0x1 (/bin/app)\n"
    "\n"
    "app 10/12 [000] 2.000000: 5000 offcpu-time:\n"
    "\tffffffff81000000 schedule+0x10 ([kernel.kallsyms])\n"
    "\t30 [unknown] (/bin/app)\n"
    "\t0 [truncated] ([unknown])\n"
    "\n"
    "this line fits no format\n"
    "app 10/12 [000] 3.000000: 1000 cpu-clock:\n"
    "\t20 main+0x1 (/bin/app)\n";

static void
test_profile(void)
{
	struct pprof p;
	struct prof pr;
	struct buf out;
	struct fld *f, lf;
	const uint8_t *q, *end;
	uint64_t vals[8], total = 0, lines[8];
	size_t i, nv, nl;
	int fd = unit_memfd(stream, strlen(stream)), rv, saw_tid12 = 0;
	FILE *devnull;

	pprof_init(&p);
	rv = pprof_stream(&p, fd, "unit");
	close(fd);
	CHECK(rv == 1, "a bad line and a cut-off sample: exit 1");
	buf_init(&out);
	pprof_encode(&p, &out);
	prof_read(&pr, &out);
	CHECK(pr.nstr > 0 && strcmp(pr.str[0], "") == 0, "string 0 is empty");

	CHECK(count(&pr, 1) == 4, "four sample types");
	f = nth(&pr, 1, 0);
	CHECK_STR(pstr(&pr, dget(f->p, f->len, 1, 0)), "samples", "type 0 is samples");
	f = nth(&pr, 1, 1);
	CHECK_STR(pstr(&pr, dget(f->p, f->len, 1, 0)), "cpu", "type 1 is cpu");
	CHECK_STR(pstr(&pr, dget(f->p, f->len, 2, 0)), "nanoseconds", "in nanoseconds");
	f = nth(&pr, 1, 2);
	CHECK_STR(pstr(&pr, dget(f->p, f->len, 1, 0)), "off-cpu", "type 2 is off-cpu");
	f = nth(&pr, 1, 3);
	CHECK_STR(pstr(&pr, dget(f->p, f->len, 1, 0)), "wall", "type 3 is wall");
	f = nth(&pr, 14, 0);
	CHECK(f != NULL && strcmp(pstr(&pr, f->v), "wall") == 0, "wall is the default type");

	/* Samples: (tid 11, on), (tid 12, on) twice, (tid 12, off). */
	CHECK(count(&pr, 2) == 3, "three unique samples");
	for (i = 0; (f = nth(&pr, 2, i)) != NULL; i++) {
		nv = nl = 0;
		q = f->p;
		end = f->p + f->len;
		while (dnext(&q, end, &lf)) {
			const uint8_t *r = lf.p, *re = lf.p + lf.len;

			if (lf.num == 2)
				while (nv < 8 && dvarint(&r, re, &vals[nv]))
					nv++;
			if (lf.num == 1)
				while (nl < 8 && dvarint(&r, re, &lines[nl]))
					nl++;
			if (lf.num == 3 && strcmp(pstr(&pr, dget(lf.p, lf.len, 1, 0)), "tid") == 0 &&
			    dget(lf.p, lf.len, 3, 0) == 12 && i == 1)
				saw_tid12 = 1;
		}
		CHECK(nv == 4, "four values per sample");
		total += vals[0];
		if (i == 1)
			CHECK(vals[0] == 2 && vals[1] == 2000 && vals[2] == 0 && vals[3] == 2000,
			    "two on-CPU samples of tid 12 are one, with summed values");
		if (i == 2)
			CHECK(vals[0] == 1 && vals[1] == 0 && vals[2] == 5000 && vals[3] == 5000,
			    "the off-CPU sample's time is off-cpu and wall");
		if (i == 0)
			CHECK(nl == 2, "the first stack has two locations");
	}
	CHECK(saw_tid12, "tid is a numeric label");
	CHECK(total == 4, "the samples add up to the stream's complete ones");

	/* Locations: 0x10 with its inlined line first, 0x20, the kernel
	   frame, 0x30 with no line, [truncated]. */
	CHECK(count(&pr, 4) == 5, "five locations");
	f = nth(&pr, 4, 0);
	CHECK(dget(f->p, f->len, 1, 0) == 1 && dget(f->p, f->len, 3, 0) == 0x10,
	    "location 1 is address 0x10");
	{
		uint64_t fn[2] = { 0, 0 }, ln[2] = { 0, 0 };

		nl = 0;
		q = f->p;
		end = f->p + f->len;
		while (dnext(&q, end, &lf))
			if (lf.num == 4 && nl < 2) {
				fn[nl] = dget(lf.p, lf.len, 1, 0);
				ln[nl++] = dget(lf.p, lf.len, 2, 0);
			}
		CHECK(nl == 2 && ln[0] == 3 && ln[1] == 7, "inlined line first, then its caller's");
		f = nth(&pr, 5, fn[0] - 1);
		CHECK(f != NULL && strcmp(pstr(&pr, dget(f->p, f->len, 2, 0)), "inner") == 0 &&
		    strcmp(pstr(&pr, dget(f->p, f->len, 4, 0)), "in.h") == 0,
		    "the inlined function and its file");
		f = nth(&pr, 5, fn[1] - 1);
		CHECK(f != NULL && strcmp(pstr(&pr, dget(f->p, f->len, 2, 0)), "outer") == 0,
		    "the offset is stripped from the name");
	}
	f = nth(&pr, 4, 3);
	CHECK(dget(f->p, f->len, 3, 0) == 0x30, "location 4 is 0x30");
	q = f->p;
	end = f->p + f->len;
	nl = 0;
	while (dnext(&q, end, &lf))
		nl += lf.num == 4;
	CHECK(nl == 0, "an [unknown] frame in a file has no line, for pprof to symbolize");

	/* Mappings: /bin/app with its build ID; the kernel; [unknown]. */
	CHECK(count(&pr, 3) == 3, "three mappings");
	f = nth(&pr, 3, 0);
	CHECK_STR(pstr(&pr, dget(f->p, f->len, 5, 0)), "/bin/app", "mapping 1 is /bin/app");
	CHECK_STR(pstr(&pr, dget(f->p, f->len, 6, 0)), "abcd01", "with its build ID");
	CHECK(dget(f->p, f->len, 7, 0) == 1 && dget(f->p, f->len, 10, 0) == 1,
	    "has functions and inlined frames");
	{
		int kern = 0, trunc = 0, cmd = 0;

		for (i = 0; i < pr.nstr; i++) {
			kern |= strcmp(pr.str[i], "schedule") == 0;
			trunc |= strcmp(pr.str[i], "[truncated]") == 0;
		}
		f = nth(&pr, 13, 0);
		cmd = f != NULL && strcmp(pstr(&pr, f->v), "cmdline: ./app -x") == 0;
		CHECK(kern && trunc, "kernel and [truncated] frames are named");
		CHECK(cmd, "the command line is a comment");
	}
	f = nth(&pr, 10, 0);
	CHECK(f != NULL && f->v == 1000005000,
	    "duration: the first sample to the end of the last, off-CPU 5 us");
	CHECK(nth(&pr, 9, 0) == NULL, "no \"# start\": no time");
	f = nth(&pr, 12, 0);
	CHECK(f != NULL && f->v == 1000, "period: the first sample's");

	/* The same input gives the same bytes, gzipped too. */
	{
		struct pprof p2;
		struct buf out2;

		fd = unit_memfd(stream, strlen(stream));
		pprof_init(&p2);
		devnull = fopen("/dev/null", "w");
		freopen("/dev/null", "w", stderr);	/* the warnings again */
		pprof_stream(&p2, fd, "unit");
		close(fd);
		buf_init(&out2);
		pprof_encode(&p2, &out2);
		CHECK(out.len == out2.len && memcmp(out.p, out2.p, out.len) == 0,
		    "deterministic");
		CHECK(pprof_write(&p2, devnull) == 0, "pprof_write");
		fclose(devnull);
		buf_release(&out2);
		pprof_release(&p2);
	}
	prof_free(&pr);
	buf_release(&out);
	pprof_release(&p);
}

/* perf's event modifiers: "cpu-clock:pppH" is still CPU time. */
static void
test_modifiers(void)
{
	struct pprof p;
	struct prof pr;
	struct buf out;
	struct fld *f;
	static const char text[] =
	    "hotc 10570 10326.681158:     250000 cpu-clock:pppH: \n"
	    "\tffffffff81677ab9 thp_get+0x29 ([kernel.kallsyms])\n\n";
	int fd = unit_memfd(text, strlen(text));

	pprof_init(&p);
	CHECK(pprof_stream(&p, fd, "perf") == 0, "a perf script sample converts");
	close(fd);
	buf_init(&out);
	pprof_encode(&p, &out);
	prof_read(&pr, &out);
	CHECK(count(&pr, 1) == 2, "two sample types");
	f = nth(&pr, 1, 1);
	CHECK(f != NULL && strcmp(pstr(&pr, dget(f->p, f->len, 1, 0)), "cpu") == 0,
	    "cpu-clock:pppH is cpu time");
	f = nth(&pr, 12, 0);
	CHECK(f != NULL && f->v == 250000, "its period");
	CHECK(count(&pr, 3) == 1 && count(&pr, 4) == 1, "one mapping, one location");
	prof_free(&pr);
	buf_release(&out);
	pprof_release(&p);
}

/*
 * "# start": time_nanos, and the duration from it; a file-less function's
 * file is its DSO; every function has its system name.
 */
static void
test_start(void)
{
	struct pprof p;
	struct prof pr;
	struct buf out;
	struct fld *f;
	size_t i;
	static const char text[] = "# ========\n# fgrecord 1\n"
	    "# start : 1000.250000000 50.000000000\n# ========\n"
	    "app 7/7 [000] 51.000000: 1000000 cpu-clock:\n"
	    "\tffffffff81000130 entry_SYSCALL_64+0x10 ([kernel.kallsyms])\n"
	    "\t1f3a4 main+0x4 (/bin/app)\n  app.c:7\n"
	    "\t1f000 _start+0x4 (/bin/app)\n"
	    "\t1e000 app::run<int>+0x4 (/bin/app)\n\n"
	    "app 7/7 [000] 52.000000: 2000000000 offcpu-time:\n"
	    "\t1f3a4 main+0x4 (/bin/app)\n  app.c:7\n\n";
	int fd = unit_memfd(text, strlen(text));
	int kern = 0, start = 0, main_ok = 0, sys = 0, cxx = 0;

	pprof_init(&p);
	CHECK(pprof_stream(&p, fd, "start") == 0, "a stream with its start");
	close(fd);
	buf_init(&out);
	pprof_encode(&p, &out);
	prof_read(&pr, &out);
	f = nth(&pr, 9, 0);
	CHECK(f != NULL && f->v == 1000250000000ULL, "time_nanos: the start");
	f = nth(&pr, 10, 0);
	CHECK(f != NULL && f->v == 4000000000ULL,
	    "duration: the start to the off-CPU sample's end, 4 s");
	for (i = 0; (f = nth(&pr, 5, i)) != NULL; i++) {
		const char *name = pstr(&pr, dget(f->p, f->len, 2, 0));
		const char *file = pstr(&pr, dget(f->p, f->len, 4, 0));

		if (strcmp(name, "app::run<int>") == 0)
			cxx = dget(f->p, f->len, 3, 0) == 0;
		else
			sys += dget(f->p, f->len, 3, 0) == dget(f->p, f->len, 2, 0);
		kern |= strcmp(name, "entry_SYSCALL_64") == 0 &&
		    strcmp(file, "[kernel.kallsyms]") == 0;
		start |= strcmp(name, "_start") == 0 &&
		    strcmp(file, "[/bin/app]") == 0;
		main_ok |= strcmp(name, "main") == 0 && strcmp(file, "app.c") == 0;
	}
	CHECK(i == 4, "four functions");
	CHECK(sys == 3, "C names: their system name is the name");
	CHECK(cxx, "a demangled name has no system name");
	CHECK(kern, "a kernel function's file: [kernel.kallsyms]");
	CHECK(start, "a function of a file with no source line: [/bin/app]");
	CHECK(main_ok, "a function with its source file keeps it");
	f = nth(&pr, 3, 0);
	CHECK(f != NULL && dget(f->p, f->len, 8, 0) == 1, "has_filenames: app.c");
	prof_free(&pr);
	buf_release(&out);
	pprof_release(&p);
}

/*
 * An unresolved frame outside a file is named as fgfold names it,
 * "[[vdso]]"; a one-line sample (perf without -g) is a one-frame stack;
 * perf's -1/-1 (a sample of no task) has no pid label.
 */
static void
test_names(void)
{
	struct pprof p;
	struct prof pr;
	struct buf out;
	struct fld *f;
	size_t i;
	const char *text = (
	    "app 7/7 [000] 51.000000: 1000000 cpu-clock:\n"
	    "\t7fff1234 [unknown] ([vdso])\n"
	    "\tffffffff81000130 [unknown] ([kernel.kallsyms])\n"
	    "\t10 [unknown] ([unknown])\n\n"
	    "  :-1    -1/-1 [000] 52.000000: 1000000 cpu-clock:\n"
	    "\t20 [unknown] ([vdso])\n\n"
	    "sh 9 52.5: 1000000 cpu-clock: 7f12 up+0x27 (/ld.so)\n");
	int vdso = 0, kern = 0, unk = 0, up = 0, nopid = 0, fd;

	pprof_init(&p);
	buf_init(&out);
	fd = unit_memfd(text, strlen(text));
	CHECK(pprof_stream(&p, fd, "names") == 0, "names: a clean stream");
	close(fd);
	pprof_encode(&p, &out);
	prof_read(&pr, &out);
	for (i = 0; (f = nth(&pr, 5, i)) != NULL; i++) {
		const char *name = pstr(&pr, dget(f->p, f->len, 2, 0));

		vdso |= strcmp(name, "[[vdso]]") == 0;
		kern |= strcmp(name, "[[kernel.kallsyms]]") == 0;
		unk |= strcmp(name, "[unknown]") == 0;
		up |= strcmp(name, "up") == 0;
	}
	CHECK(vdso, "an [unknown] frame in [vdso] is [[vdso]], as in fgfold");
	CHECK(kern, "in [kernel.kallsyms], [[kernel.kallsyms]]");
	CHECK(unk, "in no mapping, [unknown]");
	CHECK(up, "a one-line sample's frame");
	CHECK(count(&pr, 2) == 3, "three samples");
	for (i = 0; (f = nth(&pr, 2, i)) != NULL; i++) {
		const uint8_t *q = f->p, *end = f->p + f->len;
		struct fld lf;
		int labels = 0;

		while (dnext(&q, end, &lf))
			labels += lf.num == 3;
		nopid += labels == 2;
	}
	CHECK(nopid == 2, "-1/-1 and a TID alone: no pid label");
	prof_free(&pr);
	buf_release(&out);
	pprof_release(&p);
}

int
main(void)
{
	test_names();
	test_start();
	test_modifiers();
	test_profile();
	return unit_done();
}
