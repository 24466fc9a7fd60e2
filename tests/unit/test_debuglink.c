/*
 * test_debuglink: separate debug files found by our own search
 * (elf/debuglink.h), through elfdwarf_dwfl as fgsym uses it, on programs
 * built here with cc -g and split with objcopy: the debug file beside the
 * binary, in its .debug directory, in the debuginfod client's cache by
 * build ID; one of another build is not taken (by build ID, or by CRC
 * for a binary without one); a FIFO in its place is refused in a note
 * that keeps the whole of a long path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "elf/elfdwarf.h"
#include "elf/elffile.h"
#include "ccfix.h"
#include "unit.h"

static const char prog_c[] =
    "int\n"
    "main(int argc, char **argv)\n"
    "{\n"
    "	(void)argv;\n"
    "	return argc * 3;\n"
    "}\n";

static const char other_c[] =
    "static int twice(int x) { return 2 * x; }\n"
    "int\n"
    "main(int argc, char **argv)\n"
    "{\n"
    "	(void)argv;\n"
    "	return twice(argc) + 1;\n"
    "}\n";

/*
 * Reads the DWARF of path as fgsym does. Returns 1 when it has DWARF (its
 * own or a debug file's), 0 when not, -1 when it cannot be read; sets
 * *debugfile to the debug file libdwfl was given and *note to what the
 * search refused (new strings, or NULL).
 */
static int
load(const char *path, char **debugfile, char **note)
{
	const char *mainfile = NULL, *dfile = NULL;
	struct elffile ef;
	Dwfl_Module *mod;
	Dwarf_Addr bias, b;
	Dwfl *dwfl = NULL;
	int has = -1;

	*debugfile = *note = NULL;
	elffile_init(&ef);
	if (elffile_open(&ef, path) == ELFFILE_OK)
		dwfl = elfdwarf_dwfl(&ef, "prog", NULL, &mod, &bias);
	if (dwfl != NULL) {
		has = dwfl_module_getdwarf(mod, &b) != NULL;
		dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
		    &dfile);
		if (dfile != NULL)
			*debugfile = strdup(dfile);
		dwfl_end(dwfl);
	}
	if (ef.note != NULL)
		*note = strdup(ef.note);
	elffile_release(&ef);
	return has;
}

/*
 * Checks that path's DWARF comes from the debug file want (a new string,
 * freed here), with nothing refused on the way.
 */
static void
found_at(const char *path, char *want, const char *what)
{
	char *df, *note;
	int has = load(path, &df, &note);

	CHECK_INT(has, 1, what);
	CHECK_STR(df, want, "libdwfl was handed that file");
	CHECK(note == NULL, "nothing refused");
	free(df);
	free(note);
	free(want);
}

/* Runs the shell command made of fmt and one argument, the directory. */
static int
in_dir(const char *fmt, const char *dir)
{
	char *cmd;
	int r;

	if (asprintf(&cmd, fmt, dir) < 0)
		return -1;
	r = run(cmd);
	free(cmd);
	return r;
}

/* The build ID of path in hex, as the cache names it: a new string. */
static char *
buildid_of(const char *path)
{
	struct elffile ef;
	char *id;

	elffile_init(&ef);
	id = elffile_open(&ef, path) == ELFFILE_OK ? elffile_buildid(&ef) :
	    NULL;
	elffile_release(&ef);
	return id;
}

int
main(void)
{
	char top[] = "/tmp/test_debuglink.XXXXXX";
	char *dir = NULL, *prog = NULL, *want = NULL, *df, *note, *id, *cmd;
	char longname[201];
	int has;

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	/* No other cache than ours; a path of more than 320 bytes. */
	if (asprintf(&cmd, "%s/cache", top) < 0 ||
	    setenv("DEBUGINFOD_CACHE_PATH", cmd, 1) != 0)
		return 1;
	free(cmd);
	memset(longname, 'd', 200);
	longname[200] = '\0';
	if (asprintf(&dir, "%s/%s/%s", top, longname, longname) < 0 ||
	    asprintf(&prog, "%s/prog", dir) < 0)
		return 1;
	CHECK(in_dir("mkdir -p '%s/.debug'", dir) == 0 &&
	    cc_fixture(dir, "prog", prog_c, "-O1") == 0 &&
	    cc_fixture(dir, "other", other_c, "-O1") == 0 &&
	    in_dir("cd '%s' && objcopy --only-keep-debug prog prog.debug && "
	    "objcopy --strip-debug prog && "
	    "objcopy --add-gnu-debuglink=prog.debug prog && "
	    "objcopy --only-keep-debug other other.debug", dir) == 0,
	    "a program built with cc -g, its DWARF split off and linked");
	CHECK(strlen(prog) > 400, "in a directory of a long name");

	if (asprintf(&want, "%s/prog.debug", dir) < 0)
		return 1;
	found_at(prog, want, "the debug file beside it gives the DWARF");

	CHECK(in_dir("cd '%s' && mv prog.debug .debug/", dir) == 0,
	    "the debug file moved to .debug");
	if (asprintf(&want, "%s/.debug/prog.debug", dir) < 0)
		return 1;
	found_at(prog, want, "in .debug beside it: found");

	id = buildid_of(prog);
	CHECK(id != NULL, "the program has a build ID");
	if (asprintf(&cmd, "mkdir -p '%s/cache/%s' && mv '%s/.debug/prog.debug' "
	    "'%s/cache/%s/debuginfo'", top, id ? id : "x", dir, top,
	    id ? id : "x") < 0)
		return 1;
	CHECK(run(cmd) == 0, "the debug file moved to the debuginfod cache");
	free(cmd);
	if (asprintf(&want, "%s/cache/%s/debuginfo", top, id ? id : "x") < 0)
		return 1;
	found_at(prog, want, "in the debuginfod cache by its build ID: found");

	if (asprintf(&cmd, "rm -r '%s/cache' && cp '%s/other.debug' "
	    "'%s/prog.debug'", top, dir, dir) < 0)
		return 1;
	CHECK(run(cmd) == 0, "another program's debug file in its place");
	free(cmd);
	has = load(prog, &df, &note);
	CHECK_INT(has, 0, "another build's debug file is not taken");
	CHECK(df == NULL && note == NULL, "and not said as refused");
	free(df);
	free(note);

	CHECK(in_dir("cd '%s' && rm prog.debug && mkfifo prog.debug", dir) == 0,
	    "a FIFO in its place");
	has = load(prog, &df, &note);
	if (asprintf(&want, "debug file '%s/prog.debug' refused: not a "
	    "regular file", dir) < 0)
		return 1;
	CHECK_INT(has, 0, "a FIFO gives no DWARF, and no wait");
	CHECK_STR(note, want, "the note names the whole long path");
	free(df);
	free(note);
	free(want);
	free(id);

	/* Without a build ID, the CRC of .gnu_debuglink decides. */
	CHECK(in_dir("cd '%s' && rm prog.debug && "
	    "cc -g -O1 -Wl,--build-id=none -o prog prog.c && "
	    "cc -g -O1 -Wl,--build-id=none -o other other.c && "
	    "objcopy --only-keep-debug prog prog.debug && "
	    "objcopy --only-keep-debug other other.debug && "
	    "objcopy --strip-debug prog && "
	    "objcopy --add-gnu-debuglink=prog.debug prog", dir) == 0,
	    "the same without build IDs");
	CHECK(buildid_of(prog) == NULL, "no build ID indeed");
	has = load(prog, &df, &note);
	CHECK_INT(has, 1, "the debug file whose CRC matches is taken");
	free(df);
	free(note);
	CHECK(in_dir("cd '%s' && cp other.debug prog.debug", dir) == 0,
	    "another one in its place");
	has = load(prog, &df, &note);
	CHECK_INT(has, 0, "one whose CRC does not match is not");
	free(df);
	free(note);

	if (asprintf(&cmd, "rm -rf '%s'", top) >= 0) {
		run(cmd);
		free(cmd);
	}
	free(prog);
	free(dir);
	return unit_done();
}
