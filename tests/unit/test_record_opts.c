/*
 * test_record_opts: record_opts_check, fgrecord's option cross-checks,
 * without a process: each conflict gives its one-line message, and
 * options that go together are completed (the stack copy's size) and get
 * their source (source_choose: --sampler, -a, events).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cmdfile.h"
#include "record/record.h"
#include "unit.h"

static char *const cmd[] = { "./prog", NULL };
static pid_t pid1[] = { 1 };

/* fgrecord's defaults, with a command to run. */
static void
opts_default(struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cfg.event = perf_event_find("cpu-clock");
	o->cfg.freq = 999;
	o->cfg.dwarf = 1;
	o->argv = cmd;
}

/* Checks that *o is refused with message want. */
static void
refused(struct record_opts *o, const char *want, const char *what)
{
	char *why = NULL;
	int rc = record_opts_check(o, &why);

	CHECK(rc == -1, what);
	CHECK_STR(why, want, what);
	free(why);
}

static void
test_conflicts(void)
{
	struct record_opts o;

	opts_default(&o);
	o.freq_given = 1;
	o.cfg.period = 1000;
	refused(&o, "-F and -c are exclusive: give a frequency or a period",
	    "-F with -c");

	opts_default(&o);
	o.cfg.mode = RECORD_WALL;
	o.event_given = 1;
	refused(&o, "-e cannot be given with --wall: it chooses its own events",
	    "-e with --wall");

	opts_default(&o);
	o.cfg.mode = RECORD_OFFCPU;
	o.event_given = 1;
	refused(&o, "-e cannot be given with --off-cpu: it chooses its own "
	    "events", "-e with --off-cpu");

	opts_default(&o);
	o.cfg.mode = RECORD_WALL;
	o.cfg.period = 9999;
	refused(&o, "-c 9999: with --wall the period is at least 10000 (ns of "
	    "cpu-clock, the kernel's shortest)", "--wall with a short -c");

	opts_default(&o);
	o.argv = NULL;
	o.cfg.system_wide = 1;
	o.cfg.mode = RECORD_OFFCPU;
	refused(&o, "--off-cpu follows a command or -p PID, not -a",
	    "--off-cpu with -a");

	opts_default(&o);
	o.cfg.pids = pid1;
	o.cfg.npids = 1;
	refused(&o, "give exactly one of: a command, -p PID, -a",
	    "-p with a command");

	opts_default(&o);
	o.argv = NULL;
	refused(&o, "give exactly one of: a command, -p PID, -a",
	    "no target at all");

	opts_default(&o);
	o.sampler = "dtrace";
	refused(&o, "--sampler 'dtrace': expected perf or ptrace",
	    "an unknown sampler");

	opts_default(&o);
	o.argv = NULL;
	o.cfg.system_wide = 1;
	o.sampler = "ptrace";
	refused(&o, "--sampler ptrace follows a command or -p PID, not -a",
	    "-a with ptrace");

	opts_default(&o);
	o.sampler = "ptrace";
	o.cfg.event = perf_event_find("page-faults");
	o.event_given = 1;
	refused(&o, "the ptrace sampler measures CPU time only, not event "
	    "'page-faults': use -e cpu-clock, or --sampler=perf",
	    "ptrace with an event it does not measure");

	opts_default(&o);
	o.max_depth = RECORD_DEPTH_MAX + 1;
	refused(&o, "--max-depth 65537: at most 65536 frames (the default, "
	    "2048, holds every compiler's stacks)", "--max-depth too large");
}

static void
test_accepted(void)
{
	struct record_opts o;
	char *why = NULL;

	opts_default(&o);
	o.sampler = "perf";
	CHECK(record_opts_check(&o, &why) == 0 && why == NULL,
	    "the defaults pass");
	CHECK(o.source == &source_perf, "--sampler perf gives source_perf");
	CHECK(o.cfg.stack_size == record_stack_size(999, 0),
	    "the stack copy is sized for the rate");
	CHECK(o.max_depth == RECORD_DEPTH_DEFAULT && o.max_depth >= 1025,
	    "the depth limit defaults to one that holds clang++'s stacks");

	opts_default(&o);
	o.sampler = "perf";
	o.max_depth = 100;
	CHECK(record_opts_check(&o, &why) == 0 && o.max_depth == 100,
	    "--max-depth 100 is kept");

	opts_default(&o);
	o.sampler = "ptrace";
	o.cfg.mode = RECORD_WALL;
	o.cfg.period = 10000;
	CHECK(record_opts_check(&o, &why) == 0 && why == NULL,
	    "--wall -c 10000 with ptrace passes");
	CHECK(o.source == &source_ptrace, "--sampler ptrace gives source_ptrace");
	CHECK(o.cfg.stack_size == 8192, "off-CPU time copies 8 KiB of stack");

	opts_default(&o);
	o.sampler = "ptrace";
	o.cfg.event = perf_event_find("task-clock");
	o.event_given = 1;
	o.cfg.stack_size = 4096;
	CHECK(record_opts_check(&o, &why) == 0 && o.source == &source_ptrace,
	    "ptrace measures task-clock");
	CHECK(o.cfg.stack_size == 4096, "a stack size given is kept");

	opts_default(&o);
	o.argv = NULL;
	o.cfg.system_wide = 1;
	CHECK(record_opts_check(&o, &why) == 0 && why == NULL &&
	    o.source == &source_perf,
	    "-a without --sampler: perf, the only source that can");

	opts_default(&o);
	o.argv = NULL;
	o.cfg.pids = pid1;
	o.cfg.npids = 1;
	o.freq_given = 1;
	o.sampler = "perf";
	CHECK(record_opts_check(&o, &why) == 0, "-p with -F passes");
}

/*
 * A recording to replay is a session's target like a command: alone it
 * passes, and gets the only source that reads it; with another target
 * it is refused as two targets are.
 */
static void
test_replay(void)
{
	struct record_opts o;
	char *why = NULL;

	opts_default(&o);
	o.argv = NULL;
	o.cfg.replay_name = "perf.data";
	CHECK(record_opts_check(&o, &why) == 0 && why == NULL,
	    "a replay alone is accepted");
	CHECK(o.source == &source_perfdata && o.source->offline,
	    "a replay gets the perf.data source, offline");
	free(why);

	opts_default(&o);
	o.cfg.replay_name = "perf.data";
	refused(&o, "give exactly one of: a command, -p PID, -a",
	    "a replay with a command");

	opts_default(&o);
	o.argv = NULL;
	o.cfg.pids = pid1;
	o.cfg.npids = 1;
	CHECK(record_opts_check(&o, &why) == 0 && o.source != NULL &&
	    !o.source->offline, "-p gets a source that samples live");
	free(why);
}

/* Checks that record_opts_output refuses name with message want. */
static void
output_refused(const char *name, const char *want, const char *what)
{
	struct record_opts o;
	char *why = NULL;

	opts_default(&o);
	CHECK(record_opts_output(&o, name, &why) == -1, what);
	CHECK_STR(why, want, what);
	free(why);
}

/* -o: where the stream goes, and what is refused, in one line each. */
static void
test_output(void)
{
	struct record_opts o;
	char dir[] = "/tmp/test_record_opts.XXXXXX", path[96], other[96];
	char want[256], text[16], *why = (char *)"unset";
	FILE *f;
	int fd;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/rec.txt", dir);
	snprintf(other, sizeof(other), "%s/link.txt", dir);

	opts_default(&o);
	CHECK(record_opts_output(&o, "-", &why) == STDOUT_FILENO &&
	    why == NULL, "-: standard output");
	CHECK_STR(o.outname, CMDFILE_STDOUT, "named <stdout>");
	CHECK_INT(o.cmd_stdout, STDERR_FILENO,
	    "the command's output goes to stderr, out of the stream's way");

	f = fopen(path, "w");
	CHECK(f != NULL && fputs("old text", f) >= 0 && fclose(f) == 0,
	    "an old file");
	opts_default(&o);
	fd = record_opts_output(&o, path, &why);
	CHECK(fd > STDERR_FILENO && why == NULL, "a regular file is taken");
	CHECK_STR(o.outname, path, "named by its name");
	CHECK_INT(o.cmd_stdout, STDOUT_FILENO,
	    "the command keeps fgrecord's stdout");
	CHECK(fd > STDERR_FILENO && write(fd, "new", 3) == 3 && close(fd) == 0,
	    "written and closed");
	f = fopen(path, "r");
	text[0] = '\0';
	if (f != NULL) {
		text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
		fclose(f);
	}
	CHECK_STR(text, "new", "truncated before it was written");

	if (symlink(path, other) == 0) {
		snprintf(want, sizeof(want), "cannot write to '%s': it is a "
		    "symbolic link; name the file itself", other);
		output_refused(other, want, "a symbolic link is refused");
		unlink(other);
	}
	snprintf(want, sizeof(want), "cannot write to '%s': not a regular "
	    "file; give a regular file, or write to stdout", dir);
	output_refused(dir, want, "a directory is refused");
	snprintf(want, sizeof(want), "cannot create '%s/no/such': %s", dir,
	    strerror(ENOENT));
	snprintf(other, sizeof(other), "%s/no/such", dir);
	output_refused(other, want, "a missing directory: strerror's words");
	if (geteuid() == 0) {
		snprintf(other, sizeof(other), "%s/second", dir);
		if (link(path, other) == 0) {
			snprintf(want, sizeof(want), "cannot write to '%s': it "
			    "has 2 links, and another name could be anyone's; "
			    "remove it or name a new file", path);
			output_refused(path, want,
			    "root: a file with two links is refused");
			unlink(other);
		}
		if (chown(path, 65534, 65534) == 0) {
			snprintf(want, sizeof(want), "cannot write to '%s': it "
			    "belongs to user 65534, and root's profile would be "
			    "theirs to read; remove it or name a new file", path);
			output_refused(path, want,
			    "root: another user's file is refused");
		}
	}
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	test_conflicts();
	test_accepted();
	test_replay();
	test_output();
	return unit_done();
}
