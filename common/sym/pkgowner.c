/*
 * pkgowner: which Debian package owns a file (see pkgowner.h).
 */
#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sym/pkgowner.h"
#include "base/xalloc.h"

/* Does the name end in ".list" and have something before it? */
static int
is_list(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && strcmp(d->d_name + n - 5, ".list") == 0;
}

/*
 * Does the list at path hold an entry named base (the last component)
 * that is the file *want? An entry is lstat'ed: its directories are
 * followed, its last component is not.
 */
static int
list_holds(const char *path, const char *base, const struct stat *want)
{
	size_t blen = strlen(base), cap = 0;
	char *line = NULL;
	ssize_t len;
	struct stat st;
	FILE *fp;
	int found = 0;

	if ((fp = fopen(path, "re")) == NULL)
		return 0;
	while (!found && (len = getline(&line, &cap, fp)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len <= blen || line[len - blen - 1] != '/' ||
		    memcmp(line + len - blen, base, blen) != 0)
			continue;
		found = lstat(line, &st) == 0 && st.st_dev == want->st_dev &&
		    st.st_ino == want->st_ino;
	}
	free(line);
	fclose(fp);
	return found;
}

char *
pkgowner_find(const char *infodir, const char *path)
{
	struct dirent **ents = NULL;
	struct stat want;
	char *real, *base, *owner = NULL, *list;
	int i, n;

	if (infodir == NULL)
		infodir = PKGOWNER_INFODIR;
	if (stat(path, &want) == -1 || (real = realpath(path, NULL)) == NULL)
		return NULL;
	base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	if ((n = scandir(infodir, &ents, is_list, alphasort)) < 0) {
		free(real);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t stem = strlen(name) - 5, arch = strcspn(name, ":");

		if (owner == NULL) {
			list = xasprintf("%s/%s", infodir, name);
			/* "pkg:arch.list" or "pkg.list": "pkg" */
			if (list_holds(list, base, &want))
				owner = xmemdup0(name, arch < stem ? arch : stem);
			free(list);
		}
		free(ents[i]);
	}
	free(ents);
	free(real);
	return owner;
}

/* The VERSION_CODENAME of the os-release file path, or NULL (caller frees). */
static char *
codename(const char *path)
{
	static const char key[] = "VERSION_CODENAME=";
	char *line = NULL, *v, *name = NULL;
	size_t cap = 0, n;
	FILE *fp;

	if ((fp = fopen(path, "re")) == NULL)
		return NULL;
	while (name == NULL && getline(&line, &cap, fp) > 0) {
		if (strncmp(line, key, sizeof(key) - 1) != 0)
			continue;
		v = line + sizeof(key) - 1;
		v += *v == '"' || *v == '\'';
		/* a suite name: letters, digits, dots and dashes */
		if ((n = strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789.-")) > 0)
			name = xmemdup0(v, n);
	}
	free(line);
	fclose(fp);
	return name;
}

char *
pkgowner_advice(const char *pkg, const char *osrelease)
{
	char *code = codename(osrelease ? osrelease : PKGOWNER_OSRELEASE), *r;

	r = xasprintf("install %s-dbgsym from Debian's debug archive (apt "
	    "suite %s-debug), or run debuginfod-find debuginfo on it with "
	    "DEBUGINFOD_URLS set to Debian's debuginfod server", pkg,
	    code ? code : "RELEASE");
	free(code);
	return r;
}
