#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "base/procfs.h"
#include "base/xalloc.h"
#include "record/livestack.h"

/* The stack mapping of a thread, as its maps file gave it. */
struct livestack_slot {
	pid_t		 pid;
	pid_t		 tid;		/* 0: empty */
	uint64_t	 start, end;	/* start == end: none found */
	int		 err;		/* then why (an errno), said again */
};

void
livestack_init(struct livestack *ls)
{
	memset(ls, 0, sizeof(*ls));
	ls->slots = xcalloc(LIVESTACK_SLOTS, sizeof(*ls->slots));
}

void
livestack_release(struct livestack *ls)
{
	unsigned i;

	for (i = 0; i < LIVESTACK_CHUNKS; i++)
		free(ls->chunk[i]);
	free(ls->slots);
	memset(ls, 0, sizeof(*ls));
}

/* Finds the mapping of thread tid that holds addr; 0, or -1 (errno). */
static int
find_mapping(pid_t pid, pid_t tid, uint64_t addr, uint64_t *start,
    uint64_t *end)
{
	struct procfs_maps ms;
	struct procfs_map m;
	int found = 0;

	if (procfs_maps_open(&ms, pid, tid) != 0)
		return -1;
	while (!found && procfs_maps_next(&ms, &m)) {
		if (addr < m.start || addr >= m.end)
			continue;
		/* A stack is readable and writable, and maps no file. */
		if (m.perms[0] != 'r' || m.perms[1] != 'w' ||
		    (m.name[0] != '\0' && m.name[0] != '['))
			break;
		*start = m.start;
		*end = m.end;
		found = 1;
	}
	procfs_maps_release(&ms);
	if (!found)
		errno = EFAULT;
	return found ? 0 : -1;
}

int
livestack_begin(struct livestack *ls, pid_t pid, pid_t tid, uint64_t copy_end)
{
	struct livestack_slot *s = &ls->slots[(uint32_t)tid % LIVESTACK_SLOTS];

	ls->nchunks = 0;
	ls->err = 0;
	ls->pid = pid;
	ls->tid = tid;
	ls->lo = ls->hi = copy_end;
	if (tid <= 0 || copy_end == 0)
		return -1;
	if (s->tid == tid && s->pid == pid && s->start == s->end) {
		/* Refused once: the maps are not read again. */
		ls->err = s->err;
		return -1;
	}
	if (s->tid != tid || s->pid != pid || copy_end - 1 < s->start ||
	    copy_end - 1 >= s->end) {
		s->pid = pid;
		s->tid = tid;
		if (find_mapping(pid, tid, copy_end - 1, &s->start,
		    &s->end) != 0) {
			s->start = s->end = 0;
			s->err = ls->err = errno;
			/*
			 * Kept only when refused: a thread gone has nothing to
			 * keep, and one whose stack pointer was elsewhere (a
			 * coroutine's stack, a signal stack) is looked for again.
			 */
			if (errno != EACCES && errno != EPERM)
				s->tid = 0;
			return -1;
		}
	}
	if (copy_end >= s->end)
		return -1;	/* the copy reached the stack's end */
	ls->hi = s->end;
	return 0;
}

/* Reads len bytes at addr of the walk's thread into buf; the bytes read. */
static size_t
readmem(struct livestack *ls, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t got;

	ls->reads++;
	got = process_vm_readv(ls->pid, &local, 1, &remote, 1, 0);
	if (got < 0) {
		ls->err = errno;
		return 0;
	}
	return (size_t)got;
}

int
livestack_read(void *arg, uint64_t addr, uint64_t *v)
{
	struct livestack *ls = arg;
	uint64_t base;
	unsigned i;
	size_t len, size;

	if (addr < ls->lo || addr >= ls->hi || ls->hi - addr < 8)
		return -1;
	size = LIVESTACK_CHUNK;
	if (ls->step != 0 && ls->nchunks < 16 &&
	    (ls->step << ls->nchunks) < LIVESTACK_CHUNK)
		size = ls->step << ls->nchunks;
	base = addr & ~(uint64_t)(size - 1);
	if (base < ls->lo)
		base = ls->lo;
	for (i = 0; i < ls->nchunks; i++)
		if (addr >= ls->base[i] && addr - ls->base[i] < ls->len[i]) {
			if (ls->len[i] - (addr - ls->base[i]) < 8)
				break;	/* a word across two chunks */
			memcpy(v, ls->chunk[i] + (addr - ls->base[i]), 8);
			return 0;
		}
	if (i < ls->nchunks)
		base = addr;	/* a chunk that starts at the word */
	if (ls->nchunks == LIVESTACK_CHUNKS)
		return -1;
	i = ls->nchunks;
	if (ls->chunk[i] == NULL)
		ls->chunk[i] = xmalloc(LIVESTACK_CHUNK);
	len = size;
	if (ls->hi - base < len)
		len = (size_t)(ls->hi - base);
	len = readmem(ls, base, ls->chunk[i], len);
	if (len < 8 || addr - base > len - 8)
		return -1;
	ls->base[i] = base;
	ls->len[i] = len;
	ls->nchunks++;
	memcpy(v, ls->chunk[i] + (addr - base), 8);
	return 0;
}

int
livestack_holds(struct livestack *ls, uint64_t addr, uint64_t want)
{
	uint64_t v;

	if (readmem(ls, addr, &v, 8) != 8)
		return -1;
	return v == want;
}

void
livestack_forget(struct livestack *ls, pid_t pid, pid_t tid)
{
	unsigned i;

	if (tid > 0) {
		if (ls->slots[(uint32_t)tid % LIVESTACK_SLOTS].tid == tid)
			ls->slots[(uint32_t)tid % LIVESTACK_SLOTS].tid = 0;
		return;
	}
	for (i = 0; i < LIVESTACK_SLOTS; i++)
		if (ls->slots[i].pid == pid)
			ls->slots[i].tid = 0;
}

unsigned
livestack_keep(struct livestack *ls, struct livestack_pieces *p)
{
	unsigned char *swap;
	unsigned i;

	for (i = 0; i < ls->nchunks; i++) {
		swap = p->chunk[i];
		p->chunk[i] = ls->chunk[i];
		ls->chunk[i] = swap;
		p->base[i] = ls->base[i];
		p->len[i] = ls->len[i];
	}
	p->n = ls->nchunks;
	ls->nchunks = 0;	/* its chunks are p's now */
	return p->n;
}

void
livestack_pieces_copy(struct livestack_pieces *dst,
    const struct livestack_pieces *src)
{
	unsigned i;

	for (i = 0; i < src->n; i++) {
		dst->base[i] = src->base[i];
		dst->len[i] = src->len[i];
		dst->chunk[i] = xmalloc(src->len[i] ? src->len[i] : 1);
		memcpy(dst->chunk[i], src->chunk[i], src->len[i]);
	}
	dst->n = src->n;
}

int
livestack_pieces_read(void *arg, uint64_t addr, uint64_t *v)
{
	const struct livestack_pieces *p = arg;
	unsigned i;

	for (i = 0; i < p->n; i++)
		if (addr >= p->base[i] && addr - p->base[i] < p->len[i] &&
		    p->len[i] - (addr - p->base[i]) >= 8) {
			memcpy(v, p->chunk[i] + (addr - p->base[i]), 8);
			return 0;
		}
	return -1;
}

void
livestack_pieces_release(struct livestack_pieces *p)
{
	unsigned i;

	for (i = 0; i < LIVESTACK_CHUNKS; i++)
		free(p->chunk[i]);
	memset(p, 0, sizeof(*p));
}
