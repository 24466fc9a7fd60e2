/*
 * test_replay: replay_perfdata, fgsym's perf.data path without a process:
 * hand-built perf data (pdbuild.h) as a file and as a pipe reach the sink,
 * in this thread, as headers and samples; a recording cut short gives 1
 * with the samples before the cut kept; perf data it cannot read (a
 * big-endian file) gives 2. Each status is the one fgsym exits with.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "pdbuild.h"
#include "record/replay.h"

struct seen {
	pthread_t	 thread;	/* where the sink ran */
	int		 headers, samples, frames, other_thread;
};

static void
on_header(void *arg, const struct sample_hdr *h)
{
	struct seen *s = arg;

	(void)h;
	s->headers++;
	s->other_thread |= !pthread_equal(s->thread, pthread_self());
}

static void
on_sample(void *arg, const struct sample *smp)
{
	struct seen *s = arg;

	s->samples++;
	s->frames += (int)smp->nframes;
	s->other_thread |= !pthread_equal(s->thread, pthread_self());
}

static int
on_flush(void *arg)
{
	(void)arg;
	return 0;
}

static const struct sample_sink_ops seen_ops = { on_header, on_sample,
	on_flush };

/*
 * Replays p[0..n) as fgsym does: from a memfd (a file) or a pipe, its
 * first 16 bytes read already, as the sniff read them. Returns
 * replay_perfdata's status; *why is its message, or NULL.
 */
static int
replay(const void *p, size_t n, int as_file, struct seen *s, char **why)
{
	struct sample_sink sink = { &seen_ops, s };
	char head[16];
	size_t headlen = n < sizeof(head) ? n : sizeof(head);
	int fd[2], rc;

	memset(s, 0, sizeof(*s));
	s->thread = pthread_self();
	if (as_file) {
		fd[0] = memfd_create("t", 0);
		fd[1] = -1;
		if (fd[0] < 0 || write(fd[0], p, n) != (ssize_t)n ||
		    lseek(fd[0], 0, SEEK_SET) != 0)
			abort();
	} else if (pipe(fd) != 0 || write(fd[1], p, n) != (ssize_t)n)
		abort();	/* fits the pipe's buffer */
	if (fd[1] >= 0)
		close(fd[1]);
	if (read(fd[0], head, headlen) != (ssize_t)headlen)
		abort();
	rc = replay_perfdata(fd[0], "t.data", head, headlen, &sink, NULL, why);
	close(fd[0]);
	return rc;
}

int
main(void)
{
	struct buf f, pp;
	struct seen s;
	char *why;
	int kind, rc;

	freopen("/dev/null", "w", stderr);	/* the session's summary */
	buf_init(&f);
	buf_init(&pp);
	pdb_file(&f);
	pdb_pipe(&pp);
	for (kind = 0; kind < 2; kind++) {
		const struct buf *b = kind == 0 ? &f : &pp;
		const char *k = kind == 0 ? "a file" : "a pipe";
		char what[80];

		why = (char *)"unset";
		rc = replay(b->p, b->len, kind == 0, &s, &why);
		/* status 1: its program, /tmp/pdb-app, is on no machine */
		snprintf(what, sizeof(what), "%s: replayed, status 1 (its "
		    "program's frames unresolved)", k);
		CHECK_INT(rc, 1, what);
		CHECK(why == NULL, "nothing to say");
		snprintf(what, sizeof(what), "%s: its three samples", k);
		CHECK_INT(s.samples, 3, what);
		CHECK(s.headers > 0, "the header lines reach the sink too");
		CHECK(s.frames >= 3, "with their frames");
		CHECK(!s.other_thread, "the sink ran in the caller's thread");

		rc = replay(b->p, b->len * 9 / 10, kind == 0, &s, &why);
		snprintf(what, sizeof(what), "%s cut short: status 1", k);
		CHECK_INT(rc, 1, what);
		CHECK_INT(s.samples, 2, "the two samples before the cut kept");
	}
	{
		/*
		 * A big-endian recording: the session may exit 2 itself,
		 * said, rather than return 2: run it in a child.
		 */
		static const char junk[] = "2ELIFREP, and bytes of a file "
		    "from a big-endian machine";
		int status = 0;
		pid_t pid;

		fflush(stdout);		/* the child's exit flushes it again */
		pid = fork();

		if (pid == 0)
			_exit(replay(junk, sizeof(junk) - 1, 1, &s, &why) == 2 ?
			    2 : 3);
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 2,
		    "perf data it cannot read (big-endian): status 2, said");
	}
	buf_release(&f);
	buf_release(&pp);
	return unit_done();
}
