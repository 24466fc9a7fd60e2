#!/bin/sh
# bench/compare.sh: how good fgfold --compare is, on tests/record/weights.c
# recorded here (fgrecord, cpu-clock at its default 999 Hz, then fgsym):
# four functions, render at 5% of a run of 1 s of CPU time, the others at
# about 32% each.
#   A/A: the program against itself, 5 runs a side: how many comparisons
#	call no row other than same (the issue asks 19 of 20), and the rows
#	called.
#   A/B: render at 1.2 times its work (1% of the run), 5 runs a side:
#	how many comparisons call render slower, parse, encode and flush
#	same and no row faster (9 of 10 asked), and how often [all] is
#	slower (and never faster).
#   The time of a comparison of 10 runs of 10,000 samples each (5 a
#	side, one 10-second run copied), the median of BENCH_RUNS.
# The runs are recorded in rounds of a, b and aa (a again), so that the
# machine's load falls on all alike, and every comparison is of runs
# recorded in turns: COMPARE_ROUNDS rounds (50, about 150 runs of 1 s):
# 10 A/B groups of 5 rounds (a against b), and 20 A/A comparisons: a
# against aa in the same 10 groups, and in each block of 10 rounds a's
# odd rounds against aa's even ones and a's even against aa's odd. (Runs
# of a against aa recorded minutes apart are no A/A: the machine drifts,
# and here called [all] slower by 1.2% in one of two such.) COMPARE_RUNS=DIR takes the runs already recorded there
# (a.I.sym, b.I.sym, aa.I.sym) instead. Prints the load average it was
# measured at: a comparison on a busy machine is the point.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
FG_BIN=${FG_BIN:-$top/bin}
BENCH_RUNS=${BENCH_RUNS:-5}
T=${BENCH_TMP:-$top/build/bench}/compare
ROUNDS=${COMPARE_ROUNDS:-50}
R=${COMPARE_RUNS:-$T/runs}
mkdir -p "$T" "$R"

cc=${CC:-cc}
$cc -O2 -g -o "$T/weights" "$top/tests/record/weights.c" || {
	echo "   cannot build tests/record/weights.c"; exit 1; }
if ! "$FG_BIN/fgrecord" -q -o "$T/probe" true 2>"$T/probe.err"; then
	echo "   fgrecord cannot record here: $(head -1 "$T/probe.err")"
	exit 0
fi
load() { cut -d ' ' -f 1-3 /proc/loadavg; }
med() { sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "%.3f", a[int((NR + 1) / 2)]; else printf "nan" }'; }

# record NAME FACTOR: one run of weights, 1 s, render at FACTOR.
record() {
	"$FG_BIN/fgrecord" -q -o "$T/rec" "$T/weights" 1 "$2" 0.05 2>>"$T/rec.err" &&
	    "$FG_BIN/fgsym" "$T/rec" >"$R/$1.sym" 2>>"$T/sym.err"
}
echo "   load average at the start: $(load)"
if [ -z "${COMPARE_RUNS:-}" ]; then
	rm -f "$R"/*.sym
	i=1
	while [ $i -le "$ROUNDS" ]; do
		record a.$i 1 && record b.$i 1.2 && record aa.$i 1 || {
			echo "   fgrecord or fgsym failed:"; tail -3 "$T/rec.err" "$T/sym.err"; exit 1; }
		i=$((i + 1))
	done
	echo "   recorded $ROUNDS rounds of a, b, aa; load average: $(load)"
fi
ng=$((ROUNDS / 5))

# rounds SIDE FIRST STEP: the runs of SIDE in 5 rounds from FIRST by STEP.
rounds() { _i=$2; while [ $_i -lt $(($2 + 5 * $3)) ]; do echo "$R/$1.$_i.sym"; _i=$((_i + $3)); done; }
# group SIDE G: the runs of group G (0, 1, ...) of SIDE.
group() { rounds "$1" $((5 * $2 + 1)) 1; }

aa_clean=0 aa_n=0 aa_rows=0
ab_ok=0 ab_n=0 all_slow=0 all_fast=0
: >"$T/aa.called"; : >"$T/ab.missed"
# aa BEFORE AFTER: one A/A comparison, its rows called kept.
aa() {
	"$FG_BIN/fgfold" --compare $1 -- $2 2>/dev/null >"$T/aa.tsv"
	n=$(awk -F '\t' 'NR > 1 && $7 != "same"' "$T/aa.tsv" | tee -a "$T/aa.called" | wc -l)
	aa_n=$((aa_n + 1)) aa_rows=$((aa_rows + n))
	[ "$n" = 0 ] && aa_clean=$((aa_clean + 1))
}
g=0
while [ $g -lt $ng ]; do
	aa "$(group a $g)" "$(group aa $g)"
	if [ $((g % 2)) = 1 ]; then
		k=$((5 * (g - 1) + 1))
		aa "$(rounds a $k 2)" "$(rounds aa $((k + 1)) 2)"
		aa "$(rounds a $((k + 1)) 2)" "$(rounds aa $k 2)"
	fi
	"$FG_BIN/fgfold" --compare $(group a $g) -- $(group b $g) 2>/dev/null >"$T/ab.tsv"
	ab_n=$((ab_n + 1))
	if awk -F '\t' '$1 == "render" && $7 == "slower" { r = 1 }
	    ($1 == "parse" || $1 == "encode" || $1 == "flush") && $7 != "same" { bad = 1 }
	    NR > 1 && $7 == "faster" { bad = 1 }
	    END { exit !(r && !bad) }' "$T/ab.tsv"; then
		ab_ok=$((ab_ok + 1))
	else
		{ echo "group $g:"; awk -F '\t' '$1 == "render" || $1 == "parse" ||
		    $1 == "encode" || $1 == "flush" || $7 == "faster"' "$T/ab.tsv"; } >>"$T/ab.missed"
	fi
	case $(awk -F '\t' '$1 == "[all]" { print $7 }' "$T/ab.tsv") in
	slower) all_slow=$((all_slow + 1)) ;;
	faster) all_fast=$((all_fast + 1)) ;;
	esac
	g=$((g + 1))
done
echo "   A/A: $aa_clean of $aa_n comparisons call every row same ($aa_rows rows called in all; $T/aa.called)"
echo "   A/B: $ab_ok of $ab_n call render slower, parse, encode and flush same, none faster ($T/ab.missed); [all] slower in $all_slow, faster in $all_fast"

# The time of one comparison of 10 runs of 10,000 samples.
"$FG_BIN/fgrecord" -q -o "$T/rec" "$T/weights" 10 2>>"$T/rec.err" &&
    "$FG_BIN/fgsym" "$T/rec" >"$T/long.sym" 2>>"$T/sym.err" || {
	echo "   cannot record the 10-second run"; exit 1; }
for i in 1 2 3 4 5 6 7 8 9 10; do cp "$T/long.sym" "$T/long.$i.sym"; done
ns=$(grep -c '^[^#	 ].* [0-9][0-9]*\.[0-9]*: ' "$T/long.sym")
set -- $(median_usage "$FG_BIN/fgfold" --compare "$T"/long.[1-5].sym -- "$T"/long.[6-9].sym "$T"/long.10.sym)
echo "   a comparison of 10 runs of $ns samples each: $1 s wall, $2 s CPU, $3 KiB (medians of $BENCH_RUNS)"
echo "   load average at the end: $(load)"
