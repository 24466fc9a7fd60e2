#!/bin/sh
# t621-examples-alloc: examples/run on parse-alloc, the example slowed by
# its allocations, with a fgrecord that has --alloc (issue 44): the report
# gives the allocations and bytes a line before and after, the fix takes a
# line from several allocations to none ("fewer"), and the heap graphs are
# drawn in bytes. Without --alloc the report is what it was.
. "$(dirname "$0")/lib.sh"
plan 1
# FG_BIN=DIR runs the tools of DIR (a recorder built elsewhere) first.
[ -n "${FG_BIN:-}" ] && PATH=$FG_BIN:$PATH
EX=$TOP/examples
export RUNS=1 CMP_RUNS=2

if ! perf_ok; then
	skip "examples/run parse-alloc c: allocations a line, before and after" "$why"
	done_testing
	exit 0
fi

# -c 65536: enough samples in 20 passes that a line's allocations are
# estimated within a few percent; before, a line is split into at least
# five fields, each copied (and joined), so more than 5 a line; after, the
# only allocations are the log and the summary, made once.
check "examples/run parse-alloc c: allocations a line, before and after" '
	{ FGALLOC_OPTS="-c 65536" "$EX/run" -a 20 -o out parse-alloc c >report 2>err ||
		{ cat report err; false; }; } &&
	cat report &&
	grep_q "^  allocations a line: before [0-9.]* ([0-9.]* bytes), after [0-9.]* ([0-9.]* bytes)   " report &&
	b=$(sed -n "s/^  allocations a line: before \([0-9.]*\) .*/\1/p" report) &&
	a=$(sed -n "s/.*, after \([0-9.]*\) (.*/\1/p" report) &&
	awk -v b="$b" -v a="$a" "BEGIN { exit !(b >= 5 && a < 0.1) }" &&
	grep_q "^  verdict, 2 runs a side: summarize_slow fewer: [0-9.]* -> 0 allocations per line " report &&
	grep_q "^# event : alloc-bytes " out/alloc/before.1 &&
	grep_q ";summarize_slow;.*;\[alloc-bytes\] [0-9]*\$" out/alloc-before.folded &&
	grep_q "<title>summarize_slow ([0-9.]* [KMG]iB, " out/alloc-before.svg
'

done_testing
