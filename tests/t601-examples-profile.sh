#!/bin/sh
# t601-examples-profile: examples/run profiles an example before and after
# its fix with the real tools and real perf_event_open, and its report and
# pictures say what the example teaches: the slow function is the wide
# frame before, and is gone after.
. "$(dirname "$0")/lib.sh"
plan 2
EX=$TOP/examples
export RUNS=3 CMP_RUNS=3

# pct LINE-PATTERN FILE: the first percentage on the line matching PATTERN.
pct() { sed -n "s/.*$1 *\([0-9.]*\)%.*/\1/p" "$2" | head -n 1; }

if ! perf_ok; then
	skip "examples/run alloc-loop c" "$why"
	skip "examples/run alloc-loop rust" "$why"
	skip_rest
fi

check "alloc-loop (C): report, before/after/diff SVGs, the hot frame moves" '
	{ "$EX/run" -a 300000 -o out alloc-loop c >report 2>err ||
		{ cat report err; false; }; } &&
	cat report &&
	grep_q "^alloc-loop (c): same result before and after" report &&
	grep_q "^  before .* find_pair_slow .*% of [0-9]* samples" report &&
	grep_q "^  after .* find_pair_fast " report &&
	grep_q "^  speed-up [0-9.]*x (CPU time [0-9.]*x)   out/{before,after,diff,diff-removed}.svg\$" report &&
	grep_q "^  verdict, 3 runs a side: find_pair_slow: [0-9]* ms -> 0 ms (-[0-9]* ms ± [0-9]* ms): faster; whole run .* -> .* (-.*): faster\$" report &&
	test "$(tail -n 1 report | cut -c 1-10)" = "  verdict," &&
	test "$(sed -n "2s/	.*//p" out/compare.tsv)" = "[all]" &&
	b=$(pct find_pair_slow report) &&
	awk -v b="$b" "BEGIN { exit !(b >= 50) }" &&
	for f in before after diff diff-removed; do
		head -c 300 out/$f.svg | grep -q "<svg" || { echo "out/$f.svg: not an SVG"; exit 1; }
	done &&
	grep_q "find_pair_slow" out/before.svg &&
	grep_q "map_insert" out/before.folded &&
	! grep -q "find_pair_slow" out/after.folded &&
	grep_q "find_pair_fast" out/after.svg &&
	grep_q "find_pair_fast" out/diff.svg &&
	grep_q "map_insert" out/diff-removed.svg &&
	grep_q "find_pair_slow.* [1-9][0-9]* 0\$" out/diff.folded &&
	grep_q "find_pair_slow.* 0 [1-9][0-9]*\$" out/diff-removed.folded &&
	s=$(sed -n "s/^  speed-up .*(CPU time \([0-9.]*\)x).*/\1/p" report) &&
	awk -v s="$s" "BEGIN { exit !(s > 1.5) }"
'

if command -v rustc >/dev/null 2>&1; then
	check "alloc-loop (Rust): slow::find_pair is hot before, the HashMap shows" '
		{ "$EX/run" -a 200000 -o out alloc-loop rust >report 2>err ||
			{ cat report err; false; }; } &&
		cat report &&
		b=$(pct slow::find_pair report) &&
		awk -v b="$b" "BEGIN { exit !(b >= 50) }" &&
		grep_q "alloc_loop::slow::find_pair" out/before.folded &&
		grep -q "hashbrown\\|HashMap\\|RandomState" out/before.folded &&
		! grep -q "alloc_loop::slow::find_pair" out/after.folded &&
		grep_q "alloc_loop::fast::find_pair" out/after.folded
	'
else
	skip "examples/run alloc-loop rust" "rustc not found (Debian: apt-get install rustc)"
fi
done_testing
