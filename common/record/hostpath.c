#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/inroot.h"
#include "base/xalloc.h"
#include "record/hostpath.h"

/* Lines of a mount table read at most: a process may make 100,000 mounts. */
#define HOSTPATH_MOUNTS	65536

int
hostpath_foreign(pid_t pid)
{
	struct stat mine, theirs;
	char p[64];

	snprintf(p, sizeof(p), "/proc/%d/root", (int)pid);
	if (stat("/", &mine) != 0 || stat(p, &theirs) != 0)
		return 0;
	if (mine.st_dev != theirs.st_dev || mine.st_ino != theirs.st_ino)
		return 1;
	snprintf(p, sizeof(p), "/proc/%d/ns/mnt", (int)pid);
	if (stat("/proc/self/ns/mnt", &mine) != 0 || stat(p, &theirs) != 0)
		return 0;
	return mine.st_dev != theirs.st_dev || mine.st_ino != theirs.st_ino;
}

static void
id_add(struct hostpath_id *id, const struct stat *st)
{
	if (id->n == 1 && id->dev[0] == st->st_dev && id->ino[0] == st->st_ino)
		return;
	id->dev[id->n] = st->st_dev;
	id->ino[id->n] = st->st_ino;
	id->n++;
}

int
hostpath_identity(struct hostpath_id *id, pid_t pid, const char *path,
    const char *mapped)
{
	struct stat st;
	char *p;

	memset(id, 0, sizeof(*id));
	/* stat opens nothing; it follows map_files only for root */
	if (mapped != NULL && stat(mapped, &st) == 0 && S_ISREG(st.st_mode))
		id_add(id, &st);
	/* as the process resolves it: no link out of its root */
	p = xasprintf("/proc/%d/root", (int)pid);
	if (inroot_stat(p, path, &st) == 0 && S_ISREG(st.st_mode))
		id_add(id, &st);
	free(p);
	return id->n > 0 ? 0 : -1;
}

/* Is st the file id? */
static int
is_id(const struct stat *st, const struct hostpath_id *id)
{
	int i;

	if (!S_ISREG(st->st_mode))
		return 0;
	for (i = 0; i < id->n; i++)
		if (st->st_dev == id->dev[i] && st->st_ino == id->ino[i])
			return 1;
	return 0;
}

/* Does path, a name of ours, stat as the file id? */
static int
is_file(const char *path, const struct hostpath_id *id)
{
	struct stat st;

	return stat(path, &st) == 0 && is_id(&st, id);
}

/*
 * Does cand, our name for what the process calls inside, resolve beneath
 * its root (base/inroot: no link out of it) to the file id?
 */
static int
is_inside(const char *cand, const char *inside, const struct hostpath_id *id)
{
	size_t n = inroot_split(cand, inside);
	char *root = xmemdup0(cand, n == 0 && cand[0] == '/' ? 1 : n);
	struct stat st;
	int ok = inroot_stat(root, cand + n, &st) == 0 && is_id(&st, id);

	free(root);
	return ok;
}

/*
 * Is path dir itself or below it? Then *rest is what follows dir in path:
 * "" or "/...".
 */
static int
below(const char *dir, const char *path, const char **rest)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0) {
		*rest = path;
		return 1;
	}
	if (strncmp(path, dir, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return 0;
	*rest = path + n;
	return 1;
}

/* dir and rest ("" or "/..."), joined: a new string. */
static char *
join(const char *dir, const char *rest)
{
	if (*rest == '\0')
		return xstrdup(dir);
	return xasprintf("%s%s", strcmp(dir, "/") == 0 ? "" : dir, rest);
}

/* A mountinfo field's octal escapes (\040 for a space) undone in place. */
static void
unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0'));
			s += 3;
		} else
			*o++ = *s;
	}
	*o = '\0';
}

/* One mount of a mountinfo table. */
struct mount {
	char		*dev;		/* "MAJOR:MINOR", in the table's text */
	char		*root;		/* the mounted directory, in its file system */
	char		*point;		/* where it is mounted */
};

/*
 * A mount table read once and kept while it does not change: a process
 * may make 10,000 mounts and map 1,000 files, and reading its table and
 * ours again for each mapping made fgrecord fall behind its samples.
 * The kernel marks an open mountinfo file when its namespace's mounts
 * change (poll's POLLPRI), and the table is read again then.
 */
struct mtab {
	pid_t		 pid;		/* 0 for our own */
	dev_t		 nsdev;		/* its mount namespace, /proc/PID/ns/mnt */
	ino_t		 nsino;
	int		 fd;		/* its mountinfo, open; -1: a free slot */
	char		*text;		/* the table, its fields cut out in place */
	struct mount	*m;
	size_t		 n;
	unsigned	 used;		/* when last used, for replacement */
};

#define HOSTPATH_TABS	4

static struct mtab tabs[HOSTPATH_TABS] = {
	{ .fd = -1 }, { .fd = -1 }, { .fd = -1 }, { .fd = -1 }
};
static unsigned tabs_clock;

static void
mtab_free(struct mtab *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->text);
	free(t->m);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

/*
 * Cuts the fields of one mountinfo line in place into *m. Returns 1 for
 * a mount of absolute paths, or 0.
 */
static int
mount_cut(char *line, struct mount *m)
{
	char *save, *id, *parent;

	if ((id = strtok_r(line, " ", &save)) == NULL ||
	    (parent = strtok_r(NULL, " ", &save)) == NULL ||
	    (m->dev = strtok_r(NULL, " ", &save)) == NULL ||
	    (m->root = strtok_r(NULL, " ", &save)) == NULL ||
	    (m->point = strtok_r(NULL, " ", &save)) == NULL)
		return 0;
	unescape(m->root);
	unescape(m->point);
	return m->root[0] == '/' && m->point[0] == '/';
}

/* Reads t's table (again) from the start of its file. Returns 0, or -1. */
static int
mtab_read(struct mtab *t)
{
	struct buf b;
	char *line, *nl;
	size_t cap = 0;
	unsigned count = 0;
	ssize_t r;

	buf_init(&b);
	if (lseek(t->fd, 0, SEEK_SET) != 0)
		return -1;
	for (;;) {
		buf_grow(&b, 65536);
		if ((r = read(t->fd, b.p + b.len, 65536)) < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		buf_setlen(&b, b.len + (size_t)r);
	}
	if (r < 0) {
		buf_release(&b);
		return -1;
	}
	free(t->text);
	free(t->m);
	t->m = NULL;
	t->n = 0;
	t->text = buf_detach(&b, NULL);
	for (line = t->text; *line != '\0' && count < HOSTPATH_MOUNTS;
	    line = nl + 1, count++) {
		if ((nl = strchr(line, '\n')) == NULL)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		GROW(t->m, t->n + 1, cap);
		if (mount_cut(line, &t->m[t->n]))
			t->n++;
	}
	return 0;
}

/*
 * The mount table of pid (0: ours), read now or kept from before when
 * its namespace is the same and its mounts did not change. NULL when it
 * cannot be read.
 */
static struct mtab *
mtab_get(pid_t pid)
{
	struct mtab *t = NULL, *old = &tabs[0];
	struct pollfd pfd;
	struct stat ns;
	char p[64];
	int i;

	if (pid == 0)
		snprintf(p, sizeof(p), "/proc/self/ns/mnt");
	else
		snprintf(p, sizeof(p), "/proc/%d/ns/mnt", (int)pid);
	if (stat(p, &ns) != 0)
		return NULL;
	for (i = 0; i < HOSTPATH_TABS; i++) {
		if (tabs[i].fd >= 0 && tabs[i].pid == pid &&
		    tabs[i].nsdev == ns.st_dev && tabs[i].nsino == ns.st_ino)
			t = &tabs[i];
		if (tabs[i].fd < 0 || tabs[i].used < old->used)
			old = &tabs[i];
	}
	if (t != NULL) {
		pfd.fd = t->fd;
		pfd.events = POLLPRI;
		pfd.revents = 0;
		if (poll(&pfd, 1, 0) != 0 && mtab_read(t) != 0) {
			old = t;		/* its process gone: open anew */
			t = NULL;
		}
	}
	if (t == NULL) {
		t = old;
		mtab_free(t);
		if (pid == 0)
			snprintf(p, sizeof(p), "/proc/self/mountinfo");
		else
			snprintf(p, sizeof(p), "/proc/%d/mountinfo", (int)pid);
		if ((t->fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
			return NULL;
		t->pid = pid;
		t->nsdev = ns.st_dev;
		t->nsino = ns.st_ino;
		if (mtab_read(t) != 0) {
			mtab_free(t);
			return NULL;
		}
	}
	t->used = ++tabs_clock;
	return t;
}

/*
 * Where pid's path is in its file system: the device of the mount that
 * holds it (the last mounted of those with the longest mount point) and
 * the path from that file system's top. Returns 0, or -1.
 */
static int
fs_path(pid_t pid, const char *path, char **dev, char **inner)
{
	const struct mount *best = NULL;
	const char *rest, *best_rest = NULL;
	struct mtab *t;
	size_t i;

	*dev = *inner = NULL;
	if ((t = mtab_get(pid)) == NULL)
		return -1;
	for (i = 0; i < t->n; i++) {
		if (!below(t->m[i].point, path, &rest) || (best != NULL &&
		    strlen(t->m[i].point) < strlen(best->point)))
			continue;
		best = &t->m[i];
		best_rest = rest;
	}
	if (best == NULL)
		return -1;
	*dev = xstrdup(best->dev);
	*inner = join(best->root, best_rest);
	return 0;
}

/*
 * A path of ours to the file id, found through the mounts: pid's mount
 * that holds path, then every mount of ours of the same file system
 * whose root holds the file. NULL when none names it.
 */
static char *
through_mounts(pid_t pid, const char *path, const struct hostpath_id *id)
{
	char *dev, *inner, *cand = NULL;
	const char *rest;
	struct mtab *t;
	size_t i;

	if (fs_path(pid, path, &dev, &inner) != 0)
		return NULL;
	if ((t = mtab_get(0)) != NULL)
		for (i = 0; cand == NULL && i < t->n; i++) {
			if (strcmp(t->m[i].dev, dev) != 0 ||
			    !below(t->m[i].root, inner, &rest))
				continue;
			cand = join(t->m[i].point, rest);
			if (!is_inside(cand, path, id)) {
				free(cand);
				cand = NULL;
			}
		}
	free(dev);
	free(inner);
	return cand;
}

char *
hostpath_find(pid_t pid, const char *path, const struct hostpath_id *id)
{
	char link[64], root[PATH_MAX], *cand;
	ssize_t n;

	if (path[0] != '/' || id->n == 0 || is_file(path, id))
		return NULL;
	/* chroot: its root is a directory of ours */
	snprintf(link, sizeof(link), "/proc/%d/root", (int)pid);
	if ((n = readlink(link, root, sizeof(root) - 1)) > 1 && root[0] == '/') {
		root[n] = '\0';
		cand = join(root, path);
		if (is_inside(cand, path, id))
			return cand;
		free(cand);
	}
	/* another mount namespace: a bind mount, a container's overlay */
	if ((cand = through_mounts(pid, path, id)) != NULL)
		return cand;
	/* only inside: through its root, while it lives */
	cand = xasprintf("/proc/%d/root%s", (int)pid, path);
	if (is_inside(cand, path, id))
		return cand;
	free(cand);
	return NULL;
}
