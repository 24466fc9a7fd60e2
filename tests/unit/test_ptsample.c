/*
 * test_ptsample: the ptrace sampler on children of this test program.
 * A child spins in two threads, each in its own function; the sampler
 * attaches to it (as -p does) and must give samples of both threads
 * whose registers point into the right function, whose stack copies
 * unwind to the function that called it, and whose periods add up to no
 * more CPU time than the thread used. In wall mode a sleeping thread
 * gives off-CPU samples adding up to the time it slept. When the sampler
 * lets go, the child must run on, untraced. A launched command is
 * followed through exec and fork, and its exit status kept. A child
 * whose stack is deeper than the copy (a 256 KiB array) is walked by the
 * caller's walk while its thread is stopped (its state is "t" then),
 * and what the walk read comes with the sample: an unwind of the sample
 * alone, later, reaches the function that started the child.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/maps.h"
#include "record/ptsample.h"
#include "record/ptsample_impl.h"
#include "record/unwind.h"
#include "unit.h"
#include "testsym.h"

#if defined(__GNUC__) && !defined(__clang__)
#define NOCLONE __attribute__((noclone))
#else
#define NOCLONE
#endif

static volatile unsigned long sink;
static volatile int sleeper_mode;

__attribute__((noinline)) NOCLONE static void
spin_a(void)
{
	for (;;)
		sink++;
}

__attribute__((noinline)) NOCLONE static void
spin_b(void)
{
	for (;;)
		sink += 3;
}

__attribute__((noinline)) NOCLONE static void *
thread_a(void *arg)
{
	(void)arg;
	if (sleeper_mode) {
		for (;;)
			pause();
	}
	spin_a();
	return NULL;
}

/* The child: a second thread in spin_a (or asleep), the main one in spin_b. */
__attribute__((noinline)) NOCLONE static void
child_main(int ready)
{
	pthread_t th;

	pthread_create(&th, NULL, thread_a, NULL);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	spin_b();
}

struct tally {
	pid_t		 pid, main_tid;
	struct maps	 maps;
	struct unwind	 unwind;
	uint64_t	 a_lo, a_hi, b_lo, b_hi, cm_lo, cm_hi, ta_lo, ta_hi;
	long		 n_main, n_other, in_a, in_b, reached;
	long		 offcpu, oncpu;
	long		 main_preempted, main_blocked;	/* the spinner's off-CPU */
	uint64_t	 period_main, period_other, offcpu_ns, wall_main;
	long		 forks, execs, exits, stack_empty;
};

static int
in(uint64_t pc, uint64_t lo, uint64_t hi)
{
	return pc >= lo && pc < hi;
}

static void
on_sample(void *arg, const struct pt_sample *s)
{
	struct tally *t = arg;
	struct unwind_input ui;
	uint64_t pcs[64];
	enum unwind_end why;
	size_t n, i;

	if (s->pid != t->pid)
		return;
	if (s->stack_len == 0)
		t->stack_empty++;
	if (s->tid == t->main_tid)
		t->wall_main += s->period;
	if (s->offcpu) {
		if (s->tid != t->main_tid) {
			t->offcpu++;
			t->offcpu_ns += s->period;
		} else if (s->preempted) {
			t->main_preempted++;
		} else {
			t->main_blocked++;
		}
		return;
	}
	t->oncpu++;
	if (s->tid == t->main_tid) {
		t->n_main++;
		t->period_main += s->period;
		t->in_b += in(s->regs[UNWIND_RA], t->b_lo, t->b_hi);
	} else {
		t->n_other++;
		t->period_other += s->period;
		t->in_a += in(s->regs[UNWIND_RA], t->a_lo, t->a_hi);
	}
	unwind_input_init(&ui, s->pid, s->regs, (1u << UNWIND_NREGS) - 1,
	    s->stack, s->stack_len);
	n = unwind_stack(&t->unwind, &ui, pcs, 64, &why);
	for (i = 1; i < n; i++)
		if (in(pcs[i] - 1, t->cm_lo, t->cm_hi) ||
		    in(pcs[i] - 1, t->ta_lo, t->ta_hi)) {
			t->reached++;
			break;
		}
}

static void
on_fork(void *arg, pid_t parent, pid_t child)
{
	(void)parent;
	(void)child;
	((struct tally *)arg)->forks++;
}

static void
on_exec(void *arg, pid_t pid)
{
	(void)pid;
	((struct tally *)arg)->execs++;
}

static void
on_exit_(void *arg, pid_t pid)
{
	(void)pid;
	((struct tally *)arg)->exits++;
}

static const struct ptsample_cb callbacks = {
	.sample = on_sample,
	.fork = on_fork,
	.exec = on_exec,
	.exit = on_exit_,
};

/* Reads a "Name:\tvalue" field of /proc/PID/status into buf. */
static int
status_field(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64], line[256];
	size_t nl = strlen(name);
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, name, nl) == 0 && line[nl] == ':') {
			snprintf(buf, len, "%s", line + nl + 1 + strspn(line +
			    nl + 1, " \t"));
			buf[strcspn(buf, "\n")] = '\0';
			found = 1;
			break;
		}
	fclose(f);
	return found;
}

static uint64_t
thread_runtime(pid_t pid, pid_t tid)
{
	char path[96];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid,
	    (int)tid);
	if ((f = fopen(path, "re")) != NULL) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
symbols(struct tally *t)
{
	uint64_t v, sz;
	uintptr_t base;

	/* The ELF value of spin_a against its run-time address gives the load bias. */
	if (!elf_symbol("/proc/self/exe", "spin_a", &v, &sz))
		return;
	base = (uintptr_t)spin_a - v;
	t->a_lo = (uintptr_t)spin_a;
	t->a_hi = t->a_lo + sz;
	if (elf_symbol("/proc/self/exe", "spin_b", &v, &sz)) {
		t->b_lo = base + v;
		t->b_hi = t->b_lo + sz;
	}
	if (elf_symbol("/proc/self/exe", "child_main", &v, &sz)) {
		t->cm_lo = base + v;
		t->cm_hi = t->cm_lo + sz;
	}
	if (elf_symbol("/proc/self/exe", "thread_a", &v, &sz)) {
		t->ta_lo = base + v;
		t->ta_hi = t->ta_lo + sz;
	}
}

/* Starts the child and waits until both of its threads exist. */
static pid_t
start_child(int sleeper)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p) != 0)
		return -1;
	sleeper_mode = sleeper;
	if ((pid = fork()) == 0) {
		close(p[0]);
		child_main(p[1]);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1) {
		close(p[0]);
		return -1;
	}
	close(p[0]);
	return pid;
}

static void
test_attach(void)
{
	struct ptsample_opts o = { .freq = 999, .stack_size = 16384 };
	struct ptsample ps;
	struct tally t;
	pid_t pid;
	double t0;
	char buf[64];
	uint64_t cpu_main;
	int status;

	memset(&t, 0, sizeof(t));
	symbols(&t);
	CHECK(t.a_lo && t.b_lo && t.cm_lo, "the test finds its own functions");
	pid = start_child(0);
	CHECK(pid > 0, "the child starts its two threads");
	if (pid <= 0)
		return;
	t.pid = t.main_tid = pid;
	maps_init(&t.maps);
	unwind_init(&t.unwind, &t.maps);
	maps_read_proc(&t.maps, pid);
	ptsample_init(&ps, &o, &callbacks, &t);
	CHECK(ptsample_add(&ps, pid, 0) == 0, "the sampler seizes the child");
	CHECK(ps.nthreads == 2, "both threads are seized");
	/*
	 * Until both threads have run 100 ms of CPU (about 100 samples at
	 * 999 Hz each), not for a fixed wall time: on a busy machine half a
	 * second gave them 8 samples each. At most 30 s.
	 */
	t0 = now();
	while (now() - t0 < 30 && (ps.nthreads < 2 ||
	    thread_runtime(pid, ps.threads[0].tid) < 100000000ULL ||
	    thread_runtime(pid, ps.threads[1].tid) < 100000000ULL))
		ptsample_run(&ps, 100);
	cpu_main = thread_runtime(pid, pid);
	ptsample_release(&ps);
	CHECK(status_field(pid, "TracerPid", buf, sizeof(buf)) &&
	    strcmp(buf, "0") == 0, "after release the child is untraced");
	CHECK(status_field(pid, "State", buf, sizeof(buf)) && buf[0] == 'R',
	    "after release the child runs");
	{
		uint64_t c1 = thread_runtime(pid, pid);
		double t1 = now();

		while (now() - t1 < 0.05)
			;
		usleep(50000);
		CHECK(thread_runtime(pid, pid) > c1,
		    "after release the child's CPU time goes on growing");
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);

	printf("# main %ld samples (%ld in spin_b), other %ld (%ld in spin_a), "
	    "%ld reach their caller, %ld empty stacks\n", t.n_main, t.in_b,
	    t.n_other, t.in_a, t.reached, t.stack_empty);
	CHECK(t.n_main >= 20 && t.n_other >= 20,
	    "both threads are sampled");
	CHECK(t.in_b * 10 >= t.n_main * 9, "the main thread's pc is in spin_b");
	CHECK(t.in_a * 10 >= t.n_other * 9, "the other thread's pc is in spin_a");
	CHECK(t.reached * 10 >= (t.n_main + t.n_other) * 9,
	    "the stack copies unwind to the caller");
	/* random ticks may sample a few periods ahead of what schedstat
	   has counted when the loop ends: 5 ms of room above */
	CHECK(t.period_main <= cpu_main + 5000000 && t.period_main * 10 >=
	    cpu_main * 5, "the main thread's periods add up to its CPU time");
	CHECK(t.offcpu == 0, "no off-CPU samples outside wall mode");
	unwind_release(&t.unwind);
	maps_release(&t.maps);
}

static void
test_wall(void)
{
	struct ptsample_opts o = { .freq = 200, .stack_size = 4096, .wall = 1 };
	struct ptsample ps;
	struct tally t;
	pid_t pid;
	double t0, wall, held;
	int status;

	memset(&t, 0, sizeof(t));
	symbols(&t);
	pid = start_child(1);
	if (pid <= 0) {
		CHECK(0, "the sleeping child starts");
		return;
	}
	t.pid = t.main_tid = pid;
	maps_init(&t.maps);
	unwind_init(&t.unwind, &t.maps);
	maps_read_proc(&t.maps, pid);
	ptsample_init(&ps, &o, &callbacks, &t);
	CHECK(ptsample_add(&ps, pid, 0) == 0, "wall: the sampler seizes the child");
	t0 = now();
	while (now() - t0 < 0.5)
		ptsample_run(&ps, 100);
	wall = now() - t0;
	/* Only the spinner is ever stopped: the sleeper is read where it
	   waits. The time held at the stops is left out of its periods. */
	held = ps.held_ns / 1e9;
	ptsample_release(&ps);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	printf("# wall: the sleeper %ld off-CPU samples, %.3f s of %.3f s; "
	    "the spinner %ld on-CPU, %.3f s in all, %.3f s held\n", t.offcpu,
	    t.offcpu_ns / 1e9, wall, t.oncpu, t.wall_main / 1e9, held);
	CHECK(t.offcpu >= 40, "wall: the sleeping thread gives off-CPU samples");
	CHECK(t.offcpu_ns / 1e9 > wall * 0.7 && t.offcpu_ns / 1e9 < wall * 1.1,
	    "wall: its off-CPU periods add up to the time it slept");
	/* On a busy machine the spinner mostly waits for a CPU: its samples
	   are then preempted, which is what --wall should say of it. */
	printf("# wall: the spinner %ld preempted, %ld blocked\n",
	    t.main_preempted, t.main_blocked);
	CHECK(t.oncpu + t.main_preempted >= 5 && t.main_blocked == 0,
	    "wall: the spinning thread gives samples on a CPU or waiting for "
	    "one, never blocked");
	CHECK(t.wall_main / 1e9 + held > wall * 0.7 &&
	    t.wall_main / 1e9 < wall * 1.1,
	    "wall: the spinning thread's periods and its time held add up to "
	    "the wall time");
	unwind_release(&t.unwind);
	maps_release(&t.maps);
}

static void
test_launch(void)
{
	struct ptsample_opts o = { .freq = 999, .stack_size = 4096 };
	struct ptsample ps;
	struct tally t;
	int go[2], status;
	pid_t pid;
	char c;

	memset(&t, 0, sizeof(t));
	if (pipe(go) != 0)
		return;
	if ((pid = fork()) == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(100);
		execl("/bin/sh", "sh", "-c", "/bin/true & wait; exit 3", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	t.pid = pid;
	ptsample_init(&ps, &o, &callbacks, &t);
	CHECK(ptsample_add(&ps, pid, 1) == 0, "launch: the child is seized");
	if (write(go[1], "g", 1) != 1)
		CHECK(0, "launch: the child is started");
	close(go[1]);
	while (ptsample_live(&ps))
		ptsample_run(&ps, 100);
	CHECK(ps.child_done && WIFEXITED(ps.child_status) &&
	    WEXITSTATUS(ps.child_status) == 3, "launch: the exit status is seen");
	CHECK(t.forks >= 1, "launch: the fork of a child process is seen");
	CHECK(t.execs >= 2, "launch: both execs are seen");
	CHECK(t.exits >= 2, "launch: both exits are seen");
	ptsample_release(&ps);
	CHECK(waitpid(pid, &status, WNOHANG) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 3,
	    "launch: the command's end is left for its parent to reap");
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	    "launch: nothing else is left to reap");
}

/* ---- a stack deeper than the copy, walked while stopped ---- */

#define DEEP_BIG	(256 << 10)

struct deep {
	pid_t		 pid;
	struct maps	 maps;
	struct unwind	 unwind;
	uint64_t	 sd_lo, sd_hi;	/* start_deep */
	long		 n, walks, walk_stopped, walk_reached, more, reached;
};

/* The child's main thread: spin_b below a 256 KiB frame. */
__attribute__((noinline)) NOCLONE static void
child_deep(int ready)
{
	char big[DEEP_BIG];
	volatile char *v = big;

	v[0] = 1;
	v[DEEP_BIG - 1] = 1;
	if (write(ready, "r", 1) != 1)
		_exit(1);
	spin_b();
	sink += v[0] + v[DEEP_BIG - 1];
}

__attribute__((noinline)) NOCLONE static pid_t
start_deep(void)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		close(p[0]);
		child_deep(p[1]);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

/* Whether a walk of s (reading beyond the copy by more) reaches start_deep. */
static int
deep_reaches(struct deep *d, const struct pt_sample *s, unwind_more_fn *more,
    void *more_arg)
{
	struct unwind_input ui;
	uint64_t pcs[64];
	enum unwind_end why;
	size_t n, i;

	unwind_input_init(&ui, s->pid, s->regs, s->regs_valid, s->stack,
	    s->stack_len);
	ui.more = more;
	ui.more_arg = more_arg;
	n = unwind_stack(&d->unwind, &ui, pcs, 64, &why);
	for (i = 1; i < n; i++)
		if (in(pcs[i] - 1, d->sd_lo, d->sd_hi))
			return 1;
	return 0;
}

/* The thread's state letter in /proc, or 0. */
static char
task_state(pid_t pid, pid_t tid)
{
	char path[96], buf[512], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid,
	    (int)tid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' ? p[2] : 0;
}

static void
on_deep_walk(void *arg, const struct pt_sample *s, unwind_more_fn *more,
    void *more_arg)
{
	struct deep *d = arg;

	if (s->pid != d->pid)
		return;
	d->walks++;
	d->walk_stopped += task_state(s->pid, s->tid) == 't';
	d->walk_reached += deep_reaches(d, s, more, more_arg);
}

static void
on_deep_sample(void *arg, const struct pt_sample *s)
{
	struct deep *d = arg;

	if (s->pid != d->pid)
		return;
	d->n++;
	if (s->more == NULL)
		return;
	d->more++;
	d->reached += deep_reaches(d, s, livestack_pieces_read,
	    (void *)(uintptr_t)s->more);
}

static const struct ptsample_cb deep_callbacks = {
	.sample = on_deep_sample,
	.walk = on_deep_walk,
};

static void
test_deep(void)
{
	struct ptsample_opts o = { .freq = 999, .stack_size = 16384 };
	struct ptsample ps;
	struct deep d;
	uint64_t va, v, sz;
	double t0;
	int status;

	memset(&d, 0, sizeof(d));
	/* The load bias, from spin_a, as symbols() finds it. */
	if (elf_symbol("/proc/self/exe", "spin_a", &va, &sz) &&
	    elf_symbol("/proc/self/exe", "start_deep", &v, &sz)) {
		d.sd_lo = (uintptr_t)spin_a - va + v;
		d.sd_hi = d.sd_lo + sz;
	}
	CHECK(d.sd_hi > d.sd_lo, "deep: the test finds start_deep");
	d.pid = start_deep();
	if (d.pid <= 0) {
		CHECK(0, "deep: the child starts");
		return;
	}
	maps_init(&d.maps);
	unwind_init(&d.unwind, &d.maps);
	maps_read_proc(&d.maps, d.pid);
	ptsample_init(&ps, &o, &deep_callbacks, &d);
	CHECK(ptsample_add(&ps, d.pid, 0) == 0, "deep: the sampler seizes the child");
	/* 50 samples, however busy the machine (10 s at most). */
	t0 = now();
	while (d.n < 50 && now() - t0 < 10)
		ptsample_run(&ps, 100);
	ptsample_release(&ps);
	kill(d.pid, SIGKILL);
	waitpid(d.pid, &status, 0);
	printf("# deep: %ld samples, %ld walked (%ld stopped then, %ld reach "
	    "start_deep), %ld with what the walk read (%ld reach it)\n", d.n,
	    d.walks, d.walk_stopped, d.walk_reached, d.more, d.reached);
	CHECK(d.n >= 20, "deep: the child is sampled");
	CHECK(d.walks * 10 >= d.n * 9 && d.walk_stopped == d.walks,
	    "deep: the stacks deeper than the copy are walked, the thread "
	    "stopped");
	CHECK(d.walk_reached * 10 >= d.walks * 9,
	    "deep: the walk reads on past the 256 KiB frame to start_deep");
	CHECK(d.more * 10 >= d.n * 9 && d.reached * 10 >= d.n * 9,
	    "deep: what it read comes with the sample, and unwinds it alone "
	    "to start_deep");
	unwind_release(&d.unwind);
	maps_release(&d.maps);
}

/* pt_read_syscall on syscall(5)-shaped text: "NR ARGS... SP PC". */
static int
syscall_of(const char *text, uint64_t *sp, uint64_t *pc)
{
	char path[] = "/tmp/test_ptsample.XXXXXX";
	struct pt_thread t;
	int rc;

	memset(&t, 0, sizeof(t));
	t.sysfd = mkstemp(path);
	if (t.sysfd < 0 || write(t.sysfd, text, strlen(text)) !=
	    (ssize_t)strlen(text))
		rc = -2;
	else
		rc = pt_read_syscall(&t, sp, pc);
	if (t.sysfd >= 0)
		close(t.sysfd);
	unlink(path);
	return rc;
}

static void
test_syscall_file(void)
{
	uint64_t sp = 0, pc = 0;

	CHECK(syscall_of("7 0x7ffd2f1c8b00 0x1 0xffffffff 0x0 0x0 0x0 "
	    "0x7ffd2f1c8a40 0x7f3a12345678\n", &sp, &pc) == 0 &&
	    sp == 0x7ffd2f1c8a40ULL && pc == 0x7f3a12345678ULL,
	    "a thread in a system call: its SP and PC, in hex");
	CHECK(syscall_of("-1 0x7ffd2f1c8a40 0x7f3a12345678\n", &sp, &pc) == -1,
	    "blocked outside a system call: -1");
	CHECK(syscall_of("running\n", &sp, &pc) == -1, "running: -1");
	CHECK(syscall_of("7 0x0 0x0 0x0 0x0 0x0 0x0 0x10000000000000000 0x1\n",
	    &sp, &pc) == -1, "an SP past 2^64-1: -1");
	CHECK(syscall_of("7 0x0 0x0 0x0 0x0 0x0 0x0 0x7ffd 0xzz\n",
	    &sp, &pc) == -1, "a PC that is no hex: -1");
}

int
main(void)
{
	test_syscall_file();
	test_attach();
	test_wall();
	test_launch();
	test_deep();
	return unit_done();
}
