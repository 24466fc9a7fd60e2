#!/bin/sh
# slow: make check-all and CI run it, make check does not (tests/run --quick)
# t332-fgrecord-alloc-uprobe: fgrecord --alloc through uprobes, where the
# preloaded library cannot go: a statically linked program and -p on a
# running one (root), and programs linked with jemalloc or mimalloc (-p).
# tests/record/uallocs.c makes known allocations per function (small and
# large blocks, calloc, realloc chains, realloc(NULL), posix_memalign, a
# leak) and writes
# down what it did: at -c 65536 the bytes and counts per function are
# within 10% of that truth and the leak is what is in use at the end. As
# nobody, one line says why nothing can be recorded.
. "$(dirname "$0")/lib.sh"
plan 8

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
if [ "$(id -u)" != 0 ]; then
	skip_rest 'uprobes need root: run the tests as root'
fi
if [ ! -r /sys/bus/event_source/devices/uprobe/type ]; then
	skip_rest 'this kernel has no uprobe PMU (CONFIG_UPROBE_EVENTS)'
fi
if ! $cc -O2 -g -fno-builtin -o "$B/uallocs" "$TESTS/record/uallocs.c" 2>"$B/err"; then
	skip_rest "cannot build tests/record/uallocs.c with $cc: $(head -3 "$B/err")"
fi
static=
if $cc -O2 -g -fno-builtin -static -o "$B/uallocs.static" "$TESTS/record/uallocs.c" 2>"$B/static.err"; then
	static=$B/uallocs.static
fi

# fold SYMSTREAM: "FUNCTION EVENT SUM", the periods summed by event and
# the allocator's caller (the sample's first frame).
fold() {
	awk '
	/^#/ || /^$/ { next }
	/^[ \t]/ {
		if (want) {
			f = $2; sub(/\+0x[0-9a-f]+$/, "", f)
			s[f " " ev] += per; want = 0
		}
		next
	}
	{ ev = $NF; sub(/:$/, "", ev); per = $(NF - 1); want = 1 }
	END { for (k in s) print k, s[k] }' "$1" | sort
}

# near FUNCTION EVENT WANT: the recorded sum is within 10% of WANT.
near() {
	awk -v f="$1" -v e="$2" -v w="$3" '
	$1 == f && $2 == e { g += $3 }
	END {
		ok = g >= w * 0.9 && g <= w * 1.1
		if (!ok) printf "%s %s: recorded %d, not within 10%% of %d\n", f, e, g, w
		exit !ok
	}' got || { cat got; return 1; }
}

# all_near: every line of the truth the program wrote, within 10%; none
# in use but the leak's; every sample's first frame one of the functions
# or stdio's buffers (a call inside another, whose return address a return probe took, is
# not counted again as [unknown]).
all_near() {
	test "$(grep -c "^f_" truth)" = 28 &&
	{ ! grep -v -e "^f_" -e "^_IO_" got || { echo "first frames not in the program"; false; }; } &&
	while read -r f e v; do
		if [ "$v" = 0 ]; then
			! grep "^$f $e " got || return 1
		else
			near "$f" "$e" "$v" || return 1
		fi
	done <truth
}

# attached PID: uallocs PID (started with a GO file, waiting for it)
# recorded by fgrecord -p at -c 65536 into out, its stderr in err; then
# told to go. Symbolized into sym, folded into got.
attached() {
	wait_for 60 grep -q "^waiting\$" stdout &&
	{ fgrecord --alloc -c 65536 --call-graph dwarf,4096 -p "$1" -o out 2>err & } && fp=$! &&
	{ wait_for 60 grep -qs "^# kernel" out || { kill "$1"; cat err; false; }; } &&
	touch go &&
	{ wait "$fp"; test $? = 0 || { cat err; false; }; } &&
	{ wait "$1"; test $? = 3; } &&
	grep_q "^done\$" stdout && wellformed out &&
	{ ! grep -q "lost" err || { cat err; false; }; } &&
	grep_q "^fgrecord: --alloc through uprobes: [0-9]* functions probed in [0-9]* files, [0-9]* calls trapped\$" err &&
	fgsym out >sym 2>sym.err && fold sym >got
}

if [ -n "$static" ]; then
	check 'a static program: bytes and counts per function within 10%, the leak in use' '
		expect_status 3 fgrecord --alloc -c 65536 --call-graph dwarf,4096 -o out "$static" truth >stdout 2>err &&
		grep_q "^done\$" stdout && wellformed out &&
		grep_q "^# event : alloc-bytes period 65536 callgraph dwarf 4096\$" out &&
		grep_q "^fgrecord: --alloc through uprobes: 7 functions probed in 1 file, [0-9]* calls trapped\$" err &&
		{ ! grep -q "lost" err || { cat err; false; }; } &&
		fgsym out >sym 2>sym.err && fold sym >got &&
		all_near
	'
else
	skip 'a static program' "$cc -static fails (install libc6-dev's static library): $(head -2 "$B/static.err")"
fi

check '-p on a running dynamically linked program: every function within 10%, the leak in use' '
	{ "$B/uallocs" truth go >stdout & } && up=$! &&
	attached "$up" &&
	grep_q "^fgrecord: --alloc through uprobes: 7 functions probed in [0-9]* files" err &&
	all_near
'

# jemalloc and mimalloc, linked in: malloc is theirs (and mimalloc's
# calls its mi_malloc: counted once)
for lib in jemalloc mimalloc; do
	if $cc -O2 -g -fno-builtin -o "$B/uallocs.$lib" "$TESTS/record/uallocs.c" -l$lib 2>"$B/$lib.err"; then
		check "-p on a program linked with $lib: its malloc probed, every function within 10%" '
			{ "$B/uallocs.$lib" truth go >stdout & } && up=$! &&
			wait_for 60 grep -q "^waiting\$" stdout &&
			grep_q "/lib$lib[.]so" /proc/$up/maps &&
			attached "$up" &&
			all_near
		'
	else
		skip "-p on a program linked with $lib" "cannot link -l$lib (apt-get install lib$lib-dev): $(head -1 "$B/$lib.err")"
	fi
done

# tikv-jemallocator's names in a dynamically linked program: the preload
# would miss them, so root goes through uprobes; _rjem_malloc's own call
# of malloc is inside it, counted once.
check 'a program with jemalloc under tikv-jemallocator names: through uprobes, each call once' '
	cat >rj.c <<-EOF &&
	#include <stdio.h>
	#include <stdlib.h>
	static void *volatile sink;
	__attribute__((noinline, noipa)) void *_rjem_malloc(size_t n) { return malloc(n); }
	__attribute__((noinline, noipa)) void _rjem_sdallocx(void *p, size_t n, int flags) { (void)n; (void)flags; free(p); }
	__attribute__((noinline, noipa)) static void f_rjem(int n) {
		for (int i = 0; i < n; i++) { sink = _rjem_malloc(4000); _rjem_sdallocx(sink, 4000, 0); }
	}
	__attribute__((noinline, noipa)) static void f_plain(int n) {
		for (int i = 0; i < n; i++) { sink = malloc(4000); free(sink); }
	}
	int main(void) { f_rjem(50000); f_plain(50000); printf("done\n"); return 0; }
	EOF
	$cc -O2 -g -fno-builtin -o rj rj.c &&
	expect_status 0 fgrecord --alloc -c 65536 --call-graph dwarf,4096 -o out ./rj >stdout 2>err &&
	grep_q "^done\$" stdout &&
	grep_q "^fgrecord: --alloc through uprobes: 9 functions probed in 2 files" err &&
	{ ! grep -q "lost" err || { cat err; false; }; } &&
	fgsym out >sym 2>sym.err && fold sym >got &&
	{ ! grep -v -e "^f_rjem " -e "^f_plain " -e "^_IO_" got || { echo "first frames not in the program"; false; }; } &&
	near f_rjem alloc-bytes 200000000 && near f_rjem alloc-objects 50000 &&
	near f_plain alloc-bytes 200000000 && near f_plain alloc-objects 50000
'

# The kernel cannot copy a uprobe event into a new thread (it would read
# the path again in the program's memory): each new thread and process
# gets its own, and creating them works as it would have. A thread's
# probes come when fgrecord reads its creation, late on a busy machine:
# two of the four threads recorded is enough.
check 'threads and fork work as they would have, the threads recorded' '
	cat >thr.c <<-EOF &&
	#include <pthread.h>
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	#include <sys/wait.h>
	#include <unistd.h>
	static void *volatile sink;
	__attribute__((noinline)) static void f_thread(void) {
		for (int i = 0; i < 50000; i++) { void *p = malloc(4000); sink = p; free(p); }
	}
	static void *run(void *arg) { (void)arg; f_thread(); return NULL; }
	int main(void) {
		pthread_t t[4];
		int st = -1;
		for (int i = 0; i < 4; i++)
			printf("pthread_create: %s\n", strerror(pthread_create(&t[i], NULL, run, NULL)));
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
		fflush(stdout);
		pid_t p = fork();
		if (p == 0)
			_exit(7);
		printf("fork: %s\n", p < 0 ? "failed" : "ok");
		waitpid(p, &st, 0);
		printf("child: %d\n", WEXITSTATUS(st));
		return 0;
	}
	EOF
	$cc -O1 -g -fno-builtin -pthread -o thr thr.c &&
	./thr >bare.out &&
	expect_status 0 fgrecord --alloc --sampler uprobe -c 65536 --call-graph dwarf,4096 -o out ./thr >rec.out 2>err &&
	test_cmp bare.out rec.out &&
	fgsym out >sym 2>sym.err &&
	awk "/alloc-bytes:\$/ { tid = \$2; getline f; if (f ~ / f_thread[+]/) t[tid] = 1 }
	    END { for (k in t) n++; print n + 0, \"threads\"; exit !(n >= 2) }" sym
'

for_nobody "$TOP/bin/fgrecord" "$B/uallocs" ${static:+"$static"}
if [ -n "$static" ]; then
	check 'as nobody, a static program: one line saying why and the fix, nothing run' '
		chmod 777 . &&
		{ setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$NOBODY/bin/fgrecord" --alloc -o out "$NOBODY/uallocs.static" truth >stdout 2>err
		  test $? = 2 || { cat err; false; }; } &&
		test "$(wc -l <err)" = 1 &&
		grep_q "^fgrecord: --alloc: .*uallocs.static. is statically linked: it loads no preloaded library, so its allocations cannot be seen that way; probing it through uprobes needs root (or CAP_PERFMON and CAP_SYS_ADMIN): run fgrecord as root\$" err &&
		test ! -e truth && test_cmp /dev/null stdout
	'
else
	skip 'as nobody, a static program' "$cc -static fails (install libc6-dev's static library)"
fi

check 'as nobody, -p: one line saying why and the fix' '
	chmod 777 . &&
	{ setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NOBODY/bin/fgrecord" --alloc -p $$ -o out >stdout 2>err
	  test $? = 2 || { cat err; false; }; } &&
	test "$(wc -l <err)" = 1 &&
	grep_q "^fgrecord: --alloc: -p PID: a running process loads no preloaded library; probing it through uprobes needs root (or CAP_PERFMON and CAP_SYS_ADMIN): run fgrecord as root\$" err
'

done_testing
