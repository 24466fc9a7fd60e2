/*
 * Unit tests for common/sym/pkgowner.c, on a file tree and dpkg lists made
 * here: a merged /usr (lib -> usr/lib) whose list spells the /lib path, a
 * symbolic link to the file owned by another package, a file of the same
 * base name elsewhere, and an architecture-qualified list name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym/pkgowner.h"
#include "unit.h"

static char root[] = "/tmp/fg-pkgowner-XXXXXX";

static void
put(const char *rel, const char *text)
{
	char p[512];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if ((fp = fopen(p, "w")) == NULL) {
		perror(p);
		exit(2);
	}
	fputs(text, fp);
	fclose(fp);
}

static char *
at(const char *rel)
{
	static char p[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", root, rel);
	return p[k];
}

static char *got;

static const char *
owner(const char *infodir, const char *path)
{
	free(got);
	got = pkgowner_find(infodir, path);
	return got;
}

int
main(void)
{
	char list[2048];

	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	if (mkdir(at("usr"), 0755) || mkdir(at("usr/lib"), 0755) ||
	    mkdir(at("usr/lib/x"), 0755) || mkdir(at("other"), 0755) ||
	    mkdir(at("info"), 0755) || symlink("usr/lib", at("lib")) ||
	    symlink(at("usr/lib/x/libfoo.so.1"), at("other/libfoo.so.1")) ||
	    symlink("libfoo.so.1", at("usr/lib/x/libfoo.so"))) {
		perror("tree");
		return 2;
	}
	put("usr/lib/x/libfoo.so.1", "elf\n");
	put("usr/lib/x/libbar.so.1", "elf\n");
	put("usr/lib/libfoo.so.1", "another file of the same name\n");
	put("usr/lib/x/unowned", "elf\n");
	/* alias.list sorts first and owns only links to libfoo.so.1. */
	snprintf(list, sizeof(list), "/.\n%s\n%s\n%s\n", at("other"),
	    at("other/libfoo.so.1"), at("usr/lib/x/libfoo.so"));
	put("info/alias.list", list);
	snprintf(list, sizeof(list), "/.\n%s\n%s\n%s\n", at("lib"),
	    at("lib/x"), at("lib/x/libfoo.so.1"));
	put("info/libfoo1:amd64.list", list);
	snprintf(list, sizeof(list), "%s\n%s", at("usr/lib/libfoo.so.1"),
	    at("usr/lib/x/libbar.so.1"));	/* no final newline */
	put("info/same-name.list", list);
	put("info/libfoo1:amd64.md5sums", at("usr/lib/x/unowned"));

	CHECK_STR(owner(at("info"), at("usr/lib/x/libfoo.so.1")), "libfoo1",
	    "merged /usr: the list spells /lib, the path /usr/lib; arch dropped");
	CHECK_STR(owner(at("info"), at("lib/x/libfoo.so.1")), "libfoo1",
	    "the path as the list spells it");
	CHECK_STR(owner(at("info"), at("other/libfoo.so.1")), "libfoo1",
	    "a link is owned by the package of the file it leads to");
	CHECK_STR(owner(at("info"), at("usr/lib/x/libfoo.so")), "libfoo1",
	    "a link with another base name too");
	CHECK_STR(owner(at("info"), at("usr/lib/libfoo.so.1")), "same-name",
	    "a file of the same base name elsewhere is its own");
	CHECK_STR(owner(at("info"), at("usr/lib/x/libbar.so.1")), "same-name",
	    "the last line of a list without a final newline");
	CHECK(owner(at("info"), at("usr/lib/x/unowned")) == NULL,
	    "a file no .list names has no owner (.md5sums is not read)");
	CHECK(owner(at("info"), at("usr/lib/x/missing")) == NULL,
	    "a missing file has no owner");
	CHECK(owner(at("nodir"), at("usr/lib/x/libfoo.so.1")) == NULL,
	    "no dpkg lists: no owner");
	if (access(PKGOWNER_INFODIR "/dpkg.list", R_OK) == 0)
		CHECK_STR(owner(NULL, "/usr/bin/dpkg"), "dpkg",
		    "this machine's dpkg owns /usr/bin/dpkg");
	free(got);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", root);
	}
	return unit_done();
}
