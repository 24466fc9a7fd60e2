#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	char		*dev;		/* "MAJOR:MINOR", in the line */
	char		*root;		/* the mounted directory, in its file system */
	char		*point;		/* where it is mounted */
};

/*
 * Reads the next line of mountinfo f into *m (its strings pointing into
 * *line). Returns 1, or 0 at the end.
 */
static int
mount_next(FILE *f, char **line, size_t *cap, unsigned *count,
    struct mount *m)
{
	char *save, *id, *parent;

	while (*count < HOSTPATH_MOUNTS && getline(line, cap, f) > 0) {
		++*count;
		(*line)[strcspn(*line, "\n")] = '\0';
		if ((id = strtok_r(*line, " ", &save)) == NULL ||
		    (parent = strtok_r(NULL, " ", &save)) == NULL ||
		    (m->dev = strtok_r(NULL, " ", &save)) == NULL ||
		    (m->root = strtok_r(NULL, " ", &save)) == NULL ||
		    (m->point = strtok_r(NULL, " ", &save)) == NULL)
			continue;
		unescape(m->root);
		unescape(m->point);
		if (m->root[0] == '/' && m->point[0] == '/')
			return 1;
	}
	return 0;
}

static FILE *
mounts_open(const char *who)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/%s/mountinfo", who);
	return fopen(p, "re");
}

/*
 * Where pid's path is in its file system: the device of the mount that
 * holds it (the last mounted of those with the longest mount point) and
 * the path from that file system's top. Returns 0, or -1.
 */
static int
fs_path(pid_t pid, const char *path, char **dev, char **inner)
{
	char who[24], *line = NULL;
	const char *rest;
	size_t cap = 0, best = 0;
	unsigned count = 0;
	struct mount m;
	FILE *f;

	*dev = *inner = NULL;
	snprintf(who, sizeof(who), "%d", (int)pid);
	if ((f = mounts_open(who)) == NULL)
		return -1;
	while (mount_next(f, &line, &cap, &count, &m)) {
		if (!below(m.point, path, &rest) || strlen(m.point) < best)
			continue;
		best = strlen(m.point);
		free(*dev);
		free(*inner);
		*dev = xstrdup(m.dev);
		*inner = join(m.root, rest);
	}
	fclose(f);
	free(line);
	return *dev ? 0 : -1;
}

/*
 * A path of ours to the file id, found through the mounts: pid's mount
 * that holds path, then every mount of ours of the same file system
 * whose root holds the file. NULL when none names it.
 */
static char *
through_mounts(pid_t pid, const char *path, const struct hostpath_id *id)
{
	char *dev, *inner, *line = NULL, *cand = NULL;
	const char *rest;
	unsigned count = 0;
	size_t cap = 0;
	struct mount m;
	FILE *f;

	if (fs_path(pid, path, &dev, &inner) != 0)
		return NULL;
	if ((f = mounts_open("self")) != NULL) {
		while (cand == NULL && mount_next(f, &line, &cap, &count, &m)) {
			if (strcmp(m.dev, dev) != 0 ||
			    !below(m.root, inner, &rest))
				continue;
			cand = join(m.point, rest);
			if (!is_inside(cand, path, id)) {
				free(cand);
				cand = NULL;
			}
		}
		fclose(f);
	}
	free(line);
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
