/*
 * Spends its time in libc functions that libc's debug file names twice, a
 * plain name and a versioned global alias (clock_gettime@@GLIBC_2.17,
 * realpath@@GLIBC_2.3, __libc_start_main@@GLIBC_2.34), in
 * pthread_mutex_lock (whose own name is ___pthread_mutex_lock, with the
 * hidden alias __GI___pthread_mutex_lock), and in malloc, which has the
 * alias __libc_malloc: fgsym and fgsym --annotate must pick the same name,
 * the one callers wrote, and never a version suffix.
 *
 * It runs for 1 s of its own CPU time, so that a busy machine does not
 * cut its samples short, and calls the slow ones (realpath, and
 * clock_gettime, a system call in some VMs) once in 256 and 16 rounds, so
 * that the fast ones get their share: about 50 of 1000 samples in
 * pthread_mutex_lock, where a busy machine's 224 samples of 0.7 s of wall
 * time, most in realpath, had none.
 */
#include <pthread.h>
#include <limits.h>
#include <stdlib.h>
#include <time.h>

int
main(void)
{
	struct timespec ts, cpu;
	char buf[PATH_MAX];
	volatile unsigned long sink = 0;
	unsigned long i;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	for (i = 0;; i++) {
		void *p = malloc(64 + (i & 255));

		pthread_mutex_lock(&lock);
		sink += (unsigned long)p;
		pthread_mutex_unlock(&lock);
		free(p);
		if ((i & 15) == 0)
			clock_gettime(CLOCK_MONOTONIC, &ts);
		if ((i & 255) == 0 && realpath("/usr/bin/../lib", buf) != NULL)
			sink += buf[1];
		if ((i & 1023) == 0 &&
		    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0 &&
		    cpu.tv_sec >= 1)
			break;
	}
	return sink == 1;
}
