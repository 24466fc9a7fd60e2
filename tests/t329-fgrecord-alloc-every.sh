#!/bin/sh
# t329-fgrecord-alloc-every: fgrecord --alloc -c 1, every allocation a
# sample, on a program of 100,000 allocations that reuse the same few
# addresses (a malloc and free in a loop, then a working set, then a
# leak): the run ends within a bound of CPU time, and the counts are
# exact. Each block is
# 64 bytes or more, which -c 1 samples with probability 1 - exp(-64):
# 1 in a double, so each stands for exactly one allocation of its size.
# The pathology this guards: fgrecord kept every dead block of a reused
# address in the chain of that address's look-ups, quadratic in the
# run (a program of 520,000 allocations ran for more than 10 minutes).
. "$(dirname "$0")/lib.sh"
plan 2

B=$TMP/build
mkdir -p "$B"
cat >"$B/every.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* One block of n bytes, freed at once: the same address each time. */
static __attribute__((noinline)) void
f_loop(size_t n)
{
	char *p = malloc(n);

	if (p == NULL)
		exit(1);
	p[0] = 1;
	__asm__ volatile("" : : "r"(p) : "memory");
	free(p);
}

/* A block kept in a ring of 512: the addresses of a working set. */
static __attribute__((noinline)) char *
f_ring(size_t n)
{
	char *p = malloc(n);

	if (p == NULL)
		exit(1);
	p[0] = 2;
	return p;
}

/* A block never freed: in use at the end. */
static __attribute__((noinline)) char *
f_leak(size_t n)
{
	char *p = malloc(n);

	if (p == NULL)
		exit(1);
	p[0] = 3;
	return p;
}

int
main(void)
{
	static char *ring[512], *kept[1000];
	unsigned long long lb = 0, rb = 0, kb = 0;
	long i;

	for (i = 0; i < 95000; i++) {
		f_loop(64 + (size_t)(i % 7) * 8);
		lb += 64 + (size_t)(i % 7) * 8;
	}
	for (i = 0; i < 4000; i++) {
		free(ring[i % 512]);
		ring[i % 512] = f_ring(64 + (size_t)(i % 13) * 16);
		rb += 64 + (size_t)(i % 13) * 16;
	}
	for (i = 0; i < 512; i++)
		free(ring[i]);
	for (i = 0; i < 1000; i++) {
		kept[i] = f_leak(100);
		kb += 100;
	}
	printf("f_loop alloc-objects 95000\nf_loop alloc-bytes %llu\n"
	    "f_ring alloc-objects 4000\nf_ring alloc-bytes %llu\n"
	    "f_leak alloc-objects 1000\nf_leak alloc-bytes %llu\n"
	    "f_leak inuse-objects 1000\nf_leak inuse-bytes %llu\n",
	    lb, rb, kb, kb);
	fflush(stdout);
	_exit(kept[999][0] == 3 ? 0 : 1);
}
EOF
cc=${CC:-cc}
if ! $cc -O2 -g -fno-builtin -o "$B/every" "$B/every.c" 2>"$B/err"; then
	skip_rest "cannot build the test program with $cc: $(head -3 "$B/err")"
fi
if [ ! -f "$TOP/lib/libfgalloc.so" ]; then
	skip_rest 'lib/libfgalloc.so is not built: run make'
fi

# fold SYMSTREAM: "FUNCTION EVENT SUM" for the test's own functions, the
# periods summed by the sample's first frame (the allocator's caller).
fold() {
	awk '
	/^#/ || /^$/ { next }
	/^[ \t]/ {
		if (want) {
			f = $2; sub(/\+0x[0-9a-f]+$/, "", f); sub(/\..*$/, "", f)
			if (f ~ /^f_/)
				s[f " " ev] += per
			want = 0
		}
		next
	}
	{ ev = $NF; sub(/:$/, "", ev); per = $(NF - 1); want = 1 }
	END { for (k in s) print k, s[k] }' "$1" | sort
}

# The recording is the first check's; the second reads it in $R. Its
# bound is CPU time, which a busy machine leaves alone, not the clock:
# each of fgrecord and the program gets 8 s, where fgrecord takes under
# one (0.7 s; 15 s when the look-ups were quadratic).
R=$TMP/run
mkdir -p "$R"
check '-c 1 on 100,000 allocations at reused addresses: the run ends, every one recorded' '
	{ (ulimit -t 8 && exec fgrecord --alloc -c 1 -o "$R/out" "$B/every") >"$R/truth" 2>"$R/err" ||
	    { echo "fgrecord failed (a status past 128: killed, by SIGXCPU past 8 s of CPU)"; cat "$R/err"; false; }; } &&
	{ grep_q "^fgrecord: 100[0-9][0-9][0-9] allocations sampled (one per 1 B on average)" "$R/err" ||
	    { cat "$R/err"; false; }; } &&
	wellformed "$R/out" &&
	fgsym "$R/out" >"$R/sym" 2>sym.err &&
	fold "$R/sym" >"$R/got" &&
	grep -v inuse "$R/truth" | sort >want &&
	grep -v inuse "$R/got" >got &&
	test_cmp want got
'

check '-c 1: in use at the end exactly the leak, none of the blocks freed' '
	grep inuse "$R/truth" | sort >want &&
	grep inuse "$R/got" >got &&
	test_cmp want got
'
done_testing
