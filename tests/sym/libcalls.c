/*
 * Spends its time in libc functions that libc's debug file names twice, a
 * plain name and a versioned global alias (clock_gettime@@GLIBC_2.17,
 * realpath@@GLIBC_2.3, __libc_start_main@@GLIBC_2.34), in
 * pthread_mutex_lock (whose own name is ___pthread_mutex_lock, with the
 * hidden alias __GI___pthread_mutex_lock), and in malloc, which has the
 * alias __libc_malloc: fgsym and fgsym --annotate must pick the same name,
 * the one callers wrote, and never a version suffix.
 */
#include <pthread.h>
#include <limits.h>
#include <stdlib.h>
#include <time.h>

int
main(void)
{
	struct timespec ts, t0;
	char buf[PATH_MAX];
	volatile unsigned long sink = 0;
	unsigned long i;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0;; i++) {
		void *p = malloc(64 + (i & 255));

		pthread_mutex_lock(&lock);
		sink += (unsigned long)p;
		pthread_mutex_unlock(&lock);
		free(p);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if ((i & 15) == 0 && realpath("/usr/bin/../lib", buf) != NULL)
			sink += buf[1];
		if ((i & 1023) == 0 && (ts.tv_sec - t0.tv_sec) * 1000000000L +
		    (ts.tv_nsec - t0.tv_nsec) > 700000000L)
			break;
	}
	return sink == 1;
}
