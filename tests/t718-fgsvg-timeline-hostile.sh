#!/bin/sh
# t718-fgsvg-timeline-hostile: streams that a few hundred bytes or a few
# MB of hostile input made slow or huge in fgsvg's timeline (issue 33),
# each ending within seconds, its memory bounded, one line said with
# FILE:LINE and exit 1 where the input is bad: an off-CPU wait whose time
# plus period passes 2^64-1 ns (it looped toward 2^64 bins); 80,000
# overlapping waits of one thread (34 s and more, each spread over up to
# 400 bins); 80,000 threads each waiting the whole run; 100,000 threads
# (megabytes of rows over the budget), and a #th= link naming 20,000 of
# them (len x threads in the page); a CRLF stream (drawn as an empty
# graph before); and a --wall graph's tooltips giving each frame's on- and
# off-CPU time.
. "$(dirname "$0")/lib.sh"
plan 10

# bounded KB CMD...: runs CMD, stopped after 120 s (a guard: no check
# here measures time), and fails when its peak RSS passed KB kilobytes;
# else returns CMD's status. The peak means nothing under ASan: there,
# only the guard.
if [ -x /usr/bin/time ] && ! nm "$TOP/bin/fgsvg" 2>/dev/null | grep -q __asan_init; then
	RSS=1
else
	RSS=
fi
bounded() {
	_kb=$1; shift
	if [ -z "$RSS" ]; then
		timeout 120 "$@"
		return
	fi
	/usr/bin/time -f %M -o rss timeout 120 "$@"
	_st=$?
	_got=$(tail -1 rss)
	[ "$_got" -le "$_kb" ] || { echo "peak RSS ${_got} KB, over ${_kb} KB: $*"; return 125; }
	return $_st
}
# wait TIME PERIOD [STACK [TID]]: one off-CPU sample
wait1() {
	printf "app 1/%s %s: %s offcpu-time:\n\t1 %s (/bin/app)\n\t2 main (/bin/app)\n\n" \
		"${4:-1}" "$1" "$2" "${3:-sleep}"
}
on1() {
	printf "app 1/1 %s: 1000 cpu-clock:\n\t1 f (/bin/app)\n\t2 main (/bin/app)\n\n" "$1"
}

# The time stamp is at most 10 digits of seconds (fg-stream(5)), about
# 10^19 ns; a period of up to 2^64-1 then carries the end past 2^64.
check 'a wait past 2^64-1 ns: cut there, said with FILE:LINE, exit 1, bounded' '
	{ on1 1.000000; wait1 9999999999.000000 9991986373268078590; } >in &&
	expect_status 1 bounded 100000 fgsvg in >out.svg 2>err &&
	grep -qx "fgsvg: in:5: an off-CPU wait ends past 2^64-1 ns (its time plus its period): the timeline cuts it there (1 wait so); the time or the period is wrong" err &&
	test $(wc -l <err) = 1 && grep_q "var fgtl = " out.svg &&
	{ wait1 9999999999.999999 8446744073709552617; on1 1.000000; } >in2 &&
	expect_status 1 bounded 100000 fgsvg in2 >out2.svg 2>err2 &&
	grep_q "^fgsvg: in2:1: an off-CPU wait ends past 2^64-1 ns" err2 &&
	{ wait1 0.000001 18446744073709550615; on1 1.000000; } >ok &&
	expect_status 0 bounded 100000 fgsvg ok >ok.svg 2>okerr && test ! -s okerr
'

check '80,000 overlapping waits of one thread: weighed where each began, said, bounded' '
	awk "BEGIN { for (i = 0; i < 80000; i++) { t = 1000000 + i * 10;
		printf \"app 1/1 %d.%06d: 100000000 offcpu-time:\n\t1 w%d (/bin/app)\n\t2 main (/bin/app)\n\n\",
		t / 1000000, t % 1000000, i % 50 } }" >in &&
	expect_status 1 bounded 300000 fgsvg in >out.svg 2>err &&
	grep -qx "fgsvg: in:5: an off-CPU wait begins before its thread.s previous one ended (a thread waits for one thing at a time): the timeline weighs it where it began (79992 waits so); give each thread.s waits in time order, apart" err &&
	test $(wc -l <err) = 1 && grep_q "var fgtl = " out.svg &&
	grep_q "<title>all (8000.00 s, 100%)" out.svg
'

check '80,000 overlapping waits, each its own stack: bounded' '
	awk "BEGIN { for (i = 0; i < 80000; i++) { t = 1000000 + i * 10;
		printf \"app 1/1 %d.%06d: 100000000 offcpu-time:\n\t1 w%d (/bin/app)\n\t2 main (/bin/app)\n\n\",
		t / 1000000, t % 1000000, i } }" >in &&
	expect_status 1 bounded 300000 fgsvg in >out.svg 2>err &&
	grep_q "^fgsvg: in:5: an off-CPU wait begins before" err && test $(wc -l <err) = 1
'

check 'a thread whose waits follow each other (by a microsecond): spread, nothing said' '
	{ wait1 1.000000 1000000000; wait1 2.000000 500000000 other; wait1 2.499999 500001000 third; on1 3.5; } >in &&
	expect_status 0 fgsvg in >out.svg 2>err && test ! -s err
'

check '80,000 threads each waiting the whole run: fewer bins, rows within the budget' '
	awk "BEGIN { for (i = 0; i < 80000; i++) { t = 1000000 + i * 10;
		printf \"app 1/%d %d.%06d: 1000000000 offcpu-time:\n\t1 w%d (/bin/app)\n\t2 main (/bin/app)\n\n\",
		i + 1, t / 1000000, t % 1000000, i % 50 } }" >in &&
	expect_status 0 bounded 300000 fgsvg --timeline-budget 0.25 in >out.svg 2>err && test ! -s err &&
	expect_status 0 fgsvg --no-timeline in >no.svg &&
	grep_q "threads in one row" out.svg &&
	test $(($(wc -c <out.svg) - $(wc -c <no.svg))) -le $((262144 + $(wc -c <"$TOP/common/svg/timeline.js") + 4096))
'

check '8,000 threads waiting the whole run beside a busy one: fewer bins, said in the page' '
	awk "BEGIN { for (i = 0; i < 4000; i++) { t = 1000000 + i * 250;
		printf \"app 1/99999 %d.%06d: 1000 cpu-clock:\n\t1 f (/bin/app)\n\t2 main (/bin/app)\n\n\", t / 1000000, t % 1000000 }
		for (i = 0; i < 8000; i++) { t = 1000000 + i;
		printf \"app 1/%d %d.%06d: 1000000000 offcpu-time:\n\t1 w (/bin/app)\n\t2 main (/bin/app)\n\n\", i + 1, t / 1000000, t % 1000000 } }" >in &&
	expect_status 0 bounded 200000 fgsvg --timeline-budget 100 in >out.svg 2>err && test ! -s err &&
	grep_q "nb:200, " out.svg &&
	grep_q "note:\"200 bins: the off-CPU waits of so many threads span too many\"" out.svg
'

# The threads past what half the budget holds share one row, said in the
# page's note; before, 100,000 threads were 3 MB of rows whatever the
# budget (6 MB with longer names).
check '100,000 threads: their rows within the budget, the rest in one row' '
	awk "BEGIN { for (i = 0; i < 100000; i++) { t = 1000000 + i * 10;
		printf \"app 1/%d %d.%06d: 1000000 cpu-clock:\n\t1 f (/bin/app)\n\t2 main (/bin/app)\n\n\",
		i + 2, t / 1000000, t % 1000000 } }" >th.txt &&
	expect_status 0 bounded 200000 fgsvg th.txt >th.svg 2>err && test ! -s err &&
	expect_status 0 fgsvg --no-timeline th.txt >no.svg &&
	grep -q "note:\"timeline detail reduced to fit 0.25 MiB (--timeline-budget): [0-9]* threads in one row\"" th.svg &&
	grep_q "^\[null,null,\"[0-9]* other threads\"," th.svg &&
	test $(($(wc -c <th.svg) - $(wc -c <no.svg))) -le $((262144 + $(wc -c <"$TOP/common/svg/timeline.js") + 4096)) &&
	printf "%s\n" "app 1/1 1.000000: 1 cpu-clock:" "	1 f (/bin/app)" "" "app 1/2 1.500000: 1 cpu-clock:" "	1 g (/bin/app)" "" >few &&
	fgsvg few >few.svg && ! grep -q "null,null" few.svg && ! grep -q "threads in one row" few.svg
'

if [ ! -x /usr/bin/chromium ]; then
	skip 'a #th= link of 20,000 threads on a graph of 100,000: the tab answers' 'no /usr/bin/chromium (apt-get install chromium)'
elif ! command -v node >/dev/null 2>&1 || [ ! -d "$TESTS/browser/node_modules/playwright-core" ]; then
	skip 'a #th= link of 20,000 threads on a graph of 100,000: the tab answers' 'no node or playwright-core (cd tests/browser && npm install)'
else
	# Before, the link cost its length times the threads (a minute here);
	# now a set and a map. The title names five threads and counts the rest.
	check 'a #th= link of 20,000 threads on a graph of 100,000: the tab answers' '
		awk "BEGIN { for (i = 0; i < 100000; i++) { t = 1000000 + i * 10;
			printf \"app 1/%d %d.%06d: 1000000 cpu-clock:\n\t1 f (/bin/app)\n\t2 main (/bin/app)\n\n\",
			i + 2, t / 1000000, t % 1000000 } }" >th.txt &&
		fgsvg th.txt >th.svg &&
		awk "BEGIN { for (i = 0; i < 20000; i++) printf \"%s%d\", i ? \",\" : \"\", 2 + (i % 19000) * 5 }" >tids &&
		{ NODE_PATH="$TESTS/browser/node_modules" timeout 240 node "$TESTS/hostile/thlink.js" th.svg tids >res 2>err ||
			{ cat err; false; }; } &&
		cut -c1-200 res &&
		grep -q "^[0-9]*	threads app 2, app 7, app 12, app 17, app 22, and [0-9]* more: [0-9.]*% of all samples	" res
	'
fi

check 'a CRLF stream: drawn as the LF one (fg-stream(5) accepts CR LF)' '
	printf "%s\r\n" "# ========" "# event : name = cpu-clock" "# ========" "#" \
		"app 1/1 1.000000: 1 cpu-clock:" "	1 f (/bin/app)" "	2 main (/bin/app)" "" \
		"app 1/2 1.500000: 1 cpu-clock:" "	1 g (/bin/app)" "	2 main (/bin/app)" "" >crlf.txt &&
	tr -d "\r" <crlf.txt >lf.txt &&
	expect_status 0 fgsvg crlf.txt >crlf.svg 2>err && test ! -s err &&
	expect_status 0 fgsvg lf.txt >lf.svg &&
	test_cmp lf.svg crlf.svg && grep_q "var fgtl = " crlf.svg &&
	tail -n +5 crlf.txt >bare.txt && tail -n +5 lf.txt >bare-lf.txt &&
	expect_status 0 fgsvg bare.txt >bare.svg 2>err && test ! -s err &&
	expect_status 0 fgsvg bare-lf.txt >bare-lf.svg && test_cmp bare-lf.svg bare.svg
'

check 'a --wall graph: each tooltip gives its on- and off-CPU time; others do not' '
	{ printf "app 1/1 1.000000: 1000000 cpu-clock:\n\t1 f (/bin/app)\n\t2 main (/bin/app)\n\n";
	  wait1 1.100000 3000000 nanosleep;
	  printf "app 1/1 1.200000: 1000000 cpu-clock:\n\t1 g (/bin/app)\n\t2 other (/bin/app)\n\n"; } >wall.txt &&
	expect_status 0 fgsvg wall.txt >wall.svg &&
	grep_q "<title>all (5.00 ms, 100%; on-CPU 2.00 ms, off-CPU 3.00 ms)</title>" wall.svg &&
	grep_q "<title>main (4.00 ms, 80.00%; on-CPU 1.00 ms, off-CPU 3.00 ms; self 0 ns, 0.00%)</title>" wall.svg &&
	grep_q "<title>nanosleep (3.00 ms, 60.00%; on-CPU 0 ns, off-CPU 3.00 ms; self 0 ns, 0.00%)</title>" wall.svg &&
	grep_q "<title>f (1.00 ms, 20.00%; on-CPU 1.00 ms, off-CPU 0 ns; self 1.00 ms, 20.00%)</title>" wall.svg &&
	expect_status 0 fgsvg --reverse wall.txt >rev.svg &&
	grep_q "<title>main (3.00 ms, 60.00%; on-CPU 0 ns, off-CPU 3.00 ms;" rev.svg &&
	wait1 1.100000 3000000 nanosleep >off.txt && fgsvg off.txt >off.svg &&
	! grep -q "<title>[^<]*on-CPU" off.svg &&
	on1 1.0 >on.txt && fgsvg on.txt >on.svg && ! grep -q "<title>[^<]*on-CPU" on.svg
'

done_testing
