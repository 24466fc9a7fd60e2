#!/bin/sh
# t520-compare: fgfold --compare on real runs of tests/record/weights.c,
# recorded here with fgrecord and symbolized with fgsym, five a side:
# the program against itself (A/A) calls no row slower or faster, and
# with render doing twice its work (A/B) render is slower and [all] never
# faster. The program spins for CPU time, so a busy machine changes how
# long a run takes, not what it shows; the runs of the two sides are
# recorded in turns, so a machine that drifts drifts on both.
. "$(dirname "$0")/lib.sh"

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

if ! $cc -O2 -g -o "$B/weights" "$TESTS/record/weights.c" 2>"$B/err"; then
	skip 'fgfold --compare on recorded runs' "cannot build tests/record/weights.c with $cc: $(head -3 "$B/err")"
	done_testing
	exit 0
fi
if ! perf_ok; then
	skip 'fgfold --compare on recorded runs' "$why"
	done_testing
	exit 0
fi
if ! fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip 'fgfold --compare on recorded runs' "fgrecord cannot sample here: $(head -1 "$TMP/probe.err")"
	done_testing
	exit 0
fi

# a: the program; aa: the same again; b: render at twice its work. Each
# run is 0.2 s of CPU time, about 50 samples a function.
check 'fifteen runs recorded and symbolized, a, aa and b in turns' '
	for i in 1 2 3 4 5; do
		for s in a:1 aa:1 b:2; do
			n=${s%:*} k=${s#*:}
			expect_status 0 fgrecord -q -o "$R/$n.$i" "$B/weights" 0.2 "$k" 2>>"$R/rec.err" &&
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
	for f in parse render encode flush; do grep -q "^$f	" out || { echo "no row $f"; exit 1; }; done &&
	none_called out &&
	grep_q "^fgfold: 5 runs before, 5 after of cpu-clock: total time per run, in ms; Welch" err
'

check 'A/B: render at twice its work is slower, [all] not faster' '
	expect_status 0 fgfold --compare "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	test "$(verdict out render)" = slower &&
	test "$(verdict out "[all]")" != faster &&
	! grep -q "	faster\$" out &&
	test "$(sed -n 3p out | cut -f 7)" = slower
'

check 'A/B at --min-change=5: the three others are same' '
	expect_status 0 fgfold --compare --min-change=5 "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	test "$(verdict out render)" = slower &&
	test "$(verdict out parse)" = same &&
	test "$(verdict out encode)" = same &&
	test "$(verdict out flush)" = same
'

check '--fail-slower: exit 1 when render grew by more than 10% of the run, 0 for A/A' '
	expect_status 1 fgfold --compare --fail-slower=10 "$R"/a.?.sym -- "$R"/b.?.sym >out 2>err &&
	test "$(verdict out render)" = slower &&
	expect_status 0 fgfold --compare --min-change=5 --fail-slower=10 "$R"/a.?.sym -- "$R"/aa.?.sym >out2 2>err2 &&
	none_called out2
'

check 'one run a side: said in one line, with the advice to record more' '
	expect_status 0 fgfold --compare "$R/a.1.sym" -- "$R/b.1.sym" >out 2>err &&
	test "$(head -1 out)" = "$HEADER" &&
	grep_q "with one run a side, the intervals count sampling noise only" err &&
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

done_testing
