#!/bin/sh
# t602-examples-demo: scripts/demo (what `make demo` runs) writes a flame
# graph and names the top functions, by recording where perf_event_open
# is allowed, and from the shipped examples/demo.stream where it is not.
. "$(dirname "$0")/lib.sh"
plan 3

check "examples/demo.stream is small, clean, and shows the slow search" '
	size=$(wc -c <"$TOP/examples/demo.stream") &&
	[ "$size" -lt 300000 ] &&
	fgfold "$TOP/examples/demo.stream" >folded 2>err &&
	! [ -s err ] &&
	awk "{ t += \$NF } /;find_pair_slow/ { h += \$NF }
	    END { exit !(t >= 200 && h / t >= 0.5) }" folded
'

# A stand-in for fgrecord on a machine that forbids perf_event_open; the
# other three tools are the real ones.
mkdir -p "$TMP/denied"
cat >"$TMP/denied/fgrecord" <<'EOS'
#!/bin/sh
echo "fgrecord: perf_event_open failed: Permission denied (kernel.perf_event_paranoid is 4)" >&2
exit 2
EOS
chmod +x "$TMP/denied/fgrecord"
for t in fgsym fgfold fgsvg; do ln -s "$TOP/bin/$t" "$TMP/denied/$t"; done

check "demo without perf_event_open: passes the reason on, draws demo.stream" '
	{ FG_BIN=$TMP/denied "$TOP/scripts/demo" -o demo.svg >out 2>err ||
		{ cat out err; false; }; } &&
	grep_q "^fgrecord: perf_event_open failed: Permission denied (kernel.perf_event_paranoid is 4)\$" err &&
	grep_q "drawing the recorded stream examples/demo.stream" err &&
	grep_q "wrote demo.svg, from the recorded stream" out &&
	grep_q "map_free\\|find_pair_slow" out &&
	head -c 300 demo.svg | grep -q "<svg" &&
	grep_q find_pair_slow demo.svg
'

if perf_ok; then
	check "demo records examples/alloc-loop and names the top functions" '
		{ "$TOP/scripts/demo" -o demo.svg >out 2>err || { cat out err; false; }; } &&
		cat out &&
		grep_q "wrote demo.svg, from a fresh recording" out &&
		grep_q "self%.*total%.*function" out &&
		grep_q "map_free\\|map_insert\\|find_pair_slow\\|malloc\\|free" out &&
		grep_q find_pair_slow demo.svg
	'
else
	skip "demo records examples/alloc-loop" "$why"
fi
done_testing
