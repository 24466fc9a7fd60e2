#!/bin/sh
# bench/fgrecord.sh: fgrecord side by side with perf record on the same
# two-thread CPU-bound program (tests/record/work.c), at the same frequency
# and call-graph mode:
#   - the slow-down, for both, measured two ways: the whole command's wall
#     time (the recorder's start-up, the program, and what it does after
#     the program ends: perf record's pass over perf.data) over the
#     program's wall time alone; and the program's own wall time, timed
#     inside it (work prints it), over the same;
#   - fgrecord's own CPU time against the program's, in percent;
#   - samples lost at 999 and 2999 Hz, for both;
#   - the latency after the program ends (fgrecord's wall time minus the
#     program's own).
#   - a deep C++ program (clang++, g++ on bench/cxx/templates.cpp): the
#     truncated share with the default stack copy, with --no-stitch and
#     with 16 KiB, lost samples, and the overhead on the compile's wall
#     time.
# Everything runs under nice; BENCH_RUNS repetitions, medians.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
FG_BIN=${FG_BIN:-$top/bin}
BENCH_RUNS=${BENCH_RUNS:-3}
T=${BENCH_TMP:-$top/build/bench}/fgrecord
mkdir -p "$T"
WORK=${FGRECORD_BENCH_WORK:-300}	# millions of iterations per thread

cc=${CC:-cc}
$cc -O2 -g -pthread -o "$T/work" "$top/tests/record/work.c" || {
	echo "   cannot build tests/record/work.c"; exit 1; }
if ! "$FG_BIN/fgrecord" -q -o /dev/null true 2>"$T/probe.err"; then
	echo "   fgrecord cannot sample here: $(head -1 "$T/probe.err")"
	exit 0
fi
have_perf=no
if command -v perf >/dev/null 2>&1 &&
    perf record -q -o "$T/probe.data" true >/dev/null 2>&1; then
	have_perf=yes
fi

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {if (NR) printf "%.3f\n", a[int((NR+1)/2)]; else print "nan"}'; }
# median_int: the same for counts
median_int() { sort -g | awk '{a[NR]=$1} END {if (NR) printf "%d\n", a[int((NR+1)/2)]; else print "nan"}'; }

base=$(i=0; while [ $i -lt "$BENCH_RUNS" ]; do
	nice "$T/work" "$WORK" 2>&1 >/dev/null | sed -n 's/^wall-seconds //p'
	i=$((i + 1)); done | median)
echo "   work $WORK (two threads, CPU-bound): ${base}s alone (timed inside it); slow-downs below are over this"

# run_fg MODE HZ: runs fgrecord BENCH_RUNS times; prints
# "wall ownpct lost latency programwall" medians.
run_fg() {
	i=0
	: >"$T/fg.w"; : >"$T/fg.c"; : >"$T/fg.l"; : >"$T/fg.lat"; : >"$T/fg.pw"
	while [ $i -lt "$BENCH_RUNS" ]; do
		s=$(date +%s.%N)
		nice "$FG_BIN/fgrecord" -F "$2" --call-graph "$1" -o "$T/fg.stream" \
		    "$T/work" "$WORK" 2>"$T/fg.err"
		e=$(date +%s.%N)
		echo "$e - $s" | bc -l >>"$T/fg.w"
		pw=$(sed -n 's/^wall-seconds //p' "$T/fg.err")
		echo "$pw" >>"$T/fg.pw"
		pc=$(sed -n 's/^cpu-seconds [0-9]* //p' "$T/fg.err")
		own=$(sed -n 's/.*own CPU \([0-9.]*\) s.*/\1/p' "$T/fg.err")
		sed -n 's/.* \([0-9]*\) lost,.*/\1/p' "$T/fg.err" >>"$T/fg.l"
		echo "$own $pc" | awk '{ if ($2 > 0) printf "%.2f\n", 100 * $1 / $2 }' >>"$T/fg.c"
		echo "$e - $s - $pw" | bc -l >>"$T/fg.lat"
		i=$((i + 1))
	done
	echo "$(median <"$T/fg.w") $(median <"$T/fg.c") $(median_int <"$T/fg.l") $(median <"$T/fg.lat") $(median <"$T/fg.pw")"
}

# run_perf MODE HZ: prints "wall lost_chunks programwall" medians for
# perf record.
run_perf() {
	case $1 in dwarf) g="--call-graph dwarf";; fp) g="-g";; esac
	i=0
	: >"$T/pf.w"; : >"$T/pf.l"; : >"$T/pf.pw"
	while [ $i -lt "$BENCH_RUNS" ]; do
		s=$(date +%s.%N)
		nice perf record $g -F "$2" -o "$T/perf.data" "$T/work" "$WORK" \
		    >/dev/null 2>"$T/pf.err"
		e=$(date +%s.%N)
		echo "$e - $s" | bc -l >>"$T/pf.w"
		l=$(sed -n 's/.*lost \([0-9]*\) chunks.*/\1/p' "$T/pf.err")
		echo "${l:-0}" >>"$T/pf.l"
		sed -n 's/^wall-seconds //p' "$T/pf.err" >>"$T/pf.pw"
		i=$((i + 1))
	done
	echo "$(median <"$T/pf.w") $(median_int <"$T/pf.l") $(median <"$T/pf.pw")"
}

# Fixed costs: recording a program that does nothing.
fgfix=$(median_time nice "$FG_BIN/fgrecord" -o "$T/fix.stream" true)
line="   fixed cost (recording true): fgrecord ${fgfix}s"
if [ $have_perf = yes ]; then
	pfix=$(median_time nice perf record --call-graph dwarf -o "$T/fix.data" true)
	line="$line, perf record ${pfix}s (included in its slow-downs below)"
fi
echo "$line"

for mode in dwarf fp; do
	for hz in 999 2999; do
		set -- $(run_fg $mode $hz)
		fw=$1 own=$2 lost=$3 lat=$4 fpw=$5
		line="   $mode $hz Hz: fgrecord: whole command $(ratio "$fw" "$base")x (${fw}s), program $(ratio "$fpw" "$base")x (${fpw}s), own CPU ${own}% of the program's, lost $lost samples, latency after exit ${lat}s"
		if [ $have_perf = yes ]; then
			set -- $(run_perf $mode $hz)
			line="$line; perf record: whole command $(ratio "$1" "$base")x (${1}s), program $(ratio "$3" "$base")x (${3}s), outside the program (start-up, the pass over perf.data) $(echo "$1 $3" | awk '{ printf "%.3f", $1 - $2 }')s, lost $2 chunks; whole commands fgrecord/perf $(ratio "$fw" "$1")"
		fi
		echo "$line"
	done
done
[ $have_perf = yes ] || echo "   (perf record not usable here: no side-by-side figures)"

# Random intervals (--random-period) against the fixed period, at 999 Hz
# with dwarf stacks: the program's own CPU time (what it reads of its
# clock: the samples' interrupts and the interval set at each sample are
# charged to it, a wait for a CPU is not), bare, under --fixed-period and
# under --random-period, alternated run by run so that the machine's load
# falls on the three alike; the medians of each run's ratio to the bare
# run before it. On one thread (work MILLIONS 1, the thread started)
# and on the two threads work creates, whose events fgrecord opens as
# their fork records come (the perf sampler draws every thread's
# interval at each of its samples: fgrecord(1), Random intervals).
JIT_RUNS=${JIT_RUNS:-9}
for thr in 1 2; do
	: >"$T/jit.r"
	i=0
	while [ $i -lt "$JIT_RUNS" ]; do
		b=$(nice "$T/work" "$WORK" $thr 2>&1 >/dev/null | sed -n 's/^cpu-seconds [0-9]* //p')
		f=$(nice "$FG_BIN/fgrecord" -q --fixed-period -o "$T/jit.stream" "$T/work" "$WORK" $thr 2>&1 >/dev/null | sed -n 's/^cpu-seconds [0-9]* //p')
		r=$(nice "$FG_BIN/fgrecord" -q --random-period -o "$T/jit.stream" "$T/work" "$WORK" $thr 2>&1 >/dev/null | sed -n 's/^cpu-seconds [0-9]* //p')
		echo "$b $f $r" >>"$T/jit.r"
		i=$((i + 1))
	done
	echo "   random intervals, $thr thread(s), program CPU time over a bare run's (medians of $JIT_RUNS alternated runs): $(awk '$1 > 0 { print $2 / $1 }' "$T/jit.r" | median)x with --fixed-period, $(awk '$1 > 0 { print $3 / $1 }' "$T/jit.r" | median)x with --random-period, random over fixed $(awk '$2 > 0 { print $3 / $2 }' "$T/jit.r" | median)x"
done

# A deep C++ program: clang++ and g++ compiling a template-heavy file
# (bench/cxx/templates.cpp). For each compiler: the share of samples whose
# stack does not reach main ([truncated]) with the default stack copy, with
# the same without stitching (--no-stitch: stacks deeper than the copy are
# not completed from an earlier sample) and with the old default of 16 KiB,
# samples lost, and the compile's wall time
# under fgrecord against a bare compile (alternated, medians).
CXX_RUNS=${CXX_RUNS:-3}
src=$top/bench/cxx/templates.cpp
for cxx in clang++ g++; do
	command -v $cxx >/dev/null 2>&1 || { echo "   $cxx: not installed"; continue; }
	compile="$cxx -std=c++17 -O2 -c $src -o $T/cxx.o"
	$compile 2>"$T/cxx.err" || { echo "   $cxx cannot compile $src: $(head -1 "$T/cxx.err")"; continue; }
	: >"$T/cxx.tr"; : >"$T/cxx.lost"; : >"$T/cxx.tr16"; : >"$T/cxx.trns"
	i=0
	while [ $i -lt "$CXX_RUNS" ]; do
		nice "$FG_BIN/fgrecord" -o "$T/cxx.stream" $compile 2>"$T/cxx.fgerr"
		sed -n 's/.* lost, \([0-9.]*\)% truncated.*/\1/p' "$T/cxx.fgerr" >>"$T/cxx.tr"
		sed -n 's/.* \([0-9]*\) lost,.*/\1/p' "$T/cxx.fgerr" >>"$T/cxx.lost"
		nice "$FG_BIN/fgrecord" --no-stitch -o "$T/cxx.stream" $compile 2>"$T/cxx.fgerr"
		sed -n 's/.* lost, \([0-9.]*\)% truncated.*/\1/p' "$T/cxx.fgerr" >>"$T/cxx.trns"
		nice "$FG_BIN/fgrecord" --call-graph dwarf,16384 -o "$T/cxx.stream" $compile 2>"$T/cxx.fgerr"
		sed -n 's/.* lost, \([0-9.]*\)% truncated.*/\1/p' "$T/cxx.fgerr" >>"$T/cxx.tr16"
		i=$((i + 1))
	done
	set -- $(median_alternating "$CXX_RUNS" bare "nice $compile" \
	    fgrecord "nice $FG_BIN/fgrecord -q -o $T/cxx.stream $compile")
	echo "   $cxx -O2 -c templates.cpp: ${2}s bare, ${4}s under fgrecord (x$(ratio "$4" "$2")); truncated $(median <"$T/cxx.tr")% with the default copy ($(sed -n 's/.*callgraph dwarf \([0-9]*\)$/\1/p' "$T/cxx.stream" | head -1) bytes), $(median <"$T/cxx.trns")% with --no-stitch, $(median <"$T/cxx.tr16")% with 16384; lost $(median_int <"$T/cxx.lost")"
done
