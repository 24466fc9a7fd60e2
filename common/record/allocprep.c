#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gelf.h>

#include "base/safeopen.h"
#include "base/xalloc.h"
#include "record/allocmsg.h"
#include "record/allocprep.h"

#ifndef FG_LIBDIR
#define FG_LIBDIR	"/usr/local/lib/fgtools"
#endif
#define LIBNAME		"libfgalloc.so"

char *
allocprep_library(char **tried)
{
	char self[PATH_MAX], *slash, *p;
	ssize_t n;

	*tried = NULL;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL)
			*slash = '\0';
		p = xasprintf("%s/../lib/%s", self, LIBNAME);
		if (access(p, R_OK) == 0)
			return p;
		*tried = p;
	}
	p = xasprintf("%s/%s", FG_LIBDIR, LIBNAME);
	if (access(p, R_OK) == 0) {
		free(*tried);
		*tried = NULL;
		return p;
	}
	if (*tried) {
		char *both = xasprintf("%s, %s", *tried, p);

		free(*tried);
		free(p);
		*tried = both;
	} else
		*tried = p;
	return NULL;
}

char *
allocprep_command_path(const char *name)
{
	const char *path = getenv("PATH"), *s, *e;

	if (strchr(name, '/'))
		return xstrdup(name);
	if (path == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (s = path; ; s = e + 1) {
		char *p;

		e = strchr(s, ':');
		if (e == NULL)
			e = s + strlen(s);
		p = xasprintf("%.*s%s%s", (int)(e - s), s, e > s ? "/" : "",
		    name);
		if (access(p, X_OK) == 0)
			return p;
		free(p);
		if (*e == '\0')
			return NULL;
	}
}

/*
 * Whether the ELF file path has no program interpreter (statically
 * linked, or static-pie): 1, else 0 (dynamic, a script, or unreadable:
 * the exec says what is wrong).
 */
static int
is_static(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	struct stat st;
	int fd, i, interp = 0, dyn = 0;

	if ((fd = safeopen(path, &st)) < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph)) {
		close(fd);
		return 0;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff +
		    (uint64_t)i * sizeof(ph))) != (ssize_t)sizeof(ph))
			break;
		interp |= ph.p_type == PT_INTERP;
		dyn |= ph.p_type == PT_DYNAMIC;
	}
	close(fd);
	/* a shared library run as a program (ld.so itself) has PT_DYNAMIC */
	return i == eh.e_phnum && !interp && !(dyn && eh.e_type == ET_DYN &&
	    strstr(path, "ld-linux") != NULL);
}

/* Allocators a program may link in, by an entry point of theirs. */
static const struct {
	const char *sym, *what;
} allocators[] = {
	{ "_rjem_malloc", "jemalloc (tikv-jemallocator)" },
	{ "_rjem_mallocx", "jemalloc (tikv-jemallocator)" },
	{ "je_malloc", "jemalloc" },
	{ "je_mallocx", "jemalloc" },
	{ "mi_malloc", "mimalloc" },
	{ "mi_malloc_aligned", "mimalloc" },
	{ "tc_malloc", "tcmalloc" },
	{ "malloc", "an allocator of its own" },
};

/*
 * Whether the ELF file path links an allocator of its own, which
 * allocates beside the hooks: its name and the symbol it was found by,
 * or 0. A malloc defined in the program itself wins over the preloaded
 * one, as any symbol of the executable does.
 */
static int
own_allocator(const char *path, const char **what, const char **sym)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	struct stat st;
	int fd, found = 0;

	if (elf_version(EV_CURRENT) == EV_NONE ||
	    (fd = safeopen(path, &st)) < 0)
		return 0;
	if ((elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL) {
		close(fd);
		return 0;
	}
	while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, j, n;

		if (gelf_getshdr(scn, &sh) == NULL || (sh.sh_type != SHT_SYMTAB &&
		    sh.sh_type != SHT_DYNSYM) || sh.sh_entsize == 0 ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = d->d_size / sh.sh_entsize;
		for (i = 0; i < n && !found; i++) {
			GElf_Sym es;
			const char *name;

			if (gelf_getsym(d, (int)i, &es) == NULL ||
			    es.st_shndx == SHN_UNDEF ||
			    GELF_ST_TYPE(es.st_info) != STT_FUNC ||
			    (name = elf_strptr(elf, sh.sh_link, es.st_name)) == NULL)
				continue;
			for (j = 0; j < sizeof(allocators) / sizeof(allocators[0]);
			    j++)
				if (strcmp(name, allocators[j].sym) == 0) {
					*what = allocators[j].what;
					*sym = allocators[j].sym;
					found = 1;
					break;
				}
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

static void
setenv_or_die(const char *k, const char *v)
{
	if (setenv(k, v, 1) != 0)
		err(2, "setenv %s", k);
}

int
allocprep_launch(struct source_config *cfg, char *const argv[])
{
	char *lib, *tried, *cmd, *pre, num[32];
	const char *old, *what, *sym;
	int sv[2], child;

	if ((lib = allocprep_library(&tried)) == NULL)
		errx(2, "--alloc: %s not found (looked for %s): build it with "
		    "make, or install fgtools", LIBNAME, tried);
	if (strpbrk(lib, " :") != NULL)
		errx(2, "--alloc: '%s': LD_PRELOAD cannot name a path with a "
		    "space or a colon in it; move fgtools", lib);
	if ((cmd = allocprep_command_path(argv[0])) != NULL && is_static(cmd))
		errx(2, "--alloc: '%s' is statically linked: it loads no "
		    "preloaded library, so its allocations cannot be seen "
		    "(recording a static program through uprobes is not "
		    "done); link it dynamically", cmd);
	if (cmd != NULL && !cfg->quiet && own_allocator(cmd, &what, &sym))
		warnx("--alloc: '%s' links %s (%s): what it allocates through "
		    "it does not go through the hooked malloc and is not "
		    "recorded (hooking an allocator by its symbols is not done)",
		    cmd, what, sym);
	free(cmd);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		err(2, "--alloc: socketpair");
	/* the command's end, out of the way of its own descriptors */
	if ((child = fcntl(sv[1], F_DUPFD, ALLOCMSG_FD_MIN)) < 0)
		err(2, "--alloc: a descriptor for the channel");
	close(sv[1]);
	/*
	 * Room for many samples in flight: a sender blocks while the buffer
	 * is full, and the program waits for fgrecord's unwinding. As much
	 * as the system allows (net.core.wmem_max; root past it).
	 */
	if (setsockopt(child, SOL_SOCKET, SO_SNDBUFFORCE, &(int){ 8 << 20 },
	    sizeof(int)) != 0)
		setsockopt(child, SOL_SOCKET, SO_SNDBUF, &(int){ 8 << 20 },
		    sizeof(int));
	cfg->alloc_fd = sv[0];
	old = getenv("LD_PRELOAD");
	pre = old && *old ? xasprintf("%s:%s", old, lib) : xstrdup(lib);
	setenv_or_die("LD_PRELOAD", pre);
	snprintf(num, sizeof(num), "%d", child);
	setenv_or_die(ALLOCMSG_ENV_FD, num);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)(cfg->period ?
	    cfg->period : RECORD_ALLOC_PERIOD));
	setenv_or_die(ALLOCMSG_ENV_PERIOD, num);
	snprintf(num, sizeof(num), "%u", (unsigned)cfg->stack_size);
	setenv_or_die(ALLOCMSG_ENV_STACK, num);
	free(pre);
	free(lib);
	return child;
}

/* n bytes in B, KiB, MiB or GiB, as large as it needs. */
static const char *
human(char *buf, size_t size, double n)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
	size_t i = 0;

	while (i < 3 && n >= 1024)
		n /= 1024, i++;
	snprintf(buf, size, "%.*f %s", n == floor(n) ? 0 : 2, n, units[i]);
	return buf;
}

void
allocprep_say(uint64_t samples, double period, uint64_t bytes,
    uint64_t objects, uint64_t in_bytes, uint64_t in_objects)
{
	char b1[32], b2[32], b3[32];

	fprintf(stderr, "%s: %" PRIu64 " allocation%s sampled (one per %s "
	    "on average), standing for %s in %" PRIu64 " allocation%s; "
	    "still allocated at the end: %s in %" PRIu64 " allocation%s\n",
	    program_invocation_short_name, samples, samples == 1 ? "" : "s",
	    human(b1, sizeof(b1), period), human(b2, sizeof(b2),
	    (double)bytes), objects, objects == 1 ? "" : "s",
	    human(b3, sizeof(b3), (double)in_bytes), in_objects,
	    in_objects == 1 ? "" : "s");
}
