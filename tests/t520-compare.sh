#!/bin/sh
# t520-compare: fgfold --compare on real runs of tests/record/kernels.c,
# recorded here with fgrecord and symbolized with fgsym, five a side:
# the program against itself (A/A) calls no row slower or faster, and
# with encode doing four times its work (A/B) encode is slower and [all]
# never faster. The program does fixed work, not a fixed time, so a busy
# machine moves its time as it moves a real program's, and the
# comparison must hold that noise; the runs of the two sides are
# recorded in turns, so a machine that drifts drifts on both.
. "$(dirname "$0")/lib.sh"
plan 23

B=$TMP/build R=$TMP/runs
mkdir -p "$B" "$R"
cc=${CC:-cc}
HEADER=$(printf 'function\tbefore\tafter\tchange\tlow\thigh\tverdict')

# verdict TABLE FUNCTION: the verdict of FUNCTION's row.
verdict() { awk -F '\t' -v f="$2" '$1 == f { print $7 }' "$1"; }

# none_called TABLE: fails, showing them, if rows are called slower or faster.
none_called() {
	awk -F '\t' 'NR > 1 && $7 != "same" { print "called: " $0; bad = 1 } END { exit bad }' "$1"
}

# Folded runs made here, three a side: ten functions that move by about
# 3% of their time from run to run, as a machine's speed moves them, and
# hot at 50 samples; in b hot does a fifth more. Welch's test, with the
# 2 to 4 degrees of freedom of three runs, leaves hot same under
# Benjamini-Hochberg; the moderated t, its variance shrunk toward the
# trend of the other functions', finds it, and calls no row in A/A.
# (runs SIDE: three lines of the functions' counts, hot's last)
runs() {
	case $1 in
	a) echo "298 203 149 99 97 79 62 51 52 40 51
302 190 154 102 101 76 57 49 49 40 50
305 196 151 101 98 84 61 52 49 39 49" ;;
	b) echo "299 204 151 99 97 79 62 49 50 41 57
300 208 141 99 100 78 61 50 48 41 61
309 209 152 100 96 81 59 49 48 39 59" ;;
	c) echo "312 188 143 101 104 81 57 46 51 39 48
309 207 151 101 101 84 61 51 51 38 52
309 203 141 98 103 76 60 52 48 42 51" ;;
	esac | awk -v s="$1" '{ f = s "." NR; for (i = 1; i <= NF; i++)
	    printf "main;%s %d\n", i < NF ? "f" (i - 1) : "hot", $i >f }'
}
check 'three runs a side: hot a fifth slower is found, no other function called; A/A calls none' '
	runs a && runs b && runs c &&
	expect_status 0 fgfold --compare a.? -- b.? >out 2>err &&
	cat out err &&
	test "$(verdict out hot)" = slower &&
	test "$(grep -c "	s[a-z]*er\$" out)" = 1 &&
	grep_q "moderated t over the runs (each function.s variance shrunk toward their trend over the 11 functions. sizes, [0-9.]* degrees of freedom added to its 4); \[all\] tested alone" err &&
	expect_status 0 fgfold --compare a.? -- c.? >out 2>err &&
	none_called out
'

# One run a side: the counting noise of weighted samples is the sum of
# their weights squared (one wait of 100 ms is not a hundred of 1 ms),
# and the noise between runs, which one run cannot show, is COMPARE_RUN_CV
# of a function's time.
# (offcpu WAITS: a stream of WAITS waits of 100 ms and 200 of 1 ms)
offcpu() {
	awk -v n="$1" "BEGIN { for (i = 0; i < n + 200; i++)
	    printf \"app 100/100 [000] %d.000000: %d offcpu-time:\\n\\tffffffff81000000 __schedule+0x1 ([kernel.kallsyms])\\n\\t3000 %s+0x1 (/bin/app)\\n\\t1000 main+0x1 (/bin/app)\\n\\n\",
	    i + 1, i < n ? 100000000 : 1000000, i < n ? \"wait_here\" : \"other\" }"
}
check 'one run a side: one wait of 100 ms more is no change; a 4% move of a function is none' '
	offcpu 1 >w1 && offcpu 2 >w2 &&
	grep -c "^app" w2 | grep -qx 202 &&
	expect_status 0 fgfold --compare w1 -- w2 >out 2>err &&
	cat out && test "$(verdict out wait_here)" = same && none_called out &&
	printf "main;big 10000\nmain;small 10000\n" >f1 &&
	printf "main;big 10400\nmain;small 10000\n" >f2 &&
	expect_status 0 fgfold --compare f1 -- f2 >out 2>err &&
	cat out && none_called out &&
	grep_q "from one run a side: the intervals hold the samples. noise and 5% of a function.s time for the noise between runs" err &&
	{ ! command -v script >/dev/null ||
	  { script -qec "fgfold --compare f1 -- f2 2>/dev/null" /dev/null >tty &&
	    head -1 tty | tr -d "\r" | grep -q "  verdict (from one run)\$"; }; }
'

# One run a side: a function whose samples come in a bunch (as the
# kernel's preemption paths do on a busy machine: 2 ms in one run, 48 in
# the next) shows its noise in how unevenly its time spreads over the
# run; burst, 2 samples spread before and 20 in a row after, is no
# change one run can tell (Poisson's noise alone called it slower).
# (bursty HOW: 1000 samples of 1 ms, burst's spread or bunched)
bursty() {
	awk -v how="$1" "BEGIN { for (i = 0; i < 1000; i++) { f = \"steady\"
	    if (how == \"spread\" && (i == 300 || i == 700)) f = \"burst\"
	    if (how == \"bunch\" && i >= 500 && i < 520) f = \"burst\"
	    printf \"app 100/100 [000] 1.%06d: 1000000 cpu-clock:\\n\\t2000 %s+0x1 (/bin/app)\\n\\t1000 main+0x1 (/bin/app)\\n\\n\", i * 1000, f } }"
}
check 'one run a side: a function bunched in time is no change one run can tell' '
	bursty spread >b1 && bursty bunch >b2 &&
	test "$(grep -c burst b2)" = 20 &&
	expect_status 0 fgfold --compare b1 -- b2 >out 2>err && cat out &&
	test "$(verdict out burst)" = same && none_called out
'

# The table's numbers at any size: 1.8e19 samples per 1e-9 units of work
# is 1.8e28 a unit, 33 characters with three decimals; a 32-byte buffer
# cut them.
check 'numbers of any size printed whole' '
	printf "main;a 18000000000000000000\n" >h1 &&
	printf "main;a 17000000000000000000\n" >h2 &&
	expect_status 0 fgfold --compare --per=1e-9 h1 -- h2 >out 2>err &&
	grep_q "^\[all\]	17999999999999999[0-9]\{12\}\.000	16999999999999999[0-9]\{12\}\.000	-99999999999999[0-9]\{13\}\.000	-[0-9]\{28\}\.000	[0-9]\{28\}\.000	same\$" out
'

# A big run (40,000 functions, 2.4 MB of folded stacks) beside 400 runs
# of two functions: each run keeps the functions it has, not one value a
# function known; it took 777 MB (and 16 s), now about 35 MB, under a
# limit of 200 MB (none when the tools are built with ASan, which
# reserves terabytes of address space).
LIMIT=200000
nm "$TOP/bin/fgfold" 2>/dev/null | grep -q __asan_init && LIMIT=unlimited
check 'a big run beside 400 small ones: within 200 MB' '
	awk "BEGIN { for (i = 0; i < 40000; i++)
	    printf \"main;mod%d::outer_%d;inner_function_number_%d %d\\n\", i % 50, int(i / 3), i, 1 + i % 5 }" >big &&
	i=1 && while [ $i -le 400 ]; do printf "main;a 1\nmain;b 2\n" >s.$i; i=$((i + 1)); done &&
	(ulimit -v $LIMIT && exec fgfold --compare big s.[1-9] s.[1-9][0-9] s.1[0-9][0-9] s.200 -- \
	    s.20[1-9] s.2[1-9][0-9] s.3[0-9][0-9] s.400) >out 2>err &&
	test "$(wc -l <out)" = 80005 &&
	grep_q "^fgfold: 201 runs before, 200 after: total time per run, in samples" err
'

if ! $cc -O2 -g -o "$B/kernels" "$TESTS/record/kernels.c" 2>"$B/err"; then
	skip 'fgfold --compare on recorded runs' "cannot build tests/record/kernels.c with $cc: $(head -3 "$B/err")"
	skip_rest
fi
if ! perf_ok; then
	skip 'fgfold --compare on recorded runs' "$why"
	skip_rest
fi
if ! fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip 'fgfold --compare on recorded runs' "fgrecord cannot sample here: $(head -1 "$TMP/probe.err")"
	skip_rest
fi

# a: the program; aa: the same again; b: encode (5% of the run) at four
# times its work, 15% of the run more. Each run is 120 million steps,
# about 0.2 s of CPU time: 10 to 60 samples a kernel.
check 'fifteen runs recorded and symbolized, a, aa and b in turns' '
	for i in 1 2 3 4 5; do
		for s in a:1 aa:1 b:4; do
			n=${s%:*} k=${s#*:}
			expect_status 0 fgrecord -q -o "$R/$n.$i" "$B/kernels" 120 "$k" 2>>"$R/rec.err" &&
			expect_status 0 fgsym "$R/$n.$i" >"$R/$n.$i.sym" 2>>"$R/sym.err" ||
				{ cat "$R/rec.err" "$R/sym.err"; exit 1; }
		done
	done
'

# A/A at --min-change=5: BH holds the chance of a false alarm at 5% over
# all the rows at the default 0.5%, which a test run on every commit may
# not take; a change of 5% of the run (10 ms, a fifth of a function)
# must also be as improbable under the counting noise alone.
check 'A/A: the same program, five runs a side: every row is same' '
	expect_status 0 fgfold --compare --min-change=5 "$R"/a.?.sym -- "$R"/aa.?.sym >out 2>err &&
	test "$(head -1 out)" = "$HEADER" &&
	sed -n "2s/	.*//p" out >first && echo "[all]" >want && test_cmp want first &&
	for f in parse lex hash sort render encode flush logline; do grep -q "^$f	" out || { echo "no row $f"; exit 1; }; done &&
	none_called out &&
	grep_q "^fgfold: 5 runs before, 5 after of cpu-clock: total time per run, in ms; 95% intervals of a moderated t" err
'

# At the default --min-change, Benjamini-Hochberg bounds the share of
# false calls among the calls made, not the chance of one: beside the
# eight true ones (encode and its callers), one false call is allowed now
# and then (CI, five other jobs building beside it: lex -9% [-16, -2]
# called faster). That no other row is called is checked at
# --min-change=5 below, where the chance of any is held.
check 'A/B: encode at four times its work is slower, [all] not faster' '
	expect_status 0 fgfold --compare "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	cat out &&
	test "$(verdict out encode)" = slower &&
	test "$(verdict out "[all]")" != faster &&
	test "$(sed -n 3p out | cut -f 7)" = slower
'

check 'A/B at --min-change=5: the seven others are same' '
	expect_status 0 fgfold --compare --min-change=5 "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	test "$(verdict out encode)" = slower &&
	for f in parse lex hash sort render flush logline; do
		test "$(verdict out $f)" = same || { echo "$f called"; exit 1; }
	done
'

check '--fail-slower: exit 1 when encode grew by more than 10% of the run, 0 for A/A' '
	expect_status 1 fgfold --compare --fail-slower=10 "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	test "$(verdict out encode)" = slower &&
	expect_status 0 fgfold --compare --min-change=5 --fail-slower=10 "$R"/a.?.sym -- "$R"/aa.?.sym >out2 2>err2 &&
	none_called out2
'

check 'one run a side: said in one line, with the advice to record more' '
	expect_status 0 fgfold --compare "$R/a.1.sym" -- "$R/b.1.sym" >out 2>err &&
	test "$(head -1 out)" = "$HEADER" &&
	grep_q "from one run a side: the intervals hold the samples. noise and 5%" err &&
	test "$(wc -l <err)" = 1
'

check 'a stream cut short: exit 2, no table, the file named' '
	awk "NR > 40 && /^\t/ { print; exit } { print }" "$R/a.1.sym" >cut &&
	expect_status 2 fgfold --compare cut "$R/a.2.sym" -- "$R/b.1.sym" >out 2>err &&
	test ! -s out &&
	grep_q "^fgfold: .cut.: a run with a bad line, or cut short, is no run to compare" err
'

# A folded stack of no frame (";"), first in its run: it crashed the
# table and the picture (a self time written before any was made).
check 'a stack of no frame, first in a run: no crash, counted in the whole' '
	printf "; 100\nmain;a 50\n" >s1 && printf "; 100\nmain;a 55\n" >s2 &&
	printf "main;a 50\n" >t1 && printf "main;a 52\n" >t2 &&
	expect_status 0 fgfold --compare s1 s2 -- t1 t2 >out 2>err && cat out err &&
	grep_q "^\[all\]	152.500	51.000	.*	faster\$" out &&
	grep_q "^main	52.500	51.000	.*	same\$" out &&
	expect_status 0 fgsvg --compare s1 s2 -- t1 t2 >cmp.svg 2>err &&
	grep -q "</svg>" cmp.svg
'

check '--fail-slower names the row that tripped it, [all], and the function that grew most' '
	expect_status 1 fgfold --compare --fail-slower=10 "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	grep_q "^fgfold: slower by more than 10% of the before runs. whole time (--fail-slower=10, [0-9.]* ms): \[all\] +[0-9.]* ms (95% interval +[0-9.]* to +[0-9.]*), most of it in encode +[0-9.]* ms (95% interval +[0-9.]* to +[0-9.]*)\$" err &&
	test "$(grep -c "slower by more than" err)" = 1 &&
	expect_status 1 fgfold --compare --fail-slower=10 --gate=functions "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	grep_q "^fgfold: slower by more than 10% of the before runs. whole time (--fail-slower=10, [0-9.]* ms): encode +[0-9.]* ms (95% interval +[0-9.]* to +[0-9.]*), and [0-9]* more rows\?\$" err
'

# Work that moves between functions, or to a function renamed, leaves the
# whole run the same: no regression for either gate. A uniform +8%, which
# --normalize=median takes out of every row, fails the gate all the same.
check '--fail-slower: work moved or renamed passes; a uniform +8% under --normalize=median fails' '
	for i in 1 2 3 4 5; do
		printf "main;a %d\nmain;b %d\nmain;c 300\n" $((100 + i)) $((200 + i)) >m.b.$i &&
		printf "main;a %d\nmain;b %d\nmain;c 300\n" $((200 + i)) $((100 + i)) >m.a.$i &&
		printf "main;old %d\nmain;c 300\n" $((200 + i)) >r.b.$i &&
		printf "main;new %d\nmain;c 300\n" $((200 + i)) >r.a.$i &&
		printf "main;a %d\nmain;b %d\nmain;c 300\nmain;d 200\n" $((1000 + i)) $((500 + i)) >u.b.$i &&
		printf "main;a %d\nmain;b %d\nmain;c 324\nmain;d 216\n" $((1080 + i)) $((540 + i)) >u.a.$i || exit 1
	done &&
	expect_status 0 fgfold --compare --fail-slower=2 m.b.? -- m.a.? >out 2>err &&
	test "$(verdict out a)" = slower && test "$(verdict out "[all]")" = same &&
	expect_status 0 fgfold --compare --fail-slower=2 --gate=functions m.b.? -- m.a.? >out 2>err &&
	expect_status 0 fgfold --compare --fail-slower=2 --gate=functions r.b.? -- r.a.? >out 2>err &&
	test "$(verdict out new)" = slower &&
	expect_status 1 fgfold --compare --normalize=median --fail-slower=2 u.b.? -- u.a.? >out 2>err &&
	test "$(verdict out "[all]")" = same &&
	grep_q "^fgfold: slower by more than 2% of the before runs. whole time (--fail-slower=2, [0-9.]* samples): \[all\] +1[0-9][0-9].[0-9] samples" err &&
	expect_status 2 fgfold --compare --gate=functions m.b.? -- m.a.? >out 2>err &&
	grep_q "^fgfold: --gate goes with --fail-slower=PCT" err
'

# The sides' "# start" lines: the runs here were recorded in turns, and
# nothing is said; moved five minutes later, the runs after were
# recorded apart: said in one line with the gap, and in the subtitle.
check 'sides recorded apart: said with the gap, on stderr and in the SVG subtitle; in turns, not' '
	expect_status 0 fgfold --compare "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	! grep -q "recorded apart" err &&
	grep -q "^# start : " "$R/b.1.sym" &&
	for i in 1 2 3 4 5; do
		awk "/^# start : / && !done { split(\$4, w, \".\"); \$4 = (w[1] + 300) \".\" w[2]; done = 1 } { print }" \
			"$R/b.$i.sym" >late.$i || exit 1
	done &&
	grep -q "^# start : " late.1 &&
	expect_status 0 fgfold --compare "$R"/a.?.sym -- late.? >out 2>err &&
	grep_q "^fgfold: the runs before and after were recorded apart, not in turns: the first after (.late.1.) started [45] min [0-9]* s after the last before (.*a.5.sym.)" err &&
	test "$(grep -c "recorded apart" err)" = 1 &&
	expect_status 0 fgsvg --compare "$R"/a.?.sym -- late.? >cmp.svg 2>err2 &&
	grep -q "the sides recorded apart, [45] min [0-9]* s between them" cmp.svg
'

# Runs of different modes are refused; --per=FILE divides each run by its
# own count, and says a bad line as FILE:LINE.
if ! fgrecord -q --wall -o "$R/wall" "$B/kernels" 120 1 2>"$R/wall.err"; then
	skip 'a --wall run beside a cpu-clock run' "fgrecord --wall cannot record here: $(head -1 "$R/wall.err")"
else
	check 'a --wall run beside cpu-clock runs: exit 2, both files and events named; --wall runs compare' '
		expect_status 0 fgsym "$R/wall" >wall.sym 2>sym.err &&
		grep -q "^# event : offcpu-time" wall.sym &&
		expect_status 2 fgfold --compare "$R/a.1.sym" "$R/a.2.sym" -- wall.sym >out 2>err &&
		test ! -s out && test "$(wc -l <err)" = 1 &&
		grep_q "^fgfold: .wall.sym. records .cpu-clock and offcpu-time., and .*a.1.sym. records .cpu-clock.: record both sides alike" err &&
		expect_status 2 fgsvg --compare wall.sym -- "$R/a.1.sym" >out 2>err &&
		grep_q "records .cpu-clock and offcpu-time." err &&
		expect_status 0 fgfold --compare wall.sym -- wall.sym >out 2>err &&
		grep_q "^fgfold: 1 run before, 1 after of cpu-clock and offcpu-time: " err &&
		expect_status 0 fgfold --compare --event-filter=cpu-clock "$R/a.1.sym" -- wall.sym >out 2>err
	'
fi

check '--per=FILE: a count a run; a bad line said as FILE:LINE' '
	for i in 1 2; do
		printf "main;a %d\nmain;b 100\n" $((100 + i)) >p.b.$i &&
		printf "main;a %d\nmain;b 200\n" $((200 + 2 * i)) >p.a.$i || exit 1
	done &&
	printf "1\n1\n2\n2\n" >per &&
	expect_status 0 fgfold --compare --per=per p.b.? -- p.a.? >out 2>err &&
	grep_q "^b	100.000	100.000	" out &&
	grep_q "per unit of work (each run.s, from .per.)" err &&
	printf "1\n1\ntwo\n2\n" >bad &&
	expect_status 2 fgfold --compare --per=bad p.b.? -- p.a.? >out 2>err &&
	test ! -s out && test "$(wc -l <err)" = 1 &&
	grep_q "^fgfold: bad:3: .two. is no count of work: give a positive number a line" err &&
	printf "1\n2\n" >short &&
	expect_status 2 fgfold --compare --per=short p.b.? -- p.a.? >out 2>err &&
	grep_q "^fgfold: --per: .short. has 2 counts of work, for 4 runs" err
'

check '--own=CRATE: the functions of that crate right after [all]' '
	printf "main;app::f 10\nmain;std::g 50\nmain;<app::T as core::Tr>::h 5\n" >o1 &&
	printf "main;app::f 12\nmain;std::g 80\nmain;<app::T as core::Tr>::h 5\n" >o2 &&
	expect_status 0 fgfold --compare --own=app o1 -- o2 >out 2>err &&
	cut -f 1 out >names &&
	printf "function\n[all]\napp::f\n<app::T as core::Tr>::h\nmain\nstd::g\n" >want &&
	test_cmp want names &&
	expect_status 2 fgfold --own=app o1 2>err &&
	grep_q "^fgfold: --own goes with --top=N or --compare" err
'

check 'an empty run, folded stacks beside streams: exit 2, the file named' '
	: >empty &&
	expect_status 2 fgfold --compare empty -- "$R/b.1.sym" >out 2>err &&
	grep_q "^fgfold: .empty.: no sample in this run" err &&
	expect_status 2 fgfold --compare "$R/a.1.sym" -- empty >out 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep_q "^fgfold: .empty.: no sample in this run" err &&
	expect_status 0 fgfold "$R/b.2.sym" >b2.folded 2>ferr &&
	expect_status 2 fgfold --compare "$R/a.1.sym" -- b2.folded >out 2>err &&
	test ! -s out &&
	grep_q "^fgfold: .b2.folded. is folded stacks, and .*a.1.sym. records .cpu-clock." err
'

# Stacks cut short. mid has CFI in "whole" and none in "cut" (no
# .eh_frame, no .debug_frame, no frame pointer): every sample below it
# ends in [truncated] there, its callers lost. cut's hot does four times
# the work of whole's, so the run takes longer while main, outer and the C
# runtime's start, above the cut, count only the samples in other: they
# looked faster. They are unmeasured; other, beside the cut, and hot and
# mid, below it, keep their verdicts. (Twice the work was called same in
# 1 of 4 runs beside CI: this fixed work's CPU time varies with the load.)
cat >"$B/cut.c" <<'EOF'
#include <stdlib.h>
volatile unsigned long sink;
void mid(long n);
__attribute__((noinline)) void hot(long n)
{
	for (long i = 0; i < n; i++)
		sink += i * i;
}
__attribute__((noinline)) void other(long n)
{
	for (long i = 0; i < n; i++)
		sink ^= i;
}
__attribute__((noinline)) void outer(long n)
{
	mid(n);
	sink++;
}
int main(int argc, char **argv)
{
	long k = argc > 1 ? atol(argv[1]) : 1, j;
	long a = argc > 2 ? atol(argv[2]) : 1;
	for (j = 0; j < 20 * k; j++) {
		other(2000000);
		outer(2000000 * a);
	}
	return 0;
}
EOF
cat >"$B/mid.c" <<'EOF'
extern volatile unsigned long sink;
void hot(long n);
__attribute__((noinline)) void mid(long n)
{
	volatile char pad[64];
	pad[0] = (char)n;
	hot(n + pad[0] - (char)n);
	sink += pad[1];
}
EOF
if ! { $cc -O2 -g -fomit-frame-pointer -c -o "$B/cut.o" "$B/cut.c" &&
    $cc -O2 -g -fomit-frame-pointer -c -o "$B/mid-cfi.o" "$B/mid.c" &&
    $cc -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables \
	-fno-unwind-tables -c -o "$B/mid-nocfi.o" "$B/mid.c" &&
    $cc -o "$B/whole" "$B/cut.o" "$B/mid-cfi.o" &&
    $cc -o "$B/cut" "$B/cut.o" "$B/mid-nocfi.o"; } 2>"$B/err"; then
	skip 'truncated stacks compared' "cannot build the test program with $cc: $(head -3 "$B/err")"
	skip_rest
fi
check 'ten runs recorded, whole and cut in turns' '
	for i in 1 2 3 4 5; do
		expect_status 0 fgrecord -q -o "$R/w.$i" "$B/whole" 2 1 2>>"$R/rec.err" &&
		expect_status 0 fgsym "$R/w.$i" >"$R/w.$i.sym" 2>>"$R/sym.err" &&
		expect_status 0 fgrecord -q -o "$R/c.$i" "$B/cut" 2 4 2>>"$R/rec.err" &&
		expect_status 0 fgsym "$R/c.$i" >"$R/c.$i.sym" 2>>"$R/sym.err" ||
			{ cat "$R/rec.err" "$R/sym.err"; exit 1; }
	done
'
# The share of cut's samples that end in [truncated], in percent.
cutpct=$(cat "$R"/c.?.sym | fgfold --no-comm 2>/dev/null |
	awk '{ n += $NF } /^\[truncated\];/ { t += $NF } END { print n ? int(100 * t / n) : 0 }')
if [ "${cutpct:-0}" -lt 20 ]; then
	skip_checks 2 'truncated stacks compared' "fgrecord unwound mid without its CFI (${cutpct:-0}% truncated): no cut to compare"
else
	check 'truncated after: said, main and outer unmeasured, hot slower, other measured' '
		expect_status 0 fgfold --compare "$R"/w.?.sym -- "$R"/c.?.sym >out 2>err &&
		cat err out &&
		grep_q "^fgfold: [0-9.]*% of the samples before and [0-9.]*% after end in \[truncated\] .*: the totals of [0-9]* functions above the cut leave them out, and are called unmeasured: \(.*, \)\?main\(,\| and\|;\)" err &&
		test "$(verdict out main)" = unmeasured &&
		test "$(verdict out outer)" = unmeasured &&
		test "$(verdict out hot)" = slower &&
		test "$(verdict out mid)" = slower &&
		test "$(verdict out "[all]")" = slower &&
		test "$(verdict out other)" != unmeasured
	'
	check 'truncated, --self: no row unmeasured, the share still said' '
		expect_status 0 fgfold --compare --self "$R"/w.?.sym -- "$R"/c.?.sym >out 2>err &&
		grep_q "end in \[truncated\] .*: self time is the leaf.s, below the cut, and is measured" err &&
		! grep -q "	unmeasured\$" out &&
		test "$(verdict out hot)" = slower
	'
fi

done_testing

