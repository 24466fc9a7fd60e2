/*
 * test_perfdata: the perf.data reader on hand-built files and pipes
 * (pdbuild.h): samples in time order across rounds, the event's name,
 * the side band; cut at every byte, a record of size 0 or past the end
 * (read on from the next good record), big-endian; losses and
 * throttling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "unit.h"
#include "pdbuild.h"
#include "perf/perfdata.h"

struct seen {
	uint64_t times[16];
	int	 n, comms, mmaps, throttles;
	uint64_t lost;
	uint64_t throttled_ns;
	char	 event[32];
};

static void
on_ev(void *arg, const struct source_event *ev)
{
	struct seen *s = arg;

	if (ev->kind == SOURCE_SAMPLE && s->n < 16) {
		s->times[s->n++] = ev->time;
		snprintf(s->event, sizeof(s->event), "%s", ev->u.sample.event);
	}
	s->comms += ev->kind == SOURCE_COMM;
	s->mmaps += ev->kind == SOURCE_MMAP;
	s->throttles += ev->kind == SOURCE_THROTTLE;
	if (ev->kind == SOURCE_LOST)
		s->lost += ev->u.lost;
}

/* Reads p[0..n) from a memfd (file) or as bytes already read (pipe). */
static int
run(const void *p, size_t n, int as_file, struct seen *s, int *status)
{
	struct source_sink sink = { on_ev, s };
	struct perfdata pdata, *pd = &pdata;
	int fd = -1, rc;

	memset(s, 0, sizeof(*s));
	if (as_file) {
		fd = memfd_create("t", 0);
		if (write(fd, p, n) != (ssize_t)n)
			abort();
	}
	*status = perfdata_init(pd, fd, "t.data", as_file ? NULL : p,
	    as_file ? 0 : n);
	if (*status != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rc = perfdata_read(pd, &sink);
	s->throttled_ns = pd->throttled_ns;
	perfdata_release(pd);
	if (fd >= 0)
		close(fd);
	return rc;
}

int
main(void)
{
	struct buf f, pp;
	struct seen s;
	size_t cut;
	int st, rc, kind;

	freopen("/dev/null", "w", stderr);
	buf_init(&f);
	buf_init(&pp);
	pdb_file(&f);
	pdb_pipe(&pp);
	for (kind = 0; kind < 3; kind++) {
		const struct buf *b = kind == 2 ? &pp : &f;

		rc = run(b->p, b->len, kind == 0, &s, &st);
		CHECK(rc == 0, "a good input reads cleanly");
		CHECK(s.n == 3, "three samples");
		CHECK(s.times[0] == 10 && s.times[1] == 20 && s.times[2] == 30,
		    "in time order within the rounds");
		CHECK(strcmp(s.event, "cpu-clock") == 0, "named cpu-clock");
		CHECK(s.comms == 1 && s.mmaps == 1, "the side band");
	}
	for (kind = 0; kind < 3; kind++) {
		const struct buf *b = kind == 2 ? &pp : &f;
		int bad = 0, more = 0, last = 0;

		for (cut = 0; cut < b->len; cut++) {
			rc = run(b->p, cut, kind == 0, &s, &st);
			if (rc == -1 && st != 1 && cut >= 8)
				bad++;
			/* a cut is said, but a pipe may end between records */
			if (rc == 0 && cut > 16 && kind != 2) {
				bad++;
				printf("# cut at %zu not said\n", cut);
			}
			if (s.n < last)
				more++;
			last = s.n;
		}
		CHECK(bad == 0, "cut at any byte: said, exit 1");
		CHECK(more == 0, "cut later: never fewer samples");
	}
	{
		struct buf z;
		size_t at;

		buf_init(&z);
		buf_add(&z, f.p, f.len);
		/* the second sample's size: before it, from the end, FINISHED_ROUND, the third sample, FINISHED_ROUND */
		at = f.len - 8 - 72 - 8 - 72 + 6;
		z.p[at] = 0;
		z.p[at + 1] = 0;
		rc = run(z.p, z.len, 1, &s, &st);
		CHECK(rc == 1, "a record of size 0: said");
		CHECK(s.n == 2 && s.times[0] == 20 && s.times[1] == 30,
		    "the samples before and after it kept");
		z.p[at] = 0;
		z.p[at + 1] = 0xf0;	/* past the data's end */
		rc = run(z.p, z.len, 1, &s, &st);
		CHECK(rc == 1, "a record past the data's end: said");
		CHECK(s.n == 2 && s.times[0] == 20 && s.times[1] == 30,
		    "the samples before and after it kept");
		rc = run(z.p, z.len, 0, &s, &st);
		CHECK(rc == 1 && s.n == 2, "and so from a pipe");
		memcpy(z.p, "2ELIFREP", 8);
		rc = run(z.p, z.len, 1, &s, &st);
		CHECK(rc == -1 && st == 2, "big-endian: not read, status 2");
		buf_release(&z);
	}
	{
		/*
		 * Losses: 5 in LOST records, 8 in perf record's closing
		 * LOST_SAMPLES (time 0), which count the same ones: 8 lost,
		 * not 13. A LOST_SAMPLES of the kernel's (a time) adds its 2.
		 * Throttled from 100 to 350: 250 ns.
		 */
		struct buf d, z;

		buf_init(&d);
		buf_init(&z);
		pdb_data(&d);
		pdb_lost(&d, 5, 40);
		pdb_throttle(&d, 1, 100);
		pdb_throttle(&d, 0, 350);
		pdb_lost_samples(&d, 8, 0, 0);
		pdb_lost_samples(&d, 50, 0, 1 << 15);	/* filtered: not lost */
		pdb_file_of(&z, &d);
		rc = run(z.p, z.len, 1, &s, &st);
		CHECK(rc == 0, "losses and throttling: read cleanly");
		CHECK(s.n == 3, "the samples all there");
		CHECK(s.lost == 8, "lost: the larger count, not the sum");
		CHECK(s.throttles == 1, "the throttling reaches the session");
		CHECK(s.throttled_ns == 250, "the time throttled");
		pdb_lost_samples(&d, 2, 45, 0);
		buf_release(&z);
		buf_init(&z);
		pdb_file_of(&z, &d);
		rc = run(z.p, z.len, 1, &s, &st);
		CHECK(s.lost == 10, "a kernel's LOST_SAMPLES counts on its own");
		buf_release(&z);
		buf_release(&d);
	}
	buf_release(&f);
	buf_release(&pp);
	return unit_done();
}
