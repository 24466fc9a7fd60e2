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
};

/* Returns a new, empty map; never NULL. The caller frees it with perfmap_free(). */
struct perfmap *perfmap_new(void);

/*
 * Reads the map file at path. Returns 0, -1 with errno set when it cannot
 * be opened or read, or -2 when path is not a regular file (a FIFO, a
 * device, a directory), which is then neither waited for nor read. Lines that do not parse are counted in m->bad (and
 * the first one's number in m->first_bad) and skipped. When a later line
 * covers the same start address as an earlier one (the JIT reused the
 * memory), the later one wins.
 */
int	perfmap_load(struct perfmap *m, const char *path);

/*
 * Returns the name of the entry with start <= addr < start + size and sets
 * *off to addr - start, or returns NULL. The name is borrowed until
 * perfmap_free().
 */
const char *perfmap_lookup(const struct perfmap *m, uint64_t addr, uint64_t *off);

/* Frees m and everything it owns; m may be NULL. */
void	perfmap_free(struct perfmap *m);

#endif
