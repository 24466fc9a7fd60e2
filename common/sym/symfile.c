/*
 * symfile: the symbolizer's file table (symstate.h): a DSO string, as the
 * stream names it, to its struct sfile, opened on its first frame (its
 * headers and build ID, checked against the recorded one, or perf's
 * build-ID cache's copy of the recorded build) and loaded into libdwfl on
 * its first lookup; the vDSO, the kernel's check, perf's file offsets.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>
#include <xxhash.h>

#include "base/hashtab.h"
#include "base/xalloc.h"
#include "elf/buildcache.h"
#include "elf/dbgfetch.h"
#include "elf/elfdwarf.h"
#include "elf/elffile.h"
#include "elf/elfsym.h"
#include "elf/filesearch.h"
#include "elf/kallsyms.h"
#include "elf/rustbuild.h"
#include "elf/vdso.h"
#include "stream/dso.h"
#include "stream/stream.h"
#include "sym/pkgowner.h"
#include "sym/sym.h"
#include "sym/symstate.h"

/* Adds a file named dso[0..len), not opened, and returns its number. */
static uint32_t
file_add(struct sym *s, const char *dso, size_t len)
{
	struct sfile *f;

	f = xcalloc(1, sizeof(*f));
	f->dso = xmemdup0(dso, len);
	f->dsolen = len;
	elffile_init(&f->ef);
	cuindex_init(&f->cus);
	f->kind = dso_classify(dso, len);
	GROW(s->files, s->nfiles + 1, s->filecap);
	s->files[s->nfiles] = f;
	return (uint32_t)s->nfiles++;
}

/*
 * Returns the file number for dso[0..len), adding it when new; past
 * SYM_FILES_MAX names, the number of the one file that stands for all the
 * others, said once.
 */
uint32_t
file_get(struct sym *s, const char *dso, size_t len)
{
	struct hashtab_probe p;
	struct sfile *f;
	uint32_t n;

	/* a sample's frames are mostly in the file of the frame before */
	if (s->last_file > 0) {
		f = s->files[s->last_file - 1];
		if (f->dsolen == len && memcmp(f->dso, dso, len) == 0)
			return s->last_file - 1;
	}
	hashtab_probe(&s->fileidx, XXH3_64bits(dso, len), &p);
	while ((n = hashtab_next(&s->fileidx, &p)) != HASHTAB_NONE) {
		f = s->files[n];
		if (f->dsolen == len && memcmp(f->dso, dso, len) == 0) {
			s->last_file = n + 1;
			return n;
		}
	}
	/* A name past the bound is one more of the one file that holds them. */
	if (s->nfiles >= SYM_FILES_MAX) {
		if (s->toomany == 0) {
			sym_warnx("more than %d files named: the frames of the "
			    "others stay [unknown]", SYM_FILES_MAX);
			s->toomany = file_add(s, SYM_TOOMANY,
			    strlen(SYM_TOOMANY)) + 1;
			s->files[s->toomany - 1]->kind = DSO_NONE;
		}
		return s->toomany - 1;
	}
	n = file_add(s, dso, len);
	hashtab_add(&s->fileidx, &p, n);
	return n;
}

/*
 * Opens instead the copy of the recorded build that perf's build-ID cache
 * holds (elf/buildcache), for a file gone from its path or rebuilt since
 * (what says which); says so. Returns 1 when f->ef is that copy; 0 when
 * the cache holds none; -1 when it holds one that is refused (another
 * user's, a FIFO, ...), said, and the input counted bad. f->ef is closed
 * but on 1.
 */
static int
file_cached(struct sym *s, struct sfile *f, const char *what)
{
	int rc;

	if (f->recorded == NULL)
		return 0;
	/*
	 * fgrecord's copies of other roots' files only for a file of
	 * another root: such a copy may claim any build ID.
	 */
	if (f->inside != NULL && buildcache_open_foreign(&f->ef,
	    f->recorded) == ELFFILE_OK) {
		sym_warnx("'%s' %s: its frames are named from the copy "
		    "fgrecord kept of its program's root, '%s'", f->dso, what,
		    f->ef.path);
		return 1;
	}
	if ((rc = buildcache_open(&f->ef, f->recorded)) == ELFFILE_REFUSED) {
		sym_warnx("'%s' %s, and the copy of its recorded build in "
		    "perf's build-ID cache is not used: %s: its frames stay "
		    "[unknown]; remove that copy, or add the file again as "
		    "yourself (perf buildid-cache --add FILE)", f->dso, what,
		    f->ef.why);
		s->any_bad = 1;
		return -1;
	}
	if (rc != ELFFILE_OK)
		return 0;
	sym_warnx("'%s' %s: its frames are named from the recorded build's copy "
	    "in perf's build-ID cache, '%s'", f->dso, what, f->ef.path);
	return 1;
}

/*
 * The file opened first under device dev and inode ino, or HASHTAB_NONE;
 * *p rests where a new one is filed.
 */
static uint32_t
file_inode(struct sym *s, uint64_t dev, uint64_t ino, struct hashtab_probe *p)
{
	const struct sfile *g;
	uint32_t n;

	hashtab_probe(&s->inoidx, hashtab_int(hashtab_int(dev) ^ ino), p);
	while ((n = hashtab_next(&s->inoidx, p)) != HASHTAB_NONE) {
		g = s->files[n];
		if (g->dev == dev && g->ino == ino)
			return n;
	}
	return HASHTAB_NONE;
}

/*
 * Is file fn's path a file that another name opened first (/a/./b, /a//b,
 * a link), its recorded build ID none or that file's? Then that one's
 * tables serve it (one libdwfl module, one DWARF index, however many
 * names a stream gives a file; nothing is opened, nor read by this
 * name): fn's same points there, and 1 is returned.
 */
static int
file_known(struct sym *s, uint32_t fn)
{
	struct sfile *f = s->files[fn];
	struct hashtab_probe p;
	struct stat st;
	uint32_t n;

	/*
	 * Under --symfs, or from a folder, the path names another file; a
	 * name of another root is resolved beneath it, never by stat.
	 */
	if (s->search.symfs != NULL || s->search.ndirs > 0 ||
	    f->inside != NULL)
		return 0;
	if (s->inoidx.count == 0 || strlen(f->dso) != f->dsolen ||
	    stat(f->dso, &st) != 0 ||
	    !S_ISREG(st.st_mode) || (n = file_inode(s, (uint64_t)st.st_dev,
	    (uint64_t)st.st_ino, &p)) == HASHTAB_NONE)
		return 0;
	if (f->recorded != NULL && (s->files[n]->buildid == NULL ||
	    strcasecmp(f->recorded, s->files[n]->buildid) != 0))
		return 0;
	f->same = n + 1;
	f->opened = 1;
	return 1;
}

/*
 * The same for file fn just opened and checked, by the file it opened:
 * returns 1 with fn closed and its same set, or files fn under its device
 * and inode and returns 0.
 */
static int
file_same(struct sym *s, uint32_t fn)
{
	struct sfile *f = s->files[fn];
	struct hashtab_probe p;
	uint32_t n;

	f->dev = f->ef.dev;
	f->ino = f->ef.ino;
	if ((n = file_inode(s, f->dev, f->ino, &p)) != HASHTAB_NONE) {
		f->same = n + 1;
		elffile_release(&f->ef);
		return 1;
	}
	hashtab_add(&s->inoidx, &p, fn);
	return 0;
}

/*
 * Is path a file seen through a process's root, /proc/PID/root/...:
 * fgrecord's name for a file that only that process could reach
 * (fg-stream(5), "Files under another root")?
 */
static int
is_inside(const char *path)
{
	const char *p;

	if (strncmp(path, "/proc/", 6) != 0)
		return 0;
	for (p = path + 6; *p >= '0' && *p <= '9'; p++)
		;
	return p > path + 6 && strncmp(p, "/root/", 6) == 0;
}

/*
 * Opens an ELF file's headers: its type, its PT_LOAD segments and its
 * build ID, and checks that against the recorded one. Warns once and marks
 * the file unusable on failure.
 */
/*
 * Opens the executable of f's recorded build ID that a debuginfod server
 * has, when fgsym asks servers. Returns 1 when f->ef is that file, else 0.
 */
static int
file_fetched(struct sym *s, struct sfile *f)
{
	char *path;
	int rc;

	if (f->recorded == NULL || (path = dbgfetch_find(s->search.fetch,
	    DBGFETCH_EXECUTABLE, f->recorded, f->dso)) == NULL)
		return 0;
	rc = elffile_open(&f->ef, path);
	free(path);
	f->fetched = rc == ELFFILE_OK;
	return rc == ELFFILE_OK;
}

/*
 * Says that f is missing, with what was searched and what would help;
 * note, when not NULL, is a folder's file of another build ID.
 */
static void
file_missing(struct sym *s, const struct sfile *f, const char *note)
{
	const struct filesearch *fs = &s->search;

	/* Named one by one up to ten; a stream from another machine
	 * may name thousands, and the summary sums them up. */
	if (++s->nmissing > 10) {
		if (s->nmissing == 11)
			sym_warnx("more files are missing; the summary at the end "
			    "names those with the most frames");
		return;
	}
	if (note != NULL)
		sym_warnx("'%s': no such file, and %s: its frames stay "
		    "[unknown]", f->dso, note);
	else if (is_inside(f->dso))
		sym_warnx("'%s': no such file: its process has exited, "
		    "and the file was only in that process's root (a "
		    "container's own mounts): its frames stay "
		    "[unknown]; fgrecord keeps a copy beside perf's "
		    "build-ID cache unless given --no-buildid-cache, or "
		    "symbolize while the program runs (fgrecord ... | "
		    "fgsym)", f->dso);
	else if (fs->symfs != NULL || fs->ndirs > 0)
		sym_warnx("'%s': no such file%s%s%s%s: its frames stay "
		    "[unknown]", f->dso, fs->symfs ? ", nor under --symfs '" :
		    "", fs->symfs ? fs->symfs : "", fs->symfs ? "'" : "",
		    fs->ndirs > 0 ? ", nor in the --symbol-dir folders" : "");
	else
		sym_warnx("'%s': no such file: its frames stay [unknown] "
		    "(recorded on another machine? give its files with "
		    "--symfs DIR, laid out as recorded, or --symbol-dir DIR, "
		    "or symbolize where it was recorded)", f->dso);
}

void
sfile_open(struct sym *s, uint32_t fn)
{
	struct sfile *f = s->files[fn];
	char *note = NULL;

	if (file_known(s, fn))
		return;
	f->opened = -1;
	/*
	 * Only a regular file is opened: never a FIFO, never a device.
	 * Under --symfs first, then as named, then in the --symbol-dir
	 * folders by the recorded build ID.
	 */
	switch (filesearch_open_inside(&s->search, &f->ef, f->dso, f->inside,
	    f->recorded, &note)) {
	case ELFFILE_OK:
		break;
	case ELFFILE_ERRNO: {
		int e = f->ef.errnum, c;

		if (e == ENOENT && (c = file_cached(s, f, "is gone")) != 0) {
			free(note);
			note = NULL;
			if (c > 0)
				break;
			return;
		}
		if (e == ENOENT && file_fetched(s, f)) {
			free(note);
			note = NULL;
			break;
		}
		f->missing = e == ENOENT;
		if (e == ENOENT) {
			file_missing(s, f, note);
			free(note);
			return;
		}
	}
	/* FALLTHROUGH */
	default: {
		const char *cand = f->ef.path;
		char *why;

		/*
		 * A candidate of --symfs or --symbol-dir refused for what it
		 * is (a FIFO, a device, too large) is named, and is no input
		 * error: not usable here, as a missing file.
		 */
		if (cand != NULL && strcmp(cand, f->dso) != 0 &&
		    (f->ef.status == ELFFILE_NOTREG ||
		    f->ef.status == ELFFILE_TOOBIG)) {
			why = elffile_failure(&f->ef, cand);
			free(note);
			f->missing = 1;
			sym_warnx("'%s': %s: not used: its frames stay [unknown]",
			    f->dso, why);
			free(why);
			return;
		}
		why = elffile_failure(&f->ef, f->dso);
		free(note);
		sym_warnx("%s: its frames stay [unknown]%s", why, f->ef.status ==
		    ELFFILE_TRUNCATED ? "; copy the whole file again" : "");
		free(why);
		return;
	}
	}
	if (note != NULL) {
		sym_warnx("'%s': %s", f->dso, note);
		free(note);
	}
	f->buildid = elffile_buildid(&f->ef);
	/* The server's answer is not the file asked for: not a rebuild. */
	if (f->fetched && f->recorded != NULL && (f->buildid == NULL ||
	    strcasecmp(f->recorded, f->buildid) != 0)) {
		sym_warnx("'%s': the debuginfod server sent a file with another "
		    "build ID (%s, asked for %s), '%s': not used; its frames "
		    "stay [unknown]", f->dso, f->buildid != NULL ? f->buildid :
		    "none", f->recorded, f->ef.path);
		f->rebuilt = 1;
		elffile_release(&f->ef);
		return;
	}
	if (f->recorded != NULL && (f->buildid == NULL ||
	    strcasecmp(f->recorded, f->buildid) != 0)) {
		int c = file_cached(s, f, "was rebuilt after the recording");

		if (c < 0) {
			f->rebuilt = 1;
			return;
		}
		if (c > 0) {
			free(f->buildid);
			f->buildid = elffile_buildid(&f->ef);
		}
	}

	if (f->recorded != NULL && f->buildid != NULL &&
	    strcasecmp(f->recorded, f->buildid) != 0) {
		sym_warnx("'%s' was rebuilt after the recording (build ID %s, "
		    "recorded %s): its frames stay [unknown]; record the "
		    "profile again", f->dso, f->buildid, f->recorded);
		f->rebuilt = 1;
		elffile_release(&f->ef);
		return;
	}
	if (f->recorded != NULL && f->buildid == NULL) {
		sym_warnx("'%s' has no build ID but the recording names one (%s): "
		    "its frames stay [unknown]; record the profile again",
		    f->dso, f->recorded);
		f->rebuilt = 1;
		elffile_release(&f->ef);
		return;
	}
	f->opened = 1;
	if (file_same(s, fn))
		return;
	/* Under cargo fg --dev (FG_CARGO_PROFILE), cargo fg's own way. */
	if (strstr(f->dso, "/target/debug/") != NULL)
		sym_warnx("'%s' is a Cargo debug build: its profile will mislead "
		    "(unoptimized code spends its time elsewhere); profile "
		    "the release build (%s)", f->dso,
		    getenv("FG_CARGO_PROFILE") != NULL ? "cargo fg without "
		    "--dev" : "cargo build --release, with [profile.release] "
		    "debug = true");
}

/* Does the ELF file elf have a section of type SHT_SYMTAB? */
static int
has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_SYMTAB)
			return 1;
	return 0;
}

/*
 * How to get the debug info of the file f, whose ELF is elf, in a few
 * words (caller frees): for a file of a Debian package its debug package
 * or debuginfod, for a Rust binary the flag of its build's environment
 * that undid the debug info, else Cargo's settings, for anything else
 * (the user's own C or C++ build) the compiler flag; when stripped, and
 * not to strip it.
 */
char *
sfile_debug_fix(const struct sfile *f, Elf *elf, int stripped)
{
	char *pkg, *r;

	if ((pkg = pkgowner_find(NULL, f->dso)) != NULL) {
		r = pkgowner_advice(pkg, NULL);
		free(pkg);
		return r;
	}
	if (elfdwarf_is_rust(elf)) {
		struct rustbuild rb;

		/* The flag that undid it, the profile cargo fg built. */
		rustbuild_init(&rb, stripped);
		r = rustbuild_fix(&rb, stripped);
		rustbuild_release(&rb);
		return r;
	}
	return xasprintf("rebuild it with -g%s", stripped ?
	    " and without -s or strip" : "");
}

/*
 * Builds f->syms from the module's symbol table (.symtab, of the file or
 * its debug file, else .dynsym) and its PLT: every defined function,
 * sorted, one per address. dwfl_module_addrinfo() would do, but it scans
 * the whole table on every call.
 */
static void
symtab_build(struct sfile *f, Elf *elf)
{
	/* Data symbols too, for the annotator (sym_file); lookups skip them. */
	elfsym_read_module(&f->syms, f->mod, f->bias, 1);
	elfsym_plt(&f->syms, elf);
	elfsym_sort(&f->syms);
}

/* The name of the function that holds vaddr, and *off in it, or NULL. */
const char *
sfile_symbol(const struct sfile *f, uint64_t vaddr, uint64_t *off)
{
	const struct elfsym_ent *e = elfsym_lookup(&f->syms, vaddr, off, 1);

	return e != NULL ? e->name : NULL;
}

/*
 * Opens the vDSO of this process, the same code as the recorded one's when
 * the kernel is the same: its program headers and its function symbols.
 */
void
sfile_vdso_open(struct sym *s, struct sfile *f)
{
	size_t size;
	char *img;

	f->opened = -1;
	f->loaded = -1;
	if ((img = vdso_any(&size)) == NULL) {
		sym_warnx("[vdso]: no vDSO to read: %s has none of its own "
		    "(under valgrind?), nor have its parent and init",
		    program_invocation_short_name);
		return;
	}
	if (elffile_open_memory(&f->ef, img, size) != ELFFILE_OK) {
		sym_warnx("[vdso]: elf_memory: %s", f->ef.why);
		free(img);
		return;
	}
	/* Another kernel's vDSO is other code: names would be wrong. */
	if (f->recorded != NULL) {
		char *mine = elffile_buildid(&f->ef);

		if (mine == NULL || strcasecmp(mine, f->recorded) != 0) {
			sym_warnx("[vdso]: recorded under another kernel (build ID "
			    "%s; this machine's is %s): its frames stay "
			    "[unknown]; symbolize where it was recorded",
			    f->recorded, mine ? mine : "unknown");
			f->rebuilt = 1;
			free(mine);
			elffile_release(&f->ef);
			free(img);
			return;
		}
		free(mine);
	}
	elfsym_read_elf(&f->syms, f->ef.elf, 0, 1);
	elffile_close(&f->ef);
	free(img);
	elfsym_sort(&f->syms);
	f->opened = f->loaded = 1;
	s->loaded++;
}

/* Reports the file to libdwfl and checks what symbols it has. */
void
sfile_load(struct sym *s, struct sfile *f)
{
	const char *mainfile = NULL, *debugfile = NULL;
	Elf *elf;
	int nsym;

	f->loaded = -1;
	/* The checked file itself goes to libdwfl, not its path again. */
	f->ef.search = &s->search;
	f->dwfl = elfdwarf_dwfl(&f->ef, f->dso, NULL, &f->mod, &f->bias);
	/* libdwfl holds its own descriptor now: ours is not needed. */
	elffile_close(&f->ef);
	if (f->dwfl == NULL) {
		sym_warnx("'%s': %s", f->dso, f->ef.why);
		return;
	}
	elf = dwfl_module_getelf(f->mod, &f->bias);
	s->loaded++;
	f->loaded = 1;
	nsym = dwfl_module_getsymtab(f->mod);
	symtab_build(f, elf);
	dwfl_module_info(f->mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
	    &debugfile);
	/* Said at the end, ranked by its share (symsummary.c). */
	if (nsym <= 0 || (!has_symtab(elf) && debugfile == NULL)) {
		f->stripped = nsym <= 0 ? 2 : 1;
		/* One line per file: that fix brings the DWARF too. */
		f->nodwarf_warned = 1;
	}
	/* A debug file that was there but refused (a FIFO, too large). */
	if (f->ef.note != NULL) {
		sym_warnx("'%s': %s; its debug info is not read from there",
		    f->dso, f->ef.note);
		f->nodwarf_warned = 1;
	}
}

int
sym_file(struct sym *s, const char *dso, struct elfsym_file *ef)
{
	uint32_t fn = file_get(s, dso, strlen(dso));
	struct sfile *f = s->files[fn];

	if (f->kind != DSO_FILE)
		return -1;
	if (f->opened == 0)
		sfile_open(s, fn);
	if (f->same > 0)
		f = s->files[f->same - 1];
	if (f->opened < 0 || f->rebuilt)
		return -1;
	if (f->loaded == 0)
		sfile_load(s, f);
	if (f->loaded < 0 ||
	    (ef->elf = dwfl_module_getelf(f->mod, &ef->bias)) == NULL)
		return -1;
	ef->mod = f->mod;
	ef->syms = &f->syms;
	return 0;
}

const struct filesearch *
sym_search(const struct sym *s)
{
	return &s->search;
}

const struct kallsyms *
sym_kallsyms(const struct sym *s)
{
	return s->ks_state > 0 ? s->ks : NULL;
}

/*
 * Converts the address perf script printed for a frame of f to a vaddr.
 * Returns 0, or -1 when it fits no segment.
 *
 * For shared objects and PIE executables perf prints the file offset. For
 * ET_EXEC files perf 6.x prints the file offset too, and older versions
 * printed the absolute address, which is the vaddr. An address that only
 * one reading places inside a segment settles it for the file; where both
 * readings fit (only in executables larger than their load address, 4 MiB
 * on x86-64), the file's settled reading is used, the offset by default.
 */
int
sfile_perf_addr(struct sfile *f, uint64_t addr, uint64_t *vaddr)
{
	uint64_t conv = 0;
	int in_off, in_va = 0;
	size_t i;

	in_off = elffile_vaddr(&f->ef, addr, &conv) == 0;
	if (f->ef.ehdr.e_type != ET_EXEC) {
		*vaddr = conv;
		return in_off ? 0 : -1;
	}
	for (i = 0; i < f->ef.nloads; i++)
		if (addr >= f->ef.loads[i].vaddr &&
		    addr - f->ef.loads[i].vaddr < f->ef.loads[i].memsz)
			in_va = 1;
	if (in_va && !in_off)
		f->exec_vaddr = 1;
	else if (in_off && !in_va)
		f->exec_vaddr = 0;
	if (!in_off && !in_va)
		return -1;
	*vaddr = in_va && (!in_off || f->exec_vaddr) ? addr : conv;
	return 0;
}

/*
 * Checks once, at the first kernel frame, that this is the kernel that
 * recorded the stream (its "# buildid ... [kernel.kallsyms]" line):
 * another kernel's symbols would name every kernel frame wrongly. With
 * --kallsyms the symbols are the user's choice, and are not checked.
 */
void
sym_kernel_check(struct sym *s)
{
	uint32_t fn = file_get(s, STREAM_KERNEL, strlen(STREAM_KERNEL));
	struct sfile *k = s->files[fn];
	char *cur;

	if (k->opened != 0)
		return;
	k->opened = 1;
	/* --kallsyms: the user brought the recording kernel's symbols */
	if (k->recorded == NULL || s->o.kallsyms != NULL ||
	    (cur = kallsyms_buildid("/sys/kernel/notes")) == NULL)
		return;
	if (strcasecmp(cur, k->recorded) != 0) {
		sym_warnx("[kernel.kallsyms]: recorded under another kernel (build "
		    "ID %s; this one's is %s): kernel frames stay [unknown]; "
		    "symbolize on the machine and kernel that recorded",
		    k->recorded, cur);
		k->rebuilt = 1;
		s->kernel_other = 1;
	}
	free(cur);
}
