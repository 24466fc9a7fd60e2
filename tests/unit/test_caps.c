/*
 * test_caps: caps_setid tells whether a command's file would run with
 * privileges its caller lacks: set-user-ID to another user, set-group-ID
 * to another group, found through PATH as execvp finds it. The ownership
 * cases need root (to give a file to another user) and are skipped
 * without it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/caps.h"
#include "unit.h"

int
main(void)
{
	char dir[] = "/tmp/test_caps.XXXXXX", path[4096], *what = NULL;
	FILE *f;

	if (mkdtemp(dir) == NULL)
		return 2;
	snprintf(path, sizeof(path), "%s/prog", dir);
	if ((f = fopen(path, "w")) == NULL)
		return 2;
	fputs("#!/bin/sh\n", f);
	fclose(f);
	chmod(path, 0755);
	CHECK(caps_setid(path, &what) == 0 && what == NULL,
	    "a plain file gains nothing");
	CHECK(caps_setid("/nonexistent/prog", &what) == 0,
	    "a missing file: 0, exec will say");
	if (geteuid() == 0) {
		chmod(path, 04755);
		CHECK(caps_setid(path, &what) == 0,
		    "set-user-ID to oneself gains nothing");
		if (chown(path, 65534, (gid_t)-1) == 0) {
			chmod(path, 04755);
			CHECK(caps_setid(path, &what) == 1 && what &&
			    strncmp(what, "set-user-ID ", 12) == 0,
			    "set-user-ID to another user is said so");
			printf("# %s\n", what ? what : "(null)");
			free(what);
			setenv("PATH", dir, 1);
			CHECK(caps_setid("prog", &what) == 1,
			    "a name without a slash is found in PATH");
			free(what);
			setenv("PATH", "/nonexistent", 1);
			CHECK(caps_setid("prog", &what) == 0,
			    "not in PATH: 0");
		}
		if (chown(path, 0, 65534) == 0) {
			chmod(path, 02755);
			CHECK(caps_setid(path, &what) == 1 && what &&
			    strncmp(what, "set-group-ID ", 13) == 0,
			    "set-group-ID to a group not ours is said so");
			free(what);
			chmod(path, 02745);
			CHECK(caps_setid(path, &what) == 0,
			    "set-group-ID without group execute: mandatory "
			    "locking, no privilege");
		}
	}
	unlink(path);
	rmdir(dir);
	return unit_done();
}
