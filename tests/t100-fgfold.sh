#!/bin/sh
# fgfold: golden tests (an input, an expected output, one command line),
# then bad input, --folded, --diff and the exit statuses.
. "$(dirname "$0")/lib.sh"
D=$TESTS/fgfold
# a check per golden case (counted here: a case added needs no count) and 27
plan $(($(ls "$D"/*.expect* | grep -cv '\.status$\|\.err$') + 27))

# Golden files are named INPUT.expect--OPT--OPT: the options are the suffix.
# Beside each, GOLDEN.status holds its exit status when that is not 0 (an
# input meant to be partial exits 1), and GOLDEN.err its stderr when that is
# not empty (edge.expect.err: the message fgfold gives of edge.txt). With no
# .err file the case must say nothing. fgfold runs on a copy of the input in
# the scratch directory, so that its messages name the bare file name.
for exp in "$D"/*.expect*; do
	case $exp in *.status|*.err) continue ;; esac
	base=$(basename "$exp")
	name=${base%%.expect*}.txt
	opts=$(echo "${base#*.expect}" | sed 's/--/ --/g')
	want=0
	[ ! -f "$exp.status" ] || want=$(cat "$exp.status")
	err=/dev/null said='no stderr'
	[ ! -f "$exp.err" ] || { err=$exp.err; said="stderr as $(basename "$err")"; }
	check "golden: fgfold$opts $name, exit $want, $said" "
		cp '$D/$name' . &&
		expect_status $want fgfold $opts '$name' >actual 2>err &&
		test_cmp '$exp' actual &&
		test_cmp '$err' err
	"
done

check 'every .status and .err file belongs to a golden case' '
	for f in "$D"/*.expect*.status "$D"/*.expect*.err; do
		[ -e "$f" ] || continue
		[ -f "${f%.*}" ] || { echo "no golden case for $f"; exit 1; }
	done
'

check 'counts add up to the samples kept' '
	fgfold $D/perf-cxx.txt >out &&
	n=$(grep -c "cpu-clock" $D/perf-cxx.txt) &&
	sum=$(awk "{ s += \$NF } END { print s }" out) &&
	[ "$n" = "$sum" ]
'

check '--period weighs by the period perf printed' '
	fgfold --period $D/perf-cxx.txt >out &&
	want=$(awk "/cpu-clock/ { s += \$(NF-1) } END { print s }" $D/perf-cxx.txt) &&
	sum=$(awk "{ s += \$NF } END { print s }" out) &&
	[ "$want" = "$sum" ]
'

check 'output is sorted bytewise and each stack appears once' '
	fgfold $D/perf-cxx.txt >out &&
	sed "s/ [0-9]*\$//" out >stacks &&
	LC_ALL=C sort -u stacks >sorted && test_cmp sorted stacks
'

check 'several files are merged, and - is stdin' '
	fgfold $D/perf-cxx.txt $D/perf-cxx.txt >two &&
	fgfold - <$D/perf-cxx.txt >one &&
	awk "{ \$NF = \$NF * 2; print }" one >doubled &&
	test_cmp doubled two
'

check 'empty input: well formed, nothing folded, said on stderr, exit 0' '
	: >empty && expect_status 0 fgfold empty >out 2>err && test ! -s out &&
	grep_q "^fgfold: no samples: the input is well formed, and holds none\$" err
'

check 'only headers: well formed, no output, said on stderr, exit 0' '
	printf "# fgrecord 1\n# cmdline : x\n" >h && expect_status 0 fgfold h >out 2>err &&
	test ! -s out && grep_q "^fgfold: no samples: the input is well formed, and holds none\$" err
'

check 'an --event-filter that matches nothing is said, exit 1' '
	expect_status 1 fgfold --event-filter=cycles $D/perf-cxx.txt >out 2>err &&
	test ! -s out && grep_q "no samples of the event .cycles. in the input: [0-9]* of other events" err
'

# Issue 24 point 11: perf prints one event as cycles:u on one sample and
# cycles on the next; they are one event, as inferno reads them.
check 'events that differ only by modifiers are one event; others are not' '
	{ printf "app 1 1.0: 1 cycles:u:\n\t10 f (/bin/app)\n\n"
	  printf "app 1 2.0: 1 cycles:\n\t10 f (/bin/app)\n\n"
	  printf "app 1 3.0: 1 cycles:ppp:\n\t10 g (/bin/app)\n\n"
	  printf "app 1 4.0: 1 cpu/cycles/u:\n\t10 p (/bin/app)\n\n"
	  printf "app 1 5.0: 1 cpu/cycles/:\n\t10 p (/bin/app)\n\n"
	  printf "app 1 6.0: 1 sched:sched_switch:\n\t10 s (/bin/app)\n\n"
	  printf "app 1 7.0: 1 sched:sched_wakeup:\n\t10 w (/bin/app)\n\n"
	} >ev &&
	sed -n 1,9p ev >cyc && fgfold cyc >out 2>err && test ! -s err &&
	printf "app;f 2\napp;g 1\n" >expect && test_cmp expect out &&
	sed -n 10,15p ev >pmu && fgfold pmu >out 2>err && test ! -s err &&
	echo "app;p 2" >expect && test_cmp expect out &&
	fgfold --event-filter=cycles ev >out 2>err && test ! -s err &&
	printf "app;f 2\napp;g 1\n" >expect && test_cmp expect out &&
	sed -n 16,21p ev >tp && fgfold tp >out 2>err &&
	echo "app;s 1" >expect && test_cmp expect out &&
	grep_q "tp:4: several events in the input; folding only .sched:sched_switch." err
'

# Issue 24 point 3: --own=CRATE, the crate's functions first, an inlined
# frame counted toward the function that holds it.
check '--top --own: own functions first, inlined leaves counted in their holder' '
	{ printf "app 1 1.0: 1 cpu-clock:\n\t10 core::intrinsics::likely (inlined)\n"
	  printf "\t10 my_app::search (inlined)\n\t10 my_app::main+0x1 (/bin/app)\n\t10 main (/bin/app)\n\n"
	  printf "app 1 2.0: 1 cpu-clock:\n\t10 core::intrinsics::likely (inlined)\n"
	  printf "\t10 my_app::search (inlined)\n\t10 my_app::main+0x1 (/bin/app)\n\t10 main (/bin/app)\n\n"
	  printf "app 1 3.0: 1 cpu-clock:\n\t10 hashbrown::reserve_rehash (/bin/app)\n"
	  printf "\t10 my_app::search (inlined)\n\t10 my_app::main+0x1 (/bin/app)\n\t10 main (/bin/app)\n\n"
	  printf "app 1 4.0: 1 cpu-clock:\n\t10 <my_app::Grid as core::fmt::Debug>::fmt (/bin/app)\n"
	  printf "\t10 <alloc::Vec<T> as my_app::Walk>::walk (/bin/app)\n\t10 main (/bin/app)\n\n"
	} >in &&
	fgfold --top=3 --own=my-app in >out 2>err && test ! -s err && cat out &&
	sed -n "2p" out | grep -qx "the functions of my_app, each with its inlined callees:" &&
	sed -n "4p" out | grep -q "^ 50.00%          2  75.00%          3  my_app::search\$" &&
	grep -q "^ 25.00%          1  25.00%          1  <my_app::Grid as core::fmt::Debug>::fmt\$" out &&
	grep -q "^  0.00%          0  75.00%          3  my_app::main\$" out &&
	sed -n "/^the widest leaf functions:/,\$p" out >leaves &&
	sed -n 3p leaves | grep -q "  core::intrinsics::likely\$" &&
	fgfold --inline-mark in >marked && grep -q "_\[i\]" marked &&
	fgfold --folded --top=3 --own=my_app marked >out2 && sed 1d out >a && sed 1d out2 >b && test_cmp a b &&
	expect_status 0 fgfold --top=4 --own=my_app in >top4 2>err && test ! -s err &&
	grep_q "<alloc::Vec<T> as my_app::Walk>::walk" top4 &&
	expect_status 2 fgfold --own=x in 2>err && grep_q "own goes with --top" err
'

check 'one-line samples (perf record without -g) are one-frame stacks' '
	n=$(grep -c "cpu-clock:ppp: " $D/oneline.txt) &&
	fgfold $D/oneline.txt >out 2>err && test ! -s err &&
	sum=$(awk "{ s += \$NF } END { print s }" out) && [ "$sum" = "$n" ] &&
	! grep -q ";.*;" out
'

# perf record without -g, then perf script: one line per sample, COMM padded.
P=$TMP/perf-nog
mkdir -p "$P"
why=
if ! command -v perf >/dev/null 2>&1; then
	why='perf is not installed (apt-get install linux-perf)'
elif ! printf "static volatile unsigned long x;\n__attribute__((noinline)) void spin(void) { for (unsigned long i = 0; i < 300000000UL; i++) x += i; }\nint main(void) { spin(); return 0; }\n" >"$P/spin.c" ||
    ! "${CC:-cc}" -O1 -g -o "$P/spin" "$P/spin.c" 2>"$P/cc.log"; then
	why="no C compiler: $(head -1 "$P/cc.log")"
elif ! perf record -q -e cpu-clock -F 499 -o "$P/p.data" "$P/spin" >"$P/rec.log" 2>&1; then
	why="perf record failed: $(head -1 "$P/rec.log")"
fi
if [ -n "$why" ]; then
	skip 'real perf record without -g: every sample folded, as a one-frame stack' "$why"
else
	check 'real perf record without -g: every sample folded, as a one-frame stack' '
		perf script -i "$TMP/perf-nog/p.data" >script.txt 2>/dev/null &&
		n=$(grep -c "cpu-clock" script.txt) && [ "$n" -gt 10 ] &&
		fgfold script.txt >out 2>err && test ! -s err &&
		sum=$(awk "{ s += \$NF } END { print s }" out) && [ "$sum" = "$n" ] &&
		! grep -q ";.*;" out && grep_q "^spin;spin [0-9]*\$" out
	'
fi

check 'off-CPU stream: weighed by period in ns without --period, [off-cpu] leaf' '
	want=$(awk "/(cpu-clock|offcpu-time):\$/ { s += \$(NF-1) } END { print s }" $D/offcpu.txt) &&
	fgfold $D/offcpu.txt >out &&
	sum=$(awk "{ s += \$NF } END { print s }" out) && [ "$sum" = "$want" ] &&
	test "$(grep -c "\[off-cpu\] [0-9]*\$" out)" = "$(grep -c offcpu-time: $D/offcpu.txt)"
'

check 'a bad line is reported with file:line, good samples kept, exit 1' '
	{ head -4 $D/perf-cxx.txt; echo "@@@ this is garbage"; tail -n +5 $D/perf-cxx.txt; } >in &&
	expect_status 1 fgfold in >out 2>err &&
	grep_q "^fgfold: in:5: unrecognised line .@@@ this is garbage.\$" err &&
	fgfold $D/perf-cxx.txt >want && test_cmp want out
'

check 'a stream cut off mid-sample drops the last sample, warns, exit 1' '
	head -n -3 $D/perf-cxx.txt >cut &&
	expect_status 1 fgfold cut >out 2>err &&
	grep_q "cut: *[0-9]*: .*cut off" err &&
	test $(wc -l <err) = 1 &&
	total=$(awk "{ s += \$NF } END { print s }" out) &&
	n=$(grep -c cpu-clock cut) && [ "$total" = $((n - 1)) ]
'

check 'CRLF line ends read like LF' '
	sed "s/\$/\r/" $D/perf-cxx.txt >crlf &&
	fgfold crlf >out && fgfold $D/perf-cxx.txt >want && test_cmp want out
'

check 'binary garbage after a stream: no crash, reported, exit 1' '
	{ cat $D/perf-cxx.txt; head -c 200000 /dev/urandom; } >garbage &&
	expect_status 1 fgfold garbage >out 2>err &&
	grep_q "unrecognised line" err
'

check 'a 10 MB line: no crash, one message, exit 1' '
	head -c 10000000 /dev/zero | tr "\0" x >big && echo >>big &&
	cat $D/perf-cxx.txt >>big &&
	expect_status 1 fgfold big >out 2>err &&
	test $(wc -l <err) = 1 &&
	fgfold $D/perf-cxx.txt >want && test_cmp want out
'

check 'a missing file is named, the others still folded, exit 1' '
	expect_status 1 fgfold nosuch $D/perf-cxx.txt >out 2>err &&
	grep_q "nosuch" err && test -s out
'

check 'usage errors exit 2' '
	expect_status 2 fgfold --bogus </dev/null 2>err && grep_q usage err &&
	expect_status 2 fgfold --top=0 </dev/null 2>err && grep_q "top" err &&
	expect_status 2 fgfold --diff one 2>err
'

check '--folded merges: counts add, lines sorted' '
	printf "a;b 1\nc 2\n" >x && printf "a;b 3\nb 1.5\n" >y &&
	fgfold --folded x y >out &&
	printf "a;b 4\nb 1.5\nc 2\n" >want && test_cmp want out
'

check '--folded reports bad counts with file:line and keeps the good lines' '
	printf "a;b 1\na;c -3\na;d x\na;e 99999999999999999999999\nnocount\na;b 2\n" >x &&
	expect_status 1 fgfold --folded x >out 2>err &&
	printf "a;b 3\n" >want && test_cmp want out &&
	grep_q "x:2: count is negative" err &&
	grep_q "x:4: count does not fit in 64 bits" err &&
	grep_q "x:3: no count" err
'

check '--diff gives BEFORE AFTER columns; -n normalizes; -s strips hex' '
	printf "a;b 10\na;c 10\n" >before && printf "a;b 30\na;d 10\n" >after &&
	fgfold --diff before after >out &&
	printf "a;b 10 30\na;c 10 0\na;d 0 10\n" >want && test_cmp want out &&
	fgfold --diff -n before after >out &&
	printf "a;b 20 30\na;c 20 0\na;d 0 10\n" >want && test_cmp want out &&
	printf "a;f+0x1f 1\n" >b2 && printf "a;f+0x2a 1\n" >a2 &&
	fgfold --diff -s b2 a2 >out && printf "a;f+0x... 1 1\n" >want && test_cmp want out
'

check '--top ranks by self samples' '
	fgfold --top=2 $D/perf-cxx.txt >out &&
	sed -n 3p out | grep_q "work::Box<long>::spin" out &&
	test $(wc -l <out) = 4
'

# Folded off-CPU stacks (cargo fg --post-process on --off-cpu) weigh
# nanoseconds: the table says time, as fgsvg's tooltips do.
check '--folded --top: stacks with [off-cpu] are time, in ms' '
	printf "%s\n" "app;main;wait;[off-cpu] 2000000" "app;main;spin 1000000" >oc &&
	fgfold --folded --top=2 oc >out && cat out &&
	grep_q "^3.000 ms, " out && grep_q "self ms" out &&
	grep_q "^ 66.67%      2.000 " out &&
	printf "app;main;spin 10\n" >ten && expect_status 0 fgfold --folded --top=1 ten >out 2>err &&
	test ! -s err &&
	grep_q "^10 samples, " out
'

check 'fgfold | head -1 ends quietly (no Broken pipe)' '
	seq 200000 | sed "s/^/a;f/; s/\$/ 1/" >many &&
	{ fgfold --folded many 2>err; echo $? >rc; } | head -1 >out &&
	test -s out && test ! -s err && rc=$(cat rc) &&
	{ [ "$rc" = 0 ] || [ "$rc" = 141 ]; }
'

# Issue 40: fgsym marks what it wrote ("# symbolized : fgsym VERSION"):
# names missing after it are the files' doing, and fgfold says so, not to
# put fgsym between (the golden stripped.expect.err); without the mark it
# says to put it between; fgsym twice writes one mark.
check 'names missing: "put fgsym between" only where no fgsym was' '
	grep -v "^# symbolized" "$D/stripped.txt" >raw &&
	expect_status 0 fgfold raw >out 2>err &&
	grep_q "^fgfold: most frames have no function names (in 2 of 3 samples): put fgsym between" err &&
	expect_status 0 fgfold "$D/stripped.txt" >out 2>err &&
	! grep -q "put fgsym between" err &&
	grep_q "although fgsym was between: the sampled files have no symbols" err &&
	expect_status 0 fgsym --no-inline raw >once 2>serr &&
	expect_status 0 fgsym --no-inline once >twice 2>serr &&
	test_cmp once twice &&
	test "$(grep -c "^# symbolized : fgsym " twice)" = 1 &&
	sed -n "/^# symbolized/{n;p;}" twice >next &&
	grep_q "^app 10/10 " next
'

done_testing
