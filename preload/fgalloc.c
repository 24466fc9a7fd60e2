/*
 * libfgalloc.so: the allocation hooks fgrecord --alloc preloads into the
 * program it launches (LD_PRELOAD), sending fgrecord a sample every
 * FGALLOC_PERIOD bytes on average over the socket FGALLOC_FD names
 * (record/allocmsg.h).
 *
 * Sampling is by bytes, as tcmalloc and Go do it: each thread counts down
 * a number of bytes drawn from an exponential distribution of mean R; the
 * allocation that reaches zero is sampled and a new count drawn. Every
 * byte then has the same chance, so an allocation of s bytes is sampled
 * with probability 1 - exp(-s/R), and fgrecord weighs it by the inverse.
 *
 * What a hook may do: no allocation (its own calls go through, guarded
 * per thread), no stdio, no lock that a signal handler could find taken
 * by the thread it interrupted: only system calls (sendmsg, which keeps a
 * message whole across threads, is async-signal-safe), atomics and
 * initial-exec TLS. A block not sampled costs the countdown on
 * allocation and one look in a 64 KiB filter on free.
 *
 * The stack sent is the allocator's caller's: the hook keeps a frame
 * pointer (__builtin_frame_address), so the caller's sp, bp and return
 * address are read off it, and fgrecord unwinds the copy with the
 * program's CFI as it unwinds a perf sample. x86-64 only.
 *
 * The live table: the sampled blocks not freed yet, open addressing in an
 * anonymous mapping (a fork copies it, and the child's frees of its
 * parent's blocks are matched in the child's name).
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "record/allocmsg.h"

#define HOOK	__attribute__((visibility("default")))
#define LIKELY(x)	__builtin_expect(!!(x), 1)
#define UNLIKELY(x)	__builtin_expect(!!(x), 0)

/* The allocator below us, found with dlsym(RTLD_NEXT). */
static void	*(*real_malloc)(size_t);
static void	*(*real_calloc)(size_t, size_t);
static void	*(*real_realloc)(void *, size_t);
static void	 (*real_free)(void *);
static int	 (*real_posix_memalign)(void **, size_t, size_t);
static void	*(*real_aligned_alloc)(size_t, size_t);
static void	*(*real_memalign)(size_t, size_t);
static void	*(*real_valloc)(size_t);
static void	*(*real_pvalloc)(size_t);

enum { UNRESOLVED, RESOLVING, READY };
static atomic_int state;

/*
 * What dlsym allocates while the real functions are looked up: a bump
 * arena, never freed (a free of it does nothing).
 */
static _Alignas(64) char boot[65536];
static atomic_size_t boot_used;

/* The channel: the socket, or -1 when not recording. */
static int	 chan = -1;
static double	 period = 524288;
static size_t	 stack_copy = 16384;
static atomic_int hello_done;	/* the HELLO and the maps are sent */
static atomic_flag maps_busy = ATOMIC_FLAG_INIT;
static unsigned long long maps_adds;	/* dl_iterate_phdr's count when sent */

struct tstate {
	uint64_t	 left;		/* bytes before the next sample; 0: draw */
	uint64_t	 rng;
	int		 busy;		/* inside the hook: let calls through */
	int32_t		 tid;		/* gettid(), once; 0: not asked yet */
	uint64_t	 map_lo, map_hi;	/* pages of the stack known mapped */
	int		 map_top;	/* and the page at map_hi is not */
};

/* getpid(), asked once and again in a fork's child: a syscall less per message. */
static int32_t mypid;
static __thread struct tstate ts __attribute__((tls_model("initial-exec")));

/* The live table of sampled blocks, and its filter of counts by hash. */
#define LIVE_BITS	20
#define LIVE_SLOTS	((size_t)1 << LIVE_BITS)
#define LIVE_PROBES	64
#define LIVE_TOMB	((uintptr_t)1)
#define FILT_BITS	15	/* 64 KiB of counts */
#define FILT_SHIFT	8	/* one count per 256 bytes of addresses */
#define RECORD_PAGES_MAX	17	/* pages of the largest stack copy */
static _Atomic(_Atomic uintptr_t *) live;
static _Atomic uint16_t filt[1 << FILT_BITS];

/*
 * A block's first slot in the live table: its address in 16-byte units,
 * which no two live blocks share, modulo the table (16 MiB of addresses
 * go round it once). Not a hash: blocks near each other take slots near
 * each other, so that a heap's samples touch a few pages of the table
 * where a hash touched a new one (a page fault) for most samples, and
 * the frees the filter lets through find their slot in the cache.
 */
static inline size_t
slot_of(const void *p)
{
	return ((uintptr_t)p >> 4) & (LIVE_SLOTS - 1);
}

/*
 * The filter counts sampled blocks by their 256 bytes of addresses, the
 * pieces of a heap in a row: the frees of blocks near each other look at
 * the same cache line, where a hash of the pointer missed the cache on
 * most frees (68% of the free hook's time on bench/alloc/churn.c). Not by
 * page: a sampled block sent every free on its page (some 30 small
 * blocks) to the live table, a miss in its 8 MiB each time, 4% of churn's
 * time at the default rate.
 */
static inline size_t
filt_at(const void *p)
{
	return ((uintptr_t)p >> FILT_SHIFT) & ((1u << FILT_BITS) - 1);
}

static inline int
maybe_live(const void *p)
{
	return atomic_load_explicit(&filt[filt_at(p)], memory_order_relaxed) != 0;
}

static int
in_boot(const void *p)
{
	return (const char *)p >= boot && (const char *)p < boot + sizeof(boot);
}

static void *
boot_alloc(size_t n, size_t align)
{
	size_t at, old;

	if (align < 16)
		align = 16;
	do {
		old = atomic_load(&boot_used);
		at = (old + 16 + align - 1) & ~(align - 1);
		if (n > sizeof(boot) || at + n > sizeof(boot))
			return NULL;
	} while (!atomic_compare_exchange_weak(&boot_used, &old, at + n));
	memcpy(boot + at - sizeof(size_t), &n, sizeof(n));
	/* its free goes the filter's slow way, which knows it: never freed */
	atomic_fetch_add(&filt[filt_at(boot + at)], 1);
	return boot + at;
}

static size_t
boot_size(const void *p)
{
	size_t n;

	memcpy(&n, (const char *)p - sizeof(size_t), sizeof(n));
	return n;
}

static void
chan_init(void)
{
	const char *s;
	int type = 0;
	socklen_t len = sizeof(type);

	if ((s = getenv(ALLOCMSG_ENV_FD)) == NULL)
		return;
	if ((s = getenv(ALLOCMSG_ENV_PERIOD)) != NULL && atof(s) >= 1)
		period = atof(s);
	if ((s = getenv(ALLOCMSG_ENV_STACK)) != NULL && atol(s) >= 0)
		stack_copy = (size_t)atol(s) & ~(size_t)7;
	s = getenv(ALLOCMSG_ENV_FD);
	/* a descriptor the program closed, or reused for something else */
	if (atoi(s) >= ALLOCMSG_FD_MIN && getsockopt(atoi(s), SOL_SOCKET,
	    SO_TYPE, &type, &len) == 0 && type == SOCK_SEQPACKET)
		chan = atoi(s);
}

/* Looks up the real functions once; 0 while that is going on. */
static __attribute__((noinline, cold)) int
resolve_slow(void)
{
	int expect = UNRESOLVED;

	if (!atomic_compare_exchange_strong(&state, &expect, RESOLVING))
		return atomic_load(&state) == READY;
	real_malloc = dlsym(RTLD_NEXT, "malloc");
	real_calloc = dlsym(RTLD_NEXT, "calloc");
	real_realloc = dlsym(RTLD_NEXT, "realloc");
	real_free = dlsym(RTLD_NEXT, "free");
	real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
	real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
	real_memalign = dlsym(RTLD_NEXT, "memalign");
	real_valloc = dlsym(RTLD_NEXT, "valloc");
	real_pvalloc = dlsym(RTLD_NEXT, "pvalloc");
	chan_init();
	atomic_store(&state, READY);
	return 1;
}

/*
 * The test each hook makes first, inlined: a call to it was a sixth of
 * the hooks' own time on bench/alloc/churn.c. Acquire: the real
 * functions' pointers are seen once READY is.
 */
static inline __attribute__((always_inline)) int
resolve(void)
{
	if (LIKELY(atomic_load_explicit(&state, memory_order_acquire) == READY))
		return 1;
	return resolve_slow();
}

static void
off(void)
{
	chan = -1;
}

/* Sends one message; the channel is closed for good when it fails. */
static int
chan_send(struct allocmsg *m, const void *extra, size_t len)
{
	struct iovec iov[2];
	struct msghdr mh;
	ssize_t n;

	if (chan < 0)
		return -1;
	if (mypid == 0)
		mypid = (int32_t)syscall(SYS_getpid);
	if (ts.tid == 0)
		ts.tid = (int32_t)syscall(SYS_gettid);
	m->pid = mypid;
	m->tid = ts.tid;
	if (m->time == 0) {
		struct timespec t;

		clock_gettime(CLOCK_MONOTONIC, &t);
		m->time = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
	}
	/* the thread's name where fgrecord names a thread: not for a free */
	if (m->kind != ALLOCMSG_FREE && m->kind != ALLOCMSG_MAPS)
		prctl(PR_GET_NAME, m->comm, 0, 0, 0);
	for (;;) {
		memset(&mh, 0, sizeof(mh));
		iov[0].iov_base = m;
		iov[0].iov_len = sizeof(*m);
		iov[1].iov_base = (void *)extra;
		iov[1].iov_len = len;
		mh.msg_iov = iov;
		mh.msg_iovlen = len ? 2 : 1;
		n = sendmsg(chan, &mh, MSG_NOSIGNAL);
		if (n >= 0)
			return 0;
		if (errno == EINTR)
			continue;
		/* the stack copy reached past the stack's mapping */
		if (errno == EFAULT && len > 0) {
			len = len > 512 ? len / 2 : 0;
			continue;
		}
		if (errno == EMSGSIZE && len > 0) {
			len /= 2;
			continue;
		}
		off();
		return -1;
	}
}

static int
adds_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(unsigned long long *)arg = info->dlpi_adds;
	return 1;
}

/*
 * Sends /proc/self/maps in parts that end at a line's end, so that
 * fgrecord can name the files of this image's addresses even when the
 * process is gone by the time it reads them.
 */
static void
send_maps(void)
{
	/* small: a hook may run on a signal's alternate stack (SIGSTKSZ) */
	char buf[3072];
	struct allocmsg m;
	size_t have = 0, cut;
	ssize_t n;
	int fd, first = 1;

	dl_iterate_phdr(adds_cb, &maps_adds);
	if ((fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)) < 0)
		return;
	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			have += (size_t)n;
		if (n <= 0 || have == sizeof(buf)) {
			for (cut = have; cut > 0 && buf[cut - 1] != '\n'; cut--)
				;
			if (cut == 0 && n > 0)
				cut = have;	/* a line longer than buf */
			if (cut > 0) {
				memset(&m, 0, sizeof(m));
				m.kind = ALLOCMSG_MAPS;
				m.flags = first ? ALLOCMSG_FIRST : 0;
				first = 0;
				chan_send(&m, buf, cut);
				memmove(buf, buf + cut, have - cut);
				have -= cut;
			}
			if (n <= 0)
				break;
		}
	}
	close(fd);
	memset(&m, 0, sizeof(m));
	m.kind = ALLOCMSG_MAPS_END;
	chan_send(&m, NULL, 0);
}

/* The HELLO of this image and its maps, once; others wait for them. */
static void
hello(void)
{
	struct allocmsg m;

	if (atomic_load(&hello_done) || chan < 0)
		return;
	while (atomic_flag_test_and_set(&maps_busy))
		sched_yield();
	if (!atomic_load(&hello_done)) {
		memset(&m, 0, sizeof(m));
		m.kind = ALLOCMSG_HELLO;
		m.size = ALLOCMSG_VERSION;
		chan_send(&m, NULL, 0);
		send_maps();
		atomic_store(&hello_done, 1);
	}
	atomic_flag_clear(&maps_busy);
}

/* Libraries dlopen'ed since the maps were sent: send them again. */
static void
maps_check(void)
{
	unsigned long long adds = maps_adds;

	dl_iterate_phdr(adds_cb, &adds);
	if (adds == maps_adds || atomic_flag_test_and_set(&maps_busy))
		return;
	send_maps();
	atomic_flag_clear(&maps_busy);
}

static uint64_t
draw(void)
{
	uint64_t x = ts.rng;
	double u, d;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	ts.rng = x;
	u = ((double)((x * 0x2545f4914f6cdd1dULL) >> 11) + 0.5) / 9007199254740992.0;
	d = -log(u) * period;
	return d < 1 ? 1 : d > 9e18 ? (uint64_t)9e18 : (uint64_t)d;
}

static void
thread_init(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	ts.rng = ((uint64_t)syscall(SYS_gettid) * 0x9e3779b97f4a7c15ULL) ^
	    ((uint64_t)t.tv_nsec << 20) ^ (uint64_t)t.tv_sec ^
	    (uint64_t)(uintptr_t)&ts;
	if (ts.rng == 0)
		ts.rng = 88172645463325252ULL;
	ts.left = draw();
}

/* Adds p to the live table: 0, or -1 when it is full there. */
static int
live_add(void *p)
{
	_Atomic uintptr_t *t = atomic_load(&live);
	size_t i, at, h = slot_of(p);

	if (t == NULL) {
		_Atomic uintptr_t *nt, *none = NULL;

		nt = mmap(NULL, LIVE_SLOTS * sizeof(*nt), PROT_READ |
		    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		    -1, 0);
		if (nt == MAP_FAILED)
			return -1;
		if (atomic_compare_exchange_strong(&live, &none, nt))
			t = nt;
		else {
			munmap(nt, LIVE_SLOTS * sizeof(*nt));
			t = none;
		}
	}
	for (i = 0; i < LIVE_PROBES; i++) {
		uintptr_t v;

		at = (h + i) & (LIVE_SLOTS - 1);
		v = atomic_load(&t[at]);
		if ((v == 0 || v == LIVE_TOMB) &&
		    atomic_compare_exchange_strong(&t[at], &v, (uintptr_t)p)) {
			atomic_fetch_add(&filt[filt_at(p)], 1);
			return 0;
		}
	}
	return -1;
}

/* Takes p out of the live table: 1 when it was there. */
static int
live_take(void *p)
{
	_Atomic uintptr_t *t = atomic_load(&live);
	size_t i, at, h = slot_of(p);

	if (t == NULL)
		return 0;
	for (i = 0; i < LIVE_PROBES; i++) {
		uintptr_t v, want = (uintptr_t)p;

		at = (h + i) & (LIVE_SLOTS - 1);
		v = atomic_load(&t[at]);
		if (v == 0)
			return 0;
		if (v == want && atomic_compare_exchange_strong(&t[at], &want,
		    LIVE_TOMB)) {
			atomic_fetch_sub(&filt[filt_at(p)], 1);
			return 1;
		}
	}
	return 0;
}

/*
 * How much of [sp, sp + len) is mapped, from sp up: a failed copy in
 * sendmsg would copy up to the fault first, and the main thread's sp
 * is often within a few KiB of its stack's top. mincore(2) asks without
 * reading; what it said is kept per thread, since a thread's samples
 * come from the same stack: the pages from sp to the top of the stack
 * stay mapped while sp is in them. Those mincore calls, one per page
 * up to the top, were as much of the program's time as the sendmsg.
 * A sample on another stack (a signal's, a coroutine's) asks again; an
 * answer gone stale (a stack unmapped, another mapped where it was) is
 * caught by chan_send's EFAULT.
 */
static size_t
mapped_len(uint64_t sp, size_t len)
{
	unsigned char vec[RECORD_PAGES_MAX + 2];
	uint64_t pg = sp & ~(uint64_t)4095, end = sp + len, at;

	if (len == 0 || (end - pg + 4095) / 4096 > RECORD_PAGES_MAX + 1)
		return len;
	if (sp >= ts.map_lo && sp < ts.map_hi) {
		if (end <= ts.map_hi)
			return len;
		if (ts.map_top)
			return (size_t)(ts.map_hi - sp);
	}
	if (mincore((void *)(uintptr_t)pg, end - pg, vec) == 0) {
		ts.map_lo = pg;
		ts.map_hi = (end + 4095) & ~(uint64_t)4095;
		ts.map_top = 0;
		return len;
	}
	if (errno != ENOMEM)
		return len;
	for (at = pg; at < end; at += 4096)
		if (mincore((void *)(uintptr_t)at, 4096, vec) != 0)
			break;
	if (at > sp && at < end) {
		ts.map_lo = pg;
		ts.map_hi = at;
		ts.map_top = 1;
	}
	return at <= sp ? 0 : at >= end ? len : (size_t)(at - sp);
}

/*
 * The main thread's copy ends a little above __libc_stack_end, the sp
 * its C runtime started with: the outermost frames (_start's,
 * __libc_start_call_main's) are below it, and what lies above (argv,
 * the environment, the auxiliary vector, their strings) is no frame.
 * A shallow sample there copied it all up to the stack's top: 5.4 KiB
 * on bench/alloc/churn.c where the frames take a few hundred bytes, and
 * the socket's cost follows the bytes. Another stack is left alone.
 */
extern void *__libc_stack_end __attribute__((weak));
#define STACK_END_SLACK	512	/* bytes kept above __libc_stack_end */

static size_t
main_stack_len(uint64_t sp, size_t len)
{
	uint64_t end;

	if (&__libc_stack_end == NULL || __libc_stack_end == NULL)
		return len;
	end = (uintptr_t)__libc_stack_end + STACK_END_SLACK;
	if (sp < end && end - sp < len)
		return (size_t)(end - sp);
	return len;
}

static void
send_free(void *p)
{
	struct allocmsg m;

	memset(&m, 0, sizeof(m));
	m.kind = ALLOCMSG_FREE;
	m.ptr = (uintptr_t)p;
	chan_send(&m, NULL, 0);
}

/*
 * The slow path of an allocation of n bytes at p, made by the code that
 * returns to ret, whose frame pointer the hook saved at *frame: the
 * countdown drawn for a new thread, or the sample taken.
 */
static __attribute__((noinline)) void
sampled(void *p, size_t n, void *ret, void **frame)
{
	struct allocmsg m;
	uint64_t sp;
	size_t len;

	if (p == NULL || ts.busy)
		return;
	ts.busy = 1;
	if (chan < 0) {
		ts.left = UINT64_MAX;	/* not recording: never here again */
		goto out;
	}
	if (ts.rng == 0)
		thread_init();
	if (ts.left > n) {
		ts.left -= n;
		goto out;
	}
	ts.left = draw();
	hello();
	maps_check();
	memset(&m, 0, sizeof(m));
	m.kind = ALLOCMSG_ALLOC;
	m.ptr = (uintptr_t)p;
	m.size = n;
	m.ip = (uintptr_t)ret - 1;	/* in the call: its CFI row, its line */
	sp = (uintptr_t)(frame + 2);
	m.sp = sp;
	m.bp = (uintptr_t)frame[0];
	if (live_add(p) != 0)
		m.flags |= ALLOCMSG_UNTRACKED;
	len = stack_copy;
	if (sp + len < sp)
		len = 0;
	len = main_stack_len(sp, len);
	len = mapped_len(sp, len);
	chan_send(&m, (const void *)(uintptr_t)sp, len);
out:
	ts.busy = 0;
}

/* The countdown, inlined into each hook: its frame is the caller's. */
#define SAMPLE(p, n) do {						\
	if (LIKELY(ts.left > (n)))					\
		ts.left -= (n);						\
	else								\
		sampled((p), (n), __builtin_return_address(0),		\
		    __builtin_frame_address(0));			\
} while (0)

/*
 * A free the filter could not rule out: a sampled block, or one near
 * one, or the boot arena's (never freed). Out of line and reached by a
 * jump, as the real free is, so that free's own path builds no frame.
 */
static __attribute__((noinline)) void
free_slow(void *p)
{
	if (in_boot(p))
		return;
	if (!ts.busy && live_take(p)) {
		ts.busy = 1;
		send_free(p);
		ts.busy = 0;
	}
	if (UNLIKELY(!resolve()))
		return;
	real_free(p);
}

HOOK void *
malloc(size_t n)
{
	void *p;

	if (UNLIKELY(!resolve()))
		return boot_alloc(n, 16);
	p = real_malloc(n);
	SAMPLE(p, n);
	return p;
}

HOOK void *
calloc(size_t k, size_t n)
{
	void *p;
	size_t t;

	if (UNLIKELY(!resolve())) {
		if (__builtin_mul_overflow(k, n, &t))
			return NULL;
		return boot_alloc(t, 16);	/* static: zeroed */
	}
	p = real_calloc(k, n);
	if (p && !__builtin_mul_overflow(k, n, &t))
		SAMPLE(p, t);
	return p;
}

/*
 * The filter's one load decides: a block of the boot arena is counted in
 * it (boot_alloc), so that the common free makes no other test.
 */
HOOK void
free(void *p)
{
	if (p == NULL)
		return;
	if (UNLIKELY(maybe_live(p))) {
		free_slow(p);
		return;
	}
	if (UNLIKELY(!resolve()))
		return;		/* nothing real was allocated yet */
	real_free(p);
}

/* realloc's work, for realloc and reallocarray: a free, then an allocation. */
static inline __attribute__((always_inline)) void *
do_realloc(void *p, size_t n, void *ret, void **frame)
{
	void *q;
	int was;

	if (UNLIKELY(in_boot(p))) {
		size_t old = boot_size(p);

		if ((q = malloc(n)) != NULL)
			memcpy(q, p, old < n ? old : n);
		return q;
	}
	was = p && UNLIKELY(maybe_live(p)) && !ts.busy && live_take(p);
	q = real_realloc(p, n);
	if (q == NULL && n != 0 && p != NULL) {
		if (was)	/* it failed: p is still there */
			live_add(p);
		return NULL;
	}
	if (was) {
		ts.busy = 1;
		send_free(p);
		ts.busy = 0;
	}
	if (q) {
		if (LIKELY(ts.left > n))
			ts.left -= n;
		else
			sampled(q, n, ret, frame);
	}
	return q;
}

HOOK void *
realloc(void *p, size_t n)
{
	if (UNLIKELY(!resolve()))
		return in_boot(p) || p == NULL ? boot_alloc(n, 16) : NULL;
	return do_realloc(p, n, __builtin_return_address(0),
	    __builtin_frame_address(0));
}

HOOK void *
reallocarray(void *p, size_t k, size_t n)
{
	size_t t;

	if (__builtin_mul_overflow(k, n, &t)) {
		errno = ENOMEM;
		return NULL;
	}
	if (UNLIKELY(!resolve()))
		return NULL;
	return do_realloc(p, t, __builtin_return_address(0),
	    __builtin_frame_address(0));
}

HOOK int
posix_memalign(void **out, size_t align, size_t n)
{
	int rc;

	if (UNLIKELY(!resolve())) {
		if ((*out = boot_alloc(n, align)) == NULL)
			return ENOMEM;
		return 0;
	}
	rc = real_posix_memalign(out, align, n);
	if (rc == 0)
		SAMPLE(*out, n);
	return rc;
}

HOOK void *
aligned_alloc(size_t align, size_t n)
{
	void *p;

	if (UNLIKELY(!resolve()))
		return boot_alloc(n, align);
	p = real_aligned_alloc(align, n);
	SAMPLE(p, n);
	return p;
}

HOOK void *
memalign(size_t align, size_t n)
{
	void *p;

	if (UNLIKELY(!resolve()))
		return boot_alloc(n, align);
	p = real_memalign(align, n);
	SAMPLE(p, n);
	return p;
}

HOOK void *
valloc(size_t n)
{
	void *p;

	if (UNLIKELY(!resolve()))
		return boot_alloc(n, 4096);
	p = real_valloc(n);
	SAMPLE(p, n);
	return p;
}

HOOK void *
pvalloc(size_t n)
{
	void *p;

	if (UNLIKELY(!resolve()))
		return boot_alloc(n, 4096);
	p = real_pvalloc(n);
	SAMPLE(p, n);
	return p;
}

/* The child of a fork: its own pid from now on, its parent's blocks. */
static void
on_fork_child(void)
{
	struct allocmsg m;

	mypid = (int32_t)syscall(SYS_getpid);
	ts.tid = (int32_t)syscall(SYS_gettid);
	memset(&m, 0, sizeof(m));
	m.kind = ALLOCMSG_FORK;
	m.arg = (uint64_t)getppid();
	chan_send(&m, NULL, 0);
}

__attribute__((constructor)) static void
fgalloc_init(void)
{
	ts.busy = 1;
	resolve();
	if (chan >= 0) {
		pthread_atfork(NULL, NULL, on_fork_child);
		hello();
	}
	ts.busy = 0;
}
