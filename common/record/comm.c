/*
 * comm: the names of the threads a session has seen (see comm.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/procfs.h"
#include "base/xalloc.h"
#include "record/comm.h"

void
comm_init(struct comm *c)
{
	memset(c, 0, sizeof(*c));
	hashtab_init(&c->idx, 128);
}

void
comm_release(struct comm *c)
{
	free(c->v);
	hashtab_release(&c->idx);
	memset(c, 0, sizeof(*c));
}

static uint64_t
comm_hash(pid_t tid)
{
	return hashtab_int((uint32_t)tid);
}

const char *
comm_find(struct comm *c, pid_t tid)
{
	struct hashtab_probe p;
	uint32_t i;

	hashtab_probe(&c->idx, comm_hash(tid), &p);
	while ((i = hashtab_next(&c->idx, &p)) != HASHTAB_NONE)
		if (c->v[i].tid == tid)
			return c->v[i].name;
	return NULL;
}

const char *
comm_set(struct comm *c, pid_t tid, const char *name)
{
	struct hashtab_probe p;
	struct comm_ent *e = NULL;
	char buf[sizeof(e->name)];
	uint32_t i;

	if (tid <= 0 || name[0] == '\0')
		return NULL;
	/* Copied first: name may be in the table, which may move. */
	snprintf(buf, sizeof(buf), "%s", name);
	hashtab_probe(&c->idx, comm_hash(tid), &p);
	while ((i = hashtab_next(&c->idx, &p)) != HASHTAB_NONE)
		if (c->v[i].tid == tid) {
			e = &c->v[i];
			break;
		}
	if (e == NULL) {
		GROW(c->v, c->n + 1, c->cap);
		e = &c->v[c->n];
		e->tid = tid;
		hashtab_add(&c->idx, &p, c->n++);
	}
	memcpy(e->name, buf, sizeof(e->name));
	return e->name;
}

const char *
comm_get(struct comm *c, pid_t pid, pid_t tid)
{
	const char *name;
	char buf[64];

	if (tid < 0 && pid > 0)
		tid = pid;	/* an exiting thread: the kernel gave no TID */
	if (tid <= 0)
		return "swapper";	/* the idle task, as perf names it */
	if ((name = comm_find(c, tid)) != NULL)
		return name;
	procfs_comm(pid, tid, buf, sizeof(buf));
	if (buf[0] == '\0')
		snprintf(buf, sizeof(buf), ":%d", (int)tid);
	return comm_set(c, tid, buf);
}

void
comm_read_tasks(struct comm *c, pid_t pid)
{
	struct procfs_walk w;
	char buf[64];
	pid_t tid;

	if (procfs_walk_tasks(&w, pid) != 0)
		return;
	while ((tid = procfs_walk_next(&w)) > 0)
		if (procfs_comm(pid, tid, buf, sizeof(buf)) == 0)
			comm_set(c, tid, buf);
	procfs_walk_release(&w);
}
