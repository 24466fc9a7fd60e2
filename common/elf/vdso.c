/* vdso: copies of the kernel's vDSO out of live processes (vdso.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "base/procfs.h"
#include "base/xalloc.h"
#include "elf/vdso.h"
#include "stream/stream.h"

void *
vdso_copy(pid_t pid, size_t *size)
{
	struct procfs_maps ms;
	struct procfs_map m;
	uint64_t s = 0, e = 0;
	int found = 0;
	struct iovec local, remote;
	void *img;

	if (procfs_maps_open(&ms, pid, 0) != 0)
		return NULL;
	while (!found && procfs_maps_next(&ms, &m)) {
		found = strcmp(m.name, STREAM_VDSO) == 0 && m.end > m.start &&
		    m.end - m.start <= (1 << 20);
		s = m.start;
		e = m.end;
	}
	procfs_maps_release(&ms);
	if (!found)
		return NULL;
	img = xmalloc(e - s);
	local.iov_base = img;
	local.iov_len = e - s;
	remote.iov_base = (void *)(uintptr_t)s;
	remote.iov_len = e - s;
	/* Our own memory needs no rights; another's, ptrace's. */
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)(e - s)) {
		free(img);
		return NULL;
	}
	*size = e - s;
	return img;
}

void *
vdso_any(size_t *size)
{
	void *img;

	if ((img = vdso_copy(getpid(), size)) == NULL &&
	    (img = vdso_copy(getppid(), size)) == NULL)
		img = vdso_copy(1, size);
	return img;
}
