/*
 * spool: the stream's bytes held between the session and its output
 * (spool.h). The session's thread appends, through a FILE of
 * fopencookie(3) that the stream writer writes to; the writer thread
 * takes the oldest bytes and writes them with no lock held. The lock
 * guards the queue only: a copy into memory or the file under it, never
 * a write to the output.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/procfs.h"
#include "base/xalloc.h"
#include "record/spool.h"

/*
 * A run of bytes in the queue: in memory (mem), or in the file at foff.
 * The session appends at len, up to cap; the writer has written [0, done)
 * and taken [done, taken) to write. t_pend is when the oldest byte of
 * [taken, len) came.
 */
struct spool_seg {
	struct spool_seg *next;
	char		*mem;		/* owned, SPOOL_SEGMENT bytes; or NULL */
	uint64_t	 foff;
	size_t		 len, cap, done, taken;
	uint64_t	 t_pend;
};

/* The stream writer's buffer before the bytes reach the queue. */
#define SPOOL_FBUF	(256u << 10)

static ssize_t	 spool_cookie_write(void *, const char *, size_t);

/*
 * Writes all of p[0..n) to fd, waiting on a non-blocking descriptor.
 * Returns 0, or an errno.
 */
static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pf = { .fd = fd, .events = POLLOUT };

			if (poll(&pf, 1, -1) < 0 && errno != EINTR)
				return errno;
			continue;
		}
		if (w < 0)
			return errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

void
spool_init(struct spool *s, int fd, const char *name)
{
	static const cookie_io_functions_t io = {
		.write = spool_cookie_write,
	};

	pthread_condattr_t ca;

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->more, &ca);
	pthread_cond_init(&s->room, &ca);
	pthread_condattr_destroy(&ca);
	s->fd = fd;
	s->name = name;
	s->tmp = -1;
	if ((s->file = fopencookie(s, "w", io)) == NULL)
		xnomem(sizeof(*s->file));
	s->fbuf = xmalloc(SPOOL_FBUF);
	setvbuf(s->file, s->fbuf, _IOFBF, SPOOL_FBUF);
}

/* ---- the temporary file ---- */

/*
 * Opens the file the spool spills to: a file with no name, 0600, in
 * $TMPDIR (ignored when fgrecord runs with privileges its user has not,
 * or when it is not an absolute path) or /tmp, made where the user may
 * make one (O_TMPFILE, or mkstemp where the file system has none, the
 * name unlinked at once). Checked: a regular file of ours, with no link.
 * Returns the descriptor, or -1 with errno.
 */
static int
tmp_open(const char **dirp)
{
	const char *dir = secure_getenv("TMPDIR");
	struct stat st;
	char *path;
	int fd, e;

	if (dir == NULL || dir[0] != '/')
		dir = "/tmp";
	*dirp = dir;
	fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1 && (errno == EOPNOTSUPP || errno == EISDIR ||
	    errno == EINVAL)) {
		path = xasprintf("%s/fgrecord-spool.XXXXXX", dir);
		if ((fd = mkostemp(path, O_CLOEXEC)) != -1 &&
		    unlink(path) != 0) {
			e = errno;
			close(fd);
			fd = -1;
			errno = e;
		}
		free(path);
	}
	if (fd == -1)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 0) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/*
 * Says once that the file cannot take more: from now on the session waits
 * for the output when the memory is full. Called with the lock held, in
 * the session's thread.
 */
static void
tmp_fail(struct spool *s, const char *what, const char *dir, int e)
{
	s->tmp_failed = 1;
	warnx("cannot %s a temporary file in '%s': %s; past %u MiB held for "
	    "a slow reader of '%s' the recording waits for it, and the kernel "
	    "may lose samples; set TMPDIR to a directory with room, or write "
	    "to a file with -o", what, dir, strerror(e), SPOOL_MEMORY >> 20,
	    s->name);
}

/*
 * Whether the file's file system has room for one more segment and the
 * reserve (SPOOL_RESERVE): a file system that cannot say has. Says once,
 * the first time it has not, what the recording does then and the fix.
 * Called with the lock held, in the session's thread.
 */
static int
tmp_room(struct spool *s)
{
	struct statvfs vfs;
	uint64_t total, avail, reserve;

	if (fstatvfs(s->tmp, &vfs) != 0 || vfs.f_blocks == 0)
		return 1;
	total = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	reserve = SPOOL_RESERVE(total);
	if (avail >= reserve + SPOOL_SEGMENT)
		return 1;
	if (!s->tmp_full)
		warnx("the file system of '%s' has %.1f MiB free of %.1f MiB: "
		    "the spool leaves %.1f MiB of it (a tenth, at most 1 GiB) "
		    "free, so past the %.1f MiB it holds for the reader of "
		    "'%s', not read yet, the recording waits for that reader, "
		    "and the kernel may drop samples meanwhile; set TMPDIR to "
		    "a file system with room, or read the stream as it comes "
		    "(or write it to a file with -o)", s->tmp_dir,
		    avail / 1048576.0, total / 1048576.0, reserve / 1048576.0,
		    s->held / 1048576.0, s->name);
	s->tmp_full = 1;
	return 0;
}

/* ---- the queue ---- */

/*
 * A new segment at the queue's end: in memory while there is room, else
 * in the file; NULL when neither has room. Called with the lock held.
 */
static struct spool_seg *
seg_new(struct spool *s)
{
	struct spool_seg *g;

	if (s->mem + SPOOL_SEGMENT <= SPOOL_MEMORY) {
		g = xcalloc(1, sizeof(*g));
		if (s->spare != NULL) {
			g->mem = s->spare->mem;
			free(s->spare);
			s->spare = NULL;
		} else
			g->mem = xmalloc(SPOOL_SEGMENT);
		s->mem += SPOOL_SEGMENT;
	} else if (!s->tmp_failed && s->disk + SPOOL_SEGMENT <= SPOOL_DISK) {
		if (s->tmp == -1 && (s->tmp = tmp_open(&s->tmp_dir)) == -1) {
			tmp_fail(s, "make", s->tmp_dir, errno);
			return NULL;
		}
		if (!tmp_room(s))
			return NULL;
		g = xcalloc(1, sizeof(*g));
		/*
		 * A slot given back first, so that the file never passes
		 * SPOOL_DISK, even where holes cannot be punched and a reader
		 * a little slower than the recording never empties it.
		 */
		if (s->nfree > 0)
			g->foff = s->free[--s->nfree];
		else {
			g->foff = s->tmp_end;
			s->tmp_end += SPOOL_SEGMENT;
		}
		s->disk += SPOOL_SEGMENT;
	} else
		return NULL;
	g->cap = SPOOL_SEGMENT;
	if (s->tail != NULL)
		s->tail->next = g;
	else
		s->head = g;
	s->tail = g;
	return g;
}

/*
 * Takes the head segment, written out, off the queue: its memory kept
 * for the next one, its bytes in the file given back (and the file
 * emptied when it holds no more). Called with the lock held.
 */
static void
seg_pop(struct spool *s)
{
	struct spool_seg *g = s->head;

	if ((s->head = g->next) == NULL)
		s->tail = NULL;
	if (g->mem != NULL) {
		s->mem -= SPOOL_SEGMENT;
		if (s->spare == NULL) {
			g->next = NULL;
			s->spare = g;
			return;
		}
		free(g->mem);
	} else {
		s->disk -= SPOOL_SEGMENT;
		if (s->disk == 0) {
			s->tmp_end = 0;
			s->nfree = 0;
			(void)!ftruncate(s->tmp, 0);
		} else {
			s->free[s->nfree++] = g->foff;
			(void)!fallocate(s->tmp, FALLOC_FL_PUNCH_HOLE |
			    FALLOC_FL_KEEP_SIZE, (off_t)g->foff, SPOOL_SEGMENT);
		}
	}
	free(g);
}

/*
 * Waits on cv, the lock held, for at most 100 ms at a time: returns 1
 * once a signal has set *s->stop. A condition wait is not ended by a
 * signal, and the writer thread blocks them all: without this, a reader
 * that stops reading would leave fgrecord deaf to ^C and SIGTERM, where
 * a blocked write used to end with EINTR.
 */
static int
wait_stop(struct spool *s, pthread_cond_t *cv)
{
	struct timespec ts;

	if (s->stop != NULL && *s->stop)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 100000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(cv, &s->lock, &ts);
	return s->stop != NULL && *s->stop;
}

/*
 * A signal ended the wait for the reader: the bytes held are counted as
 * dropped and the output fails with ECANCELED from now on. The writer
 * may be inside a write that never ends: spool_release cancels it there
 * (its only cancellation point) and joins it before it frees anything.
 * Called with the lock held.
 */
static void
abandon(struct spool *s)
{
	/* the oldest byte held waited this long, and was never written */
	if (s->head != NULL && s->held > 0) {
		uint64_t lag = procfs_now_ns() - s->head->t_pend;

		if (lag > s->stats.max_lag_ns)
			s->stats.max_lag_ns = lag;
	}
	s->stats.dropped += s->held;
	if (s->error == 0)
		s->error = ECANCELED;
	if (s->stats.drop_errno == 0)
		s->stats.drop_errno = s->error;
	s->abandoned = 1;
	pthread_cond_broadcast(&s->more);
}

/* Drops every byte held: the output failed. Called with the lock held. */
static void
drop_all(struct spool *s)
{
	while (s->head != NULL)
		seg_pop(s);
	s->held = 0;
}

/* ---- the writer thread ---- */

/*
 * Writes the head segment's bytes taken, [from, to), to the output:
 * from memory, or read back from the file. Returns 0, or an errno.
 */
static int
put_bytes(struct spool *s, const struct spool_seg *g, size_t from, size_t to)
{
	ssize_t n;
	size_t off;

	if (g->mem != NULL)
		return write_all(s->fd, g->mem + from, to - from);
	if (s->rbuf == NULL)
		s->rbuf = xmalloc(SPOOL_SEGMENT);
	for (off = 0; off < to - from; off += (size_t)n) {
		n = pread(s->tmp, s->rbuf + off, to - from - off,
		    (off_t)(g->foff + from + off));
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0)
			return n < 0 ? errno : EIO;
	}
	return write_all(s->fd, s->rbuf, to - from);
}

/*
 * The writer thread: the oldest bytes held, written out with no lock
 * held, until spool_finish has none left for it or the output fails.
 */
static void *
writer(void *arg)
{
	struct spool *s = arg;
	struct spool_seg *g;
	size_t from, to;
	uint64_t t, now;
	int e;

	/* cancelled only in put_bytes, with no lock held: see abandon() */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	pthread_mutex_lock(&s->lock);
	while (s->error == 0) {
		g = s->head;
		if (g != NULL && g->done == g->len && (g->len == g->cap ||
		    g->next != NULL || g->mem == NULL)) {
			/* written out, and no more will come into it */
			seg_pop(s);
			pthread_cond_broadcast(&s->room);
			continue;
		}
		if (g == NULL || g->done == g->len) {
			if (s->closing)
				break;
			pthread_cond_wait(&s->more, &s->lock);
			continue;
		}
		from = g->done;
		to = g->taken = g->len;
		t = g->t_pend;
		pthread_mutex_unlock(&s->lock);

		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
		e = put_bytes(s, g, from, to);
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		now = procfs_now_ns();

		pthread_mutex_lock(&s->lock);
		if (e != 0) {
			/*
			 * Never written: the bytes held, the oldest of which
			 * waited since t (a reader that never read and then
			 * went away lagged all that time).
			 */
			if (now - t > s->stats.max_lag_ns)
				s->stats.max_lag_ns = now - t;
			s->error = e;
			s->stats.dropped += s->held;
			if (s->stats.drop_errno == 0)
				s->stats.drop_errno = e;
			drop_all(s);
			pthread_cond_broadcast(&s->room);
			break;
		}
		if (now - t > s->stats.max_lag_ns)
			s->stats.max_lag_ns = now - t;
		g->done = to;
		s->held -= to - from;
		/* caught up with the last segment in memory: it starts again */
		if (g->done == g->len && g->mem != NULL && g->next == NULL)
			g->len = g->done = g->taken = 0;
		pthread_cond_broadcast(&s->room);
	}
	s->ended = 1;
	pthread_cond_broadcast(&s->room);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/*
 * Starts the writer thread with every signal blocked, so that each goes
 * to the session's thread, whose waits end on it (wait_stop). Where it cannot, the
 * bytes are written in place. Called with the lock held.
 */
static void
start_writer(struct spool *s)
{
	sigset_t all, old;

	s->ended = 0;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	s->running = pthread_create(&s->thread, NULL, writer, s) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	s->sync = !s->running;
}

/* ---- the session's side ---- */

/*
 * Appends p[0..n) into g, which has room for it: copied into memory, or
 * written to the file. Returns 0, or -1 when the file failed (said; g
 * then takes no more). Called with the lock held.
 */
static int
seg_append(struct spool *s, struct spool_seg *g, const char *p, size_t n)
{
	int e;

	if (g->mem != NULL) {
		memcpy(g->mem + g->len, p, n);
		return 0;
	}
	e = 0;
	for (size_t off = 0; off < n;) {
		ssize_t w = pwrite(s->tmp, p + off, n - off,
		    (off_t)(g->foff + g->len + off));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			e = w < 0 ? errno : ENOSPC;
			break;
		}
		off += (size_t)w;
	}
	if (e == 0) {
		s->stats.spilled += n;
		return 0;
	}
	g->cap = g->len;
	tmp_fail(s, "write", s->tmp_dir, e);
	return -1;
}

/*
 * The FILE's write: queues the bytes for the writer, waiting only when
 * the memory and the file are full. Returns n, or 0 with errno set when
 * the output failed (fopencookie's convention).
 */
static ssize_t
spool_cookie_write(void *arg, const char *p, size_t n)
{
	struct spool *s = arg;
	struct spool_seg *g;
	size_t k, left = n;
	uint64_t t0;
	int e, waited = 0;

	pthread_mutex_lock(&s->lock);
	if (!s->running && !s->sync && s->error == 0)
		start_writer(s);
	if (s->sync && s->error == 0 && (e = write_all(s->fd, p, n)) != 0)
		s->error = e;
	if (s->sync)
		left = s->error != 0 ? n : 0;
	while (left > 0 && s->error == 0) {
		g = s->tail;
		if (g == NULL || g->len == g->cap)
			g = seg_new(s);
		if (g == NULL) {
			/* full: the output's pace sets the session's now */
			s->stats.waits += !waited;
			waited = 1;
			t0 = procfs_now_ns();
			if (wait_stop(s, &s->room))
				abandon(s);
			s->stats.wait_ns += procfs_now_ns() - t0;
			continue;
		}
		k = g->cap - g->len < left ? g->cap - g->len : left;
		if (seg_append(s, g, p, k) != 0)
			continue;
		if (g->len == g->taken)
			g->t_pend = procfs_now_ns();
		g->len += k;
		s->held += k;
		s->stats.bytes += k;
		if (s->held > s->stats.max_held)
			s->stats.max_held = s->held;
		p += k;
		left -= k;
		pthread_cond_signal(&s->more);
	}
	e = s->error;
	/* what the output will never see: counted, with why */
	if (e != 0 && left > 0) {
		s->stats.dropped += left;
		if (s->stats.drop_errno == 0)
			s->stats.drop_errno = e;
	}
	pthread_mutex_unlock(&s->lock);
	if (e != 0) {
		errno = e;
		return 0;
	}
	return (ssize_t)n;
}

/* ---- the sink ---- */

static void
spool_header(void *arg, const struct sample_hdr *h)
{
	struct spool *s = arg;

	sample_write_header(s->file, h);
}

static void
spool_sample(void *arg, const struct sample *smp)
{
	struct spool *s = arg;

	sample_write(s->file, smp);
}

/* Hands the buffered bytes to the queue; says the output's failure. */
static int
spool_flush(void *arg)
{
	struct spool *s = arg;
	int e;

	fflush(s->file);
	pthread_mutex_lock(&s->lock);
	e = s->error;
	pthread_mutex_unlock(&s->lock);
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

static const struct sample_sink_ops spool_ops = {
	.header = spool_header,
	.sample = spool_sample,
	.flush = spool_flush,
};

void
spool_sink(struct spool *s, struct sample_sink *sink)
{
	sink->ops = &spool_ops;
	sink->arg = s;
}

int
spool_finish(struct spool *s)
{
	fflush(s->file);
	pthread_mutex_lock(&s->lock);
	if (s->running && !s->abandoned) {
		s->closing = 1;
		pthread_cond_signal(&s->more);
		while (!s->ended)
			if (wait_stop(s, &s->room)) {
				abandon(s);
				break;
			}
	}
	if (s->running && s->ended) {
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		pthread_mutex_lock(&s->lock);
		s->running = 0;
		s->closing = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return spool_flush(s);
}

void
spool_release(struct spool *s)
{
	pthread_mutex_lock(&s->lock);
	if (s->running && s->abandoned) {
		/* the writer may be in a write that never ends: see abandon() */
		pthread_mutex_unlock(&s->lock);
		pthread_cancel(s->thread);
		pthread_join(s->thread, NULL);
		pthread_mutex_lock(&s->lock);
		s->running = 0;
	}
	if (s->running) {
		/* nothing more is written: the writer ends after its write */
		if (s->error == 0)
			s->error = EPIPE;
		pthread_cond_signal(&s->more);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		pthread_mutex_lock(&s->lock);
		s->running = 0;
	}
	drop_all(s);
	/* what the FILE still buffers is dropped too, not written in place */
	if (s->error == 0)
		s->error = EPIPE;
	pthread_mutex_unlock(&s->lock);
	fclose(s->file);
	free(s->fbuf);
	if (s->spare != NULL)
		free(s->spare->mem);
	free(s->spare);
	free(s->rbuf);
	if (s->tmp != -1)
		close(s->tmp);
	pthread_cond_destroy(&s->more);
	pthread_cond_destroy(&s->room);
	pthread_mutex_destroy(&s->lock);
	memset(s, 0, sizeof(*s));
}
