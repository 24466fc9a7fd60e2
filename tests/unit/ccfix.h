/*
 * ccfix.h: for the unit tests that need a real ELF file: cc_fixture(dir,
 * name, src, flags) writes src to DIR/NAME.c and builds DIR/NAME from it
 * with `cc -g FLAGS` (the compiler the suite itself is built with);
 * write_file(path, text) writes a file, run(cmd) runs a shell command.
 * Each returns 0 on success; the paths are the caller's, quoted here.
 */
#ifndef FG_TEST_CCFIX_H
#define FG_TEST_CCFIX_H

#include <stdio.h>
#include <stdlib.h>

/* Runs cmd through sh; returns 0 when it exits 0. */
static int
run(const char *cmd)
{
	int st = system(cmd);

	if (st != 0)
		fprintf(stderr, "# '%s' failed (%d)\n", cmd, st);
	return st != 0;
}

/* Writes text to path, replacing it; returns 0 or -1. */
static int
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL)
		return -1;
	if (fputs(text, fp) < 0) {
		fclose(fp);
		return -1;
	}
	return fclose(fp) != 0 ? -1 : 0;
}

static int
cc_fixture(const char *dir, const char *name, const char *src,
    const char *flags)
{
	char *path, *cmd;
	int r;

	if (asprintf(&path, "%s/%s.c", dir, name) < 0)
		return -1;
	if (write_file(path, src) != 0) {
		free(path);
		return -1;
	}
	if (asprintf(&cmd, "cc -g %s -o '%s/%s' '%s'", flags, dir, name,
	    path) < 0) {
		free(path);
		return -1;
	}
	r = run(cmd);
	free(cmd);
	free(path);
	return r;
}

#endif
