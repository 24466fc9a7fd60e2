/*
 * procfs: what fgrecord reads of live processes and threads in /proc
 * (see procfs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/num.h"
#include "base/procfs.h"

#define PROCFS_OPEN	(O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)

uint64_t
procfs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Opens path (a /proc file) as every reader here does; retries EINTR. */
static int
open_proc(const char *path)
{
	int fd;

	do
		fd = open(path, PROCFS_OPEN);
	while (fd < 0 && errno == EINTR);
	return fd;
}

/* ---- walking /proc and /proc/PID/task ---- */

static int
walk_open(struct procfs_walk *w, const char *path)
{
	int fd, e;

	w->dir = NULL;
	do
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -1;
	if ((w->dir = fdopendir(fd)) == NULL) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return 0;
}

int
procfs_walk_tasks(struct procfs_walk *w, pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	return walk_open(w, path);
}

int
procfs_walk_procs(struct procfs_walk *w)
{
	return walk_open(w, "/proc");
}

/* The number a directory entry names, or 0 when it is no positive ID. */
static pid_t
entry_id(const char *s)
{
	uint64_t v;

	if (num_u64(s, strlen(s), &v, NULL) != NUM_OK || v > INT_MAX)
		return 0;
	return (pid_t)v;
}

pid_t
procfs_walk_next(struct procfs_walk *w)
{
	struct dirent *de;
	pid_t id;

	if (w->dir == NULL)
		return 0;
	while ((de = readdir(w->dir)) != NULL)
		if ((id = entry_id(de->d_name)) > 0)
			return id;
	return 0;
}

void
procfs_walk_release(struct procfs_walk *w)
{
	if (w->dir != NULL)
		closedir(w->dir);
	w->dir = NULL;
}

/* ---- /proc/PID/status ---- */

/* Whether line starts with the field name (with its colon). */
static int
field_is(const char *line, const char *name)
{
	return strncmp(line, name, strlen(name)) == 0;
}

int
procfs_status(pid_t pid, struct procfs_status *st)
{
	char path[64], line[256];
	unsigned long ids[3];
	int fd, at_start = 1, seen_tgid = 0, seen_uid = 0, seen_seccomp = 0;
	int seen_tracer = 0, n;
	unsigned long long mask;
	FILE *f;

	memset(st, 0, sizeof(*st));
	st->seccomp = -1;
	if (pid == 0)
		snprintf(path, sizeof(path), "/proc/self/status");
	else
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	/* /proc/self is a link: only the last part of a path is not followed. */
	if ((fd = open_proc(path)) < 0)
		return -1;
	if ((f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return -1;
	}
	/*
	 * Lines are read in pieces of at most 255 bytes; only a piece that
	 * starts a line is looked at, so a long line (Groups:) cannot pass
	 * its middle off as a field.
	 */
	while (fgets(line, sizeof(line), f) != NULL) {
		int starts = at_start;

		at_start = strchr(line, '\n') != NULL;
		if (!starts)
			continue;
		if (!seen_tgid && field_is(line, "Tgid:")) {
			int tgid;

			seen_tgid = 1;
			if (sscanf(line, "Tgid: %d", &tgid) == 1 && tgid > 0)
				st->tgid = (pid_t)tgid;
		} else if (!seen_uid && field_is(line, "Uid:")) {
			seen_uid = 1;
			n = sscanf(line, "Uid: %lu %lu %lu", &ids[0], &ids[1],
			    &ids[2]);
			for (st->nuid = 0; st->nuid < n; st->nuid++)
				st->uid[st->nuid] = (uid_t)ids[st->nuid];
		} else if (!seen_seccomp && field_is(line, "Seccomp:")) {
			seen_seccomp = 1;
			if (sscanf(line, "Seccomp: %d", &st->seccomp) != 1)
				st->seccomp = -1;
		} else if (!seen_tracer && field_is(line, "TracerPid:")) {
			int tracer;

			seen_tracer = 1;
			if (sscanf(line, "TracerPid: %d", &tracer) == 1 &&
			    tracer > 0)
				st->tracer = (pid_t)tracer;
		} else if (field_is(line, "SigPnd:")) {
			if (sscanf(line, "SigPnd: %llx", &mask) == 1)
				st->sigpnd = mask;
		} else if (field_is(line, "ShdPnd:")) {
			if (sscanf(line, "ShdPnd: %llx", &mask) == 1)
				st->shdpnd = mask;
		} else if (field_is(line, "SigBlk:")) {
			if (sscanf(line, "SigBlk: %llx", &mask) == 1)
				st->sigblk = mask;
		}
	}
	fclose(f);
	return 0;
}

/* ---- a thread's own files ---- */

int
procfs_task_open(pid_t pid, pid_t tid, const char *what)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)pid, (int)tid,
	    what);
	return open_proc(path);
}

int
procfs_reread(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = pread(fd, buf, size - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

int
procfs_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	int fd, r;

	buf[0] = '\0';
	if ((fd = procfs_task_open(pid, tid, "comm")) < 0)
		return -1;
	r = procfs_reread(fd, buf, len);
	close(fd);
	if (r != 0)
		buf[0] = '\0';	/* empty, or gone since the open: still 0 */
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int
procfs_stat_state(char *buf, char **field3)
{
	char *s;

	if ((s = strrchr(buf, ')')) == NULL || s[1] != ' ')
		return 0;
	if (field3 != NULL)
		*field3 = s + 2;
	return (unsigned char)s[2];
}

/* Whether the stat file at path is there and says neither 'Z' nor 'X'. */
static int
stat_alive(const char *path)
{
	char buf[512];
	int fd, state = 0;

	if ((fd = open_proc(path)) < 0)
		return 0;
	if (procfs_reread(fd, buf, sizeof(buf)) == 0)
		state = procfs_stat_state(buf, NULL);
	close(fd);
	return state != 0 && state != 'Z' && state != 'X';
}

int
procfs_alive(pid_t pid)
{
	struct procfs_walk w;
	char path[96];
	pid_t tid;
	int alive = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (stat_alive(path))
		return 1;
	if (procfs_walk_tasks(&w, pid) != 0)
		return 0;
	while (!alive && (tid = procfs_walk_next(&w)) > 0) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid,
		    (int)tid);
		alive = stat_alive(path);
	}
	procfs_walk_release(&w);
	return alive;
}

/* ---- a process's mappings ---- */

int
procfs_maps_open(struct procfs_maps *ms, pid_t pid, pid_t tid)
{
	char path[64];
	int fd;

	memset(ms, 0, sizeof(*ms));
	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/maps", (int)pid,
		    (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((fd = open_proc(path)) < 0)
		return -1;
	if ((ms->f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return -1;
	}
	return 0;
}

/*
 * A line is "START-END PERMS OFFSET DEV INODE NAME", the name after any
 * number of spaces, and none for an anonymous mapping.
 */
int
procfs_maps_next(struct procfs_maps *ms, struct procfs_map *m)
{
	while (getline(&ms->line, &ms->cap, ms->f) > 0)
		if (procfs_map_line(ms->line, m))
			return 1;
	return 0;
}

int
procfs_map_line(char *line, struct procfs_map *m)
{
	unsigned long long lo, hi, off, ino;
	unsigned maj, min;
	char *name;
	size_t l;
	int n = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &lo, &hi,
	    m->perms, &off, &maj, &min, &ino, &n) < 7 || n == 0 || hi < lo)
		return 0;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	name = line + n;
	l = strlen(name);
	while (l && (name[l - 1] == '\n' || name[l - 1] == ' '))
		name[--l] = '\0';
	m->start = lo;
	m->end = hi;
	m->pgoff = off;
	m->name = name;
	m->line = line;
	return 1;
}

void
procfs_maps_release(struct procfs_maps *ms)
{
	if (ms->f)
		fclose(ms->f);
	free(ms->line);
	memset(ms, 0, sizeof(*ms));
}
