#!/bin/sh
# bench/offcpu.sh: the cost of fgrecord --off-cpu on a program that
# switches out tens of thousands of times a second (tests/record/switcher.c,
# two threads handing a token back and forth): its wall time alone and
# under fgrecord --off-cpu (dwarf stacks with the default 8 KiB copy and
# with 16 KiB, and fp stacks), the ratio, the events
# lost, and perf record -e sched:sched_switch -g on the same program where
# perf can run it. Runs alternate between the ways of running, so that a
# change in the machine's load falls on all alike; BENCH_RUNS repetitions,
# medians.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
FG_BIN=${FG_BIN:-$top/bin}
BENCH_RUNS=${BENCH_RUNS:-3}
T=${BENCH_TMP:-$top/build/bench}/offcpu
mkdir -p "$T"
ROUNDS=${OFFCPU_BENCH_ROUNDS:-25000}
WORK=${OFFCPU_BENCH_WORK:-10}		# microseconds of work per hand-over

cc=${CC:-cc}
$cc -O2 -g -pthread -o "$T/switcher" "$top/tests/record/switcher.c" || {
	echo "   cannot build tests/record/switcher.c"; exit 1; }
if ! "$FG_BIN/fgrecord" -q --off-cpu -o /dev/null true 2>"$T/probe.err"; then
	echo "   fgrecord --off-cpu cannot record here: $(head -1 "$T/probe.err")"
	exit 0
fi
have_perf=no
if command -v perf >/dev/null 2>&1 &&
    perf record -q -e sched:sched_switch -g -o "$T/probe.data" true \
    >/dev/null 2>&1; then
	have_perf=yes
fi

med() { sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "%.3f", a[int((NR + 1) / 2)]; else printf "nan" }'; }

# One run of each way, in turn, BENCH_RUNS times. The program's own wall
# time (wall-seconds) is what counts: it leaves out the recorders' start
# and end.
: >"$T/alone"; : >"$T/rate"; : >"$T/perf"; : >"$T/lost.perf"
ways="dwarf dwarf,16384 fp"	# dwarf: the --off-cpu default copy, 8192 bytes
for g in $ways; do : >"$T/$g"; : >"$T/lost.$g"; done
i=0
while [ $i -lt "$BENCH_RUNS" ]; do
	nice "$T/switcher" "$ROUNDS" "$WORK" 2>"$T/err" >/dev/null
	sed -n 's/^wall-seconds //p' "$T/err" >>"$T/alone"
	sed -n 's/^switches-per-second //p' "$T/err" >>"$T/rate"
	for g in $ways; do
		nice "$FG_BIN/fgrecord" --off-cpu --call-graph $g -o "$T/$g.stream" \
		    "$T/switcher" "$ROUNDS" "$WORK" 2>"$T/err" >/dev/null
		sed -n 's/^wall-seconds //p' "$T/err" >>"$T/$g"
		sed -n 's/.* \([0-9]*\) lost,.*/\1/p' "$T/err" >>"$T/lost.$g"
	done
	if [ $have_perf = yes ]; then
		nice perf record -e sched:sched_switch -g -o "$T/perf.data" \
		    "$T/switcher" "$ROUNDS" "$WORK" 2>"$T/err" >/dev/null
		sed -n 's/^wall-seconds //p' "$T/err" >>"$T/perf"
		l=$(sed -n 's/.*lost \([0-9]*\) chunks.*/\1/p' "$T/err")
		echo "${l:-0}" >>"$T/lost.perf"
	fi
	i=$((i + 1))
done

alone=$(med <"$T/alone")
echo "   switcher $ROUNDS rounds, ${WORK} us of work each: ${alone}s alone, $(med <"$T/rate") switches/s"
for g in $ways; do
	w=$(med <"$T/$g")
	echo "   fgrecord --off-cpu --call-graph $g: ${w}s, slow-down $(ratio "$w" "$alone") (target 1.3 at most), lost $(med <"$T/lost.$g" | cut -d. -f1) events"
done
if [ $have_perf = yes ]; then
	w=$(med <"$T/perf")
	echo "   perf record -e sched:sched_switch -g: ${w}s, slow-down $(ratio "$w" "$alone"), lost $(med <"$T/lost.perf" | cut -d. -f1) chunks"
else
	echo "   (perf record -e sched:sched_switch not usable here: no side-by-side figure)"
fi
