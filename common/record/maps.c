#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <xxhash.h>

#include "base/hashtab.h"
#include "base/procfs.h"
#include "base/str.h"
#include "record/hostpath.h"
#include "record/maps.h"
#include "elf/buildcache.h"
#include "elf/filesearch.h"
#include "elf/vdso.h"
#include "base/xalloc.h"
#include "stream/stream.h"

void
maps_init(struct maps *m)
{
	memset(m, 0, sizeof(*m));
	hashtab_init(&m->procidx, 32);
	hashtab_init(&m->fileidx, 32);
	m->next_id = 1;
}

static void vdso_snapshot(struct mapfile *, pid_t);

static void
mapfile_free(struct mapfile *f)
{
	if (f->dwarf)
		dwarf_end(f->dwarf);
	if (f->eh_cfi)
		dwarf_cfi_end(f->eh_cfi);
	elffile_release(&f->ef);
	free(f->image);
	free(f->buildid);
	free(f->alt);
	free(f->inside);
	free(f->path);
	free(f);
}

void
maps_release(struct maps *m)
{
	size_t i;

	for (i = 0; i < m->nprocs; i++) {
		maptab_release(&m->procs[i]->v);
		maptab_release(&m->procs[i]->prev);
		free(m->procs[i]);
	}
	for (i = 0; i < m->nfiles; i++)
		mapfile_free(m->files[i]);
	free(m->procs);
	free(m->files);
	hashtab_release(&m->procidx);
	hashtab_release(&m->fileidx);
	memset(m, 0, sizeof(*m));
}

static struct mapproc *
proc_get(struct maps *m, pid_t pid, int create)
{
	struct hashtab_probe hp;
	struct mapproc *p;
	uint32_t i;

	hashtab_probe(&m->procidx, hashtab_int((uint32_t)pid), &hp);
	while ((i = hashtab_next(&m->procidx, &hp)) != HASHTAB_NONE)
		if (m->procs[i]->pid == pid)
			return m->procs[i];
	if (!create)
		return NULL;
	hashtab_add(&m->procidx, &hp, m->nprocs);
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	maptab_init(&p->v);
	maptab_init(&p->prev);
	GROW(m->procs, m->nprocs + 1, m->procs_cap);
	m->procs[m->nprocs++] = p;
	return p;
}

static int
is_anon_name(const char *path)
{
	if (*path == '\0')
		return 1;
	if (strncmp(path, "//anon", 6) == 0)
		return 1;
	if (path[0] == '[' && strcmp(path, STREAM_VDSO) != 0)
		return 1;
	return 0;
}

/*
 * Returns the file called path, creating it. A build ID (hex, or NULL)
 * that differs from the one already known for path makes another file of
 * the same name: the program was rebuilt while recording.
 */
static struct mapfile *
file_get(struct maps *m, const char *path, const char *bid)
{
	struct hashtab_probe hp;
	struct mapfile *f;
	uint32_t i;

	hashtab_probe(&m->fileidx, XXH3_64bits(path, strlen(path)), &hp);
	while ((i = hashtab_next(&m->fileidx, &hp)) != HASHTAB_NONE) {
		f = m->files[i];
		if (strcmp(f->path, path) == 0 && (bid == NULL ||
		    f->buildid == NULL || strcmp(f->buildid, bid) == 0))
			return f;
	}
	hashtab_add(&m->fileidx, &hp, m->nfiles);
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	elffile_init(&f->ef);
	f->id = m->next_id++;
	f->kind = is_anon_name(path) ? MAPFILE_ANON : MAPFILE_ELF;
	f->search = m->search;
	GROW(m->files, m->nfiles + 1, m->files_cap);
	m->files[m->nfiles++] = f;
	return f;
}

/*
 * The path by which fgrecord reaches the file that pid maps at [start,
 * end) as path, when pid sees another root or other mounts and path here
 * is not that file: a new string, or NULL to keep path. *id is the
 * mapping's identity (MMAP2's, or its map_files link), if known.
 */
static char *
host_name(pid_t pid, uint64_t start, uint64_t end, const char *path,
    const struct stat *ino)
{
	struct hostpath_id id;
	char mapped[96];

	snprintf(mapped, sizeof(mapped), "/proc/%d/map_files/%" PRIx64 "-%"
	    PRIx64, (int)pid, start, end);
	if (hostpath_identity(&id, pid, path, mapped) != 0 && ino == NULL)
		return NULL;
	if (ino != NULL && id.n < 2 && !(id.n == 1 &&
	    id.dev[0] == ino->st_dev && id.ino[0] == ino->st_ino)) {
		/* the recorded one first: it is what was mapped */
		id.dev[1] = id.dev[0];
		id.ino[1] = id.ino[0];
		id.dev[0] = ino->st_dev;
		id.ino[0] = ino->st_ino;
		id.n++;
	}
	return hostpath_find(pid, path, &id);
}

/* maps_add, told whether pid is foreign (1, 0, -1: not asked yet). */
static void
add_mapping(struct maps *m, pid_t pid, int foreign, uint64_t start,
    uint64_t len, uint64_t pgoff, const char *path, const unsigned char *bid,
    size_t bidlen, const struct stat *ino)
{
	struct mapproc *p = proc_get(m, pid, 1);
	struct mapping nm;
	uint64_t end = start + len;
	char *hex, *host = NULL;

	if (len == 0)
		return;
	nm.start = start;
	nm.end = end;
	nm.pgoff = pgoff;
	hex = bid && bidlen ? str_hexdup(bid, bidlen) : NULL;
	if (m->offline || is_anon_name(path) || path[0] != '/')
		foreign = 0;
	else if (foreign < 0)
		foreign = hostpath_foreign(pid);
	if (foreign)
		host = host_name(pid, start, end, path, ino);
	nm.file = file_get(m, host ? host : path, hex);
	if (host && nm.file->inside == NULL)
		nm.file->inside = xstrdup(path);
	if (foreign)
		nm.file->foreign = 1;
	free(host);
	path = nm.file->path;
	if (nm.file->alt == NULL && nm.file->kind == MAPFILE_ELF &&
	    path[0] == '/' && !m->offline) {
		char alt[96];

		struct stat st;

		snprintf(alt, sizeof(alt), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64,
		    (int)pid, start, end);
		nm.file->alt = xstrdup(alt);
		/* stat opens nothing; it follows the link only for root */
		if (stat(alt, &st) == 0) {
			nm.file->dev = st.st_dev;
			nm.file->ino = st.st_ino;
			nm.file->have_ino = 1;
		}
	}
	/* gone already: the identity MMAP2 recorded */
	if (!nm.file->have_ino && ino != NULL &&
	    nm.file->kind == MAPFILE_ELF && !m->offline) {
		nm.file->dev = ino->st_dev;
		nm.file->ino = ino->st_ino;
		nm.file->have_ino = 1;
	}
	if (hex && nm.file->buildid == NULL && nm.file->kind == MAPFILE_ELF &&
	    !nm.file->opened) {
		nm.file->buildid = hex;
		hex = NULL;
	}
	free(hex);
	if (nm.file->kind == MAPFILE_ELF && strcmp(path, STREAM_VDSO) == 0 &&
	    !m->offline)
		vdso_snapshot(nm.file, pid);

	maptab_add(&p->v, &nm);
}

void
maps_add(struct maps *m, pid_t pid, uint64_t start, uint64_t len,
    uint64_t pgoff, const char *path, const unsigned char *bid, size_t bidlen)
{
	add_mapping(m, pid, -1, start, len, pgoff, path, bid, bidlen, NULL);
}

void
maps_add_ino(struct maps *m, pid_t pid, uint64_t start, uint64_t len,
    uint64_t pgoff, const char *path, const unsigned char *bid, size_t bidlen,
    const struct stat *ino)
{
	add_mapping(m, pid, -1, start, len, pgoff, path, bid, bidlen, ino);
}

void
maps_fork(struct maps *m, pid_t parent, pid_t child)
{
	struct mapproc *pp, *cp;

	if (parent == child)
		return;
	if ((pp = proc_get(m, parent, 0)) == NULL)
		return;
	cp = proc_get(m, child, 1);
	pp = proc_get(m, parent, 0);	/* the table may have grown */
	maptab_release(&cp->prev);
	maptab_share(&cp->v, &pp->v);
}

void
maps_exec(struct maps *m, pid_t pid)
{
	struct mapproc *p = proc_get(m, pid, 0);

	if (p == NULL)
		return;
	maptab_release(&p->prev);
	p->prev = p->v;
	maptab_init(&p->v);
}

void
maps_exit(struct maps *m, pid_t pid)
{
	struct mapproc *p = proc_get(m, pid, 0);

	if (p) {
		maptab_release(&p->v);
		maptab_release(&p->prev);
	}
}

/*
 * Adds the executable mappings of pid that its maps file lists (tid's
 * when tid is not 0); returns how many, or -1.
 */
static long
read_maps(struct maps *m, pid_t pid, pid_t tid)
{
	struct procfs_maps ms;
	struct procfs_map pm;
	long count = 0;
	int foreign = -1;
	struct stat st;

	if (procfs_maps_open(&ms, pid, tid) != 0)
		return -1;
	while (procfs_maps_next(&ms, &pm)) {
		if (strchr(pm.perms, 'x') == NULL)
			continue;
		if (foreign < 0 && pm.name[0] == '/')
			foreign = hostpath_foreign(pid);
		st.st_dev = makedev(pm.maj, pm.min);
		st.st_ino = (ino_t)pm.ino;
		add_mapping(m, pid, foreign, pm.start, pm.end - pm.start,
		    pm.pgoff, pm.name, NULL, 0, pm.ino != 0 ? &st : NULL);
		count++;
	}
	procfs_maps_release(&ms);
	return count;
}

int
maps_read_proc(struct maps *m, pid_t pid)
{
	struct procfs_walk w;
	pid_t tid;
	long n;

	if ((n = read_maps(m, pid, 0)) < 0)
		return -1;
	if (n > 0)
		return 0;
	/*
	 * A main thread that has left (pthread_exit) is a zombie whose maps
	 * file is empty: the process's live threads still list them.
	 */
	if (procfs_walk_tasks(&w, pid) != 0)
		return 0;
	while (n <= 0 && (tid = procfs_walk_next(&w)) > 0) {
		if (tid == pid)
			continue;
		n = read_maps(m, pid, tid);
	}
	procfs_walk_release(&w);
	return 0;
}

struct mapping *
maps_find(struct maps *m, pid_t pid, uint64_t addr)
{
	struct mapproc *p = proc_get(m, pid, 0);

	return p ? maptab_find(&p->v, addr) : NULL;
}

struct mapping *
maps_find_prev(struct maps *m, pid_t pid, uint64_t addr)
{
	struct mapproc *p = proc_get(m, pid, 0);

	return p ? maptab_find(&p->prev, addr) : NULL;
}

/*
 * Every 64-bit process of a kernel maps the same vDSO, so fgrecord's own
 * copy serves. Under valgrind fgrecord has none: then it is the profiled
 * process's, copied when its mapping was seen (vdso_snapshot), or failing
 * that (the process was gone) its parent's or init's. A build ID that the
 * kernel reported is checked all the same.
 */
static int
open_vdso(struct mapfile *f)
{
	if (f->image == NULL &&
	    (f->image = vdso_any(&f->image_size)) == NULL) {
		snprintf(f->why, sizeof(f->why), "no vDSO to copy: fgrecord "
		    "has none of its own (under valgrind?), and the profiled "
		    "process had exited");
		return -1;
	}
	return elffile_open_memory(&f->ef, f->image, f->image_size);
}

/*
 * Without a vDSO of its own, copies process pid's at once, while it lives.
 */
static void
vdso_snapshot(struct mapfile *f, pid_t pid)
{
	if (f->image == NULL && !f->opened && getauxval(AT_SYSINFO_EHDR) == 0)
		f->image = vdso_copy(pid, &f->image_size);
}

/* Drops what an open of f set up, to try another path. */
static void
mapfile_close(struct mapfile *f)
{
	elffile_release(&f->ef);
	f->elf = NULL;
}

/*
 * Whether the file f opened is the inode that was mapped, when map_files
 * told which (else 1: nothing to compare with).
 */
static int
mapfile_is_mapped(struct mapfile *f)
{
	struct stat st;

	if (!f->have_ino)
		return 1;
	if (fstat(f->ef.fd, &st) == 0 && st.st_dev == f->dev &&
	    st.st_ino == f->ino)
		return 1;
	snprintf(f->why, sizeof(f->why), "not the file that was mapped: "
	    "replaced since, and the mapping is gone");
	return 0;
}

/*
 * Reads f's ELF header, segments and build ID from path (NULL: the vDSO).
 * Returns 1 when it is usable: ELF, with PT_LOADs, the mapped inode when
 * check and that is known (map_files of an address range that was mapped
 * again holds another file), and the build ID that the kernel reported,
 * if it reported one.
 */
static int
mapfile_load(struct mapfile *f, const char *path, int check)
{
	char *bid;
	int rc;

	f->why[0] = '\0';
	/*
	 * The profiled program may have put a FIFO where its file was:
	 * elffile opens regular files only, and never waits for a writer.
	 */
	rc = path == NULL ? open_vdso(f) : f->inside != NULL &&
	    strcmp(path, f->path) == 0 ? elffile_open_inside(&f->ef, path,
	    f->inside) : elffile_open(&f->ef, path);
	if (rc != ELFFILE_OK) {
		if (f->why[0] == '\0')
			snprintf(f->why, sizeof(f->why), "%s", f->ef.why);
		return 0;
	}
	if (check && !mapfile_is_mapped(f))
		return 0;
	f->elf = f->ef.elf;
	f->entry = f->ef.ehdr.e_entry;
	if (f->ef.nloads == 0) {
		snprintf(f->why, sizeof(f->why), "no PT_LOAD segment");
		return 0;
	}
	bid = elffile_buildid(&f->ef);
	if (f->buildid && (bid == NULL || strcmp(bid, f->buildid) != 0)) {
		f->buildid_mismatch = 1;
		snprintf(f->why, sizeof(f->why), "build ID %s, not the mapped %s",
		    bid ? bid : "none", f->buildid);
		free(bid);
		return 0;
	}
	if (f->buildid == NULL)
		f->buildid = bid;
	else
		free(bid);
	f->buildid_mismatch = 0;
	return 1;
}

/*
 * Opens the file that f->search finds for f (elf/filesearch): 1 when it
 * is usable, else 0 with f as it was.
 */
static int
mapfile_search(struct mapfile *f)
{
	char *path = filesearch_find(f->search, f->path, f->buildid);
	char why[sizeof(f->why)];

	if (path == NULL)
		return 0;
	memcpy(why, f->why, sizeof(why));
	mapfile_close(f);
	if (!(f->usable = mapfile_load(f, path, 0)))
		memcpy(f->why, why, sizeof(why));
	free(path);
	return f->usable;
}

int
mapfile_open(struct mapfile *f)
{
	if (f->opened)
		return f->usable;
	f->opened = 1;
	if (f->kind != MAPFILE_ELF || elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	if (strcmp(f->path, STREAM_VDSO) == 0) {
		f->usable = mapfile_load(f, NULL, 0);
		return f->usable;
	}
	/*
	 * The mapping itself first: a file deleted, replaced by a rebuild or
	 * by a link to anything is still the mapped one there, while the
	 * process lives (and the reader may follow map_files: root).
	 */
	if (f->alt && (f->usable = mapfile_load(f, f->alt, 1)))
		return 1;
	/* A replay's files under fgsym's --symfs first. */
	if (f->search != NULL && f->search->symfs != NULL &&
	    mapfile_search(f))
		return 1;
	mapfile_close(f);
	/*
	 * By its path, a file of another root only when what is there can
	 * be told to be the mapped one: its device and inode, or the build
	 * ID the kernel reported (a jail's program may have put a link to
	 * anything where its file was).
	 */
	if (f->foreign && !f->have_ino && f->buildid == NULL)
		snprintf(f->why, sizeof(f->why), "unmapped before fgrecord "
		    "read it, with no device, inode nor build ID recorded: "
		    "not opened by a path under another root that cannot "
		    "be checked");
	else
		f->usable = mapfile_load(f, f->path, 1);
	/* Gone or rebuilt: the mapped build's copy in perf's build-ID cache. */
	if (!f->usable && f->buildid != NULL) {
		char *copy = buildcache_find(f->buildid);

		if (copy != NULL) {
			mapfile_close(f);
			f->usable = mapfile_load(f, copy, 0);
			free(copy);
		}
	}
	/* In fgsym's --symbol-dir folders, or from debuginfod. */
	if (!f->usable && f->search != NULL)
		mapfile_search(f);
	return f->usable;
}

/*
 * The ELF file behind mp, opened: returns 0 and sets *ef; 1 for an
 * anonymous mapping (JIT code), whose addresses stand for themselves; -1
 * when the file cannot be used.
 */
static int
mapping_elf(struct mapping *mp, const struct elffile **ef)
{
	struct mapfile *f = mp->file;

	if (f->kind == MAPFILE_ANON)
		return 1;
	if (!mapfile_open(f))
		return -1;
	*ef = &f->ef;
	return 0;
}

int
mapping_vaddr(struct mapping *mp, uint64_t addr, uint64_t *vaddr)
{
	const struct elffile *ef;
	int r;

	if ((r = mapping_elf(mp, &ef)) < 0)
		return -1;
	if (r > 0) {
		*vaddr = addr;
		return 0;
	}
	return elffile_vaddr(ef, addr - mp->start + mp->pgoff, vaddr);
}

int
mapping_runtime(struct mapping *mp, uint64_t vaddr, uint64_t *addr)
{
	const struct elffile *ef;
	uint64_t off;
	int r;

	if ((r = mapping_elf(mp, &ef)) < 0)
		return -1;
	if (r > 0) {
		*addr = vaddr;
		return 0;
	}
	if (elffile_offset(ef, vaddr, &off) != 0 || off < mp->pgoff ||
	    off - mp->pgoff >= mp->end - mp->start)
		return -1;
	*addr = off - mp->pgoff + mp->start;
	return 0;
}
