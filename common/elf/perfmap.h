/*
 * perfmap: the symbol maps that JIT compilers write for perf,
 * /tmp/perf-PID.map, one line per piece of generated code:
 *
 *	START SIZE NAME		(START and SIZE in hex, "0x" optional)
 *
 * NAME runs to the end of the line and may hold spaces. Addresses are
 * absolute run-time addresses of process PID.
 */
#ifndef FG_PERFMAP_H
#define FG_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

struct perfmap_sym {
	uint64_t	 start, size;
	char		*name;		/* owned */
	unsigned long	 line;		/* line number in the file */
};

struct perfmap {
	struct perfmap_sym *syms;
	size_t		 n, cap;
	unsigned long	 bad;		/* lines that did not parse */
	unsigned long	 first_bad;	/* line number of the first of them */
	unsigned long	 uid;		/* the file's owner, once opened */
};

/*
 * Makes *m, which the caller holds (on the stack, in a struct of its own,
 * or allocated), an empty map. Nothing is allocated until perfmap_load().
 */
void	perfmap_init(struct perfmap *m);

#define PERFMAP_MAX	((uint64_t)256 << 20)	/* bytes read at most */
#define PERFMAP_NOTREG	(-2)	/* a FIFO, a device, a directory */
#define PERFMAP_TOOBIG	(-3)	/* larger than PERFMAP_MAX */
#define PERFMAP_UNTRUSTED (-4)	/* owned by someone else: m->uid */

/*
 * Reads the map file at path. Returns 0, or -1 with errno set when it
 * cannot be opened or read, or one of these, and then the map is not
 * used: PERFMAP_NOTREG when path is not a regular file (never waited for
 * nor read); PERFMAP_TOOBIG when it holds more than PERFMAP_MAX bytes;
 * PERFMAP_UNTRUSTED when its owner, m->uid, is neither root, nor the user
 * running this, nor the user of the running process PID that the name
 * "perf-PID.map" gives (anyone may write a map in /tmp, as perf also
 * says). Lines that do not parse are counted in m->bad (and
 * the first one's number in m->first_bad) and skipped. When a later line
 * covers the same start address as an earlier one (the JIT reused the
 * memory), the later one wins.
 */
int	perfmap_load(struct perfmap *m, const char *path);

/*
 * Says why perfmap_load() returned rc (not 0), in a few words: "not a
 * regular file", "owned by uid 1001, ...: not trusted", strerror(errno)
 * for -1 (call it before errno changes). The text is in a static buffer,
 * valid until the next call.
 */
const char *perfmap_strerror(const struct perfmap *m, int rc);

/*
 * Returns the name of the entry with start <= addr < start + size and sets
 * *off to addr - start, or returns NULL. The name is borrowed until
 * perfmap_release().
 */
const char *perfmap_lookup(const struct perfmap *m, uint64_t addr, uint64_t *off);

/*
 * Frees what m owns (its entries and their names), not m itself;
 * perfmap_init() makes it usable again.
 */
void	perfmap_release(struct perfmap *m);

/*
 * perfmap_release(), then free(m): for a map the caller allocated and
 * perfmap_init()ed. m may be NULL.
 */
void	perfmap_free(struct perfmap *m);

#endif
