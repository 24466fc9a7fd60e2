/*
 * procfs: what fgrecord reads of a live thread in /proc (see procfs.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/procfs.h"

int
proc_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
