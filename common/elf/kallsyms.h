/*
 * kallsyms: the kernel's symbol table, as /proc/kallsyms lists it, for
 * naming [kernel.kallsyms] and kernel module frames.
 *
 *	struct kallsyms *k = kallsyms_new();
 *	if (kallsyms_load(k, "/proc/kallsyms") == 0)
 *		name = kallsyms_lookup(k, addr, &off);
 *	kallsyms_free(k);
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

/* Returns a new, empty table; never NULL. The caller frees it with kallsyms_free(). */
struct kallsyms *kallsyms_new(void);

/*
 * Reads path (normally "/proc/kallsyms") into the table, replacing what it
 * held. Returns 0 on success; -1 with errno set when the file cannot be
 * read; -2 when it holds no usable address (every address is zero because
 * of kernel.kptr_restrict, or there is no code symbol at all). Lines that do
 * not parse are skipped.
 */
int	kallsyms_load(struct kallsyms *k, const char *path);

/*
 * Returns the name of the symbol that holds addr (the one with the highest
 * start address not above it) and sets *off to addr minus that start, or
 * returns NULL when addr is below the first symbol. When modp is not NULL
 * it gets the module name or NULL. The name is borrowed until
 * kallsyms_free() or the next kallsyms_load().
 */
const char *kallsyms_lookup(const struct kallsyms *k, uint64_t addr,
	    uint64_t *off, const char **modp);

/* Frees k and everything it owns; k may be NULL. */
void	kallsyms_free(struct kallsyms *k);

/*
 * The running kernel's build ID, as lower-case hex, from the ELF notes at
 * path (normally "/sys/kernel/notes"); NULL when there is none to read.
 * The caller frees it. perf records the same ID for [kernel.kallsyms].
 */
char	*kallsyms_buildid(const char *path);

#endif
