/*
 * Unit tests of common/base/inroot, a name of a process under another
 * root opened beneath that root: where a path of ours splits into the
 * root and the name; a file inside is opened and read; a link inside
 * that stays inside is followed; an absolute link and one through ".."
 * to a file outside the root reach nothing outside it (an absolute
 * link is resolved from the root: the file of that name inside); a FIFO is SAFEOPEN_NOTREG
 * without being opened; a /proc magic link is not followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/inroot.h"
#include "base/safeopen.h"
#include "unit.h"

static char dir[] = "/tmp/test_inroot.XXXXXX";

/* dir/name, in buf. */
static const char *
at(char *buf, const char *name)
{
	snprintf(buf, 4096, "%s/%s", dir, name);
	return buf;
}

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		exit(2);
	fputs(text, f);
	fclose(f);
}

/* What root/name reads as, inroot_open'ed: "" for nothing, or why. */
static const char *
read_in(const char *root, const char *name)
{
	static char buf[256];
	int fd = inroot_open(root, name, NULL);
	ssize_t n;

	if (fd == SAFEOPEN_NOTREG)
		return "notreg";
	if (fd < 0)
		return strerror(errno);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

int
main(void)
{
	char jail[4096], p[4096], t[4096], up[4096];
	int fd;

	/* the split: the root, and no more of path than inside has */
	CHECK_INT(inroot_split("/srv/jail/app/hot", "/app/hot"), 9,
	    "a chroot's path: its root");
	CHECK_INT(inroot_split("/proc/12/root/usr/lib/x.so", "/usr/lib/x.so"),
	    13, "/proc/PID/root");
	CHECK_INT(inroot_split("/srv/app/app/x", "/app/x"), 8,
	    "never more than inside holds");
	CHECK_INT(inroot_split("/srv/store/x/lib.so", "/data/x/lib.so"), 10,
	    "a bind mount's source: what they share");
	CHECK_INT(inroot_split("/a/b", "/c/d"), 2, "nothing shared: the name");

	if (mkdtemp(dir) == NULL)
		return 2;
	at(jail, "jail");
	if (mkdir(jail, 0755) != 0 || mkdir(at(p, "jail/app"), 0755) != 0 ||
	    mkdir(at(p, "jail/tmp"), 0755) != 0)
		return 2;
	put(at(p, "secret"), "host\n");
	put(at(p, "jail/app/lib"), "jail\n");
	put(at(p, "jail/secret"), "inside\n");
	/* the jail's links: inside, absolute out, through .. out */
	snprintf(up, sizeof(up), "../../../../../../../../..%s/secret", dir);
	if (symlink("lib", at(p, "jail/app/same")) != 0 ||
	    symlink(at(t, "secret"), at(p, "jail/app/abs")) != 0 ||
	    symlink(up, at(p, "jail/app/up")) != 0 ||
	    symlink("/secret", at(p, "jail/app/rootabs")) != 0 ||
	    symlink("/proc/self/root/etc/passwd",
	    at(p, "jail/app/magic")) != 0 ||
	    mkfifo(at(p, "jail/app/fifo"), 0600) != 0)
		return 2;

	CHECK_STR(read_in(jail, "/app/lib"), "jail\n", "a file inside");
	CHECK_STR(read_in(jail, "/app/same"), "jail\n",
	    "a link that stays inside, followed");
	CHECK_STR(read_in(jail, "/app/abs"), strerror(ENOENT),
	    "an absolute link out: nothing (no such path inside)");
	CHECK_STR(read_in(jail, "/app/up"), strerror(ENOENT),
	    "a link through .. out: stops at the root, nothing there");
	CHECK_STR(read_in(jail, "/app/rootabs"), "inside\n",
	    "an absolute link: resolved from the root");
	CHECK(strcmp(read_in(jail, "/app/magic"), "jail\n") != 0 &&
	    strstr(read_in(jail, "/app/magic"), "root:") == NULL,
	    "a /proc magic link: not followed");
	CHECK_STR(read_in(jail, "/app/fifo"), "notreg",
	    "a FIFO: not a regular file, never opened");
	fd = inroot_open_inside(at(t, "jail/app/abs"), "/app/abs", NULL);
	CHECK(fd < 0 && errno == ENOENT,
	    "inroot_open_inside: the root found, the link kept in it");
	if (fd >= 0)
		close(fd);

	unlink(at(p, "jail/app/same"));
	unlink(at(p, "jail/app/abs"));
	unlink(at(p, "jail/app/up"));
	unlink(at(p, "jail/app/rootabs"));
	unlink(at(p, "jail/app/magic"));
	unlink(at(p, "jail/app/fifo"));
	unlink(at(p, "jail/app/lib"));
	unlink(at(p, "jail/secret"));
	unlink(at(p, "secret"));
	rmdir(at(p, "jail/app"));
	rmdir(at(p, "jail/tmp"));
	rmdir(jail);
	rmdir(dir);
	return unit_done();
}
