/*
 * waiter: an event loop that retries nothing. It makes N waits (argv[1],
 * default 10000) of MS milliseconds each (argv[2], default 1) that time
 * out, alternately in epoll_wait on an epoll set nothing ever makes
 * ready and in sigtimedwait for a signal nobody sends, and counts how
 * each ended: timed out (what it asked for), EINTR, anything else.
 * A little CPU work between the waits (argv[3] microseconds of CPU,
 * default 20) gives a CPU sampler something to interrupt as the thread
 * enters its next wait.
 *
 *	waiter [N [MS [US]]]
 *
 * Prints on stderr, at the end:
 *	waits N
 *	eintr-epoll N
 *	eintr-sigtimedwait N
 *	other N
 *	wait-us MEDIAN MAX	each wait's wall time, microseconds
 * and exits 0 when every wait timed out, 1 otherwise. The waits are in
 * wait_epoll and wait_signal, so that a profile shows where it waits.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>

#include "spin.h"

#define NOINLINE __attribute__((noinline))

static long eintr_epoll, eintr_sig, other;
static int ep;

static NOINLINE void
wait_epoll(int ms)
{
	struct epoll_event ev;
	int r = epoll_wait(ep, &ev, 1, ms);

	if (r < 0 && errno == EINTR)
		eintr_epoll++;
	else if (r != 0)
		other++;
}

static NOINLINE void
wait_signal(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	sigset_t set;
	int r;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	r = sigtimedwait(&set, NULL, &ts);
	if (r < 0 && errno == EINTR)
		eintr_sig++;
	else if (!(r < 0 && errno == EAGAIN))
		other++;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000, i;
	int ms = argc > 2 ? atoi(argv[2]) : 1;
	double us = argc > 3 ? atof(argv[3]) : 20, *took;
	sigset_t set;

	if (n < 1)
		n = 1;
	took = calloc((size_t)n, sizeof(*took));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if ((ep = epoll_create1(0)) < 0 || took == NULL) {
		fprintf(stderr, "waiter: cannot start: %s\n", strerror(errno));
		return 2;
	}
	for (i = 0; i < n; i++) {
		double t0;

		spin_for(us / 1e6);
		t0 = spin_now();
		if (i & 1)
			wait_signal(ms);
		else
			wait_epoll(ms);
		took[i] = (spin_now() - t0) * 1e6;
	}
	qsort(took, (size_t)n, sizeof(*took), cmp);
	fprintf(stderr, "waits %ld\neintr-epoll %ld\neintr-sigtimedwait %ld\n"
	    "other %ld\nwait-us %.0f %.0f\n", n, eintr_epoll, eintr_sig, other,
	    took[n / 2], took[n - 1]);
	return eintr_epoll || eintr_sig || other;
}
