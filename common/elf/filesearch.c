/*
 * filesearch: a recorded file looked for under a root, in folders by
 * build ID or base name (see filesearch.h).
 */
#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xalloc.h"
#include "elf/dbgfetch.h"
#include "elf/elffile.h"
#include "elf/filesearch.h"

/* Candidates a file has at most: the root's, its own, three per folder. */
#define CAND_MAX(fs)	(2 + 3 * ((fs) != NULL ? (fs)->ndirs : 0))

/* Whether id is a build ID a path may be made of: 3 to 64 bytes of hex. */
static int
id_ok(const char *id)
{
	size_t n = id != NULL ? strlen(id) : 0;

	return n >= 6 && n <= 128 && n % 2 == 0 &&
	    strspn(id, "0123456789abcdefABCDEF") == n;
}

/* The base name of path (all of it without a slash). */
static const char *
base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/*
 * Fills c with the candidates of path, in order: under the root, path,
 * then per folder. Returns their number; *nprimary gets how many of the
 * first are the root's and path's own.
 */
static size_t
candidates(const struct filesearch *fs, const char *path, const char *id,
    char **c, size_t *nprimary)
{
	const char *b = base_of(path);
	size_t n = 0, i;

	if (fs != NULL && fs->symfs != NULL)
		c[n++] = xasprintf("%s%s%s", fs->symfs, path[0] == '/' ? "" :
		    "/", path);
	c[n++] = xstrdup(path);
	*nprimary = n;
	for (i = 0; fs != NULL && i < fs->ndirs; i++) {
		if (id_ok(id)) {
			c[n++] = xasprintf("%s/.build-id/%.2s/%s", fs->dirs[i],
			    id, id + 2);
			c[n++] = xasprintf("%s/%s", fs->dirs[i], id);
		}
		if (*b != '\0' && strcmp(b, ".") != 0 && strcmp(b, "..") != 0)
			c[n++] = xasprintf("%s/%s", fs->dirs[i], b);
	}
	return n;
}

/* Opens candidate c, the recorded path itself when own. */
static int
cand_open(struct elffile *ef, const char *c, int own, const char *inside)
{
	return own && inside != NULL ? elffile_open_inside(ef, c, inside) :
	    elffile_open(ef, c);
}

int
filesearch_open(const struct filesearch *fs, struct elffile *ef,
    const char *path, const char *id, char **note)
{
	return filesearch_open_inside(fs, ef, path, NULL, id, note);
}

int
filesearch_open_inside(const struct filesearch *fs, struct elffile *ef,
    const char *path, const char *inside, const char *id, char **note)
{
	char **c = xcalloc(CAND_MAX(fs), sizeof(*c));
	size_t n, nprimary, i;
	ssize_t fallback = -1, firstbad = -1;
	char *other = NULL;
	int rc = -1;

	n = candidates(fs, path, id, c, &nprimary);
	for (i = 0; i < n; i++) {
		char *mine;

		rc = cand_open(ef, c[i], i + 1 == nprimary, inside);
		if (rc == ELFFILE_ERRNO && (ef->errnum == ENOENT ||
		    ef->errnum == ENOTDIR))
			continue;
		if (rc != ELFFILE_OK) {
			if (firstbad < 0)
				firstbad = (ssize_t)i;
			continue;
		}
		mine = elffile_buildid(ef);
		if (id == NULL || (mine != NULL && strcasecmp(mine, id) == 0)) {
			free(mine);
			break;
		}
		if (i < nprimary) {
			if (fallback < 0)
				fallback = (ssize_t)i;
		} else if (other == NULL) {
			other = xasprintf("'%s' has build ID %s, not the "
			    "recorded %s: not used", c[i], mine != NULL ?
			    mine : "none", id);
		}
		free(mine);
		elffile_release(ef);
		rc = -1;
	}
	if (i == n) {
		/* None is the recorded build: the one to say something of. */
		i = fallback >= 0 ? (size_t)fallback : firstbad >= 0 ?
		    (size_t)firstbad : nprimary - 1;
		rc = cand_open(ef, c[i], i + 1 == nprimary, inside);
		/* Said only when no candidate is the recorded build. */
		if (note != NULL && *note == NULL) {
			*note = other;
			other = NULL;
		}
	}
	free(other);
	for (i = 0; i < n; i++)
		free(c[i]);
	free(c);
	return rc;
}

char *
filesearch_find(const struct filesearch *fs, const char *path,
    const char *id)
{
	struct elffile ef;
	char *found = NULL, *mine;

	elffile_init(&ef);
	if (filesearch_open(fs, &ef, path, id, NULL) == ELFFILE_OK) {
		mine = elffile_buildid(&ef);
		if (id == NULL || (mine != NULL && strcasecmp(mine, id) == 0))
			found = xstrdup(ef.path);
		free(mine);
	}
	elffile_release(&ef);
	if (found == NULL && id != NULL && fs != NULL)
		found = dbgfetch_find(fs->fetch, DBGFETCH_EXECUTABLE, id, path);
	return found;
}

size_t
filesearch_debug_paths(const struct filesearch *fs, const char *id,
    const char *dbgpath, const char *link, char **out, size_t max)
{
	size_t n = 0, i;

	if (fs == NULL)
		return 0;
	if (fs->symfs != NULL && dbgpath != NULL && n < max)
		out[n++] = xasprintf("%s%s", fs->symfs, dbgpath);
	for (i = 0; i < fs->ndirs; i++) {
		if (id_ok(id) && n < max)
			out[n++] = xasprintf("%s/.build-id/%.2s/%s.debug",
			    fs->dirs[i], id, id + 2);
		if (link != NULL && strchr(link, '/') == NULL && n < max)
			out[n++] = xasprintf("%s/%s", fs->dirs[i], link);
	}
	return n;
}

int
filesearch_opt_dir(const char *opt, char *dir, char **why)
{
	struct stat st;
	size_t n = strlen(dir);

	*why = NULL;
	if (n == 0)
		*why = xasprintf("%s: no directory given", opt);
	else if (stat(dir, &st) != 0)
		*why = xasprintf("%s: '%s': %s", opt, dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		*why = xasprintf("%s: '%s' is not a directory", opt, dir);
	if (*why != NULL)
		return 2;
	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	return 0;
}
