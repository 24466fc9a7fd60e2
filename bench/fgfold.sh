#!/bin/sh
# bench/fgfold.sh: fgfold's speed on a large perf script capture, side by
# side with stackcollapse-perf.pl (FLAMEGRAPH_DIR) and inferno-collapse-perf
# (INFERNO_DIR or PATH), on the same file in the same run.
#
# The input is the project's own capture, tests/fgfold/perf-cxx.txt, repeated
# to about 128 MB ("repeated"), and the same with every sample's leaf address
# made unique ("varied"), which defeats fgfold's sample cache: real captures
# fall between the two.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/tests/fgfold/perf-cxx.txt
rep=$BENCH_TMP/fold-repeated.txt
var=$BENCH_TMP/fold-varied.txt
if [ ! -s "$var" ]; then
	n=$((128 * 1024 * 1024 / $(wc -c <"$src") + 1))
	i=0; while [ $i -lt $n ]; do cat "$src"; i=$((i + 1)); done >"$rep"
	perl -pe 'if (/ cpu-clock/) { $f = 1 }
	    elsif ($f && s/^(\s+)[0-9a-f]+ /$1 . sprintf("%x ", ++$n)/e) { $f = 0 }' \
	    "$rep" >"$var"
fi
pl=${FLAMEGRAPH_DIR:+$FLAMEGRAPH_DIR/stackcollapse-perf.pl}
inf=
if [ -n "${INFERNO_DIR:-}" ] && [ -x "$INFERNO_DIR/inferno-collapse-perf" ]; then
	inf=$INFERNO_DIR/inferno-collapse-perf
elif command -v inferno-collapse-perf >/dev/null 2>&1; then
	inf=$(command -v inferno-collapse-perf)
fi
# The version compared against goes with the figures.
[ -n "$inf" ] && echo "  inferno: $inf, $("$inf" --version 2>&1 | head -1)"
refruns=${BENCH_REF_RUNS:-3}
for input in "$rep" "$var"; do
	mb=$(($(wc -c <"$input") / 1048576))
	t=$(median_time "$FG_BIN/fgfold" --period "$input")
	rss=
	if [ -x /usr/bin/time ]; then
		rss=$(/usr/bin/time -f %M "$FG_BIN/fgfold" --period "$input" 2>&1 >/dev/null | tail -1)
		rss=", peak RSS ${rss} KB"
	fi
	echo "fgfold $(basename "$input" .txt) (${mb} MB): median ${t} s, $(echo "$mb $t" | awk '{ printf "%.0f", $1 / $2 }') MB/s$rss"
	if [ -n "$pl" ] && [ -f "$pl" ]; then
		tp=$(BENCH_RUNS=$refruns median_time perl "$pl" "$input")
		echo "  stackcollapse-perf.pl: median ${tp} s; fgfold is $(ratio "$tp" "$t")x as fast"
	else
		echo "  stackcollapse-perf.pl: not found (set FLAMEGRAPH_DIR)"
	fi
	if [ -n "$inf" ]; then
		ti=$(BENCH_RUNS=$refruns median_time "$inf" --nthreads 1 "$input")
		echo "  inferno-collapse-perf (1 thread): median ${ti} s; fgfold is $(ratio "$ti" "$t")x as fast"
	else
		echo "  inferno-collapse-perf: not found (set INFERNO_DIR)"
	fi
done
