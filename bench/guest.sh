#!/bin/sh
# bench/guest.sh: what the program notices of fgrecord, beside the bare
# run, for both samplers (BENCH_RUNS repetitions alternated, medians):
#   - tests/record/waiter.c, GUEST_WAITS waits of 1 ms (epoll_wait and
#     sigtimedwait): the waits that ended with EINTR (the goal is 0), and
#     the median wait, in CPU mode at -F 10000, --off-cpu and --wall;
#   - tests/record/spawner.c, GUEST_THREADS threads created and joined
#     one after another: threads a second, and the ratio to bare.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
FG_BIN=${FG_BIN:-$top/bin}
BENCH_RUNS=${BENCH_RUNS:-3}
T=${BENCH_TMP:-$top/build/bench}/guest
mkdir -p "$T"
N=${GUEST_WAITS:-3000}
M=${GUEST_THREADS:-10000}
cc=${CC:-cc}
$cc -O2 -g -pthread -o "$T/waiter" "$top/tests/record/waiter.c" &&
$cc -O2 -g -pthread -o "$T/spawner" "$top/tests/record/spawner.c" || {
	echo "   cannot build tests/record/waiter.c and spawner.c"; exit 1; }
samplers=
for s in perf ptrace; do
	if "$FG_BIN/fgrecord" -q --sampler=$s -o /dev/null true 2>"$T/probe.err"; then
		samplers="$samplers $s"
	else
		echo "   the $s sampler cannot run here: $(head -1 "$T/probe.err")"
	fi
done
median() { sort -g | awk '{a[NR]=$1} END {if (NR) printf "%.0f\n", a[int((NR+1)/2)]; else print "nan"}'; }
# eintr FILE: the EINTR waiter counted; waitus FILE: its median wait
eintr() { awk '/^eintr-/ { n += $2 } END { print n + 0 }' "$1"; }
waitus() { awk '/^wait-us / { print $2 }' "$1"; }
rate() { awk '/^rate / { print $2 }' "$1"; }

modes="cpu off wall"
for f in bare.e bare.w bare.r; do : >"$T/$f"; done
for s in $samplers; do for m in $modes; do : >"$T/$s.$m.e"; : >"$T/$s.$m.w"; done; : >"$T/$s.r"; done
i=0
while [ $i -lt "$BENCH_RUNS" ]; do
	"$T/waiter" "$N" 2>"$T/w.err"
	eintr "$T/w.err" >>"$T/bare.e"; waitus "$T/w.err" >>"$T/bare.w"
	"$T/spawner" "$M" 2>"$T/s.err"; rate "$T/s.err" >>"$T/bare.r"
	for s in $samplers; do
		for m in $modes; do
			case $m in cpu) o="-F 10000";; off) o=--off-cpu;; wall) o=--wall;; esac
			"$FG_BIN/fgrecord" --sampler=$s $o -o /dev/null "$T/waiter" "$N" 2>"$T/w.err"
			eintr "$T/w.err" >>"$T/$s.$m.e"; waitus "$T/w.err" >>"$T/$s.$m.w"
		done
		"$FG_BIN/fgrecord" -q --sampler=$s -o /dev/null "$T/spawner" "$M" 2>"$T/s.err"
		rate "$T/s.err" >>"$T/$s.r"
	done
	i=$((i + 1))
done
echo "   waiter, $N waits of 1 ms: bare $(median <"$T/bare.e") EINTR, median wait $(median <"$T/bare.w") us"
for s in $samplers; do
	for m in $modes; do
		echo "   --sampler=$s $m: $(median <"$T/$s.$m.e") EINTR (goal 0), median wait $(median <"$T/$s.$m.w") us"
	done
done
b=$(median <"$T/bare.r")
echo "   spawner, $M threads one after another: bare $b/s"
for s in $samplers; do
	r=$(median <"$T/$s.r")
	echo "   --sampler=$s: $r/s, $(ratio "$r" "$b") of bare"
done
