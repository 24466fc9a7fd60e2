/* vdso: copies of the kernel's vDSO out of live processes (vdso.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "elf/vdso.h"
#include "base/xalloc.h"

void *
vdso_copy(pid_t pid, size_t *size)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	unsigned long long s = 0, e = 0;
	int found = 0;
	struct iovec local, remote;
	void *img;
	FILE *mf;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((mf = fopen(path, "re")) == NULL)
		return NULL;
	while (!found && getline(&line, &cap, mf) > 0)
		found = strstr(line, " [vdso]") != NULL &&
		    sscanf(line, "%llx-%llx", &s, &e) == 2 && e > s &&
		    e - s <= (1 << 20);
	free(line);
	fclose(mf);
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
