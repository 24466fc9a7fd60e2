/*
 * kallsyms: the kernel's symbol table, as /proc/kallsyms lists it, for
 * naming [kernel.kallsyms] and kernel module frames.
 *
 *	struct kallsyms k;
 *	kallsyms_init(&k);
 *	if (kallsyms_load(&k, "/proc/kallsyms") == 0)
 *		name = kallsyms_lookup(&k, addr, &off, NULL);
 *	kallsyms_release(&k);
 *
 * The table keeps every symbol of a code type (t, T, w, W) sorted by
 * address. A kernel with kernel.kptr_restrict set shows every address as
 * zero to unprivileged readers; kallsyms_load() detects that.
 */
#ifndef FG_KALLSYMS_H
#define FG_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

struct kallsyms_sym {
	uint64_t	 addr;
	const char	*name;		/* owned by the table */
	const char	*module;	/* "ext4", or NULL for the kernel */
};

struct kallsyms {
	struct kallsyms_sym *syms;
	size_t		 n, cap;
	char		*text;		/* the file's bytes, names point into it */
};

/*
 * Makes *k, which the caller holds (on the stack, in a struct of its own,
 * or allocated), an empty table. Nothing is allocated until
 * kallsyms_load().
 */
void	kallsyms_init(struct kallsyms *k);

/*
 * Reads path (normally "/proc/kallsyms") into the table, replacing what it
 * held. Returns 0 on success; -1 with errno set when the file cannot be
 * read; -2 when it holds no usable address (every address is zero because
 * of kernel.kptr_restrict, or there is no code symbol at all);
 * KALLSYMS_NOTREG when path is no regular file (a FIFO, a device: never
 * opened, base/safeopen). Lines that do not parse are skipped.
 */
#define KALLSYMS_NOTREG	(-3)
int	kallsyms_load(struct kallsyms *k, const char *path);

/*
 * Returns the name of the symbol that holds addr (the one with the highest
 * start address not above it) and sets *off to addr minus that start, or
 * returns NULL when addr is below the first symbol. When modp is not NULL
 * it gets the module name or NULL. The name is borrowed until
 * kallsyms_release() or the next kallsyms_load().
 */
const char *kallsyms_lookup(const struct kallsyms *k, uint64_t addr,
	    uint64_t *off, const char **modp);

/*
 * Frees what k owns (its symbols and their names), not k itself;
 * kallsyms_init() makes it usable again.
 */
void	kallsyms_release(struct kallsyms *k);

/*
 * kallsyms_release(), then free(k): for a table the caller allocated
 * and kallsyms_init()ed. k may be NULL.
 */
void	kallsyms_free(struct kallsyms *k);

/*
 * The running kernel's build ID, as lower-case hex, from the ELF notes at
 * path (normally "/sys/kernel/notes"); NULL when there is none to read.
 * The caller frees it. perf records the same ID for [kernel.kallsyms].
 */
char	*kallsyms_buildid(const char *path);

#endif
