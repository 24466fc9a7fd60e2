#!/bin/sh
# t510-annotate-fgsym: fgsym --annotate and --annotate-to end to end, on
# perf script output and on fgrecord's stream, for the division loop of
# tests/annotate/hot.c built -O2 -g as a PIE (so perf prints file offsets
# that fgsym must convert).
. "$(dirname "$0")/lib.sh"
plan 7
. "$TESTS/annotate/lib.sh"

FX=$TMP/fx
mkdir -p "$FX"
NAMES='annotate prints the listing; the division or its skid in the top 3
annotate: percentages per function sum to 100, source lines interleaved
annotate=1 lists one function
annotate-to leaves the stream byte-identical and writes the same listing
a missing file is named, the rest still annotated
bad annotate values are usage errors'

have_opt=
if fgsym --annotate </dev/null >/dev/null 2>&1; then
	have_opt=yes
fi

why=
if test -z "$have_opt"; then
	why='fgsym has no --annotate yet'
elif ! cc -O2 -g -o "$FX/hot" "$TESTS/annotate/hot.c" 2>"$FX/cc.log"; then
	why="cannot build the fixture: $(head -1 "$FX/cc.log")"
elif ! perf_ok; then
	:
elif (cd "$FX" && perf record -q -e cpu-clock -F 2000 -g -o p.data \
	./hot 20000000 >/dev/null 2>perf.err) &&
     perf script -i "$FX/p.data" >"$FX/perf.txt" 2>/dev/null &&
     test -s "$FX/perf.txt"; then
	:
else
	why="perf record failed: $(head -1 "$FX/perf.err" 2>/dev/null)"
fi

if test -n "$why"; then
	_old=$IFS; IFS='
'
	for n in $NAMES; do skip "$n" "$why"; done
	IFS=$_old
	skip_rest
fi

check 'annotate prints the listing; the division or its skid in the top 3' '
	fgsym --annotate <"$FX/perf.txt" >out 2>err &&
	grep_q "^fgsym annotate: " out &&
	grep_q "^    1 .*divide_loop (hot)" out &&
	div_in_top3 out divide_loop &&
	awk "length > 100 { print; bad = 1 } END { exit bad }" out
'

check 'annotate: percentages per function sum to 100, source lines interleaved' '
	fgsym --annotate <"$FX/perf.txt" >out &&
	sums_to_100 out &&
	grep_q "^ \{20\}hot\.c:[0-9]*  \[inlined step\]  return x + (x \* 2654435761u + i) / d" out &&
	grep_q "call.*<helper>" out
'

check 'annotate=1 lists one function' '
	fgsym --annotate=1 <"$FX/perf.txt" >out &&
	grep_q "^== 1\. " out &&
	! grep -q "^== 2\. " out
'

check 'annotate-to leaves the stream byte-identical and writes the same listing' '
	{ fgsym <"$FX/perf.txt" >plain 2>err1; echo $? >st1; } &&
	{ fgsym --annotate-to=list <"$FX/perf.txt" >stream 2>err2; echo $? >st2; } &&
	test_cmp st1 st2 &&
	cmp plain stream &&
	test -s stream &&
	fgsym --annotate <"$FX/perf.txt" >direct &&
	test_cmp direct list
'

check 'a missing file is named, the rest still annotated' '
	sed "s|(\([^)]*\)/hot)\$|(/nonexistent/dir/hot)|" "$FX/perf.txt" >gone.txt &&
	cat "$FX/perf.txt" >>gone.txt &&
	expect_status 0 fgsym --annotate <gone.txt >out 2>err &&
	grep_q "/nonexistent/dir/hot" err &&
	grep_q "/nonexistent/dir/hot" out &&
	grep_q "^== 1\. divide_loop" out
'

check 'bad annotate values are usage errors' '
	expect_status 2 fgsym --annotate=x </dev/null >out 2>err &&
	grep_q "x" err &&
	expect_status 2 fgsym --annotate-to= </dev/null >out 2>err
'

if command -v fgrecord >/dev/null && fgrecord -q true >/dev/null 2>&1; then
	check 'fgrecord | fgsym --annotate: the division or its skid in the top 3' '
		expect_status 0 fgrecord -q "$FX/hot" 20000000 >rec.txt 2>rec.err &&
		expect_status 0 fgsym --annotate <rec.txt >out 2>err &&
		div_in_top3 out divide_loop
	'
else
	skip 'fgrecord | fgsym --annotate: the division or its skid in the top 3' \
		'fgrecord cannot record here'
fi

done_testing
