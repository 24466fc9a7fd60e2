/*
 * source_uprobe: fgrecord --alloc through perf_event_open's uprobe PMU
 * (record/source_uprobe.h says when). Each allocation function of the
 * files the program maps, found by its symbol (glibc's malloc, calloc,
 * realloc, free, posix_memalign, aligned_alloc, memalign; jemalloc's
 * under its prefixes, "je_", tikv-jemallocator's "_rjem_", or none, with
 * mallocx, rallocx, sdallocx, dallocx; mimalloc's mi_*), gets an entry
 * probe that copies the registers (the size, the pointer freed) and the
 * stack, and, when it returns a pointer, a return probe that reads it.
 * The events are opened for each target thread on each CPU and
 * inherited by new threads and processes; a dummy event beside them
 * carries mmap, comm, fork and exit, and owns each CPU's ring.
 *
 * fgrecord samples what they report by bytes, as the preloaded library
 * does: a countdown drawn from an exponential of mean -c BYTES, so that
 * every byte has the same chance, and a sampled allocation of s bytes
 * stands for 1/(1 - exp(-s/R)) allocations. Its entry's registers and
 * stack become the alloc-bytes and alloc-objects samples (the caller's
 * frame first, as the library reports it), kept until the pointer its
 * return gave is freed; what is left at the end is written as the
 * inuse pair. A call made inside another allocation call (realloc(NULL)
 * calling malloc, malloc jumping to mi_malloc) is the outer one's and not
 * counted: a thread's calls in flight are kept by their stack pointer,
 * which also drops a call whose return was lost.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <gelf.h>
#include <linux/capability.h>

#include "base/hashtab.h"
#include "base/num.h"
#include "base/procfs.h"
#include "base/xalloc.h"
#include "elf/elffile.h"
#include "perf/perf.h"
#include "perf/perfdecode.h"
#include "perf/perfqueue.h"
#include "record/allocprep.h"
#include "record/caps.h"
#include "record/source.h"
#include "record/source_uprobe.h"

#define PMU_DIR		"/sys/bus/event_source/devices/uprobe"
#define RING_PAGES	8192	/* 32 MiB a CPU: every call reports */
#define POSIX_STACK	1024	/* posix_memalign's return: its pointer's place */
#define QUEUE_MAX	(64u << 20)

/* What a probed function does with its arguments (rdi, rsi, rdx). */
enum fkind {
	F_MALLOC,	/* size in arg 0 */
	F_MALLOC1,	/* size in arg 1 (aligned_alloc, memalign) */
	F_CALLOC,	/* arg 0 times arg 1 */
	F_REALLOC,	/* the old pointer in arg 0, the size in arg 1 */
	F_FREE,		/* the pointer in arg 0 */
	F_POSIX		/* the pointer's place in arg 0, the size in arg 2 */
};

static const struct fname {
	const char *name;
	enum fkind kind;
} plain[] = {
	{ "malloc", F_MALLOC }, { "calloc", F_CALLOC },
	{ "realloc", F_REALLOC }, { "free", F_FREE },
	{ "posix_memalign", F_POSIX }, { "aligned_alloc", F_MALLOC1 },
	{ "memalign", F_MALLOC1 }, { "valloc", F_MALLOC },
	/* jemalloc's own API */
	{ "mallocx", F_MALLOC }, { "rallocx", F_REALLOC },
	{ "sdallocx", F_FREE }, { "dallocx", F_FREE },
}, mimalloc[] = {
	{ "mi_malloc", F_MALLOC }, { "mi_zalloc", F_MALLOC },
	{ "mi_calloc", F_CALLOC }, { "mi_mallocn", F_CALLOC },
	{ "mi_realloc", F_REALLOC }, { "mi_reallocf", F_REALLOC },
	{ "mi_free", F_FREE }, { "mi_free_size", F_FREE },
	{ "mi_free_aligned", F_FREE }, { "mi_free_size_aligned", F_FREE },
	{ "mi_malloc_aligned", F_MALLOC }, { "mi_zalloc_aligned", F_MALLOC },
	{ "mi_calloc_aligned", F_CALLOC }, { "mi_realloc_aligned", F_REALLOC },
	{ "mi_aligned_alloc", F_MALLOC1 }, { "mi_memalign", F_MALLOC1 },
	{ "mi_posix_memalign", F_POSIX },
};

/* The prefixes plain's names are looked for under. */
static const char *const prefixes[] = { "", "je_", "_rjem_" };

/* One function to probe: in file path (shared), at file offset off. */
struct probe {
	const char	*path;		/* borrowed from the source's files */
	uint64_t	 off;
	enum fkind	 kind;
	const char	*name;		/* static */
};

/* One event opened: which probe, and whether it is the return's. */
struct evid {
	uint64_t	 id;
	uint32_t	 probe;
	int		 ret;
};

/* A call in flight in a thread: its entry, until its return. */
struct call {
	uint64_t	 sp;		/* at the entry: the return address's place */
	int		 nested;	/* inside another call: not counted */
	enum fkind	 kind;
	uint64_t	 arg;		/* realloc's old pointer; posix_memalign's place */
	uint64_t	 size;
	int32_t		 block;		/* its sample, waiting for the pointer; or -1 */
};

struct thread {
	pid_t		 tid;
	struct call	*calls;		/* owned, a stack */
	size_t		 ncalls, cap;
};

/* A sampled allocation: its entry, kept until it is freed. */
struct block {
	pid_t		 pid, tid;
	uint32_t	 cpu;
	uint64_t	 time, ptr;
	int		 live;		/* indexed by ptr, not freed */
	int		 dead;
	uint64_t	 regs[PERF_DWARF_NREGS];
	uint32_t	 regs_valid;
	unsigned char	*stack;		/* owned */
	size_t		 stack_len;
	uint64_t	 bytes, objects;
};

struct usrc {
	struct source	*src;		/* borrowed */
	struct source_config cfg;
	int		 pmu_type, ret_bit;
	char		**files;	/* owned: the files probed */
	size_t		 nfiles;
	struct probe	*probes;	/* owned */
	size_t		 nprobes, probes_cap;
	struct evid	*ids;		/* owned, sorted by id */
	size_t		 nids, ids_cap;
	int		*fds;		/* owned */
	size_t		 nfds, fds_cap;
	struct perf_ring *rings;	/* owned: one a CPU, or unmapped */
	int		 ncpus;
	struct perf_decoder dec;
	struct perf_event_attr attr;	/* the probes' layout */
	struct perfqueue queue;
	const struct evid *cur;		/* the record being decoded */
	const struct source_sink *sink;	/* the drain's */
	struct thread	*threads;	/* owned */
	size_t		 nthreads, threads_cap;
	struct hashtab	 tidx;		/* of threads, by tid */
	struct block	*blocks;	/* owned */
	size_t		 nblocks, blocks_cap;
	struct hashtab	 bidx;		/* of live blocks, by pid and pointer */
	double		 period, countdown;
	uint64_t	 rng;
	uint64_t	 calls, samples, bytes, objects, unmatched, lost;
	uint64_t	 in_bytes, in_objects;	/* written as in use */
	uint64_t	 late, late_failed;	/* new threads probed, or not */
	int		 disabled, ended;
};

/* A uniform number in (0, 1). */
static double
uniform(struct usrc *u)
{
	u->rng ^= u->rng >> 12;
	u->rng ^= u->rng << 25;
	u->rng ^= u->rng >> 27;
	return ((double)((u->rng * 0x2545f4914f6cdd1dULL) >> 11) + 0.5) /
	    9007199254740992.0;
}

/* The next gap between sampled bytes: exponential, of mean the period. */
static double
gap(struct usrc *u)
{
	return -log(uniform(u)) * u->period;
}

/* Whether ef has a program interpreter (it is dynamically linked). */
static int
has_interp(const struct elffile *ef)
{
	size_t i, n;

	if (elf_getphdrnum(ef->elf, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(ef->elf, (int)i, &ph) != NULL &&
		    ph.p_type == PT_INTERP)
			return 1;
	}
	return 0;
}

/*
 * Calls fn for every function ef defines (.symtab and .dynsym), with its
 * name and value.
 */
static void
each_function(const struct elffile *ef, void (*fn)(void *, const char *,
    uint64_t), void *arg)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (gelf_getshdr(scn, &sh) == NULL || (sh.sh_type != SHT_SYMTAB &&
		    sh.sh_type != SHT_DYNSYM) || sh.sh_entsize == 0 ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = d->d_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Sym es;
			const char *name;

			if (gelf_getsym(d, (int)i, &es) == NULL ||
			    es.st_shndx == SHN_UNDEF || es.st_value == 0 ||
			    (GELF_ST_TYPE(es.st_info) != STT_FUNC &&
			    GELF_ST_TYPE(es.st_info) != STT_GNU_IFUNC) ||
			    (name = elf_strptr(ef->elf, sh.sh_link,
			    es.st_name)) == NULL)
				continue;
			fn(arg, name, es.st_value);
		}
	}
}

/* Which table entry name is, or NULL. */
static const struct fname *
lookup(const char *name)
{
	size_t i, j, len;

	if (strncmp(name, "mi_", 3) == 0) {
		for (i = 0; i < sizeof(mimalloc) / sizeof(mimalloc[0]); i++)
			if (strcmp(name, mimalloc[i].name) == 0)
				return &mimalloc[i];
		return NULL;
	}
	for (j = 0; j < sizeof(prefixes) / sizeof(prefixes[0]); j++) {
		len = strlen(prefixes[j]);
		if (strncmp(name, prefixes[j], len) != 0)
			continue;
		for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
			if (strcmp(name + len, plain[i].name) == 0)
				return &plain[i];
	}
	return NULL;
}

struct scan {
	struct usrc	*u;		/* NULL: only look for an allocator */
	const struct elffile *ef;
	const char	*path;
	const char	*own;		/* the allocator's symbol, found */
};

static void
on_function(void *arg, const char *name, uint64_t value)
{
	struct scan *s = arg;
	const struct fname *f = lookup(name);
	struct usrc *u = s->u;
	uint64_t off;
	size_t i;

	if (f == NULL)
		return;
	if (s->own == NULL && (strcmp(name, "mi_malloc") == 0 ||
	    strcmp(name, "_rjem_malloc") == 0 || strcmp(name, "je_malloc") == 0 ||
	    strcmp(name, "_rjem_mallocx") == 0))
		s->own = name;
	if (u == NULL || elffile_offset(s->ef, value, &off) != 0)
		return;
	for (i = 0; i < u->nprobes; i++)
		if (u->probes[i].path == s->path && u->probes[i].off == off)
			return;	/* an alias: .symtab and .dynsym both */
	GROW(u->probes, u->nprobes + 1, u->probes_cap);
	u->probes[u->nprobes++] = (struct probe){ s->path, off, f->kind,
	    f->name };
}

/* Adds the probes of the file path, once; quiet about a file it cannot read. */
static void
scan_file(struct usrc *u, const char *path)
{
	struct elffile ef;
	struct scan s;
	size_t i;

	for (i = 0; i < u->nfiles; i++)
		if (strcmp(u->files[i], path) == 0)
			return;
	u->files = xrealloc(u->files, (u->nfiles + 1) * sizeof(*u->files));
	u->files[u->nfiles] = xstrdup(path);
	elffile_init(&ef);
	if (elffile_open(&ef, path) == ELFFILE_OK) {
		s = (struct scan){ u, &ef, u->files[u->nfiles], NULL };
		each_function(&ef, on_function, &s);
	}
	elffile_release(&ef);
	u->nfiles++;
}

/* The C library fgrecord itself maps: a launched program's, most likely. */
static char *
own_libc(void)
{
	struct procfs_maps pm;
	struct procfs_map m;
	char *found = NULL;

	if (procfs_maps_open(&pm, getpid(), 0) != 0)
		return NULL;
	while (found == NULL && procfs_maps_next(&pm, &m))
		if (strchr(m.perms, 'x') && strstr(m.name, "/libc.so") != NULL)
			found = xstrdup(m.name);
	procfs_maps_release(&pm);
	return found;
}

/* Every executable file process pid maps. */
static void
scan_process(struct usrc *u, pid_t pid)
{
	struct procfs_maps pm;
	struct procfs_map m;

	if (procfs_maps_open(&pm, pid, 0) != 0)
		return;
	while (procfs_maps_next(&pm, &m))
		if (strchr(m.perms, 'x') && m.name[0] == '/' && m.ino != 0)
			scan_file(u, m.name);
	procfs_maps_release(&pm);
}

char *
uprobe_alloc_needed(char *const argv[], size_t npids, int *must)
{
	struct elffile ef;
	struct scan s;
	char *cmd, *why = NULL;

	*must = 1;
	if (argv == NULL)
		return npids > 0 ? xstrdup("-p PID") : NULL;
	if ((cmd = allocprep_command_path(argv[0])) == NULL)
		return NULL;
	elffile_init(&ef);
	if (elffile_open(&ef, cmd) == ELFFILE_OK) {
		if (!has_interp(&ef) && ef.ehdr.e_type == ET_EXEC)
			why = xasprintf("'%s' is statically linked", cmd);
		else if (!has_interp(&ef) && ef.ehdr.e_type == ET_DYN &&
		    strstr(cmd, "ld-linux") == NULL)
			why = xasprintf("'%s' is statically linked", cmd);
		else {
			s = (struct scan){ NULL, &ef, cmd, NULL };
			each_function(&ef, on_function, &s);
			*must = 0;
			if (s.own != NULL)
				why = xasprintf("'%s' links %s (%s)", cmd,
				    strstr(s.own, "mi_") ? "mimalloc" :
				    "jemalloc", s.own);
		}
	}
	elffile_release(&ef);
	free(cmd);
	return why;
}

int
uprobe_alloc_allowed(const char **fix)
{
	static const int perfmon[] = { CAP_PERFMON }, admin[] = {
	    CAP_SYS_ADMIN };

	if (access(PMU_DIR "/type", R_OK) != 0) {
		*fix = "this kernel has no uprobe PMU (" PMU_DIR "): build it "
		    "with CONFIG_UPROBE_EVENTS";
		return 0;
	}
	if (geteuid() == 0 || (caps_effective(perfmon, 1) == 1 &&
	    caps_effective(admin, 1) == 1))
		return 1;
	*fix = "probing it through uprobes needs root (or CAP_PERFMON and "
	    "CAP_SYS_ADMIN): run fgrecord as root";
	return 0;
}

static int
read_sysfs(const char *path, const char *prefix)
{
	char buf[64];
	const char *q;
	uint64_t x;
	int fd, v = -1;
	ssize_t n;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	q = buf + strlen(prefix);
	if (strncmp(buf, prefix, strlen(prefix)) == 0 &&
	    num_next(&q, 10, &x) == NUM_OK && x <= INT_MAX)
		v = (int)x;
	return v;
}

static void
add_fd(struct usrc *u, int fd, uint32_t probe, int ret)
{
	uint64_t id;

	GROW(u->fds, u->nfds + 1, u->fds_cap);
	u->fds[u->nfds++] = fd;
	if (probe == UINT32_MAX)
		return;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0)
		err(2, "--alloc: ioctl PERF_EVENT_IOC_ID");
	GROW(u->ids, u->nids + 1, u->ids_cap);
	u->ids[u->nids++] = (struct evid){ id, probe, ret };
}

static int
id_cmp(const void *a, const void *b)
{
	const struct evid *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The dummy event of tid on cpu, which carries the side band. */
static int
open_dummy(struct usrc *u, pid_t tid, int cpu)
{
	struct perf_event_attr a = u->attr;

	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.config1 = a.config2 = 0;
	a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = 1;
	/* copied into new threads and processes: their FORK says so */
	a.inherit = 1;
	/* a new thread's probes are opened when its FORK is read */
	a.wakeup_events = 1;
	return perf_open(&a, tid, cpu);
}

static void
attach(struct usrc *u, int fd, int cpu)
{
	struct perf_ring *ring = &u->rings[cpu];
	size_t pages = RING_PAGES;

	if (ring->base) {
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) != 0)
			err(2, "--alloc: ioctl PERF_EVENT_IOC_SET_OUTPUT on CPU %d",
			    cpu);
		return;
	}
	if (perf_ring_map(ring, fd, cpu, &pages) != 0)
		err(2, "--alloc: cannot map a ring buffer for CPU %d", cpu);
}

/*
 * Every probe's events for thread tid, and its dummy unless late (a new
 * thread, which inherited its creator's dummy, seen by its FORK); 0, or
 * -1 when it is gone (or, late, cannot be probed: warned once).
 */
static int
open_thread(struct usrc *u, pid_t tid, int late)
{
	int cpu, fd;
	size_t i;

	for (cpu = 0; cpu < u->ncpus; cpu++) {
		if (late) {
			if (u->rings[cpu].base == NULL)
				continue;
		} else if ((fd = open_dummy(u, tid, cpu)) < 0) {
			if (errno == ESRCH)
				return -1;
			if (errno == ENODEV || errno == EINVAL)
				continue;	/* an offline CPU */
			err(2, "--alloc: perf_event_open for thread %d", (int)tid);
		}
		else {
			add_fd(u, fd, UINT32_MAX, 0);
			attach(u, fd, cpu);
		}
		for (i = 0; i < u->nprobes; i++) {
			struct perf_event_attr a = u->attr;
			int ret;

			if (late)
				a.disabled = a.enable_on_exec = 0;

			for (ret = 0; ret < 2; ret++) {
				if (ret && u->probes[i].kind == F_FREE)
					break;
				a.config = ret ? 1ULL << u->ret_bit : 0;
				a.config1 = (uint64_t)(uintptr_t)u->probes[i].path;
				a.config2 = u->probes[i].off;
				/*
				 * The stack only where a sample may be taken,
				 * and where posix_memalign's pointer is, most
				 * often: in its caller's frame.
				 */
				if (ret || u->probes[i].kind == F_FREE)
					a.sample_stack_user = 8;
				if (ret && u->probes[i].kind == F_POSIX)
					a.sample_stack_user = POSIX_STACK;
				if ((fd = perf_open(&a, tid, cpu)) < 0) {
					if (errno == ESRCH)
						return -1;
					if (late) {
						if (u->late_failed++ == 0)
							warn("--alloc: new thread "
							    "%d not probed", (int)tid);
						return -1;
					}
					err(2, "--alloc: a uprobe on %s in '%s' "
					    "(offset %#" PRIx64 ")%s",
					    u->probes[i].name, u->probes[i].path,
					    u->probes[i].off, ret ? ", its "
					    "return" : "");
				}
				add_fd(u, fd, (uint32_t)i, ret);
				attach(u, fd, cpu);
			}
		}
	}
	return 0;
}

static void
raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void
uprobe_open(struct source *src, const struct source_config *cfg)
{
	struct usrc *u = xcalloc(1, sizeof(*u));
	size_t i, opened = 0;

	u->src = src;
	u->cfg = *cfg;
	src->priv = u;
	src->user_only = 1;
	u->period = cfg->period ? (double)cfg->period : RECORD_ALLOC_PERIOD;
	u->rng = 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid() ^ procfs_now_ns();
	u->countdown = gap(u);
	hashtab_init(&u->tidx, 64);
	hashtab_init(&u->bidx, 1024);
	perfqueue_init(&u->queue, QUEUE_MAX);
	if ((u->pmu_type = read_sysfs(PMU_DIR "/type", "")) < 0 ||
	    (u->ret_bit = read_sysfs(PMU_DIR "/format/retprobe", "config:")) < 0)
		errx(2, "--alloc: cannot read the uprobe PMU (%s): this kernel "
		    "has no CONFIG_UPROBE_EVENTS", PMU_DIR);
	if (cfg->child && cfg->argv != NULL) {
		char *cmd, *libc;

		/* the command is not exec'd yet: its file, and the C library */
		struct elffile ef;
		int dynamic = 0;

		if ((cmd = allocprep_command_path(cfg->argv[0])) != NULL) {
			elffile_init(&ef);
			dynamic = elffile_open(&ef, cmd) == ELFFILE_OK &&
			    has_interp(&ef);
			elffile_release(&ef);
			scan_file(u, cmd);
			free(cmd);
		}
		if (dynamic && (libc = own_libc()) != NULL) {
			scan_file(u, libc);
			free(libc);
		}
	}
	for (i = 0; i < cfg->npids; i++)
		if (procfs_alive(cfg->pids[i]))
			scan_process(u, cfg->pids[i]);
	if (u->nfiles == 0 && cfg->npids > 0)
		errx(2, "--alloc: -p %d: no such process", (int)cfg->pids[0]);
	if (u->nprobes == 0) {
		char *where = cfg->child && u->nfiles > 0 ?
		    xasprintf("'%s'", u->files[0]) : xasprintf("the %zu "
		    "file%s the process maps", u->nfiles, u->nfiles == 1 ?
		    "" : "s");

		errx(2, "--alloc: no allocation function (malloc, je_malloc, "
		    "mi_malloc, ...) found by its symbol in %s: stripped "
		    "(record a build that keeps its symbols), or an allocator "
		    "not known", where);
	}
	u->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (u->ncpus < 1)
		u->ncpus = 1;
	u->rings = xcalloc((size_t)u->ncpus, sizeof(*u->rings));
	for (i = 0; i < (size_t)u->ncpus; i++)
		u->rings[i].fd = -1;
	memset(&u->attr, 0, sizeof(u->attr));
	u->attr.size = sizeof(u->attr);
	u->attr.type = (uint32_t)u->pmu_type;
	u->attr.sample_period = 1;
	u->attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
	    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
	    PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	u->attr.sample_regs_user = PERF_REGS_MASK;
	u->attr.sample_stack_user = cfg->stack_size ? cfg->stack_size :
	    RECORD_ALLOC_STACK;
	/*
	 * Not inherited: the kernel copies a uprobe event into a new thread
	 * by reading its path again through config1 in the creator's memory,
	 * where it is not, and the clone fails (EFAULT). New threads and
	 * processes get their own events when their FORK is read.
	 */
	u->attr.inherit = 0;
	u->attr.wakeup_events = 64;
	/*
	 * A command's events start at its exec; -p's at once, so that the
	 * stream's header follows the probes in place.
	 */
	u->attr.disabled = cfg->child != 0;
	u->attr.enable_on_exec = cfg->child != 0;
	u->attr.sample_id_all = 1;
	u->attr.use_clockid = 1;
	u->attr.clockid = CLOCK_MONOTONIC;
	u->attr.wakeup_events = 0;
	perf_decoder_init_attr(&u->dec, &u->attr, STREAM_ALLOC_BYTES_EVENT);
	raise_nofile();
	if (cfg->child) {
		if (open_thread(u, cfg->child, 0) != 0)
			errx(2, "--alloc: the command ended before it started");
		opened = 1;
	}
	for (i = 0; i < cfg->npids; i++) {
		struct procfs_walk w;
		pid_t tid;
		size_t n = 0;

		if (procfs_walk_tasks(&w, cfg->pids[i]) != 0) {
			warnx("-p %d: no such process", (int)cfg->pids[i]);
			src->partial = 1;
			continue;
		}
		while ((tid = procfs_walk_next(&w)) > 0)
			n += open_thread(u, tid, 0) == 0;
		procfs_walk_release(&w);
		opened += n > 0;
	}
	if (opened == 0)
		errx(2, "--alloc: no process left to record");
	qsort(u->ids, u->nids, sizeof(*u->ids), id_cmp);
}

/* Enabled already: at the command's exec, or when opened for -p. */
static void
uprobe_enable(struct source *src)
{
	(void)src;
}

static void
uprobe_disable(struct source *src)
{
	struct usrc *u = src->priv;
	size_t i;

	for (i = 0; i < u->nfds; i++)
		ioctl(u->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	u->disabled = 1;
}

static void
uprobe_wait(struct source *src, int timeout_ms)
{
	struct usrc *u = src->priv;
	struct pollfd *pf;
	int cpu, n = 0;

	pf = xcalloc((size_t)u->ncpus, sizeof(*pf));
	for (cpu = 0; cpu < u->ncpus; cpu++) {
		if (u->rings[cpu].base == NULL)
			continue;
		if (perf_ring_pending(&u->rings[cpu]))
			timeout_ms = 0;
		pf[n].fd = u->rings[cpu].fd;
		pf[n++].events = POLLIN;
	}
	poll(pf, (nfds_t)n, timeout_ms);
	free(pf);
}

/* The thread tid's calls in flight, made when first seen. */
static struct thread *
thread_of(struct usrc *u, pid_t tid)
{
	struct hashtab_probe p;
	uint32_t it;

	hashtab_probe(&u->tidx, hashtab_int((uint64_t)tid), &p);
	while ((it = hashtab_next(&u->tidx, &p)) != HASHTAB_NONE)
		if (u->threads[it].tid == tid)
			return &u->threads[it];
	GROW(u->threads, u->nthreads + 1, u->threads_cap);
	memset(&u->threads[u->nthreads], 0, sizeof(u->threads[0]));
	u->threads[u->nthreads].tid = tid;
	hashtab_add(&u->tidx, &p, (uint32_t)u->nthreads);
	return &u->threads[u->nthreads++];
}

static uint64_t
bkey(pid_t pid, uint64_t ptr)
{
	return hashtab_int(ptr ^ ((uint64_t)(uint32_t)pid << 47));
}

static void
block_drop(struct block *b)
{
	free(b->stack);
	b->stack = NULL;
	b->dead = 1;
	b->live = 0;
}

/* The live block of pid at ptr, or NULL. */
static struct block *
find_live(struct usrc *u, pid_t pid, uint64_t ptr)
{
	struct hashtab_probe p;
	uint32_t it;

	hashtab_probe(&u->bidx, bkey(pid, ptr), &p);
	while ((it = hashtab_next(&u->bidx, &p)) != HASHTAB_NONE) {
		struct block *b = &u->blocks[it];

		if (b->live && b->pid == pid && b->ptr == ptr)
			return b;
	}
	return NULL;
}

/* Block i, whose allocation returned ptr, kept until ptr is freed. */
static void
block_live(struct usrc *u, uint32_t i, uint64_t ptr)
{
	struct hashtab_probe p;
	struct block *old;

	if ((old = find_live(u, u->blocks[i].pid, ptr)) != NULL)
		block_drop(old);	/* its free was not seen */
	u->blocks[i].ptr = ptr;
	u->blocks[i].live = 1;
	hashtab_probe(&u->bidx, bkey(u->blocks[i].pid, ptr), &p);
	while (hashtab_next(&u->bidx, &p) != HASHTAB_NONE)
		;
	hashtab_add(&u->bidx, &p, i);
}

static void
freed(struct usrc *u, pid_t pid, uint64_t ptr)
{
	struct block *b;

	if (ptr == 0)
		return;
	if ((b = find_live(u, pid, ptr)) != NULL)
		block_drop(b);
}

/* Emits the two samples of block b under the events ev_bytes and ev_objects. */
static void
emit_pair(struct usrc *u, const struct block *b, const char *ev_bytes,
    const char *ev_objects, const struct source_sink *sink)
{
	struct source_event ev;
	struct source_sample *s = &ev.u.sample;

	(void)u;
	memset(&ev, 0, sizeof(ev));
	ev.kind = SOURCE_SAMPLE;
	ev.pid = b->pid;
	ev.tid = b->tid;
	ev.time = b->time;
	s->cpu = b->cpu;
	memcpy(s->regs, b->regs, sizeof(s->regs));
	s->regs_valid = b->regs_valid;
	s->stack = b->stack;
	s->stack_len = b->stack_len;
	s->event = ev_bytes;
	s->period = b->bytes;
	sink->fn(sink->arg, &ev);
	s->event = ev_objects;
	s->period = b->objects;
	sink->fn(sink->arg, &ev);
}

/*
 * A sampled allocation of size bytes at the entry ev: written as its
 * alloc pair, from its caller (the return address on top of the stack),
 * and kept as a block. Returns the block's index.
 */
static int32_t
sampled(struct usrc *u, const struct source_event *ev, uint64_t size)
{
	const struct source_sample *s = &ev->u.sample;
	struct block *b;
	double p, objects;
	uint64_t ra;

	GROW(u->blocks, u->nblocks + 1, u->blocks_cap);
	b = &u->blocks[u->nblocks];
	memset(b, 0, sizeof(*b));
	b->pid = ev->pid;
	b->tid = ev->tid;
	b->cpu = s->cpu;
	b->time = ev->time;
	memcpy(b->regs, s->regs, sizeof(b->regs));
	b->regs_valid = s->regs_valid;
	if (s->stack_len >= 8) {
		/* the caller's frame, as if the call had returned */
		memcpy(&ra, s->stack, 8);
		b->regs[PERF_DWARF_RA] = ra;
		b->regs[PERF_DWARF_SP] += 8;
		b->stack_len = s->stack_len - 8;
		b->stack = xmalloc(b->stack_len ? b->stack_len : 1);
		memcpy(b->stack, s->stack + 8, b->stack_len);
	}
	p = -expm1(-(double)size / u->period);
	objects = p > 0 ? 1 / p : 1;
	b->bytes = (uint64_t)llround((double)size * objects);
	b->objects = (uint64_t)objects;
	if (uniform(u) < objects - (double)b->objects)
		b->objects++;
	u->samples++;
	u->bytes += b->bytes;
	u->objects += b->objects;
	emit_pair(u, b, STREAM_ALLOC_BYTES_EVENT, STREAM_ALLOC_OBJECTS_EVENT,
	    u->sink);
	return (int32_t)u->nblocks++;
}

/* Calls of t deeper than sp (lower on the stack): their returns were lost. */
static void
drop_deeper(struct usrc *u, struct thread *t, uint64_t sp)
{
	while (t->ncalls > 0 && t->calls[t->ncalls - 1].sp < sp) {
		struct call *c = &t->calls[--t->ncalls];

		if (c->block >= 0)
			block_drop(&u->blocks[c->block]);
		u->unmatched++;
	}
}

static void
on_entry(struct usrc *u, const struct probe *pr, const struct source_event *ev)
{
	const uint64_t *r = ev->u.sample.regs;
	uint64_t sp = r[PERF_DWARF_SP], a0 = r[5], a1 = r[4], a2 = r[1];
	struct thread *t = thread_of(u, ev->tid);
	struct call c;

	u->calls++;
	drop_deeper(u, t, sp);
	memset(&c, 0, sizeof(c));
	c.sp = sp;
	c.kind = pr->kind;
	c.block = -1;
	/* inside another call of the allocator, or the same one jumped to */
	c.nested = t->ncalls > 0;
	switch (pr->kind) {
	case F_FREE:
		if (!c.nested)
			freed(u, ev->pid, a0);
		return;
	case F_MALLOC:
		c.size = a0;
		break;
	case F_MALLOC1:
		c.size = a1;
		break;
	case F_CALLOC:
		c.size = a0 * a1;
		if (a1 != 0 && c.size / a1 != a0)
			c.size = 0;	/* it fails */
		break;
	case F_REALLOC:
		c.arg = a0;
		c.size = a1;
		break;
	case F_POSIX:
		c.arg = a0;
		c.size = a2;
		break;
	}
	if (!c.nested && c.size > 0) {
		u->countdown -= (double)c.size;
		if (u->countdown <= 0) {
			u->countdown = gap(u);
			c.block = sampled(u, ev, c.size);
		}
	}
	GROW(t->calls, t->ncalls + 1, t->cap);
	t->calls[t->ncalls++] = c;
}

/*
 * posix_memalign's pointer, from its place: in the stack copy of its
 * return ev (the place is in the caller's frame, most often), else read
 * from the process now (which may have put another pointer there since;
 * then the block's free is not seen); or 0.
 */
static uint64_t
peek(const struct source_event *ev, uint64_t addr)
{
	const struct source_sample *s = &ev->u.sample;
	uint64_t sp = s->regs[PERF_DWARF_SP], v = 0;
	pid_t pid = ev->pid;

	if (addr >= sp && addr - sp + 8 <= s->stack_len) {
		memcpy(&v, s->stack + (addr - sp), 8);
		return v;
	}
	struct iovec l = { &v, sizeof(v) }, r = { (void *)(uintptr_t)addr,
	    sizeof(v) };

	if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

static void
on_return(struct usrc *u, const struct source_event *ev)
{
	const uint64_t *r = ev->u.sample.regs;
	uint64_t sp = r[PERF_DWARF_SP], ret = r[0], ptr;
	struct thread *t = thread_of(u, ev->tid);
	struct call c;
	int found = 0;

	memset(&c, 0, sizeof(c));
	/* the entry's sp held the return address, popped by the return */
	drop_deeper(u, t, sp - 8);
	while (t->ncalls > 0 && t->calls[t->ncalls - 1].sp == sp - 8) {
		c = t->calls[--t->ncalls];
		found = 1;
		if (t->ncalls > 0 && t->calls[t->ncalls - 1].sp == sp - 8 &&
		    c.block >= 0) {
			block_drop(&u->blocks[c.block]);
			c.block = -1;
		}
	}
	if (!found || c.nested)
		return;
	ptr = ret;
	switch (c.kind) {
	case F_REALLOC:
		if (ret != 0 || c.size == 0)
			freed(u, ev->pid, c.arg);
		break;
	case F_POSIX:
		ptr = (uint32_t)ret == 0 ? peek(ev, c.arg) : 0;
		break;
	default:
		break;
	}
	if (c.block < 0)
		return;
	if (ptr != 0)
		block_live(u, (uint32_t)c.block, ptr);
	else
		block_drop(&u->blocks[c.block]);
}

/* A process forked: the child starts with copies of its parent's blocks. */
static void
on_fork(struct usrc *u, pid_t pid, pid_t parent)
{
	size_t i, n = u->nblocks;

	for (i = 0; i < n; i++) {
		struct block *b;

		if (!u->blocks[i].live || u->blocks[i].pid != parent)
			continue;
		GROW(u->blocks, u->nblocks + 1, u->blocks_cap);
		b = &u->blocks[u->nblocks];
		*b = u->blocks[i];
		b->pid = pid;
		b->live = 0;
		b->stack = xmalloc(b->stack_len ? b->stack_len : 1);
		memcpy(b->stack, u->blocks[i].stack, b->stack_len);
		block_live(u, (uint32_t)u->nblocks++, b->ptr);
	}
}

/*
 * The blocks still allocated (of process pid, or of all when all is
 * set), written as the inuse pair and let go: at a process's exit,
 * while the session still knows its mappings, and at the end.
 */
static void
inuse(struct usrc *u, pid_t pid, int all, const struct source_sink *sink)
{
	size_t i;

	for (i = 0; i < u->nblocks; i++) {
		struct block *b = &u->blocks[i];

		if (!b->live || (!all && b->pid != pid))
			continue;
		emit_pair(u, b, STREAM_INUSE_BYTES_EVENT,
		    STREAM_INUSE_OBJECTS_EVENT, sink);
		u->in_bytes += b->bytes;
		u->in_objects += b->objects;
		block_drop(b);
	}
}

/* A process exec'd: its blocks went with its image. */
static void
on_exec(struct usrc *u, pid_t pid)
{
	size_t i;

	for (i = 0; i < u->nblocks; i++)
		if (u->blocks[i].live && u->blocks[i].pid == pid)
			block_drop(&u->blocks[i]);
}

/* The decoder's events: samples are the probes', the rest the session's. */
static void
on_decoded(void *arg, const struct source_event *ev)
{
	struct usrc *u = arg;

	switch (ev->kind) {
	case SOURCE_SAMPLE:
		if (u->cur == NULL)
			return;
		if (u->cur->ret)
			on_return(u, ev);
		else
			on_entry(u, &u->probes[u->cur->probe], ev);
		return;
	case SOURCE_FORK:
		if (ev->pid != ev->u.fork.ppid)
			on_fork(u, ev->pid, ev->u.fork.ppid);
		break;
	case SOURCE_COMM:
		if (ev->u.comm.exec)
			on_exec(u, ev->pid);
		break;
	case SOURCE_EXIT:
		if (ev->pid == ev->tid)
			inuse(u, ev->pid, 0, u->sink);
		break;
	case SOURCE_LOST:
		/* said in the summary: the session's words are for samples */
		u->lost += ev->u.lost;
		return;
	default:
		break;
	}
	u->sink->fn(u->sink->arg, ev);
}

static perfqueue_fn on_queued;

/*
 * A record read from a ring, held for its turn; a queue at its bound
 * hands its older half on (the sink is the drain's).
 */
static void
enqueue(void *arg, const struct perf_event_header *h, int cpu)
{
	struct usrc *u = arg;
	struct perf_record_ids ids;

	if (perf_decode_ids(&u->dec, h, &ids) != 0)
		ids.time = 0;
	/* a new thread or process: its probes, as soon as it is seen */
	if (h->type == PERF_RECORD_FORK && h->size >= sizeof(*h) + 16) {
		uint32_t tid;

		memcpy(&tid, (const unsigned char *)h + sizeof(*h) + 8, 4);
		if (open_thread(u, (pid_t)tid, 1) == 0)
			u->late++;
	}
	if (perfqueue_full(&u->queue, h->size))
		perfqueue_flush(&u->queue, 0, 1, on_queued, u);
	perfqueue_add(&u->queue, h, h->size, ids.time, 0, cpu);
}

static void
on_queued(void *arg, const void *rec, const struct perfqueue_rec *r)
{
	struct usrc *u = arg;
	const struct perf_event_header *h = rec;
	struct perf_record_ids ids;
	struct evid key, *e = NULL;

	(void)r;
	if (h->type == PERF_RECORD_SAMPLE &&
	    perf_decode_ids(&u->dec, h, &ids) == 0 && ids.has_id) {
		key.id = ids.id;
		e = bsearch(&key, u->ids, u->nids, sizeof(*u->ids), id_cmp);
	}
	u->cur = e;
	{
		struct source_sink own = { on_decoded, u };

		perf_decode(&u->dec, h, &own);
	}
	u->cur = NULL;
}

static void
uprobe_drain(struct source *src, uint64_t limit, const struct source_sink *sink)
{
	struct usrc *u = src->priv;
	int cpu;

	u->sink = sink;
	for (cpu = 0; cpu < u->ncpus; cpu++) {
		uint64_t before = u->rings[cpu].bytes;

		if (u->rings[cpu].base == NULL)
			continue;
		perf_ring_drain(&u->rings[cpu], enqueue, u);
		src->bytes += u->rings[cpu].bytes - before;
	}
	perfqueue_flush(&u->queue, limit, 0, on_queued, u);
	if (limit == UINT64_MAX && u->disabled && !u->ended) {
		inuse(u, 0, 1, sink);
		u->ended = 1;
	}
}

static void
uprobe_summary(const struct source *src, uint64_t throttled)
{
	const struct usrc *u = src->priv;
	uint64_t in_bytes = u->in_bytes, in_objects = u->in_objects;
	(void)throttled;
	allocprep_say(u->samples, u->period, u->bytes, u->objects, in_bytes,
	    in_objects);
	fprintf(stderr, "%s: --alloc through uprobes: %zu function%s probed "
	    "in %zu file%s, %" PRIu64 " call%s trapped\n",
	    program_invocation_short_name, u->nprobes, u->nprobes == 1 ? "" :
	    "s", u->nfiles, u->nfiles == 1 ? "" : "s", u->calls,
	    u->calls == 1 ? "" : "s");
	if (u->lost)
		warnx("--alloc: %" PRIu64 " probe reports lost (fgrecord did not "
		    "keep up with the calls): the counts are short of them",
		    u->lost);
}

static void
uprobe_close(struct source *src)
{
	struct usrc *u = src->priv;
	size_t i;

	for (i = 0; i < (size_t)u->ncpus; i++)
		if (u->rings[i].base)
			perf_ring_unmap(&u->rings[i]);
	/*
	 * Each uprobe's removal waits for grace periods of its own: about
	 * 70 ms an event here, closed side by side or not.
	 */
	for (i = 0; i < u->nfds; i++)
		close(u->fds[i]);
	for (i = 0; i < u->nblocks; i++)
		free(u->blocks[i].stack);
	for (i = 0; i < u->nthreads; i++)
		free(u->threads[i].calls);
	for (i = 0; i < u->nfiles; i++)
		free(u->files[i]);
	free(u->files);
	free(u->rings);
	free(u->fds);
	free(u->ids);
	free(u->probes);
	free(u->blocks);
	free(u->threads);
	hashtab_release(&u->tidx);
	hashtab_release(&u->bidx);
	perfqueue_release(&u->queue);
	perf_decoder_release(&u->dec);
	free(u);
}

const struct source_ops source_uprobe = {
	.name = "uprobe",
	.measures = "heap allocations",
	.limits = "root only, a trap at every allocation call",
	.alloc = 1,
	.open = uprobe_open,
	.enable = uprobe_enable,
	.wait = uprobe_wait,
	.drain = uprobe_drain,
	.disable = uprobe_disable,
	.summary = uprobe_summary,
	.close = uprobe_close,
};
