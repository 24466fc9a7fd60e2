/*
 * buildcache: copies of recorded binaries in perf's build-ID cache, by
 * build ID (see buildcache.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/xalloc.h"
#include "elf/buildcache.h"
#include "elf/elffile.h"

/* A perfconfig larger is not read: perf's own are a few lines. */
#define PERFCONFIG_MAX	(1 << 20)

/*
 * The value of buildid.dir in the perf configuration file path (git's
 * syntax: "[buildid]" then "dir = VALUE"), as a new string; NULL when the
 * file cannot be read or does not set it.
 */
static char *
config_dir(const char *path)
{
	char *buf, *line, *next, *val = NULL, *p, *e;
	size_t len;
	int in = 0;

	if (path == NULL || safeopen_read(path, PERFCONFIG_MAX, &buf, &len) != 0)
		return NULL;
	for (line = buf; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		for (p = line; isspace((unsigned char)*p); p++)
			;
		e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (*p == '[') {
			in = strncasecmp(p, "[buildid]", 9) == 0;
			continue;
		}
		if (!in || strncasecmp(p, "dir", 3) != 0)
			continue;
		for (p += 3; *p == ' ' || *p == '\t'; p++)
			;
		if (*p++ != '=')
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '"' && e - p >= 2 && e[-1] == '"') {
			p++;
			*--e = '\0';
		}
		if (*p != '\0') {
			free(val);
			val = xstrdup(p);
		}
	}
	free(buf);
	return val;
}

char *
buildcache_dir(void)
{
	const char *home = getenv("HOME"), *env = getenv("PERF_BUILDID_DIR");
	char *user, *dir;

	if (env != NULL && env[0] != '\0')
		return xstrdup(env);
	user = home != NULL && home[0] == '/' ?
	    xasprintf("%s/.perfconfig", home) : NULL;
	dir = config_dir(user);
	free(user);
	if (dir == NULL)
		dir = config_dir("/etc/perfconfig");
	if (dir == NULL && home != NULL && home[0] == '/')
		dir = xasprintf("%s/.debug", home);
	return dir;
}

/*
 * Opens path into ef if it is a copy fit to use: ELF of build ID id,
 * owned by you or root, and writable by no one else (root would read
 * what any user wrote there). Returns 1; 0 when nothing is at path (or,
 * at the old layout's name, the new layout's directory); -1 when what is
 * there is refused, ef->why saying why, and naming it.
 */
static int
try_copy(struct elffile *ef, const char *path, const char *id)
{
	struct stat st;
	char *mine = NULL, *why = NULL;
	int rc = elffile_open(ef, path);

	if (rc == ELFFILE_ERRNO && (ef->errnum == ENOENT ||
	    ef->errnum == ENOTDIR))
		return 0;
	if (rc == ELFFILE_NOTREG && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (rc != ELFFILE_OK)
		why = elffile_failure(ef, path);
	else if (fstat(ef->fd, &st) != 0)
		why = xasprintf("'%s': %s", path, strerror(errno));
	else if (st.st_uid != geteuid() && st.st_uid != 0)
		why = xasprintf("'%s' belongs to user %lu, neither you nor root",
		    path, (unsigned long)st.st_uid);
	else if (st.st_mode & S_IWOTH)
		why = xasprintf("'%s' is writable by anyone", path);
	else if ((mine = elffile_buildid(ef)) == NULL ||
	    strcasecmp(mine, id) != 0)
		why = xasprintf("'%s' holds build ID %s", path, mine != NULL ?
		    mine : "none");
	free(mine);
	if (why == NULL)
		return 1;
	elffile_release(ef);
	ef->status = ELFFILE_REFUSED;
	snprintf(ef->why, sizeof(ef->why), "%s", why);
	free(why);
	return -1;
}

/* buildcache_open, of perf's folder or (foreign) fgrecord's own. */
static int
open_in(struct elffile *ef, const char *id, int foreign)
{
	char *dir, *path;
	size_t n = strlen(id), i;
	int k, r = 0;

	elffile_release(ef);
	/* As libdw's build-id paths: 3 to 64 bytes, hex only. */
	for (i = 0; i < n && isxdigit((unsigned char)id[i]); i++)
		;
	if (i == n && n >= 6 && n <= 128 && (dir = buildcache_dir()) != NULL) {
		/* fgrecord's own folder has one layout: no old one */
		for (k = 0; r == 0 && k < (foreign ? 1 : 2); k++) {
			path = xasprintf("%s/%s/%.2s/%s%s", dir, foreign ?
			    BUILDCACHE_FOREIGN : ".build-id", id, id + 2,
			    k == 0 ? "/elf" : "");
			r = try_copy(ef, path, id);
			free(path);
		}
		free(dir);
	}
	if (r > 0)
		return ELFFILE_OK;
	if (r < 0)
		return ELFFILE_REFUSED;
	elffile_release(ef);
	ef->status = ELFFILE_ERRNO;
	ef->errnum = ENOENT;
	snprintf(ef->why, sizeof(ef->why), "no copy of build ID %.64s in "
	    "%s", id, foreign ? "the copies of other roots" :
	    "perf's build-ID cache");
	return ELFFILE_ERRNO;
}

int
buildcache_open(struct elffile *ef, const char *id)
{
	return open_in(ef, id, 0);
}

int
buildcache_open_foreign(struct elffile *ef, const char *id)
{
	return open_in(ef, id, 1);
}

char *
buildcache_find(const char *id)
{
	struct elffile ef;
	char *path = NULL;

	elffile_init(&ef);
	if (buildcache_open(&ef, id) == ELFFILE_OK)
		path = xstrdup(ef.path);
	elffile_release(&ef);
	return path;
}
