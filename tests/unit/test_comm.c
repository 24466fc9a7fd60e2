/*
 * test_comm: the thread-name table. Names are kept as given (the stream
 * writer cleans them, see test_writer) and cut to 23 bytes;
 * a name is replaced in place; a name from the table may name another
 * thread even as the table grows; an unknown thread is read from /proc,
 * and a gone one is ":TID"; the idle task is "swapper".
 */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record/comm.h"
#include "unit.h"

/*
 * The made-up threads are numbered above PID_MAX_LIMIT (4194304), so no
 * real thread, this test's own among them, is ever one of them.
 */
#define T(n)	(4200000 + (n))

int
main(void)
{
	struct comm c;
	const char *name;
	char want[64], self[64];
	FILE *f;
	int i;

	comm_init(&c);
	CHECK(comm_find(&c, T(42)) == NULL, "an empty table knows no thread");
	CHECK(comm_set(&c, 0, "x") == NULL, "tid 0 is not named");
	CHECK(comm_set(&c, T(42), "") == NULL, "an empty name is no name");
	CHECK(comm_find(&c, T(42)) == NULL, "so it is still unknown");

	CHECK_STR(comm_set(&c, T(42), "a\nb\tc\x7f"), "a\nb\tc\x7f",
	    "control characters are kept: the writer cleans them");
	CHECK_STR(comm_set(&c, T(43), "#x"), "#x", "a leading '#' is kept");
	CHECK_STR(comm_set(&c, T(44), " x"), " x", "and a leading space");
	CHECK_STR(comm_set(&c, T(45), "abcdefghijklmnopqrstuvwxyz"),
	    "abcdefghijklmnopqrstuvw", "a long name is cut to 23 bytes");
	CHECK_STR(comm_set(&c, T(42), "renamed"), "renamed",
	    "set again: replaced");
	CHECK_STR(comm_find(&c, T(42)), "renamed", "and found so");
	CHECK(c.n == 4, "replacing adds no entry");

	/* A fork names the child after its parent, while the table grows. */
	for (i = 0; i < 1000; i++)
		comm_set(&c, T(1000 + i), comm_find(&c, T(42)));
	CHECK_STR(comm_find(&c, T(1999)), "renamed", "a name from the table "
	    "names another thread, across growth");
	CHECK_STR(comm_find(&c, T(45)), "abcdefghijklmnopqrstuvw",
	    "and the earlier names stay");

	CHECK_STR(comm_get(&c, 0, 0), "swapper", "tid 0 is the idle task");
	snprintf(want, sizeof(want), "/proc/self/task/%d/comm",
	    (int)syscall(SYS_gettid));
	self[0] = '\0';
	if ((f = fopen(want, "r")) != NULL) {
		if (fgets(self, sizeof(self), f) == NULL)
			self[0] = '\0';
		fclose(f);
	}
	self[strcspn(self, "\n")] = '\0';
	CHECK_STR(comm_get(&c, getpid(), (pid_t)syscall(SYS_gettid)), self,
	    "an unknown thread's name is read from /proc");
	CHECK_STR(comm_get(&c, getpid(), -1), self, "a TID of -1 (an exiting "
	    "thread) is named by its process");
	CHECK_STR(comm_get(&c, -1, -1), "swapper", "and of no process, idle");
	name = comm_get(&c, 999999999, 999999999);
	CHECK_STR(name, ":999999999", "a gone thread is ':TID'");
	CHECK_STR(comm_find(&c, 999999999), ":999999999", "and learnt so");

	comm_release(&c);
	return unit_done();
}
