/*
 * keepcopy: at the end of a recording, a copy of each sampled file that
 * a process under another root or other mounts mapped (record/hostpath:
 * a jail's, a container's overlay, which goes when the container is
 * removed, a file only the process's own mounts held, named
 * /proc/PID/root/... in the stream) put beside perf's build-ID cache,
 * in its folder's BUILDCACHE_FOREIGN (elf/buildcache_add), where fgsym
 * finds it by its build ID once the path is gone, for a file named on
 * an "# inside" line only: such a file may claim the build ID of a
 * program of the machine, and must not stand for it. perf's own copy of
 * that build, when there, serves instead. The file is read
 * through the descriptor fgrecord opened it by while the process lived;
 * a file with no build ID, or taking more than BUILDCACHE_ADD_MAX on
 * disk, is not copied, nor more than KEEPCOPY_MAX bytes on disk in all
 * (a sparse file's holes stay holes and count for nothing).
 */
#ifndef FG_KEEPCOPY_H
#define FG_KEEPCOPY_H

struct maps;

/* The most bytes one recording copies: 2 GiB. */
#define KEEPCOPY_MAX	(2048ULL << 20)

/*
 * Copies them, and says in one line (unless quiet) how many were kept
 * and where, and in one line each why a copy could not be made.
 */
void	 keepcopy_files(const struct maps *, int quiet);

#endif
