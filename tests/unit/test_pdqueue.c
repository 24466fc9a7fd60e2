/*
 * test_pdqueue: a perf.data without FINISHED_ROUND streams through the
 * reader's ordering queue in bounded memory (PERFDATA_QUEUE_MAX), every
 * sample handed over, in time order where the disorder is local. The
 * data (pdbuild.h's samples, 160 MiB of them in pipe mode) is written
 * by a child into a pipe as it is made, so that only the reader's memory
 * is in this process: its peak resident set is the measure. First, the
 * queue itself (perf/perfqueue), which fgrecord's perf source uses too.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "pdbuild.h"
#include "perf/perfdata.h"
#include "perf/perfqueue.h"

#define DATA_BYTES	(160u << 20)
#define SAMPLE_BYTES	72	/* pdb_sample's */
#define NSAMPLES	(DATA_BYTES / SAMPLE_BYTES)
#define JITTER		97	/* samples a time may come early by */
#define RSS_MAX		(80u << 20)	/* twice the queue's bound, and room */

struct seen {
	uint64_t n, out_of_order, last;
};

static void
on_ev(void *arg, const struct source_event *ev)
{
	struct seen *s = arg;

	if (ev->kind != SOURCE_SAMPLE)
		return;
	if (s->n > 0 && ev->time < s->last)
		s->out_of_order++;
	s->last = ev->time;
	s->n++;
}

static void
write_all(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		_exit(1);
}

/* The writer: the pipe header, the attribute, then the samples. */
static void
writer(int fd)
{
	struct perf_event_attr a;
	struct buf b;
	uint64_t i;

	buf_init(&b);
	pdb_attr(&a);
	buf_add(&b, "PERFILE2", 8);
	pdb_u64(&b, 16);
	pdb_head(&b, 64, 0, (uint16_t)(8 + sizeof(a) + 8));
	buf_add(&b, &a, sizeof(a));
	pdb_u64(&b, PDB_ID);
	for (i = 0; i < NSAMPLES; i++) {
		/* each in its place, or up to JITTER places early */
		pdb_sample(&b, 1000 + 10 * (i + i % JITTER), 0x400100);
		if (b.len >= 1 << 16) {
			write_all(fd, b.p, b.len);
			b.len = 0;
		}
	}
	write_all(fd, b.p, b.len);
	buf_release(&b);
	_exit(0);
}

struct got {
	char	 s[64];
	size_t	 n;
};

static void
on_rec(void *arg, const void *rec, const struct perfqueue_rec *r)
{
	struct got *g = arg;

	if (g->n + r->len < sizeof(g->s)) {
		memcpy(g->s + g->n, rec, r->len);
		g->n += r->len;
		g->s[g->n] = '\0';
	}
}

/* Records of any length, added out of order, come back in time order. */
static void
test_queue(void)
{
	struct perfqueue q;
	struct got g = { "", 0 };

	perfqueue_init(&q, 0);
	perfqueue_add(&q, "c", 1, 30, 0, 0);
	perfqueue_add(&q, "aa", 2, 10, 0, 0);
	perfqueue_add(&q, "d", 1, 40, 0, 0);
	perfqueue_add(&q, "b", 1, 20, 0, 0);
	perfqueue_add(&q, "B", 1, 20, 0, 0);
	CHECK(!perfqueue_full(&q, 1 << 30), "queue: no bound, never full");
	perfqueue_flush(&q, 5, 0, on_rec, &g);
	CHECK(g.s[0] == '\0' && q.n == 5, "queue: none up to the limit, "
	    "none handed back");
	perfqueue_flush(&q, 20, 0, on_rec, &g);
	CHECK_STR(g.s, "aabB", "queue: up to the limit, in time order, "
	    "ties in the order they came");
	CHECK_UINT(q.n, 2, "queue: the later ones wait");
	CHECK_UINT(q.alen, 2, "queue: ... their bytes counted");
	perfqueue_add(&q, "e", 1, 25, 0, 0);
	perfqueue_flush(&q, 0, 1, on_rec, &g);
	CHECK_STR(g.s, "aabBec",
	    "queue: half (two of three), the older ones first");
	perfqueue_flush(&q, UINT64_MAX, 0, on_rec, &g);
	CHECK_STR(g.s, "aabBecd", "queue: all of the rest, in time order");
	CHECK_UINT(q.n, 0, "queue: empty after all");
	perfqueue_release(&q);
	perfqueue_init(&q, 100);
	CHECK(!perfqueue_full(&q, 1000), "queue: an empty one is never full");
	perfqueue_add(&q, "x", 1, 1, 0, 0);
	CHECK(perfqueue_full(&q, 100 - 1 - 2 * sizeof(struct perfqueue_rec) + 1),
	    "queue: full when the bytes and entries would pass the bound");
	CHECK(!perfqueue_full(&q, 100 - 1 - 2 * sizeof(struct perfqueue_rec)),
	    "queue: not full when they reach it");
	perfqueue_release(&q);
}

int
main(void)
{
	struct source_sink sink;
	struct perfdata pd;
	struct rusage ru;
	struct seen s = { 0 };
	int pfd[2], st, rc = -1;
	pid_t pid;

	test_queue();
	if (pipe(pfd) != 0)
		abort();
	if ((pid = fork()) < 0)
		abort();
	if (pid == 0) {
		close(pfd[0]);
		writer(pfd[1]);
	}
	close(pfd[1]);
	sink.fn = on_ev;
	sink.arg = &s;
	st = perfdata_init(&pd, pfd[0], "queue.data", NULL, 0);
	CHECK(st == 0, "the pipe's header reads");
	if (st == 0) {
		rc = perfdata_read(&pd, &sink);
		perfdata_release(&pd);
	}
	close(pfd[0]);
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the writer wrote it all");
	CHECK(rc == 0, "read cleanly");
	CHECK(s.n == NSAMPLES, "every sample handed over");
	if (s.n != NSAMPLES)
		printf("# %llu of %llu\n", (unsigned long long)s.n,
		    (unsigned long long)NSAMPLES);
	CHECK(s.out_of_order == 0, "in time order");
	if (s.out_of_order)
		printf("# %llu out of order\n",
		    (unsigned long long)s.out_of_order);
	getrusage(RUSAGE_SELF, &ru);
#if defined(__SANITIZE_ADDRESS__)
	/* its quarantine keeps what was freed: no measure of the reader */
	printf("ok %d - memory bounded # SKIP under ASan\n", ++unit_n);
#else
	CHECK((uint64_t)ru.ru_maxrss * 1024 < RSS_MAX,
	    "memory bounded: a 160 MiB input in less than 80 MiB");
#endif
	printf("# peak resident set %ld KiB for %u MiB of samples (bound %u "
	    "MiB)\n", ru.ru_maxrss, DATA_BYTES >> 20, PERFDATA_QUEUE_MAX >> 20);
	return unit_done();
}
