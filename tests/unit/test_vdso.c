/*
 * Unit tests for common/elf/vdso.c: copies of the vDSO out of this process, a
 * live child, and a process that is gone. Under valgrind this process has
 * no vDSO; t730 covers that case.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf/vdso.h"
#include "unit.h"

int
main(void)
{
	const unsigned char *own = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	unsigned char *img, *any;
	size_t size = 0, asize = 0, csize = 0;
	int fds[2];
	char c;
	pid_t child;

	if (own == NULL) {
		printf("1..0 # SKIP this process has no vDSO (under valgrind?)\n");
		return 0;
	}
	img = vdso_copy(getpid(), &size);
	CHECK(img != NULL && size >= 4096 && size % 4096 == 0,
	    "copies this process's [vdso], whole pages");
	CHECK(img != NULL && memcmp(img, "\177ELF", 4) == 0,
	    "the copy is an ELF image");
	CHECK(img != NULL && memcmp(img, own, size) == 0,
	    "byte for byte the mapping at AT_SYSINFO_EHDR");
	any = vdso_any(&asize);
	CHECK(any != NULL && asize == size && memcmp(any, img, size) == 0,
	    "vdso_any gives the same, ours first");
	free(any);

	/* A live child's is the same image; a reaped one's is not there. */
	if (pipe(fds) != 0 || (child = fork()) < 0)
		return 2;
	if (child == 0) {
		close(fds[1]);
		(void)read(fds[0], &c, 1);
		_exit(0);
	}
	close(fds[0]);
	any = vdso_copy(child, &csize);
	CHECK(any != NULL && csize == size && memcmp(any, img, size) == 0,
	    "a live child's vDSO is the same image");
	free(any);
	close(fds[1]);
	waitpid(child, NULL, 0);
	csize = 7;
	CHECK(vdso_copy(child, &csize) == NULL && csize == 7,
	    "a process that is gone: NULL, size untouched");
	CHECK(vdso_copy(-5, &csize) == NULL, "a bad pid: NULL");
	free(img);
	return unit_done();
}
