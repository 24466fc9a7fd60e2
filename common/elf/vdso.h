/*
 * vdso: a copy of the vDSO, the small ELF library that the kernel maps
 * into every process ([vdso] in its maps). All 64-bit processes of one
 * kernel map the same one, so any live process's copy can name and unwind
 * the frames of a process that has exited.
 *
 *	img = vdso_copy(pid, &size);	one process's, while it lives
 *	img = vdso_any(&size);		ours, else our parent's, else init's
 *
 * Each returns a malloc'd image (the caller frees it), or NULL when there
 * was none to read. A process started under valgrind has no vDSO of its
 * own, hence the others.
 */
#ifndef FG_VDSO_H
#define FG_VDSO_H

#include <stddef.h>
#include <sys/types.h>

void	*vdso_copy(pid_t, size_t *);
void	*vdso_any(size_t *);

#endif
