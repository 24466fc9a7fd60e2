#!/bin/sh
# t330-fgrecord-alloc: fgrecord --alloc on tests/record/allocs.c, whose
# functions make known allocations (small and large blocks, calloc,
# realloc chains, posix_memalign, a leak) and write down what they did:
# at -c 65536 the estimated bytes and counts per function are within 10%
# of that truth, the leak is what is in use at the end, in threads, a
# fork's child, an exec'd image, after _exit and SIGKILL; the program's
# output and status are its own; what cannot be recorded says so in one
# line.
. "$(dirname "$0")/lib.sh"
plan 14

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
# -fno-builtin: the compiler must not remove a malloc that a free follows
if ! $cc -O2 -g -fno-builtin -pthread -o "$B/allocs" "$TESTS/record/allocs.c" 2>"$B/err"; then
	skip 'fgrecord --alloc' "cannot build tests/record/allocs.c with $cc: $(head -3 "$B/err")"
	done_testing
	exit 0
fi
if [ ! -f "$TOP/lib/libfgalloc.so" ]; then
	skip 'fgrecord --alloc' 'lib/libfgalloc.so is not built: run make'
	done_testing
	exit 0
fi

# fold SYMSTREAM: "PID FUNCTION EVENT SUM", the periods summed by process,
# event and the allocator's caller (the sample's first frame).
fold() {
	awk '
	/^#/ || /^$/ { next }
	/^[ \t]/ {
		if (want) {
			f = $2; sub(/\+0x[0-9a-f]+$/, "", f)
			s[pid " " f " " ev] += per; want = 0
		}
		next
	}
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, pt, "/"); pid = pt[1] }
		ev = $NF; sub(/:$/, "", ev); per = $(NF - 1); want = 1
	}
	END { for (k in s) print k, s[k] }' "$1" | sort
}

# record MODE: the program recorded at -c 65536 into out, its stdout in
# stdout, fgrecord's stderr in err; symbolized into sym, folded into got.
record() {
	_st=$1; shift
	expect_status "$_st" fgrecord --alloc -c 65536 -o out "$B/allocs" truth "$@" >stdout 2>err &&
	wellformed out &&
	fgsym out >sym 2>sym.err && fold sym >got
}

# near FUNCTION EVENT WANT [PID]: the recorded sum (any process, or PID's)
# is within 10% of WANT.
near() {
	awk -v f="$1" -v e="$2" -v w="$3" -v p="${4:-}" '
	$2 == f && $3 == e && (p == "" || $1 == p) { g += $4 }
	END {
		ok = g >= w * 0.9 && g <= w * 1.1
		if (!ok) printf "%s %s: recorded %d, not within 10%% of %d\n", f, e, g, w
		exit !ok
	}' got || { cat got; return 1; }
}

# all_near: every line of the truth the program wrote, within 10%.
all_near() {
	while read -r f e v; do
		[ "$v" = 0 ] && continue
		near "$f" "$e" "$v" || return 1
	done <truth
}

# none FUNCTION EVENT [PID]: nothing recorded there.
none() {
	! awk -v f="$1" -v e="$2" -v p="${3:-}" '$2 == f && $3 == e && (p == "" || $1 == p) && $4 > 0 { print; x = 1 } END { exit !x }' got
}

check 'every function: bytes and allocations within 10% of the truth at -c 65536' '
	record 3 &&
	grep_q "^done\$" stdout &&
	grep_q "^# event : alloc-bytes period 65536 callgraph dwarf" out &&
	grep_q "^# event : inuse-objects" out &&
	test "$(grep -c "^[a-z]" truth)" -ge 20 &&
	all_near
'

# The summary is in bytes and allocations: the leak of 100,000,000 bytes
# in 1000 blocks (95.37 MiB) still allocated at the end, within 10%.
check 'in use at the end: the leak and its bytes, no block that was freed, the summary says it' '
	record 3 &&
	near f_leak inuse-bytes 100000000 && near f_leak inuse-objects 1000 &&
	none f_small inuse-bytes && none f_realloc inuse-bytes &&
	none f_calloc inuse-bytes && none f_memalign inuse-bytes && none f_large inuse-bytes &&
	grep_q "^fgrecord: [0-9]* allocations sampled (one per 64 KiB on average), standing for [0-9.]* [KMG]*i*B in [0-9]* allocations; still allocated at the end: " err &&
	grep_q "^fgrecord: recorded in [0-9.]* s, [0-9.]*% of the stacks truncated" err &&
	{ ! grep_q "samples in" err || { cat err; false; }; } &&
	sed -n "s/.*still allocated at the end: \([0-9.]*\) MiB in \([0-9]*\) allocations\$/\1 \2/p" err >inuse &&
	awk "{ b = \$1; n = \$2 } END { print \"in use:\", b, \"MiB,\", n;
	    exit !(NR == 1 && b >= 95.37 * 0.9 && b <= 95.37 * 1.1 && n >= 900 && n <= 1100) }" inuse
'

check 'each thread its own countdown: four threads add up' '
	record 3 threads &&
	all_near &&
	test "$(grep "alloc-bytes:\$" out | awk "{print \$2}" | sort -u | wc -l)" -ge 4
'

check 'fork: the child frees its copies of the parent blocks and leaks its own' '
	record 3 fork &&
	child=$(sed -n "s/^child //p" stdout) && test -n "$child" &&
	parent=$(awk -v c="$child" "\$1 != c { print \$1; exit }" got) &&
	near f_leak inuse-bytes 100000000 "$parent" &&
	none f_leak inuse-bytes "$child" &&
	near f_child alloc-bytes 50000000 "$child" &&
	near f_child inuse-bytes 50000000 "$child"
'

check 'exec: the old image blocks go with it, the new one is recorded' '
	record 3 exec &&
	near f_leak alloc-bytes 200000000 &&
	near f_leak inuse-bytes 100000000 &&
	near f_child inuse-bytes 50000000
'

check '_exit: what was recorded is kept, the leak in use' '
	record 3 _exit &&
	grep_q "^done\$" stdout &&
	all_near && near f_leak inuse-bytes 100000000
'

check 'SIGKILL: the status says so, what was recorded is kept' '
	record 137 kill &&
	all_near && near f_leak inuse-bytes 100000000
'

check 'a double free and a foreign pointer fail as they would have' '
	cat >bad.c <<-EOF &&
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	int main(int argc, char **argv) {
		static char foreign[64];
		char *p = malloc(1000000);
		printf("before\n"); fflush(stdout);
		if (strcmp(argv[1], "double") == 0) { free(p); free(p); }
		else free(foreign + 16);
		return 0;
	}
	EOF
	$cc -O0 -g -fno-builtin -o bad bad.c &&
	for m in double foreign; do
		./bad $m >bare.out 2>bare.err; bare=$?
		# what the shell says of the signal is not the program output
		grep -v -e "Segmentation fault" -e Aborted bare.err >bare.msg
		expect_status $bare fgrecord --alloc -c 4096 -o out ./bad $m >rec.out 2>rec.err &&
		test "$bare" -ge 128 && test_cmp bare.out rec.out &&
		{ test ! -s bare.msg || grep_q "$(head -1 bare.msg)" rec.err; } || return 1
	done
'

check '-p with the preload (--sampler alloc), -F: one line, no recording' '
	expect_status 2 fgrecord --alloc --sampler alloc -p $$ >out 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep_q "^fgrecord: --alloc: -p PID: a running process loads no preloaded library; --sampler uprobe probes it instead\$" err &&
	expect_status 2 fgrecord --alloc -F 99 true >out 2>err &&
	grep_q "samples by bytes" err
'

if printf "int main(void){return 0;}\n" >"$B/st.c" && $cc -static -o "$B/static" "$B/st.c" 2>/dev/null; then
	check 'a statically linked program with the preload (--sampler alloc): one line saying why, nothing run' '
		expect_status 2 fgrecord --alloc --sampler alloc -o out "$B/static" >stdout 2>err &&
		test "$(wc -l <err)" = 1 &&
		grep_q "is statically linked: it loads no preloaded library" err
	'
else
	skip 'a statically linked program' "$cc -static fails (install libc6-dev's static library)"
fi

if $cc -O1 -g -o "$B/allocdl" "$TESTS/record/allocdl.c" -ldl 2>"$B/dl.err"; then
	check 'a library loaded by dlopen after the start: its frames named by their file' '
		expect_status 0 fgrecord --alloc -c 65536 -o out "$B/allocdl" >stdout 2>err &&
		grep_q "^ok\$" stdout && wellformed out &&
		{ awk "/alloc-bytes:\$/ { getline f; if (f ~ /\(.*libz[.]so[^)]*\)\$/) n++ } END { exit !(n >= 100) }" out ||
		{ grep -A3 alloc-bytes: out | head; false; }; }
	'
else
	skip 'a library loaded by dlopen' "cannot build tests/record/allocdl.c (zlib1g-dev): $(head -2 "$B/dl.err")"
fi

check 'an allocator linked in: named by its symbol, said not recorded' '
	cat >own.c <<-EOF &&
	#include <stddef.h>
	#include <stdio.h>
	static char pool[1 << 20];
	static size_t used;
	void *malloc(size_t n) { void *p = pool + used; used += (n + 15) & ~15UL; return p; }
	void free(void *p) { (void)p; }
	void *calloc(size_t a, size_t b) { return malloc(a * b); }
	void *realloc(void *p, size_t n) { (void)p; return malloc(n); }
	void *volatile sink;
	int main(void) { for (int i = 0; i < 100; i++) sink = malloc(1000); puts("ok"); return 0; }
	EOF
	$cc -O0 -o own own.c &&
	expect_status 0 fgrecord --alloc -o out ./own >stdout 2>err &&
	grep_q "^ok\$" stdout &&
	grep_q "links an allocator of its own (malloc): what it allocates through it does not go through the hooked malloc and is not recorded" err
'

# The stack copy is cut at the stack's top, which the hook learns once
# per thread: stacks whose sp moves up and down across pages, in the main
# thread (near its top) and in another, are each whole to the last frame,
# with no help from the stitcher.
check 'stacks of every depth, in two threads: whole, none truncated' '
	cat >depth.c <<-EOF &&
	#include <pthread.h>
	#include <stdlib.h>
	#include <string.h>
	static volatile char sink;
	static __attribute__((noinline)) void rec(int d) {
		volatile char pad[300];
		pad[0] = (char)d;
		if (d > 0) { rec(d - 1); sink = pad[0]; return; }
		char *p = malloc(4096);
		memset(p, 1, 64); sink = p[0]; free(p);
	}
	static void *run(void *arg) {
		for (int i = 0; i < 3000; i++) rec((i * 7) % 31);
		return arg;
	}
	int main(void) {
		pthread_t t;
		pthread_create(&t, NULL, run, NULL);
		run(NULL);
		pthread_join(t, NULL);
		return 0;
	}
	EOF
	$cc -O1 -g -fno-builtin -fno-omit-frame-pointer -pthread -o depth depth.c &&
	expect_status 0 fgrecord --alloc -c 4096 -o out ./depth >stdout 2>err &&
	wellformed out &&
	{ ! grep_q "\[truncated\]" out || { grep -c "\[truncated\]" out; false; }; } &&
	# a stack cut short would be completed from an earlier one: none was
	{ ! grep_q "completed from" err || { cat err; false; }; } &&
	fgsym out >sym 2>sym.err &&
	cat >whole.awk <<-\EOF &&
	# per thread: whether a sample had all 31 frames of rec
	function fin() { if (want && d == 31) deep[tid] = 1; want = 0 }
	/alloc-bytes:$/ { fin(); n++; split($2, pt, "/"); tid = pt[2]; want = 1; d = 0; next }
	/^\t/ { if (want && $2 ~ /^rec([+]|$)/) d++; next }
	{ fin() }
	END {
		fin(); for (t in deep) k++
		printf "%d samples, %d threads with all 31 frames\n", n, k
		exit !(n >= 2000 && k == 2)
	}
	EOF
	awk -f whole.awk sym
'

for_nobody "$TOP/bin/fgrecord" "$TOP/lib/libfgalloc.so" "$B/allocs"
check 'as nobody at paranoid 2: records, bytes within 10%' '
	chmod 777 . &&
	{ setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NOBODY/bin/fgrecord" --alloc -c 65536 -o out "$NOBODY/allocs" truth _exit >stdout 2>err
	  test $? = 3 || { cat err; false; }; } &&
	wellformed out && fgsym out >sym 2>sym.err && fold sym >got &&
	near f_leak inuse-bytes 100000000 && near f_small alloc-bytes 192000000
'

done_testing
