/*
 * parse-alloc: summarize a log many times over. Built twice: "before"
 * uses summarize_slow (owned strings), "after" (with -DFIXED) uses
 * summarize_fast (slices). Both print the same lines.
 *
 * usage: before [PASSES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logparse.h"

#ifdef FIXED
#define summarize summarize_fast
#else
#define summarize summarize_slow
#endif

#define LINES 20000

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

/* Writes LINES log lines, about 1 in 50 of them malformed; caller frees. */
__attribute__((noinline)) static char *
make_log(size_t *len)
{
	static const char *level[] = { "DEBUG", "INFO", "INFO", "INFO", "WARN", "ERROR" };
	static const char *comp[] = { "db", "http", "cache", "auth", "scheduler" };
	static const char *msg[] = { "request served", "connection reset by peer",
	    "slow query on table users", "token expired", "retrying in 5 s", "ok" };
	static const int status[] = { 200, 200, 200, 204, 301, 404, 500, 503 };
	size_t cap = (size_t)LINES * 128, at = 0;
	char *buf = malloc(cap);

	if (buf == NULL)
		abort();
	for (int k = 0; k < LINES; k++) {
		/* One draw per field, in this order, as in the Rust version. */
		int ms = (int)(next_random() % 1000);
		const char *lv = level[next_random() % 6];
		const char *co = comp[next_random() % 5];
		const char *me = msg[next_random() % 6];
		int st = status[next_random() % 8];

		if (next_random() % 50 == 0)
			at += (size_t)snprintf(buf + at, cap - at, "%s\n",
			    k % 2 ? "truncated line" : "2026-11-30T09:00:00Z INFO db ok OK");
		else
			at += (size_t)snprintf(buf + at, cap - at,
			    "2026-11-30T%02d:%02d:%02d.%03dZ %s %s %s %d\n",
			    k / 3600 % 24, k / 60 % 60, k % 60, ms, lv, co, me, st);
	}
	*len = at;
	return buf;
}

int
main(int argc, char **argv)
{
	long passes = argc > 1 ? strtol(argv[1], NULL, 10) : 150;
	struct log_summary s, total;
	size_t len;
	char *log;

	if (passes <= 0) {
		fprintf(stderr, "usage: %s [PASSES]\n", argv[0]);
		return 2;
	}
	log = make_log(&len);
	memset(&total, 0, sizeof(total));
	for (long r = 0; r < passes; r++) {
		summarize(log, len, &s);
		total.lines += s.lines;
		total.malformed += s.malformed;
		total.error += s.error;
		total.server_errors += s.server_errors;
		total.message_bytes += s.message_bytes;
	}
	printf("parse-alloc: %ld lines, %ld malformed, DEBUG %ld INFO %ld WARN %ld ERROR %ld other %ld\n",
	    s.lines, s.malformed, s.debug, s.info, s.warn, s.error, s.other_level);
	printf("parse-alloc: %ld server errors, %llu message bytes, components %016llx; %ld passes\n",
	    s.server_errors, (unsigned long long)s.message_bytes,
	    (unsigned long long)s.error_components, passes);
	free(log);
	return total.lines == s.lines * passes ? 0 : 1;
}
