#!/bin/sh
# t309-fgrecord-fp: frame-pointer stacks (issue 33). A program built with
# -fno-omit-frame-pointer, recorded with fgrecord --call-graph fp and with
# perf record -g (read by fgsym): every chain stops in glibc's
# __libc_start_call_main (glibc keeps no frame pointers), and that stack
# is complete: no [truncated] root, the summaries say so, and the hot
# function's stacks end in __libc_start_call_main as perf draws them; the
# same with a libc that has no symbols of its own (its start found beside
# __libc_start_main), and for a thread's start. A leaf that keeps no frame
# is said (its caller is skipped). A program built without frame pointers
# is truncated, and the summary names the fix.
. "$(dirname "$0")/lib.sh"
plan 7

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
built=yes
$cc -O2 -g -fno-omit-frame-pointer -o "$B/hot_fp" "$TESTS/record/hot.c" || built=no
$cc -O2 -g -fno-omit-frame-pointer -momit-leaf-frame-pointer \
    -fno-optimize-sibling-calls -o "$B/hot_leaf" "$TESTS/record/hot.c" || built=no
$cc -O2 -g -fomit-frame-pointer -o "$B/hot_nofp" "$TESTS/record/hot.c" || built=no
$cc -O2 -g -fno-omit-frame-pointer -pthread -o "$B/threads_fp" \
    "$TESTS/record/threads.c" || built=no
PATH=$B:$PATH

# roots FOLDED: "T R H S", of the folded stacks: T the weight of all, R of
# those whose root (after the command) is [truncated], H of those through
# hot, S of those through hot whose root is __libc_start_call_main.
roots() {
	awk '{ w = $NF; t += w; split($1, f, ";")
		if (f[2] == "[truncated]") r += w
		if ($1 ~ /;hot(;|$)/) { h += w; if (f[2] == "__libc_start_call_main") s += w } }
	END { printf "%d %d %d %d\n", t, r, h, s }' "$1"
}

# whole FOLDED: at most 5% of the weight under a [truncated] root, and 95%
# of hot's stacks from __libc_start_call_main.
whole() {
	set -- $(roots "$1") &&
	echo "$1 samples, $2 under [truncated], $3 in hot, $4 of them from __libc_start_call_main" &&
	test "$3" -gt 50 && test $(($2 * 20)) -le "$1" && test $(($4 * 100)) -ge $(($3 * 95))
}

# truncated ERR: the share of truncated stacks the summary says, in percent.
truncated() {
	sed -n "s/^fg[a-z]*: .* lost, [<>]\{0,1\}\([0-9.]*\)% truncated.*/\1/p" "$1"
}

if [ $built = no ]; then
	for t in 'fp: a chain that stops in __libc_start_call_main is whole' \
	    'fp: a libc without symbols: its start is found beside __libc_start_main' \
	    'fp: a thread whose chain stops in start_thread is whole' \
	    'fp: a leaf that keeps no frame: its skipped caller is said' \
	    'fp without frame pointers: truncated, and the fix is named' \
	    'perf record -g: fgsym draws no [truncated] root' \
	    'perf record -g without frame pointers: fgsym names the fix'; do
		skip "$t" 'the test programs do not build'
	done
	skip_rest
fi
if ! perf_ok; then
	skip 'fgrecord --call-graph fp' "$why"
	skip_rest
fi

check 'fp: a chain that stops in __libc_start_call_main is whole' '
	fgrecord --call-graph fp -o out hot_fp 0.5 2>err && cat err &&
	t=$(truncated err) && test -n "$t" &&
	awk -v t="$t" "BEGIN { exit !(t <= 5) }" &&
	! grep_q "for whole stacks" err &&
	symfold out folded && whole folded
'

# A copy of libc without its build ID and debug link: no debug file
# names __libc_start_call_main, which .dynsym does not hold.
check 'fp: a libc without symbols: its start is found beside __libc_start_main' '
	libc=$(ldd "$B/hot_fp" | sed -n "s/.*libc\.so\.6 => \([^ ]*\) .*/\1/p") &&
	test -f "$libc" && mkdir lib &&
	objcopy --remove-section .note.gnu.build-id --remove-section .gnu_debuglink "$libc" lib/libc.so.6 &&
	fgrecord --call-graph fp -o out env LD_LIBRARY_PATH="$PWD/lib" hot_fp 0.5 2>err && cat err &&
	t=$(truncated err) && awk -v t="$t" "BEGIN { exit !(t <= 5) }" &&
	{ fgsym out >out.sym 2>sym.err; test $? -le 1; } &&
	fgfold out.sym >folded &&
	set -- $(roots folded) && echo "$1 samples, $2 under [truncated]" &&
	test $(($2 * 20)) -le "$1" &&
	grep -q "^hot_fp;\[libc\.so\.6\];main;" folded
'

check 'fp: a thread whose chain stops in start_thread is whole' '
	fgrecord --call-graph fp -o out threads_fp 0.5 2>err && cat err &&
	t=$(truncated err) && awk -v t="$t" "BEGIN { exit !(t <= 5) }" &&
	symfold out folded &&
	grep -q "^threads_fp;start_thread;" folded
'

check 'fp: a leaf that keeps no frame: its skipped caller is said' '
	fgrecord --call-graph fp -o out hot_leaf 0.5 2>err && cat err &&
	grep_q "% of the samples were taken where the function keeps no frame pointer (a leaf function, or its first or last instructions): the frame-pointer chain skips that function'"'"'s caller; --call-graph dwarf shows it" err &&
	symfold out folded && whole folded &&
	! grep -q ";middle;hot " folded
'

check 'fp without frame pointers: truncated, and the fix is named' '
	fgrecord --call-graph fp -o out hot_nofp 0.5 2>err && cat err &&
	t=$(truncated err) && awk -v t="$t" "BEGIN { exit !(t > 50) }" &&
	grep_q "% truncated (mostly: code built without frame pointers, in '"'"'$B/hot_nofp'"'"')" err &&
	grep_q "^fgrecord: for whole stacks, record with --call-graph dwarf, or build '"'"'$B/hot_nofp'"'"' with frame pointers (Rust: RUSTFLAGS='"'"'-C force-frame-pointers=yes'"'"'; C and C++: -fno-omit-frame-pointer)\$" err &&
	symfold out folded && grep -q "^hot_nofp;\[truncated\];" folded
'

if command -v perf >/dev/null 2>&1 &&
    perf record -q -g -o "$B/fp.data" "$B/hot_fp" 0.5 >"$B/perf.log" 2>&1 &&
    perf record -q -g -o "$B/nofp.data" "$B/hot_nofp" 0.5 >>"$B/perf.log" 2>&1; then
	check 'perf record -g: fgsym draws no [truncated] root' '
		{ fgsym "$B/fp.data" >out.sym 2>err; s=$?; } && cat err && test $s -le 1 &&
		t=$(truncated err) && awk -v t="$t" "BEGIN { exit !(t <= 5) }" &&
		fgfold out.sym >folded && whole folded
	'
	check 'perf record -g without frame pointers: fgsym names the fix' '
		{ fgsym "$B/nofp.data" >out.sym 2>err; s=$?; } && cat err && test $s -le 1 &&
		grep_q "^fgsym: for whole stacks, record with perf record --call-graph dwarf, or build " err
	'
else
	skip 'perf record -g: fgsym draws no [truncated] root' "perf record -g failed or perf is not installed: $(head -1 "$B/perf.log" 2>/dev/null)"
	skip 'perf record -g without frame pointers: fgsym names the fix' 'as above'
fi

done_testing
