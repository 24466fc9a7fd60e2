/*
 * test_procfs: the /proc readers on this process. Its tasks are walked
 * while a thread the test started runs (and named itself, with a tab
 * and a newline in the name, as a hostile thread may); its status fields are
 * its own IDs; a pid that has been reaped reads as gone everywhere; the
 * clock moves forward and agrees with clock_gettime; its mappings hold
 * its code.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/procfs.h"
#include "unit.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, done;
static pid_t worker_tid;

static void *
worker(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "fgwork\tx\ny");
	pthread_mutex_lock(&mu);
	worker_tid = (pid_t)syscall(SYS_gettid);
	ready = 1;
	pthread_cond_broadcast(&cv);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

/* Checks that got == want, printing both when not. */
static void
check_int(long got, long want, const char *what)
{
	char g[32], w[32];

	snprintf(g, sizeof(g), "%ld", got);
	snprintf(w, sizeof(w), "%ld", want);
	CHECK_STR(g, w, what);
}

static void *
brief(void *arg)
{
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	return NULL;
}

/* A process that has exited and been reaped: its pid names nothing. */
static pid_t
vanished_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void
test_tasks(void)
{
	struct procfs_walk w;
	pid_t self = getpid(), tid;
	int n = 0, saw_self = 0, saw_worker = 0, r;
	char name[64], big[4];

	r = procfs_walk_tasks(&w, self);
	check_int(r, 0, "procfs_walk_tasks opens this process's tasks");
	while (r == 0 && (tid = procfs_walk_next(&w)) > 0) {
		n++;
		saw_self |= tid == self;
		saw_worker |= tid == worker_tid;
	}
	if (r == 0)
		procfs_walk_release(&w);
	check_int(n, 2, "two tasks: the main thread and the worker");
	CHECK(saw_self, "the main thread is listed");
	CHECK(saw_worker, "the worker the test started is listed");
	check_int(procfs_walk_next(&w), 0, "a released walk gives nothing");

	check_int(procfs_comm(self, worker_tid, name, sizeof(name)), 0,
	    "procfs_comm reads the worker's name");
	CHECK_STR(name, "fgwork\tx", "the name as the thread set it, up to "
	    "its first newline");
	procfs_comm(self, worker_tid, big, sizeof(big));
	CHECK_STR(big, "fgw", "a name is cut to the buffer");
}

static void
test_procs(void)
{
	struct procfs_walk w;
	pid_t pid, self = getpid();
	int saw_self = 0, saw_init = 0, n = 0;

	check_int(procfs_walk_procs(&w), 0, "procfs_walk_procs opens /proc");
	while ((pid = procfs_walk_next(&w)) > 0) {
		n++;
		saw_self |= pid == self;
		saw_init |= pid == 1;
	}
	procfs_walk_release(&w);
	CHECK(saw_self, "this process is among /proc's");
	CHECK(saw_init, "so is process 1");
	CHECK(n >= 2, "no name like 'self' gives an ID");
}

static void
test_status(void)
{
	struct procfs_status st;

	check_int(procfs_status(getpid(), &st), 0, "procfs_status on this "
	    "process");
	check_int(st.tgid, getpid(), "Tgid: is this process");
	check_int(st.nuid, 3, "Uid: gives three IDs");
	check_int(st.uid[0], getuid(), "the real user ID");
	check_int(st.uid[1], geteuid(), "the effective user ID");
	CHECK(st.seccomp >= 0 && st.seccomp <= 2, "Seccomp: is a mode");

	check_int(procfs_status(worker_tid, &st), 0, "procfs_status on a "
	    "thread's ID");
	check_int(st.tgid, getpid(), "a thread's Tgid: is its process");

	check_int(procfs_status(0, &st), 0, "pid 0 reads /proc/self/status");
	check_int(st.tgid, getpid(), "and that is this process");
}

/* TracerPid: 0 for a child nobody traces, this process once it seizes it. */
static void
test_tracer(void)
{
	struct procfs_status st;
	pid_t child;
	int status;

	if ((child = fork()) == 0) {
		pause();
		_exit(0);
	}
	CHECK(child > 0, "fork a child to trace");
	if (child <= 0)
		return;
	check_int(procfs_status(child, &st), 0, "procfs_status on the child");
	check_int(st.tracer, 0, "TracerPid: none yet");
	if (ptrace(PTRACE_SEIZE, child, 0, 0) == 0) {
		check_int(procfs_status(child, &st), 0, "and once it is seized");
		check_int(st.tracer, getpid(), "TracerPid: this process");
	} else {
		printf("# ptrace refused here (%s): TracerPid unchecked\n",
		    strerror(errno));
	}
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
}

static void
test_vanished(void)
{
	struct procfs_status st;
	struct procfs_walk w;
	pid_t gone = vanished_pid(), tid = 0;
	char name[64] = "junk";
	pthread_t th;

	errno = 0;
	check_int(procfs_walk_tasks(&w, gone), -1, "no tasks for a reaped pid");
	check_int(errno, ENOENT, "and errno says ENOENT");
	check_int(procfs_status(gone, &st), -1, "no status for it");
	check_int(st.tgid, 0, "its status is empty");
	check_int(st.seccomp, -1, "its Seccomp: absent");
	check_int(procfs_comm(gone, gone, name, sizeof(name)), -1, "no name");
	CHECK_STR(name, "", "and the name is empty");
	check_int(procfs_alive(gone), 0, "procfs_alive says it is gone");
	check_int(procfs_task_open(gone, gone, "stat"), -1, "its stat file "
	    "cannot be opened");

	/* A thread of this process that has exited and been joined. */
	if (pthread_create(&th, NULL, brief, &tid) == 0 &&
	    pthread_join(th, NULL) == 0) {
		strcpy(name, "junk");
		check_int(procfs_comm(getpid(), tid, name, sizeof(name)), -1,
		    "no name for a thread that has exited");
		CHECK_STR(name, "", "and the name is empty");
		check_int(procfs_task_open(getpid(), tid, "schedstat"), -1,
		    "nor its schedstat file");
		check_int(procfs_status(tid, &st), -1, "nor its status");
	} else {
		CHECK(0, "cannot start a short thread");
	}
}

static void
test_stat(void)
{
	char buf[1024], *f3 = NULL;
	char odd[] = "12 (a) b) (c) S 1 2 3";
	int fd;

	check_int(procfs_alive(getpid()), 1, "procfs_alive on this process");
	fd = procfs_task_open(getpid(), worker_tid, "stat");
	CHECK(fd >= 0, "procfs_task_open opens the worker's stat");
	check_int(procfs_reread(fd, buf, sizeof(buf)), 0, "procfs_reread "
	    "reads it");
	check_int(procfs_stat_state(buf, NULL), 'S', "the waiting worker "
	    "sleeps");
	check_int(procfs_reread(fd, buf, sizeof(buf)), 0, "and reads it "
	    "again from its start");
	check_int(procfs_stat_state(buf, &f3), 'S', "the same state again");
	CHECK(f3 != NULL && f3[0] == 'S' && f3[1] == ' ', "field3 points at "
	    "the state");
	if (fd >= 0)
		close(fd);
	check_int(procfs_reread(-1, buf, sizeof(buf)), -1, "no descriptor, "
	    "no text");

	check_int(procfs_stat_state(odd, &f3), 'S', "a name with spaces "
	    "and parentheses: the state follows the last ')'");
	CHECK_STR(f3, "S 1 2 3", "field3 starts at the state");
	strcpy(buf, "12 (no end");
	check_int(procfs_stat_state(buf, NULL), 0, "no ')': no stat line");
}

static void
test_clock(void)
{
	struct timespec ts;
	uint64_t a, b, c;

	a = procfs_now_ns();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	b = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	c = procfs_now_ns();
	CHECK(a <= b && b <= c, "procfs_now_ns is CLOCK_MONOTONIC in ns");
}

/*
 * The one maps reader: this process's mappings hold this function's
 * code (executable, in this test's file) and the vDSO; its thread's
 * list the same; a reaped pid has none.
 */
static void
test_maps(void)
{
	struct procfs_maps ms;
	struct procfs_map m;
	uint64_t here = (uint64_t)(uintptr_t)&test_maps;
	int n = 0, code = 0, vdso = 0, named = 0, tid_n = 0;

	check_int(procfs_maps_open(&ms, getpid(), 0), 0, "maps: opens its own");
	while (procfs_maps_next(&ms, &m)) {
		n++;
		if (m.start <= here && here < m.end)
			code = strchr(m.perms, 'x') != NULL &&
			    strstr(m.name, "test_procfs") != NULL &&
			    m.name[0] == '/' && strstr(m.line, m.name) != NULL;
		if (strcmp(m.name, "[vdso]") == 0)
			vdso = m.end > m.start && m.pgoff == 0;
		if (m.name[0] != '\0' && (strchr(m.name, '\n') != NULL ||
		    m.name[strlen(m.name) - 1] == ' '))
			named = -1;
	}
	procfs_maps_release(&ms);
	CHECK(n > 5, "maps: lists the mappings");
	CHECK(code, "maps: this code is in an executable mapping of this file");
	CHECK(vdso, "maps: the vDSO is there, by name");
	check_int(named, 0, "maps: no name ends in a newline or a space");
	check_int(procfs_maps_open(&ms, getpid(), worker_tid), 0,
	    "maps: a thread's list opens");
	while (procfs_maps_next(&ms, &m))
		tid_n++;
	procfs_maps_release(&ms);
	CHECK(tid_n > 5, "maps: a thread lists the process's mappings");
	errno = 0;
	check_int(procfs_maps_open(&ms, vanished_pid(), 0), -1,
	    "maps: none for a reaped pid");
	check_int(errno, ENOENT, "maps: and errno says ENOENT");
}

int
main(void)
{
	pthread_t th;

	if (pthread_create(&th, NULL, worker, NULL) != 0) {
		printf("1..0 # SKIP cannot start a thread\n");
		return 0;
	}
	pthread_mutex_lock(&mu);
	while (!ready)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	/* The worker is in pthread_cond_wait now, or about to be. */
	usleep(20000);

	test_tasks();
	test_procs();
	test_status();
	test_tracer();
	test_stat();
	test_vanished();
	test_maps();
	test_clock();

	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(th, NULL);
	return unit_done();
}
