/*
 * parse-alloc: parse log lines of the form
 *
 *	TIMESTAMP LEVEL COMPONENT MESSAGE STATUS
 *
 * Fields are separated by single spaces. TIMESTAMP, LEVEL and COMPONENT
 * are the first three fields and must not be empty. STATUS is the last
 * field: 1 to 9 decimal digits. MESSAGE is everything between COMPONENT's
 * space and STATUS's space, and may itself contain spaces or be empty.
 * A line with fewer than five fields, an empty leading field or a bad
 * STATUS is malformed.
 */
#ifndef LOGPARSE_H
#define LOGPARSE_H

#include <stddef.h>
#include <stdint.h>

/* The slow version's result: every field is a malloc'ed copy. */
struct entry_owned {
	char *timestamp, *level, *component, *message;
	long status;
};

/* The fixed version's result: pointers into the caller's line, and lengths. */
struct slice {
	const char *p;
	size_t len;
};
struct entry_view {
	struct slice timestamp, level, component, message;
	long status;
};

/* What both versions compute over a buffer of lines. */
struct log_summary {
	long lines, malformed;
	long debug, info, warn, error, other_level;
	long server_errors;		/* STATUS >= 500 */
	uint64_t message_bytes;
	uint64_t error_components;	/* a hash of COMPONENT over ERROR lines */
};

/*
 * Parses line[0..len) into e. Returns 0, or -1 when the line is malformed
 * (then e holds nothing to free). On success the caller frees the fields
 * with entry_owned_release.
 */
int parse_owned(const char *line, size_t len, struct entry_owned *e);
void entry_owned_release(struct entry_owned *e);

/*
 * Parses line[0..len) into e without copying: e's slices borrow line.
 * Returns 0, or -1 when the line is malformed.
 */
int parse_view(const char *line, size_t len, struct entry_view *e);

/* Summarize every '\n'-terminated line of buf[0..len) into s (zeroed first). */
void summarize_slow(const char *buf, size_t len, struct log_summary *s);
void summarize_fast(const char *buf, size_t len, struct log_summary *s);

#endif
