#!/bin/sh
# bench/fgpprof.sh: fgpprof on a million samples, side by side with fgfold
# on the same file: the project's capture tests/fgfold/perf-cxx.txt
# repeated to 1,000,000 samples ("repeated"), and the same with every
# sample's leaf address made unique ("varied"), the worst case, where every
# sample is a new location and a new stack. Peak memory shows what grows
# with unique locations and what does not.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/tests/fgfold/perf-cxx.txt
rep=$BENCH_TMP/pprof-repeated.txt
var=$BENCH_TMP/pprof-varied.txt
want=1000000
if [ ! -s "$var" ]; then
	per=$(grep -c ' cpu-clock' "$src")
	n=$((want / per + 1))
	i=0; while [ $i -lt $n ]; do cat "$src"; i=$((i + 1)); done |
	    awk -v want=$want -v RS= -v ORS='\n\n' 'NR <= want' >"$rep"
	perl -pe 'if (/ cpu-clock/) { $f = 1 }
	    elsif ($f && s/^(\s+)[0-9a-f]+ /$1 . sprintf("%x ", ++$n)/e) { $f = 0 }' \
	    "$rep" >"$var"
fi
for input in "$rep" "$var"; do
	mb=$(($(wc -c <"$input") / 1048576))
	ns=$(grep -c ' cpu-clock' "$input")
	t=$(median_time "$FG_BIN/fgpprof" "$input")
	tf=$(median_time "$FG_BIN/fgfold" "$input")
	rss= rssf= size=
	if [ -x /usr/bin/time ]; then
		# CPU seconds too: on a busy machine they move less than the wall.
		rss=$(/usr/bin/time -f '%U %S %M' "$FG_BIN/fgpprof" "$input" 2>&1 >/dev/null | tail -1 |
		    awk '{ printf "%.2f s CPU, peak RSS %d KB", $1 + $2, $3 }')
		rssf=$(/usr/bin/time -f '%U %S %M' "$FG_BIN/fgfold" "$input" 2>&1 >/dev/null | tail -1 |
		    awk '{ printf "%.2f s CPU, peak RSS %d KB", $1 + $2, $3 }')
		rss=", $rss" rssf=", $rssf"
	fi
	size=$("$FG_BIN/fgpprof" "$input" | wc -c)
	echo "fgpprof $(basename "$input" .txt) ($ns samples, ${mb} MB): median ${t} s,"\
	    "$(echo "$ns $t" | awk '{ printf "%.0f", $1 / $2 / 1000 }')k samples/s$rss, profile $((size / 1024)) KB"
	echo "  fgfold on the same: median ${tf} s$rssf; fgpprof takes $(ratio "$t" "$tf")x its time"
done
