/*
 * procfs: what fgrecord reads of live processes and threads in /proc,
 * and the clock it reads them by.
 *
 *	struct procfs_walk w;
 *	pid_t tid;
 *
 *	if (procfs_walk_tasks(&w, pid) == 0) {
 *		while ((tid = procfs_walk_next(&w)) > 0)
 *			... tid may be gone already: every read of it may fail ...
 *		procfs_walk_release(&w);
 *	}
 *
 *	struct procfs_status st;
 *	if (procfs_status(pid, &st) == 0 && st.nuid == 3) ... st.uid[1] ...
 *
 *	struct procfs_maps ms;
 *	struct procfs_map m;
 *	if (procfs_maps_open(&ms, pid, 0) == 0) {
 *		while (procfs_maps_next(&ms, &m))
 *			... m.start, m.end, m.perms, m.name ...
 *		procfs_maps_release(&ms);
 *	}
 *
 * These run as root on processes that may be hostile: a thread names
 * itself (its comm may hold anything but a NUL), threads come and go
 * between a listing and a read, and a read may be interrupted. So every
 * file is opened with O_CLOEXEC and O_NOFOLLOW, every read is bounded
 * (no line of a target's making can grow a buffer), EINTR is retried,
 * and a thread that has vanished is an ordinary answer (-1 or 0), never
 * an error message: nothing here prints.
 */
#ifndef FG_PROCFS_H
#define FG_PROCFS_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Returns the time on CLOCK_MONOTONIC, in ns: the clock of perf's
 * samples (use_clockid), of ptsample's ticks and of the session's
 * deadline.
 */
uint64_t procfs_now_ns(void);

/* A walk over the numbered entries of a /proc directory. */
struct procfs_walk {
	DIR		*dir;		/* owned, until procfs_walk_release */
};

/*
 * Starts a walk over the threads of process pid (/proc/PID/task).
 * Returns 0, or -1 with errno set (ENOENT: there is no such process);
 * then there is nothing to release.
 */
int	 procfs_walk_tasks(struct procfs_walk *, pid_t pid);

/* Starts a walk over every process (/proc); returns as procfs_walk_tasks. */
int	 procfs_walk_procs(struct procfs_walk *);

/*
 * Returns the next thread (or process) ID, in the directory's order, or
 * 0 when there are no more. "." and "..", and names that are not a
 * positive decimal number (/proc/self), are skipped. A thread listed
 * may exit at once: the caller must expect it to be gone.
 */
pid_t	 procfs_walk_next(struct procfs_walk *);

/* Ends a walk that procfs_walk_tasks or _procs started. */
void	 procfs_walk_release(struct procfs_walk *);

/* What fgrecord reads of /proc/PID/status. */
struct procfs_status {
	pid_t		 tgid;		/* Tgid:, the thread's process; 0 if absent */
	int		 nuid;		/* how many of uid[] Uid: gave (3 if complete) */
	uid_t		 uid[3];	/* Uid: the real, effective and saved user IDs */
	int		 seccomp;	/* Seccomp: 0, 1 (strict), 2 (filter); -1 if absent */
	pid_t		 tracer;	/* TracerPid:, who ptraces it; 0 if none or absent */
	uint64_t	 sigpnd;	/* SigPnd:, the signals pending for the thread */
	uint64_t	 shdpnd;	/* ShdPnd:, ... for its process */
	uint64_t	 sigblk;	/* SigBlk:, the signals it blocks; 0 if absent */
};

/*
 * Reads /proc/PID/status (pid 0: /proc/self/status, this process) into
 * *st; pid may be a thread's ID. Each field is taken from the first line
 * that starts with its name; a field that is missing keeps the value
 * the comment above gives. Returns 0, or -1 with errno set when the file
 * cannot be opened (ENOENT: the process or thread is gone; *st is then
 * as for an empty file).
 */
int	 procfs_status(pid_t pid, struct procfs_status *st);

/*
 * Reads the name of thread tid of process pid (/proc/PID/task/TID/comm)
 * into buf (len bytes), without its newline: "" when the file is empty;
 * a longer name is cut at len - 1 bytes. The name is the thread's own
 * choice and may hold control characters: clean it before printing.
 * Returns 0, or -1 when the thread is gone or unreadable (buf is then "").
 */
int	 procfs_comm(pid_t pid, pid_t tid, char *buf, size_t len);

/*
 * Opens /proc/PID/task/TID/WHAT read-only, to be read again and again
 * with procfs_reread while the thread lives (its stat, schedstat or
 * syscall file). Returns the descriptor (the caller closes it), or -1
 * with errno set.
 */
int	 procfs_task_open(pid_t pid, pid_t tid, const char *what);

/*
 * The value of entry type (AT_BASE, say) of process pid's auxiliary
 * vector, its /proc/PID/auxv: 0 when it has none or cannot be read.
 */
uint64_t procfs_auxv(pid_t pid, uint64_t type);

/*
 * Reads the /proc file fd from its start into buf, at most size - 1
 * bytes, NUL-terminated. One read: a /proc file gives its text at once.
 * Returns 0, or -1 when fd is -1, the file is empty or the read fails
 * (the thread is gone).
 */
int	 procfs_reread(int fd, char *buf, size_t size);

/*
 * Finds the state letter in the text of a stat file ("PID (NAME) S ...").
 * The name may hold anything, spaces and parentheses too: the letter
 * follows the last ')'. Returns the letter ('R', 'S', 'D', 'Z', ...) and
 * points *field3 (which may be NULL) at it, the start of the third
 * field; or returns 0 when buf is no stat line.
 */
int	 procfs_stat_state(char *buf, char **field3);

/*
 * Whether process pid still runs: its stat file, or that of any of its
 * threads, is there and says neither zombie nor dead. The main thread
 * may have called pthread_exit (a zombie) while the others work on.
 */
int	 procfs_alive(pid_t pid);

/* One line of a /proc/PID/maps file: a mapping. */
struct procfs_map {
	uint64_t	 start, end;	/* its addresses, [start, end) */
	uint64_t	 pgoff;		/* its offset in the file */
	char		 perms[8];	/* "r-xp": 'x' when executable */
	unsigned	 maj, min;	/* the file's device, and */
	uint64_t	 ino;		/* inode (0 for none) */
	const char	*name;		/* borrowed until the next line: the
					   file, "[vdso]", "[heap]", or "" */
	const char	*line;		/* borrowed likewise: the whole line,
					   ending where the name ends */
};

/* A reading of a maps file, line by line. */
struct procfs_maps {
	FILE		*f;		/* owned, until procfs_maps_release */
	char		*line;		/* owned: the current line */
	size_t		 cap;
};

/*
 * Starts reading the mappings of process pid (/proc/PID/maps), or, when
 * tid is not 0, those its thread tid lists (/proc/PID/task/TID/maps: a
 * main thread that has left with pthread_exit lists none, its threads
 * still do). Returns 0, or -1 with errno set (ENOENT: it is gone); then
 * there is nothing to release.
 */
int	 procfs_maps_open(struct procfs_maps *, pid_t pid, pid_t tid);

/*
 * Reads the next mapping into *m. Returns 1, or 0 at the end. A line not
 * in the kernel's format is skipped. A line is as long as the kernel
 * makes it (a path of up to PATH_MAX bytes): the buffer grows to it.
 */
int	 procfs_maps_next(struct procfs_maps *, struct procfs_map *m);

/*
 * Parses one line of a maps file (NUL-terminated; its end is cut at the
 * name's) into *m, whose name and line point into it. Returns 1, or 0
 * when it is not in the kernel's format. procfs_maps_next's parser, for
 * maps text read elsewhere (fgrecord --alloc gets it from the process).
 */
int	 procfs_map_line(char *line, struct procfs_map *m);

/* Ends a reading that procfs_maps_open started. */
void	 procfs_maps_release(struct procfs_maps *);

#endif
