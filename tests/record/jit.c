/*
 * jit: copies a small function into anonymous executable memory, as a JIT
 * compiler would, describes it in /tmp/perf-PID.map, and spins in it for
 * SECONDS. The copy has no CFI: an unwinder must take its frame pointer.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "spin.h"

/*
 * The jitted code, as bytes so that no compiler option changes it:
 *	push %rbp; mov %rsp,%rbp; xor %eax,%eax
 * 1:	add %rax,(%rdi); add $1,%rax; cmp %rsi,%rax; jb 1b
 *	pop %rbp; ret
 * that is, void f(volatile unsigned long *sink, unsigned long n), with a
 * frame pointer.
 */
static const unsigned char jit_code[] = {
	0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0,
	0x48, 0x01, 0x07, 0x48, 0x83, 0xc0, 0x01, 0x48, 0x39, 0xf0, 0x72, 0xf4,
	0x5d, 0xc3,
};

int
main(int argc, char **argv)
{
	double end = spin_cpu() + spin_secs(argc, argv, 0.5);
	void (*fn)(volatile unsigned long *, unsigned long);
	unsigned char *code;
	char path[64];
	FILE *map;

	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 2;
	memcpy(code, jit_code, sizeof(jit_code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if ((map = fopen(path, "w")) != NULL) {
		fprintf(map, "%lx %zx jitted_loop\n", (unsigned long)(uintptr_t)code,
		    sizeof(jit_code));
		fclose(map);
	}
	fn = (void (*)(volatile unsigned long *, unsigned long))(void *)code;
	while (spin_cpu() < end)
		fn(&spin_sink, 1000000);
	return 0;
}
