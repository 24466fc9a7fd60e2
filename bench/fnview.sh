#!/bin/sh
# bench/fnview.sh: the SVG's function view in headless Chromium, on the
# profile of 100,000 unique deep stacks that t290 draws: how long the
# page takes to load, and the function view of a method on half of the
# stacks to open and to close, each until painted (medians of
# BENCH_RUNS, at least 7). flamegraph.pl and inferno have no function
# view to compare with. Needs /usr/bin/chromium and tests/browser's
# playwright-core (make testdeps).
set -u
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x /usr/bin/chromium ] || [ ! -d "$here/../tests/browser/node_modules/playwright-core" ] ||
    ! command -v node >/dev/null 2>&1; then
	echo "   skipped: needs /usr/bin/chromium, node and tests/browser's playwright-core (make testdeps)"
	exit 0
fi
runs=$((BENCH_RUNS < 7 ? 7 : BENCH_RUNS))
in=$BENCH_TMP/fnview.folded
awk 'function rnd() { s = (s * 16807) % 2147483647; return s / 2147483647 }
BEGIN { s = 11; for (i = 0; i < 100000; i++) { d = 15 + int(rnd() * 45); l = "main";
	for (j = 1; j < d; j++) l = l ";ns" j % 5 "::Class" int(rnd() * (j < 4 ? 2 : (j < 10 ? 5 : 40))) "::method_" j;
	c = 1; while (rnd() < 0.3) c *= 4; print l, c } }' >"$in"
"$FG_BIN/fgsvg" "$in" >"$in.svg" || exit 1
rm -f "$in"
echo "   SVG: 100,000 unique stacks, $(wc -c <"$in.svg" | tr -d ' ') bytes"
node "$here/fnview.js" "$in.svg" 'ns3::Class0::method_3' "$runs" >"$in.out" || exit 1
med() { tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "   load                $(sed -n 's/^load //p' "$in.out") ms"
echo "   search (a third)    $(sed -n 's/^search //p' "$in.out") ms"
echo "   zoom                $(sed -n 's/^zoom //p' "$in.out") ms"
o=$(sed -n 's/^open //p' "$in.out") c=$(sed -n 's/^close //p' "$in.out")
echo "   function view open  $(echo "$o" | med) ms   (median of $runs: $o; target 300 ms)"
echo "   back to the graph   $(echo "$c" | med) ms   (median of $runs: $c)"
