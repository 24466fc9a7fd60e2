#!/bin/sh
# bench/ptrace.sh: fgrecord's two samplers side by side, --sampler=ptrace
# (for where perf_event_open is refused) and --sampler=perf, at the default
# 999 Hz with dwarf stacks, on the two-thread CPU-bound tests/record/work.c:
#   - the program's slow-down (wall time with / without), for both; the
#     runs alternate, so that a change in the machine's load hits all alike;
#   - fgrecord's own CPU time;
#   - the answer: each thread's share of the samples, each hot function's,
#     and the share of complete stacks (not [truncated]), for both, and the
#     largest difference between the two in points;
#   - on tests/record/hot.c, the share of stacks that reach main.
# BENCH_RUNS repetitions, medians.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
FG_BIN=${FG_BIN:-$top/bin}
BENCH_RUNS=${BENCH_RUNS:-3}
T=${BENCH_TMP:-$top/build/bench}/ptrace
mkdir -p "$T"
WORK=${PTRACE_BENCH_WORK:-300}	# millions of iterations per thread

cc=${CC:-cc}
$cc -O2 -g -pthread -o "$T/work" "$top/tests/record/work.c" &&
$cc -O2 -g -o "$T/hot" "$top/tests/record/hot.c" || {
	echo "   cannot build tests/record/work.c and hot.c"; exit 1; }
for s in perf ptrace; do
	if ! "$FG_BIN/fgrecord" -q --sampler=$s -o /dev/null true 2>"$T/probe.err"; then
		echo "   the $s sampler cannot run here: $(head -1 "$T/probe.err")"
		exit 0
	fi
done

median() { sort -g | awk '{a[NR]=$1} END {if (NR) printf "%.3f\n", a[int((NR+1)/2)]; else print "nan"}'; }
now() { date +%s.%N; }

# shares STREAM: "left right complete thread1 thread2" in percent of samples
shares() {
	"$FG_BIN/fgsym" "$1" 2>/dev/null | "$FG_BIN/fgfold" --tid 2>/dev/null |
	awk '{
		n = $NF; t += n
		if ($0 ~ /;left_work( |;)/) l += n
		if ($0 ~ /;right_work( |;)/) r += n
		if ($0 !~ /\[truncated\]/) c += n
		split($1, f, ";"); th[f[1]] += n
	}
	END {
		k = 0
		for (x in th) v[++k] = th[x]
		if (k < 2) v[2] = 0
		if (v[1] < v[2]) { s = v[1]; v[1] = v[2]; v[2] = s }
		if (t) printf "%.1f %.1f %.1f %.1f %.1f\n", 100*l/t, 100*r/t, 100*c/t, 100*v[1]/t, 100*v[2]/t
		else print "nan nan nan nan nan"
	}'
}

: >"$T/alone.w"; : >"$T/perf.w"; : >"$T/ptrace.w"
: >"$T/perf.c"; : >"$T/ptrace.c"; : >"$T/perf.s"; : >"$T/ptrace.s"
i=0
while [ $i -lt "$BENCH_RUNS" ]; do
	s=$(now); nice "$T/work" "$WORK" >/dev/null 2>&1; e=$(now)
	echo "$e - $s" | bc -l >>"$T/alone.w"
	for smp in perf ptrace; do
		s=$(now)
		nice "$FG_BIN/fgrecord" --sampler=$smp -o "$T/$smp.stream" \
		    "$T/work" "$WORK" 2>"$T/$smp.err"
		e=$(now)
		echo "$e - $s" | bc -l >>"$T/$smp.w"
		sed -n 's/.*own CPU \([0-9.]*\) s.*/\1/p' "$T/$smp.err" >>"$T/$smp.c"
		shares "$T/$smp.stream" >>"$T/$smp.s"
	done
	i=$((i + 1))
done
base=$(median <"$T/alone.w")
echo "   work $WORK (two threads, CPU-bound): ${base}s alone"
for smp in perf ptrace; do
	w=$(median <"$T/$smp.w")
	eval "w_$smp=$w"
	echo "   --sampler=$smp 999 Hz dwarf: slow-down $(ratio "$w" "$base") (${w}s), own CPU $(median <"$T/$smp.c")s"
done
echo "   ptrace/perf wall time: $(ratio "$w_ptrace" "$w_perf")"
# medians of each column
col() { awk -v c="$2" '{print $c}' "$1" | median | awk '{ printf "%.1f", $1 }'; }
for smp in perf ptrace; do
	set -- $(col "$T/$smp.s" 1) $(col "$T/$smp.s" 2) $(col "$T/$smp.s" 3) $(col "$T/$smp.s" 4) $(col "$T/$smp.s" 5)
	eval "s_$smp='$*'"
	echo "   --sampler=$smp: left_work $1%, right_work $2%, threads $4% / $5%, complete stacks $3%"
done
echo "$s_perf $s_ptrace" | awk '{
	m = 0
	for (i = 1; i <= 5; i++) { d = $i - $(i + 5); if (d < 0) d = -d; if (d > m) m = d }
	printf "   largest difference between the two answers: %.1f points\n", m
}'

for smp in perf ptrace; do
	"$FG_BIN/fgrecord" -q --sampler=$smp -o "$T/hot.$smp" "$T/hot" 1 2>/dev/null
	m=$("$FG_BIN/fgsym" "$T/hot.$smp" 2>/dev/null | "$FG_BIN/fgfold" 2>/dev/null |
	    awk '{ t += $NF; if ($0 ~ /;main;/) h += $NF } END { printf "%.1f", t ? 100*h/t : 0 }')
	echo "   --sampler=$smp: stacks reaching main in hot.c: $m%"
done

# --wall beside a pool of 32 idle threads (tests/record/pool.c): the busy
# thread's work time alone and under --sampler=ptrace --wall, and the
# context switches the idle threads made (a few when the sampler does not
# wake them), alternated, medians.
$cc -O2 -g -pthread -o "$T/pool" "$top/tests/record/pool.c" || exit 0
: >"$T/pool.alone"; : >"$T/pool.wall"; : >"$T/pool.sw"
i=0
while [ $i -lt "$BENCH_RUNS" ]; do
	nice "$T/pool" 0.5 32 2>&1 | awk '/^work / { print $2 }' >>"$T/pool.alone"
	nice "$FG_BIN/fgrecord" --sampler=ptrace --wall -o /dev/null "$T/pool" 0.5 32 \
	    2>"$T/pool.err"
	awk '/^work / { print $2 }' "$T/pool.err" >>"$T/pool.wall"
	awk '/^idle-switches / { print $2 }' "$T/pool.err" >>"$T/pool.sw"
	i=$((i + 1))
done
a=$(median <"$T/pool.alone") w=$(median <"$T/pool.wall")
echo "   32 idle threads beside a busy one, --sampler=ptrace --wall: slow-down $(ratio "$w" "$a") (${w}s against ${a}s), idle threads' context switches $(median <"$T/pool.sw" | awk '{ printf "%d", $1 }')"
