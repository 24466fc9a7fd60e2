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

/*
 * Reads up to n numbers (base 10 or 16) after the field's name and its
 * white space, each after white space; returns how many were read whole.
 */
static int
field_nums(const char *line, const char *name, int base, uint64_t *v,
    int n)
{
	const char *p = line + strlen(name);
	int i;

	for (i = 0; i < n; i++) {
		if (*p != ' ' && *p != '\t')
			break;
		while (*p == ' ' || *p == '\t')
			p++;
		if (num_next(&p, base, &v[i]) != NUM_OK)
			break;
	}
	return i;
}

/* One field of status into st, when line is the field's. */
static void
status_field(const char *line, struct procfs_status *st, int *seen)
{
	uint64_t v[3];

	if (!(*seen & 1) && field_is(line, "Tgid:")) {
		*seen |= 1;
		if (field_nums(line, "Tgid:", 10, v, 1) == 1 && v[0] > 0 &&
		    v[0] <= INT_MAX)
			st->tgid = (pid_t)v[0];
	} else if (!(*seen & 2) && field_is(line, "Uid:")) {
		*seen |= 2;
		st->nuid = field_nums(line, "Uid:", 10, v, 3);
		for (int i = 0; i < st->nuid; i++)
			st->uid[i] = (uid_t)v[i];
	} else if (!(*seen & 4) && field_is(line, "Seccomp:")) {
		*seen |= 4;
		if (field_nums(line, "Seccomp:", 10, v, 1) == 1 &&
		    v[0] <= INT_MAX)
			st->seccomp = (int)v[0];
	} else if (!(*seen & 8) && field_is(line, "TracerPid:")) {
		*seen |= 8;
		if (field_nums(line, "TracerPid:", 10, v, 1) == 1 &&
		    v[0] > 0 && v[0] <= INT_MAX)
			st->tracer = (pid_t)v[0];
	} else if (field_is(line, "SigPnd:")) {
		if (field_nums(line, "SigPnd:", 16, v, 1) == 1)
			st->sigpnd = v[0];
	} else if (field_is(line, "ShdPnd:")) {
		if (field_nums(line, "ShdPnd:", 16, v, 1) == 1)
			st->shdpnd = v[0];
	} else if (field_is(line, "SigBlk:")) {
		if (field_nums(line, "SigBlk:", 16, v, 1) == 1)
			st->sigblk = v[0];
	}
}

int
procfs_status(pid_t pid, struct procfs_status *st)
{
	char path[64], line[256];
	int fd, at_start = 1, seen = 0;
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
		if (starts)
			status_field(line, st, &seen);
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

uint64_t
procfs_auxv(pid_t pid, uint64_t type)
{
	uint64_t v[64][2], r = 0;
	ssize_t n;
	size_t i;
	int fd;

	if ((fd = procfs_task_open(pid, pid, "auxv")) < 0)
		return 0;
	do
		n = pread(fd, v, sizeof(v), 0);
	while (n < 0 && errno == EINTR);
	close(fd);
	for (i = 0; n > 0 && i < (size_t)n / sizeof(v[0]); i++) {
		if (v[i][0] == 0)
			break;		/* AT_NULL ends it */
		if (v[i][0] == type) {
			r = v[i][1];
			break;
		}
	}
	return r;
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
 * Reads a number (base 10 or 16) at *p followed by the character sep,
 * moving past both; 0, or -1 when the line is not so.
 */
static int
maps_num(const char **p, int base, char sep, uint64_t *v)
{
	if (num_next(p, base, v) != NUM_OK || **p != sep)
		return -1;
	(*p)++;
	return 0;
}

/* Parses a maps line into m (the name borrowed from line); 0 or -1. */
static int
maps_parse(char *line, struct procfs_map *m)
{
	const char *p = line, *perms;
	uint64_t maj, min;
	size_t l;
	char *name;

	if (maps_num(&p, 16, '-', &m->start) != 0 ||
	    maps_num(&p, 16, ' ', &m->end) != 0 || m->end < m->start)
		return -1;
	perms = p;
	if ((p = strchr(perms, ' ')) == NULL ||
	    (l = (size_t)(p - perms)) >= sizeof(m->perms))
		return -1;
	memcpy(m->perms, perms, l);
	m->perms[l] = '\0';
	p++;
	if (maps_num(&p, 16, ' ', &m->pgoff) != 0 ||
	    maps_num(&p, 16, ':', &maj) != 0 || maj > UINT_MAX ||
	    maps_num(&p, 16, ' ', &min) != 0 || min > UINT_MAX ||
	    num_next(&p, 10, &m->ino) != NUM_OK)
		return -1;
	m->maj = (unsigned)maj;
	m->min = (unsigned)min;
	while (*p == ' ' || *p == '\t')
		p++;
	name = line + (p - line);
	l = strlen(name);
	while (l && (name[l - 1] == '\n' || name[l - 1] == ' '))
		name[--l] = '\0';
	m->name = name;
	m->line = line;
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
	return maps_parse(line, m) == 0;
}

void
procfs_maps_release(struct procfs_maps *ms)
{
	if (ms->f)
		fclose(ms->f);
	free(ms->line);
	memset(ms, 0, sizeof(*ms));
}
