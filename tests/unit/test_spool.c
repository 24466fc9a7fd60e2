/*
 * test_spool: record/spool, the stream held for a slow reader: with no
 * reader at all, more than SPOOL_MEMORY is taken without the writing side
 * ever waiting (the rest through an unlinked file in $TMPDIR, which keeps
 * no name), and every byte then reaches the reader in order; memory stays
 * within the bound; a reader gone is EPIPE from the sink's flush and from
 * spool_finish; where no temporary file can be made, the writing side
 * waits for the reader and loses nothing; on a small tmpfs the file
 * stops short of SPOOL_RESERVE's free room, said in one line, and the
 * writing side waits for the reader there too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "record/spool.h"
#include "stream/sample.h"
#include "unit.h"

/* More than the memory holds: the rest goes through the file. */
#define TOTAL	((uint64_t)SPOOL_MEMORY + 16 * SPOOL_SEGMENT + 12345)

/*
 * The reader: every byte checked; with gate, only once the writing side
 * waits for room in *gate or go is set (30 s at most, a guard against a
 * hang).
 */
struct reader {
	int		 fd;
	struct spool	*gate;
	volatile int	 go;
	uint64_t	 got;		/* bytes read */
	uint64_t	 bad;		/* the first byte out of order, + 1 */
	const char	*fs;		/* when set: */
	uint64_t	 fs_free;	/* its free bytes as the gate opened */
};

static unsigned char
pattern(uint64_t i)
{
	return (unsigned char)(i * 7 + i / 4099);
}

static void *
read_all(void *arg)
{
	struct reader *rd = arg;
	struct timespec ts = { 0, 10000000 };
	static unsigned char b[1 << 16];
	ssize_t n;
	int waits = 0;

	for (int i = 0; rd->gate != NULL && !waits && i < 3000; i++) {
		pthread_mutex_lock(&rd->gate->lock);
		waits = rd->gate->stats.waits > 0 || rd->go;
		pthread_mutex_unlock(&rd->gate->lock);
		if (!waits)
			nanosleep(&ts, NULL);
	}
	if (rd->fs != NULL) {
		struct statvfs vfs;

		if (statvfs(rd->fs, &vfs) == 0)
			rd->fs_free = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	}
	while ((n = read(rd->fd, b, sizeof(b))) > 0 ||
	    (n < 0 && errno == EINTR))
		for (ssize_t i = 0; i < n; i++, rd->got++)
			if (rd->bad == 0 && b[i] != pattern(rd->got))
				rd->bad = rd->got + 1;
	return NULL;
}

/* Writes TOTAL bytes of the pattern through the spool's FILE. */
static int
write_pattern(struct spool *sp)
{
	static unsigned char b[100003];
	uint64_t i = 0;

	while (i < TOTAL) {
		size_t n = TOTAL - i < sizeof(b) ? (size_t)(TOTAL - i) :
		    sizeof(b);

		for (size_t j = 0; j < n; j++)
			b[j] = pattern(i + j);
		if (fwrite(b, 1, n, sp->file) != n)
			return -1;
		i += n;
	}
	return 0;
}

/* The number of entries of dir but . and .., or -1. */
static int
entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* A header through the sink: its bytes, once the spool is finished. */
static void
test_sink(void)
{
	struct spool sp;
	struct sample_sink sink;
	struct sample_hdr h = { .kind = SAMPLE_HDR_NUMBER, .key = "lost",
	    .n = 3 };
	char got[64];
	ssize_t n;
	int p[2];

	if (pipe(p) != 0)
		exit(2);
	spool_init(&sp, p[1], "pipe");
	spool_sink(&sp, &sink);
	sink.ops->header(sink.arg, &h);
	CHECK_INT(sink.ops->flush(sink.arg), 0, "the sink's flush: 0");
	CHECK_INT(spool_finish(&sp), 0, "finished: 0");
	close(p[1]);
	n = read(p[0], got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = '\0';
	CHECK_STR(got, "# lost : 3\n", "the header line's bytes went out");
	spool_release(&sp);
	close(p[0]);
}

/* No reader at first: nothing waits, the bound is kept, nothing lost. */
static void
test_stalled(const char *tmpdir)
{
	struct spool sp;
	struct reader rd = { 0 };
	pthread_t th;
	int p[2];

	if (pipe(p) != 0)
		exit(2);
	setenv("TMPDIR", tmpdir, 1);
	spool_init(&sp, p[1], "pipe");
	rd.fd = p[0];
	rd.gate = &sp;
	pthread_create(&th, NULL, read_all, &rd);
	CHECK_INT(write_pattern(&sp), 0, "written with no reader");
	fflush(sp.file);
	CHECK_UINT(sp.stats.waits, 0, "and the writing side never waited");
	CHECK(sp.mem <= SPOOL_MEMORY, "memory within SPOOL_MEMORY");
	CHECK(sp.stats.spilled > 0 && sp.stats.spilled < TOTAL,
	    "the rest went through the file");
	CHECK(sp.stats.max_held > SPOOL_MEMORY,
	    "more than the memory was held");
	CHECK_INT(entries(tmpdir), 0, "the file has no name in $TMPDIR");

	rd.go = 1;
	CHECK_INT(spool_finish(&sp), 0, "finished: 0");
	close(p[1]);
	pthread_join(th, NULL);
	CHECK_UINT(rd.got, TOTAL, "every byte reached the reader");
	CHECK_UINT(rd.bad, 0, "in order");
	CHECK_UINT(sp.held, 0, "none held");
	CHECK_UINT(sp.disk, 0, "the file given back");
	spool_release(&sp);
	close(p[0]);
	unsetenv("TMPDIR");
}

/* The reader gone: EPIPE, said by the flush and by spool_finish. */
static void
test_epipe(void)
{
	struct spool sp;
	struct sample_sink sink;
	int p[2], r, e;

	if (pipe(p) != 0)
		exit(2);
	close(p[0]);
	spool_init(&sp, p[1], "pipe");
	spool_sink(&sp, &sink);
	write_pattern(&sp);
	r = spool_finish(&sp);
	e = errno;
	CHECK_INT(r, -1, "finished: -1");
	CHECK_INT(e, EPIPE, "EPIPE");
	r = sink.ops->flush(sink.arg);
	e = errno;
	CHECK(r == -1 && e == EPIPE, "the sink's flush says EPIPE too");
	CHECK_UINT(sp.held, 0, "nothing more held");
	printf("# %ju bytes queued, %ju dropped\n", (uintmax_t)sp.stats.bytes,
	    (uintmax_t)sp.stats.dropped);
	CHECK(sp.stats.dropped > 0 && sp.stats.dropped >= sp.stats.bytes,
	    "every byte queued, none written, counted as dropped");
	CHECK_INT(sp.stats.drop_errno, EPIPE, "for EPIPE");
	spool_release(&sp);
	close(p[1]);
}

/* No temporary file: past the memory, the writing side waits; no loss. */
static void
test_no_file(const char *notdir)
{
	struct spool sp;
	struct reader rd = { 0 };
	pthread_t th;
	int p[2];

	if (pipe(p) != 0)
		exit(2);
	setenv("TMPDIR", notdir, 1);
	spool_init(&sp, p[1], "pipe");
	rd.fd = p[0];
	rd.gate = &sp;
	pthread_create(&th, NULL, read_all, &rd);
	CHECK_INT(write_pattern(&sp), 0, "written");
	CHECK_INT(spool_finish(&sp), 0, "finished: 0");
	close(p[1]);
	pthread_join(th, NULL);
	CHECK(sp.tmp_failed, "the file could not be made");
	CHECK_UINT(sp.stats.spilled, 0, "nothing went through a file");
	CHECK(sp.stats.waits > 0, "the writing side waited for the reader");
	CHECK_UINT(rd.got, TOTAL, "every byte reached the reader");
	CHECK_UINT(rd.bad, 0, "in order");
	spool_release(&sp);
	close(p[0]);
	unsetenv("TMPDIR");
}

/*
 * A small tmpfs as TMPDIR (mounted in a mount namespace of this process's
 * own, gone with it) and a reader that reads only once the writing side
 * waits: the file stops with the reserve still free, said once, and the
 * writing side waits; then every byte reaches the reader.
 */
static void
test_reserve(const char *dir)
{
	struct spool sp;
	struct reader rd = { 0 };
	struct statvfs vfs;
	char small[256], log[256], said[1024];
	uint64_t total;
	pthread_t th;
	int p[2], errfd, logfd;
	ssize_t n;

	snprintf(small, sizeof(small), "%s/small", dir);
	snprintf(log, sizeof(log), "%s/stderr", dir);
	if (mkdir(small, 0700) != 0 || unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", small, "tmpfs", 0, "size=8m") != 0 ||
	    statvfs(small, &vfs) != 0) {
		printf("ok %d # SKIP a small tmpfs as TMPDIR: cannot mount "
		    "one here: %s\n", ++unit_n, strerror(errno));
		rmdir(small);
		return;
	}
	total = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	if (pipe(p) != 0)
		exit(2);
	setenv("TMPDIR", small, 1);
	fflush(stderr);
	errfd = dup(2);
	logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(logfd, 2);
	spool_init(&sp, p[1], "pipe");
	rd.fd = p[0];
	rd.gate = &sp;
	rd.fs = small;
	pthread_create(&th, NULL, read_all, &rd);
	CHECK_INT(write_pattern(&sp), 0, "written on a small tmpfs");
	CHECK_INT(spool_finish(&sp), 0, "finished: 0");
	close(p[1]);
	pthread_join(th, NULL);
	fflush(stderr);
	dup2(errfd, 2);
	close(errfd);
	close(logfd);
	printf("# tmpfs of %.1f MiB: %.1f MiB free when the spool waited, "
	    "%.1f MiB through the file\n", total / 1048576.0,
	    rd.fs_free / 1048576.0, sp.stats.spilled / 1048576.0);
	CHECK(sp.stats.spilled > 0, "the file was used");
	CHECK(rd.fs_free >= SPOOL_RESERVE(total),
	    "the file system kept the reserve free");
	CHECK(sp.tmp_full && !sp.tmp_failed, "the file stopped there, "
	    "with no failed write");
	CHECK(sp.stats.waits > 0, "then the writing side waited for the reader");
	CHECK_UINT(rd.got, TOTAL, "every byte reached the reader");
	CHECK_UINT(rd.bad, 0, "in order");
	logfd = open(log, O_RDONLY);
	n = read(logfd, said, sizeof(said) - 1);
	said[n > 0 ? n : 0] = '\0';
	close(logfd);
	printf("# %s", said);
	CHECK(strstr(said, "set TMPDIR to a file system with room") != NULL &&
	    strchr(said, '\n') == strrchr(said, '\n'),
	    "said once, in one line, with the fix");
	spool_release(&sp);
	close(p[0]);
	unlink(log);
	umount2(small, MNT_DETACH);
	rmdir(small);
	unsetenv("TMPDIR");
}

int
main(void)
{
	char dir[] = "/tmp/test_spool.XXXXXX", notdir[64];
	FILE *f;

	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	test_sink();
	test_stalled(dir);
	test_epipe();
	snprintf(notdir, sizeof(notdir), "%s/file", dir);
	if ((f = fopen(notdir, "w")) != NULL)
		fclose(f);
	test_no_file(notdir);
	unlink(notdir);
	test_reserve(dir);
	rmdir(dir);
	return unit_done();
}
