#!/bin/sh
# bench/compare.sh: how good fgfold --compare is, on tests/record/kernels.c
# recorded here (fgrecord, cpu-clock at its default 999 Hz, then fgsym):
# eight kernels of fixed work (a number of steps, not a time: a busy or
# drifting machine moves their time as it moves a real program's), 600
# million steps a run (about 1 s here), encode 5% of it; each kernel
# timed by the program itself.
#   A/A: the program against itself, at 1, 3, 5 and 10 runs a side: how
#	many comparisons call any row (the issue asks at most 5%), and the
#	rows called.
#   A/B: encode at 1.2 times its work (1% of the run): how many
#	comparisons call encode slower, no other kernel called and no row
#	faster (9 of 10 asked at 5 runs a side); and how many of encode's
#	intervals hold the change the program timed itself (the mean of
#	its own CPU time after less before, over the runs compared: 93%
#	asked).
#   The time and memory of a comparison of 10 runs of 10,000 samples
#	each (5 a side, one 10-second run copied), the median of
#	BENCH_RUNS.
# The runs are recorded in rounds of a, b and aa (a again), so that the
# machine's load falls on all alike: COMPARE_ROUNDS rounds (40, about 120
# runs). Each comparison at K runs a side takes K rounds drawn at random
# (seeded: the same draw each time), a's against aa's (A/A) and a's
# against b's (A/B) of the same rounds, COMPARE_DRAWS times (20; at one
# run a side, every round). COMPARE_RUNS=DIR takes the runs already
# recorded there (a.I.sym, b.I.sym, aa.I.sym, and a.I.err ... with the
# program's timing) instead. Prints the load average it was measured
# at: a comparison on a busy machine is the point.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
FG_BIN=${FG_BIN:-$top/bin}
BENCH_RUNS=${BENCH_RUNS:-5}
T=${BENCH_TMP:-$top/build/bench}/compare
ROUNDS=${COMPARE_ROUNDS:-40}
DRAWS=${COMPARE_DRAWS:-20}
R=${COMPARE_RUNS:-$T/runs}
mkdir -p "$T" "$R"

cc=${CC:-cc}
$cc -O2 -g -o "$T/kernels" "$top/tests/record/kernels.c" || {
	echo "   cannot build tests/record/kernels.c"; exit 1; }
if ! "$FG_BIN/fgrecord" -q -o "$T/probe" true 2>"$T/probe.err"; then
	echo "   fgrecord cannot record here: $(head -1 "$T/probe.err")"
	exit 0
fi
load() { cut -d ' ' -f 1-3 /proc/loadavg; }

# record NAME FACTOR: one run of kernels, encode at FACTOR; the
# program's own timing in NAME.err.
record() {
	"$FG_BIN/fgrecord" -q -o "$T/rec" "$T/kernels" 600 "$2" 2>"$R/$1.err" &&
	    "$FG_BIN/fgsym" "$T/rec" >"$R/$1.sym" 2>>"$T/sym.err"
}
echo "   load average at the start: $(load)"
if [ -z "${COMPARE_RUNS:-}" ]; then
	rm -f "$R"/*.sym "$R"/*.err
	i=1
	while [ $i -le "$ROUNDS" ]; do
		record a.$i 1 && record b.$i 1.2 && record aa.$i 1 || {
			echo "   fgrecord or fgsym failed:"; tail -3 "$R/a.$i.err" "$T/sym.err"; exit 1; }
		i=$((i + 1))
	done
	echo "   recorded $ROUNDS rounds of a, b, aa; load average: $(load)"
else
	ROUNDS=$(ls "$R"/a.*.sym | wc -l)
fi

# draw K SEED: K rounds of ROUNDS, at random.
draw() {
	awk -v n="$ROUNDS" -v k="$1" -v s="$2" 'BEGIN { srand(s)
	    for (i = 1; i <= n; i++) p[i] = i
	    for (i = n; i > 1; i--) { j = int(rand() * i) + 1; t = p[i]; p[i] = p[j]; p[j] = t }
	    for (i = 1; i <= k; i++) print p[i] }'
}
# own SIDE ROUNDS...: the mean of encode's own CPU time, ms, over them.
own() {
	_s=$1; shift
	for _i in "$@"; do grep '^kernel encode ' "$R/$_s.$_i.err"; done |
	    awk '{ t += $3; n++ } END { printf "%.4f", n ? t / n : 0 }'
}
: >"$T/aa.called"; : >"$T/ab.missed"
for k in 1 3 5 10; do
	[ $k -le "$ROUNDS" ] || continue
	n=$DRAWS; [ $k = 1 ] && n=$ROUNDS
	c=0 aa=0 ab=0 cov=0 allaa=0
	while [ $c -lt $n ]; do
		if [ $k = 1 ]; then set -- $((c + 1)); else set -- $(draw $k $((c * 7919 + k))); fi
		A= AA= B=
		for i in "$@"; do A="$A $R/a.$i.sym" AA="$AA $R/aa.$i.sym" B="$B $R/b.$i.sym"; done
		"$FG_BIN/fgfold" --compare $A -- $AA 2>/dev/null >"$T/aa.tsv"
		awk -F '\t' -v k=$k 'NR > 1 && $7 != "same" { print k ": " $0; bad = 1 } END { exit !bad }' \
		    "$T/aa.tsv" >>"$T/aa.called" && aa=$((aa + 1))
		"$FG_BIN/fgfold" --compare $A -- $B 2>/dev/null >"$T/ab.tsv"
		if awk -F '\t' '$1 == "encode" && $7 == "slower" { r = 1 }
		    $1 ~ /^(parse|lex|hash|sort|render|flush|logline)$/ && $7 != "same" { bad = 1 }
		    NR > 1 && $7 == "faster" { bad = 1 }
		    END { exit !(r && !bad) }' "$T/ab.tsv"; then
			ab=$((ab + 1))
		else
			{ echo "$k runs, rounds $*:"; awk -F '\t' '$1 == "encode" || $7 != "same"' "$T/ab.tsv"; } >>"$T/ab.missed"
		fi
		t=$(echo "$(own b "$@") $(own a "$@")" | awk '{ print $1 - $2 }')
		awk -F '\t' -v t="$t" '$1 == "encode" { ok = $5 <= t && t <= $6 } END { exit !ok }' \
		    "$T/ab.tsv" && cov=$((cov + 1))
		c=$((c + 1))
	done
	echo "   $k run(s) a side, $n comparisons: A/A calls some row in $aa; A/B finds encode alone in $ab; encode's interval holds its own timed change in $cov"
done
echo "   (rows called in A/A: $T/aa.called; A/B misses: $T/ab.missed)"

# The time of one comparison of 10 runs of 10,000 samples.
"$FG_BIN/fgrecord" -q -o "$T/rec" "$T/kernels" 6000 2>>"$T/rec.err" &&
    "$FG_BIN/fgsym" "$T/rec" >"$T/long.sym" 2>>"$T/sym.err" || {
	echo "   cannot record the 10-second run"; exit 1; }
for i in 1 2 3 4 5 6 7 8 9 10; do cp "$T/long.sym" "$T/long.$i.sym"; done
ns=$(grep -c '^[^#	 ].* [0-9][0-9]*\.[0-9]*: ' "$T/long.sym")
set -- $(median_usage "$FG_BIN/fgfold" --compare "$T"/long.[1-5].sym -- "$T"/long.[6-9].sym "$T"/long.10.sym)
echo "   a comparison of 10 runs of $ns samples each: $1 s wall, $2 s CPU, $3 KiB (medians of $BENCH_RUNS)"

# Memory: one big run (40,000 functions, 2.4 MB of folded stacks) beside
# 400 runs of two functions (issue 42: 1.3 GB before runs kept only the
# functions they have).
awk 'BEGIN { for (i = 0; i < 40000; i++)
    printf "main;mod%d::outer_%d;inner_function_number_%d %d\n", i % 50, int(i / 3), i, 1 + i % 5 }' >"$T/big"
i=1; while [ $i -le 400 ]; do printf 'main;a 1\nmain;b 2\n' >"$T/small.$i"; i=$((i + 1)); done
set -- $(cd "$T" && median_usage "$FG_BIN/fgfold" --compare big small.[1-9] small.[1-9][0-9] small.1[0-9][0-9] small.200 -- \
    small.20[1-9] small.2[1-9][0-9] small.3[0-9][0-9] small.400)
echo "   a run of 40,000 functions beside 400 of 2: $1 s wall, $2 s CPU, $3 KiB (medians of $BENCH_RUNS)"
echo "   load average at the end: $(load)"
