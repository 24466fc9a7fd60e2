#!/bin/sh
# fgsvg: geometry as flamegraph.pl --hash draws it, options, bad input,
# escaping, determinism. The expected frame lists (tests/fgsvg/*.expect*)
# were made by running flamegraph.pl --hash on the same fixtures; frames.py
# lists the frames of an SVG and fails when it is not XML.
. "$(dirname "$0")/lib.sh"
plan 36
F=$TESTS/fgsvg
frames() { python3 "$F/frames.py" "$@"; }
# pcheck: a check that reads SVGs with python3 (frames.py), or a skip.
if command -v python3 >/dev/null 2>&1; then
	pcheck() { check "$@"; }
else
	pcheck() { skip "$1" 'python3 is not installed (apt-get install python3)'; }
fi

pcheck 'default geometry matches flamegraph.pl --hash' '
	fgsvg --hash "$F/small.folded" >out.svg &&
	frames out.svg >actual &&
	test_cmp "$F/small.expect" actual
'
pcheck 'icicle geometry (--inverted --width 800) matches' '
	fgsvg --hash --inverted --width 800 --title T --countname ms \
		"$F/small.folded" >out.svg &&
	frames out.svg >actual &&
	test_cmp "$F/small.expect--inverted" actual &&
	grep_q ">T</text>" out.svg &&
	grep_q "<title>main (593 ms, 99.83%; self 0 ms, 0.00%)</title>" out.svg
'
pcheck '--reverse geometry matches' '
	fgsvg --reverse --minwidth 0 "$F/small.folded" >out.svg &&
	frames out.svg >actual &&
	test_cmp "$F/small.expect--reverse" actual
'
pcheck '--flamechart keeps input order and matches' '
	fgsvg --flamechart "$F/small.folded" >out.svg &&
	frames out.svg >actual &&
	test_cmp "$F/small.expect--flamechart" actual &&
	grep_q ">Flame Chart</text>" out.svg
'
pcheck 'differential geometry matches; growth red, shrinkage blue' '
	fgsvg "$F/diff.folded" >out.svg &&
	frames out.svg >actual &&
	test_cmp "$F/diff.expect" actual &&
	grep_q "<title>grow (30 samples, 5.77%; +5.77%; self 30 samples, 5.77%)</title><rect [^>]*fill=\"rgb(255,105,105)\"" out.svg &&
	grep_q "<title>memcpy (10 samples, 1.92%; -5.77%;.*fill=\"rgb(105,105,255)\"" out.svg &&
	grep_q "<title>compute (170 samples, 32.69%; +11.54%;.*fill=\"rgb(255,0,0)\"" out.svg
'
check '--negate swaps the hues and the sign' '
	fgsvg --negate "$F/diff.folded" >out.svg &&
	grep_q "<title>grow (30 samples, 5.77%; -5.77%;.*fill=\"rgb(105,105,255)\"" out.svg &&
	grep_q "<title>memcpy (10 samples, 1.92%; +5.77%;.*fill=\"rgb(255,105,105)\"" out.svg
'
check 'tooltip has the self count; annotations are stripped from labels' '
	fgsvg "$F/small.folded" >out.svg &&
	grep_q "<title>compute (167 samples, 28.11%; self 40 samples, 6.73%)</title>" out.svg &&
	grep_q "<title>inner_loop (300 samples" out.svg &&
	grep_q ">inner_loop</text>" out.svg &&
	! grep -q "_\[[kij]\]" out.svg
'
check 'labels are fitted when written, with .. when cut' '
	fgsvg --width 200 "$F/small.folded" >out.svg &&
	grep_q ">slow_matrix_se..</text>" out.svg
'
pcheck 'frames under --minwidth are merged into one grey frame' '
	fgsvg --minwidth 5 "$F/small.folded" >out.svg &&
	frames out.svg >actual &&
	grep_q "^\[5 narrow frames\]|1180.1|53|9.9|15.0$" actual &&
	grep_q "<title>\[5 narrow frames\] (5 samples, 0.84%)</title>" out.svg &&
	! grep -q "tiny_" actual
'
pcheck '--minwidth as a percentage' '
	fgsvg --minwidth 10% "$F/small.folded" >out.svg &&
	frames out.svg >actual &&
	! grep -q "^parse_args|" actual &&
	grep_q "^slow_matrix_search|" actual
'
pcheck '--sort=weight puts the widest child first' '
	fgsvg --sort=weight "$F/small.folded" >out.svg &&
	frames out.svg >actual &&
	grep_q "^run|10.0|69|1146.2|" actual &&
	grep_q "^slow_matrix_search|10.0|53|754.9|" actual &&
	grep_q "^compute|764.9|53|331.7|" actual &&
	grep_q "^f|[0-9.]*|53|13.9|" actual &&
	test $(grep -c "^f|" actual) = 1
'
check 'output is deterministic; --random is not, unless FGSVG_SEED is set' '
	fgsvg "$F/small.folded" >a.svg &&
	fgsvg "$F/small.folded" >b.svg &&
	cmp a.svg b.svg &&
	FGSVG_SEED=1 fgsvg --random "$F/small.folded" >c.svg &&
	FGSVG_SEED=2 fgsvg --random "$F/small.folded" >d.svg &&
	! cmp -s c.svg d.svg &&
	FGSVG_SEED=1 fgsvg --random "$F/small.folded" >e.svg &&
	cmp c.svg e.svg &&
	! cmp -s a.svg c.svg &&
	expect_status 2 env FGSVG_SEED=x fgsvg --random "$F/small.folded" 2>err &&
	grep_q "FGSVG_SEED=.x.: expected a whole number" err
'
check 'default colours are those of flamegraph.pl' '
	fgsvg "$F/small.folded" >out.svg &&
	grep_q "<title>all (594 samples, 100%)</title><rect [^>]*fill=\"rgb(213,39,9)\"" out.svg &&
	fgsvg --hash "$F/small.folded" >h.svg &&
	grep_q "<title>all (594 samples, 100%)</title><rect [^>]*fill=\"rgb(255,230,55)\"" h.svg
'
check '--colors java, rust and python pick their hues' '
	printf "%s\n" "java;org/foo/Bar:.baz_[j] 5" "java;libjvm.so;JVM_Sleep 5" \
		"rs;std::rt::lang_start 3" "rs;myapp::run 3" "rs;memcpy 3" \
		"py;/usr/lib/python3.11/json/decoder.py:decode 2" \
		"py;/v/lib/python3.11/site-packages/np/x.py:f 2" "py;app.py:main 2" >in &&
	fgsvg --colors java --hash in >j.svg &&
	grep_q "<title>org/foo/Bar:.baz (5 .*fill=\"rgb(\([5-9][0-9]\),2[0-9][0-9],\1)\"" j.svg &&
	fgsvg --colors rust in >r.svg &&
	grep_q "<title>std::rt::lang_start (3 .*fill=\"rgb(2[0-9][0-9],[0-9]*,0)\"" r.svg &&
	grep_q "<title>myapp::run (3 .*fill=\"rgb([0-9]*,\([12][0-9][0-9]\),\1)\"" r.svg &&
	fgsvg --colors python in >p.svg &&
	grep_q "decoder.py:decode (2 .*fill=\"rgb(\([12][0-9][0-9]\),\1,[5-7][0-9])\"" p.svg &&
	grep_q "site-packages/np/x.py:f (2 .*fill=\"rgb([0-9]*,\([12][0-9][0-9]\),\1)\"" p.svg
'
check '--cp keeps colours in palette.map across runs' '
	fgsvg --cp --colors red "$F/small.folded" >a.svg &&
	grep_q "^compute->rgb(" palette.map &&
	sed "s/^compute->.*/compute->rgb(1,2,3)/" palette.map >p && mv p palette.map &&
	fgsvg --cp "$F/small.folded" >b.svg &&
	grep_q "<title>compute (167.*fill=\"rgb(1,2,3)\"" b.svg &&
	grep_q "<title>run (.*fill=\"rgb(2[0-9][0-9],\([0-9]*\),\1)\"" b.svg
'
pcheck '--nameattr adds attributes, a link and a tooltip' '
	printf "compute\tclass=hot\thref=https://example.com/?a=1&b=2\n" >attrs &&
	printf "run\ttitle=the <run> loop\n" >>attrs &&
	fgsvg --nameattr attrs "$F/small.folded" >out.svg &&
	frames out.svg >/dev/null &&
	grep_q "<a class=\"hot\" xlink:href=\"https://example.com/?a=1&amp;b=2\" target=\"_top\"><title>compute (" out.svg &&
	grep_q "<title>the &lt;run&gt; loop</title>" out.svg
'
pcheck 'title, subtitle, notes, countname, nametype, fonts, --total, --factor' '
	fgsvg --title "A & B" --subtitle "<sub>" --notes "x -- y" --countname bytes \
		--nametype Func: --fonttype Courier --fontsize 10 --fontwidth 0.6 \
		--total 1188 --factor 2 --bgcolors "#102030" "$F/small.folded" >out.svg &&
	frames out.svg >/dev/null &&
	grep_q ">A &amp; B</text>" out.svg &&
	grep_q "id=\"subtitle\"[^>]*>&lt;sub&gt;</text>" out.svg &&
	grep_q "<desc id=\"notes\">x -- y</desc>" out.svg &&
	grep_q "font-family:Courier; font-size:10px" out.svg &&
	grep_q "<title>all (2,376 bytes, 100%)</title><rect x=\"10.0\" y=\"[0-9.]*\" width=\"1180.0\"" out.svg &&
	grep_q "<title>app (1,188 bytes, 50.00%;" out.svg &&
	grep_q "stop-color=\"#102030\"" out.svg &&
	grep_q "nt:\"Func:\", cn:\"bytes\"" out.svg
'
pcheck 'empty input: a small valid SVG that says no samples, exit 0' '
	fgsvg </dev/null >out.svg &&
	frames out.svg >actual &&
	test_cmp /dev/null actual &&
	grep_q ">no samples</text>" out.svg &&
	test $(wc -c <out.svg) -lt 2000
'
check 'malformed lines: reported once per kind with FILE:LINE, exit 1, picture drawn' '
	printf "%s\n" "a;b 3" "no count here" "a;c -4" "also none" "" "a;d 2" "7" >in &&
	expect_status 1 fgsvg in >out.svg 2>err &&
	cat >expect <<-\EOF &&
	fgsvg: in:2: no count at the end of the line; expected "STACK COUNT" or "STACK BEFORE AFTER"
	fgsvg: in:3: count is negative or not a number; expected "STACK COUNT" or "STACK BEFORE AFTER"
	fgsvg: in:7: count with no stack; expected "STACK COUNT" or "STACK BEFORE AFTER"
	fgsvg: skipped 4 malformed lines
	EOF
	test_cmp expect err &&
	grep_q "<title>all (5 samples, 100%)</title>" out.svg &&
	grep_q "<title>d (2 samples" out.svg
'
pcheck 'names with markup, ]]>, quotes, controls and bad UTF-8 stay valid XML' '
	printf "a;<script>alert(1)</script>;x]]>y 2\na;q\"u'"'"'o&te 3\na;c\001tl\033 1\na;bad\377\376utf8;caf\303\251 4\na;back\\\\xslash 1\n" >in &&
	fgsvg in >out.svg &&
	frames out.svg >actual &&
	xmlok=$(python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1]); print(1)" out.svg) &&
	test "$xmlok" = 1 &&
	grep_q "^<script>alert(1)</script>|" actual &&
	grep_q "^x\]\]>y|" actual &&
	grep_q "^q\"u'"'"'o&te|" actual &&
	grep_q "^c\\\\x01tl\\\\x1b|" actual &&
	grep_q "^bad\\\\xff\\\\xfeutf8|" actual &&
	grep_q "^café|" actual &&
	grep_q "^back\\\\x5cxslash|" actual &&
	! grep -q "<script>alert" out.svg
'
check 'input from several files and -' '
	printf "a;b 1\n" >one && printf "a;c 2\n" >two &&
	fgsvg one - two <one >out.svg &&
	grep_q "<title>all (4 samples, 100%)</title>" out.svg
'
check 'usage errors exit 2 and quote the bad value' '
	expect_status 2 fgsvg --colors teal </dev/null 2>err >/dev/null &&
	grep_q "fgsvg: --colors .teal. is not a palette" err &&
	expect_status 2 fgsvg --width 10x </dev/null 2>err >/dev/null &&
	grep_q "fgsvg: --width .10x. is not a number" err &&
	expect_status 2 fgsvg --sort size </dev/null 2>err >/dev/null &&
	grep_q "use name or weight" err &&
	expect_status 2 fgsvg --bogus </dev/null 2>err >/dev/null &&
	grep_q "^usage: fgsvg" err &&
	expect_status 2 fgsvg --nameattr /nonexistent </dev/null 2>err >/dev/null &&
	grep_q "No such file" err
'
check 'a missing input file: warned, the rest drawn, exit 1' '
	printf "a;b 1\n" >one &&
	expect_status 1 fgsvg nosuch one >out.svg 2>err &&
	grep_q "cannot open .nosuch.: No such file" err &&
	grep_q "<title>b (1 sample, " out.svg
'
check '"-" is standard input, named <stdin>; files and stdin together' '
	printf "a;b 1\n" >one &&
	printf "a;c 2\nbad line\n" | expect_status 1 fgsvg one - >out.svg 2>err &&
	grep_q "^fgsvg: <stdin>:2: " err &&
	grep_q "skipped 1 malformed line$" err &&
	grep_q "<title>c (2 samples" out.svg &&
	grep_q "<title>a (3 samples" out.svg
'
check 'a stream with a bad line: exit 1 from stdin as from a file' '
	printf "main 1/1 1.0: 1 cpu-clock:\n\t1 a (/x)\n\nbad\n\nmain 1/1 1.1: 1 cpu-clock:\n\t1 b (/x)\n\n" >s.txt &&
	expect_status 1 fgsvg s.txt >f.svg 2>ferr &&
	expect_status 1 fgsvg <s.txt >out.svg 2>err &&
	grep_q "^fgsvg: <stdin>:4: unrecognised line" err &&
	grep_q "<title>b (1 sample, " out.svg
'
check 'a write error is reported as every tool words it, exit 2' '
	if [ -w /dev/full ]; then
		printf "a;b 1\n" >one &&
		expect_status 2 fgsvg one >/dev/full 2>err &&
		grep_q "^fgsvg: cannot write .<stdout>.: No space left" err
	fi
'
check 'a stack 200,000 frames deep does not overflow anything' '
	awk "BEGIN { for (i = 0; i < 200000; i++) printf \"f%d;\", i; print \"leaf 3\" }" >deep &&
	fgsvg deep >out.svg &&
	grep_q "<title>leaf (3 samples, 100.00%; self 3 samples, 100.00%)</title>" out.svg &&
	fgsvg --sort=weight --reverse deep >out.svg
'
check '--search-budget: the frames hiding the most time keep their data; 0 keeps none' '
	# two grey frames of 60 narrow ones each: under big (50 each), under
	# small (3 each); what follows each frame title is its grey frame
	awk "BEGIN { print \"main;wide 1000000\"; for (i = 0; i < 60; i++) {
		print \"main;big;n\" i, 50; print \"main;small;n\" i, 3 } }" >in &&
	greys() { grep -o "<g[^>]*><title>[a-z]*" "$1" | sed -n "/<title>big/{n;p};/<title>small/{n;p}" |
		sed "s/data-l=\"[0-9][^\"]*\"/data-l=DATA/"; } &&
	fgsvg in >out.svg && greys out.svg >got &&
	printf "<g class=\"m\" data-l=DATA><title>\n<g class=\"m\" data-l=DATA><title>\n" >want &&
	test_cmp want got &&
	fgsvg --search-budget 0.001 in >out.svg && greys out.svg >got &&
	printf "<g class=\"m\" data-l=DATA><title>\n<g class=\"m\" data-l=\"-\"><title>\n" >want &&
	test_cmp want got &&
	fgsvg --search-budget 0 in >out.svg && greys out.svg >got &&
	printf "<g class=\"m\" data-l=\"-\"><title>\n<g class=\"m\" data-l=\"-\"><title>\n" >want &&
	test_cmp want got &&
	expect_status 2 fgsvg --search-budget -1 in 2>err >/dev/null &&
	grep_q "search-budget .-1. is not a number from 0" err
'
check 'off-CPU stacks: blue shades, tooltips in time; on-CPU ones keep the palette' '
	fgfold "$TESTS/fgfold/offcpu.txt" >off.folded &&
	grep_q "\[off-cpu\]" off.folded &&
	fgsvg off.folded >out.svg &&
	for fn in "\[off-cpu\]" __schedule clock_nanosleep nap spin; do
		rgb=$(grep -o "<title>$fn ([^<]*</title><rect[^>]*fill=\"rgb([0-9,]*)" out.svg |
		    sed "s/.*rgb(//; s/)\$//") && test -n "$rgb" &&
		r=${rgb%%,*} && b=${rgb##*,} &&
		if [ "$fn" = spin ]; then [ "$r" -gt "$b" ]; else [ "$b" -gt "$r" ]; fi ||
		{ echo "$fn: rgb($rgb)"; false; }
	done &&
	grep_q "<title>nap (2.00 s, 99.90%; on-CPU 0 ns, off-CPU 2.00 s; self 0 ns, 0.00%)</title>" out.svg &&
	grep_q "<title>spin (2.00 ms, 0.10%; on-CPU 2.00 ms, off-CPU 0 ns; self 2.00 ms, 0.10%)</title>" out.svg &&
	! grep -q " samples" out.svg
'
# A wait whose time and period pass 2^64-1 ns wrapped its end below its
# start: the timeline then made fewer cells than it wrote, past the end of
# its array (malloc aborted, or worse).
check 'an off-CPU wait past 2^64-1 ns among 30 others: drawn whole, no crash' '
	{ printf "p 1/1 [000] 1000.000000: 18446743573709551616 offcpu-time:\n\t1 main (/x)\n\n" &&
	  for i in $(seq 1 30); do
		printf "p 1/1 [000] %d.000000: 2 offcpu-time:\n\t1 f%d (/x)\n\n" $i $i
	  done; } >wrap.txt &&
	{ fgsvg wrap.txt >out.svg 2>err; test $? -le 1 || { cat err; false; }; } &&
	grep_q "<title>main " out.svg && test "$(tail -1 out.svg)" = "</svg>"
'
check '--countname=ns prints time; another --countname keeps counts' '
	printf "a;b 1500\na;c 2500000\n" >ns &&
	fgsvg --countname=ns ns >out.svg &&
	grep_q "<title>b (1.50 us, 0.06%; self 1.50 us, 0.06%)</title>" out.svg &&
	grep_q "<title>c (2.50 ms, " out.svg &&
	fgfold "$TESTS/fgfold/offcpu.txt" >off.folded &&
	fgsvg --countname=ticks off.folded >out.svg &&
	grep_q "<title>spin (2,000,000 ticks, " out.svg
'
check '--diff of off-CPU profiles: differential colours, time in tooltips' '
	fgfold "$TESTS/fgfold/offcpu.txt" >before &&
	sed "s/2000000000 offcpu/3000000000 offcpu/" "$TESTS/fgfold/offcpu.txt" >after.txt &&
	expect_status 0 fgfold after.txt >after 2>err && test ! -s err &&
	fgfold --diff before after >d.folded && fgsvg d.folded >out.svg &&
	grep_q "<title>\[off-cpu\] (3.00 s, 99.93%; +33.31%; on-CPU 0 ns, off-CPU 3.00 s; self 3.00 s, 99.93%)</title><rect [^>]*fill=\"rgb(255,0,0)\"" out.svg &&
	grep_q "<title>spin (2.00 ms, 0.07%; 0.00%; on-CPU 2.00 ms, off-CPU 0 ns; self 2.00 ms, 0.07%)</title><rect [^>]*fill=\"rgb(255,255,255)\"" out.svg
'
check 'stdin a file: read from where the shell left it, and once' '
	printf "a;b 1\na;c 2\n" >in &&
	{ read -r x; fgsvg; } <in >out.svg &&
	grep_q "<title>c (2 samples" out.svg && ! grep -q "<title>b " out.svg &&
	fgsvg - - <in >out.svg && grep_q "<title>all (3 samples, 100%)" out.svg
'
check '--help prints the usage on stdout, exit 0' '
	fgsvg --help >out &&
	grep_q "^usage: fgsvg \[--cp\]" out
'
pcheck '20,000 unique deep stacks give a compact SVG' '
	awk "function rnd(){ s=(s*16807)%2147483647; return s/2147483647 }
	BEGIN { s = 7; for (i = 0; i < 20000; i++) { d = 20 + int(rnd() * 30); l = \"main\";
		for (j = 1; j < d; j++) l = l \";ns::C\" int(rnd() * (j < 6 ? 2 : 20)) \"::m\" j;
		c = 1; while (rnd() < 0.3) c *= 4; print l, c } }" >big &&
	fgsvg big >out.svg &&
	frames out.svg >actual &&
	n=$(wc -l <actual) && echo "$n frames, $(wc -c <out.svg) bytes" &&
	test "$n" -lt 40000 && test $(wc -c <out.svg) -lt 8000000 &&
	grep_q "narrow frames\]" actual
'
if command -v mandoc >/dev/null 2>&1; then
	check 'man page is lint-clean' '
		{ mandoc -Tlint -W warning "$TOP/man/fgsvg.1" >lint 2>&1 || test -s lint; } &&
		test_cmp /dev/null lint
	'
else
	skip 'man page is lint-clean' 'mandoc is not installed'
fi
done_testing
