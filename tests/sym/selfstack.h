/*
 * selfstack.h: lets a test fixture write its own call stack as a sample
 * stream, so that the fgsym tests know the true answer for every frame
 * without perf. SELFSTACK(fn) is used inside the function fn: it writes
 * one sample whose leaf is the first byte of fn and whose other frames are
 * the return addresses above fn, as backtrace(3) sees them.
 *
 * Mode 'v' writes an fgrecord stream (ELF vaddrs); mode 'o' writes what
 * perf script 6.x prints (file offsets, for every file); mode 'a' writes
 * what older perf printed for non-PIE executables (absolute addresses)
 * and file offsets for the rest.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* dl_iterate_phdr */
#endif
#include <execinfo.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct selfstack_find {
	uintptr_t	 pc;
	uintptr_t	 bias;
	uint64_t	 vaddr, off;
	const char	*name;
	int		 found;
};

static int
selfstack_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct selfstack_find *f = (struct selfstack_find *)arg;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + p->p_vaddr;

		if (p->p_type != PT_LOAD || f->pc < start ||
		    f->pc >= start + p->p_memsz)
			continue;
		f->bias = info->dlpi_addr;
		f->vaddr = f->pc - info->dlpi_addr;
		f->off = f->pc - start + p->p_offset;
		f->name = info->dlpi_name;
		f->found = 1;
		return 1;
	}
	return 0;
}

static void
selfstack_frame(char mode, uintptr_t pc)
{
	struct selfstack_find f;
	static char exe[4096];
	const char *path;
	ssize_t n;

	memset(&f, 0, sizeof(f));
	f.pc = pc;
	dl_iterate_phdr(selfstack_cb, &f);
	if (!f.found)
		return;
	path = f.name;
	if (path == NULL || path[0] == '\0') {
		if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) < 0)
			return;
		exe[n] = '\0';
		path = exe;
	}
	if (path[0] != '/')
		return;		/* the vDSO */
	printf("\t%16llx [unknown] (%s)\n", (unsigned long long)
	    (mode == 'v' || (mode == 'a' && f.bias == 0) ? f.vaddr : f.off),
	    path);
}

static void
selfstack_write(char mode, void *leaf, void **bt, int n)
{
	int i;

	if (mode == 'v')
		printf("# fgrecord 1\n# cmdline : fixture\n");
	printf("fixture %d/%d [000] 1.000001: 1 cpu-clock:\n", (int)getpid(),
	    (int)getpid());
	selfstack_frame(mode, (uintptr_t)leaf);
	for (i = 0; i < n; i++)
		selfstack_frame(mode, (uintptr_t)bt[i]);
	printf("\n");
	fflush(stdout);
}

/* bt[0] is the return address inside fn itself: skip it. */
#define SELFSTACK(mode, fn) do {					\
	void *bt_[64];							\
	int n_ = backtrace(bt_, 64);					\
	selfstack_write((mode), (void *)(fn), bt_ + 1, n_ - 1);		\
	__asm__ volatile("" ::: "memory");				\
} while (0)
