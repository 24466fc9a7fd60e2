/*
 * fuzz.h: shared by the harnesses in tests/fuzz/. Each harness defines
 * LLVMFuzzerTestOneInput; built with clang -fsanitize=fuzzer it is a
 * libFuzzer target (make fuzz), built with driver.c it replays files (the
 * seeds and every crash kept as a regression, in make check).
 */
#ifndef FG_FUZZ_H
#define FG_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* An fd that reads back data[0..size): a memfd, rewound. */
static inline int
fuzz_fd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	size_t off = 0;

	if (fd == -1)
		abort();
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0)
			abort();
		off += n;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/*
 * As fuzz_fd, and path[0..size) gets a name for it that open(2) takes
 * ("/proc/self/fd/N"), for the readers that want a path.
 */
static inline int
fuzz_file(const uint8_t *data, size_t size, char *path, size_t pathsize)
{
	int fd = fuzz_fd(data, size);

	snprintf(path, pathsize, "/proc/self/fd/%d", fd);
	return fd;
}

/* A FILE that throws away what is written, opened once. */
static inline FILE *
fuzz_null(void)
{
	static FILE *f;

	if (f == NULL && (f = fopen("/dev/null", "w")) == NULL)
		abort();
	return f;
}

#endif
