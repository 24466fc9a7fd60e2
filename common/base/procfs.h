/*
 * procfs: what fgrecord reads of a live thread in /proc.
 */
#ifndef FG_PROCFS_H
#define FG_PROCFS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Reads the name of thread tid of process pid (/proc/PID/task/TID/comm)
 * into buf, without its newline: "" when the file is empty. Returns 0, or
 * -1 when the thread is gone or unreadable (buf is then "").
 */
int	proc_comm(pid_t pid, pid_t tid, char *buf, size_t len);

#endif
