/*
 * Unit tests for parse-alloc: the owned-string parser and the slice parser
 * must agree on every field of every line, valid or malformed. Prints TAP;
 * exits 1 on failure.
 */
#include <stdio.h>
#include <string.h>

#include "logparse.h"

static int n_test, n_fail;

static int
eq(const char *owned, struct slice s)
{
	return strlen(owned) == s.len && memcmp(owned, s.p, s.len) == 0;
}

/* want_ok: 1 valid, 0 malformed. want_msg: expected MESSAGE or NULL. */
static void
line(const char *what, const char *text, size_t len, int want_ok, const char *want_msg)
{
	struct entry_owned o;
	struct entry_view v;
	int ro = parse_owned(text, len, &o);
	int rv = parse_view(text, len, &v);
	int ok = ro == rv && (ro == 0) == want_ok;

	if (ok && ro == 0) {
		ok = eq(o.timestamp, v.timestamp) && eq(o.level, v.level) &&
		    eq(o.component, v.component) && eq(o.message, v.message) &&
		    o.status == v.status;
		if (want_msg)
			ok = ok && strcmp(o.message, want_msg) == 0;
	}
	if (ro == 0)
		entry_owned_release(&o);
	n_test++;
	if (ok)
		printf("ok %d - %s\n", n_test, what);
	else {
		n_fail++;
		printf("not ok %d - %s: slow %d, fast %d\n", n_test, what, ro, rv);
	}
}

#define LINE(what, s, ok, msg) line(what, s, sizeof(s) - 1, ok, msg)

int
main(void)
{
	static const char log[] =
	    "t1 INFO db ok 200\n"
	    "t2 ERROR http upstream timed out 504\n"
	    "broken\n"
	    "\n"
	    "t3 WARN cache evicted 3 keys 200\n"
	    "t4 NOTICE x y 1\n"
	    "t5 ERROR auth  500";	/* no final newline */
	struct log_summary a, b;

	LINE("plain line", "2026-11-30T09:00:00Z INFO db ok 200", 1, "ok");
	LINE("message with spaces", "t ERROR http upstream timed out 504", 1, "upstream timed out");
	LINE("empty message", "t INFO db  200", 1, "");
	LINE("message of spaces", "t INFO db    200", 1, "  ");
	LINE("status 0", "t INFO db m 0", 1, "m");
	LINE("status of 9 digits", "t INFO db m 999999999", 1, "m");
	LINE("empty line", "", 0, NULL);
	LINE("four fields", "t INFO db 200", 0, NULL);
	LINE("status not a number", "t INFO db msg OK", 0, NULL);
	LINE("status with a sign", "t INFO db msg +200", 0, NULL);
	LINE("status too long", "t INFO db msg 1234567890", 0, NULL);
	LINE("empty status", "t INFO db msg ", 0, NULL);
	LINE("empty timestamp", " INFO db msg 200", 0, NULL);
	LINE("empty level", "t  db msg 200", 0, NULL);
	LINE("empty component", "t INFO  msg 200", 0, NULL);
	LINE("tab is not a separator", "t\tINFO db msg 200", 0, NULL);
	LINE("NUL byte", "t INFO d\0b msg 200", 0, NULL);
	LINE("high bytes", "t INFO db caf\xc3\xa9 \xff 200", 1, "caf\xc3\xa9 \xff");

	summarize_slow(log, sizeof(log) - 1, &a);
	summarize_fast(log, sizeof(log) - 1, &b);
	n_test++;
	if (memcmp(&a, &b, sizeof(a)) == 0 && a.lines == 7 && a.malformed == 2 &&
	    a.error == 2 && a.other_level == 1 && a.server_errors == 2)
		printf("ok %d - summaries agree\n", n_test);
	else {
		n_fail++;
		printf("not ok %d - summaries: slow %ld lines %ld bad, fast %ld lines %ld bad\n",
		    n_test, a.lines, a.malformed, b.lines, b.malformed);
	}
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
