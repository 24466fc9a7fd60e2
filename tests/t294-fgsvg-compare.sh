#!/bin/sh
# t294-fgsvg-compare: fgsvg --compare draws fgfold --compare's verdicts.
# The runs are made up (tests/fgsvg/cmpruns.awk: cpu-clock streams of a
# small program, five a side, whose counts vary from run to run as real
# runs do), so every verdict is known: the change removed slow_search
# (400 ms a run) and added hash_probe (90 ms, 80 of it in alloc, which
# also runs under parse, 200 ms unchanged); parse, render and draw_text
# did not change. The SVG is checked as text (grey, red, blue,
# the tooltips against the table), then in Chromium (tests/browser/
# compare.js): the removed function's frame hovered, zoomed, searched
# and opened in the function view.
. "$(dirname "$0")/lib.sh"
plan 27
. "$TESTS/browser/steps.sh"

R=$TMP/runs
mkdir -p "$R"
GREY='rgb(210,210,210)'

# run SIDE SEED: one made-up run on stdout.
run() { awk -v side="$1" -v seed="$2" -f "$TESTS/fgsvg/cmpruns.awk"; }

# frames SVG: "NAME<TAB>FILL<TAB>TOOLTIP" for every frame drawn, in
# preorder (the frames of a name in the order of their callers' names).
frames() {
	sed -n 's/^<g[^>]*><title>\(\([^ ]*\) .*\)<\/title><rect .* fill="\([^"]*\)"\/><\/g>$/\2	\3	\1/p' "$1" |
		sed 's/&gt;/>/g'
}

# fill LIST NAME: the fill of NAME's frame; hue FILL: red, blue or grey.
fill() { awk -F '\t' -v n="$2" '$1 == n { print $2; exit }' "$1"; }
hue() {
	echo "$1" | awk -F '[(),]' '{ r = $2; b = $4 }
	r > b + 30 { print "red"; next } b > r + 30 { print "blue"; next } { print "grey" }'
}
# green LIST NAME: the green of NAME's fill, less in a deeper red or blue.
green() { fill "$1" "$2" | cut -d, -f2; }
tip() { awk -F '\t' -v n="$2" '$1 == n { print $3; exit }' "$1"; }

# interval TABLE NAME: "LOW to HIGH" of NAME's row, as the tooltip rounds it.
interval() {
	awk -F '\t' -v n="$2" '$1 == n { printf "%.1f to %.1f: %s\n", $5, $6, $7 }' "$1" |
		sed 's/-0\.0 /0.0 /g'
}

check 'five made-up runs a side, and five more of the program unchanged' '
	for i in 1 2 3 4 5; do
		run before $i >"$R/before.$i" && run after $((i + 10)) >"$R/after.$i" &&
		run before $((i + 20)) >"$R/again.$i" && run after $((i + 70)) >"$R/later.$i" || exit 1
	done &&
	test "$(grep -c cpu-clock "$R/before.1")" -gt 800
'

check 'fgsvg --compare: exit 0, the method said in one line, an SVG' '
	expect_status 0 fgsvg --compare "$R"/before.? -- "$R"/after.? >cmp.svg 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep_q "^fgsvg: 5 runs before, 5 after of cpu-clock: total time per run, in ms; 95% intervals of a moderated t" err &&
	grep_q "^<svg " cmp.svg && grep_q "</svg>\$" cmp.svg &&
	cp cmp.svg "$R/cmp.svg"
'

check 'unchanged functions grey, the removed one drawn in blue, the new one red' '
	frames "$R/cmp.svg" >list &&
	for f in parse render draw_text; do
		test "$(fill list $f)" = "$GREY" || { echo "$f: $(fill list $f)"; exit 1; }
	done &&
	test "$(hue "$(fill list slow_search)")" = blue &&
	test "$(hue "$(fill list lookup)")" = blue &&
	test "$(hue "$(fill list hash_probe)")" = red &&
	test "$(awk -F "\t" "\$2 != \"$GREY\"" list | wc -l)" = 6
'

# alloc's frames, lookup's (new, red) first, then parse's (unchanged).
check 'a slower function'"'"'s frame that did not move is grey' '
	frames "$R/cmp.svg" >list &&
	awk -F "\t" "\$1 == \"alloc\" { print \$2 }" list >fills &&
	test "$(wc -l <fills)" = 2 &&
	test "$(hue "$(sed -n 1p fills)")" = red &&
	test "$(sed -n 2p fills)" = "$GREY" &&
	grep_q "total .*: slower; self .*: slower)\$" list
'

# Runs "later" make parse;alloc 4.6 ms a run more by their noise alone:
# with no practical size to stop it, only the frame'"'"'s own interval,
# which holds 0, keeps it grey.
check '--min-change=0: a frame moved only by its noise stays grey' '
	expect_status 0 fgsvg --compare --min-change=0 "$R"/before.? -- "$R"/later.? >mc.svg 2>err &&
	frames mc.svg >list &&
	awk -F "\t" "\$1 == \"alloc\"" list >allocs &&
	grep_q "here 206.2 -> 210.8 ms a run" allocs &&
	test "$(hue "$(sed -n 1p allocs | cut -f 2)")" = red &&
	test "$(sed -n 2p allocs | cut -f 2)" = "$GREY"
'

# Runs that agree to the sample: a moves 10 of 1,000 samples a run, a
# change the table calls slower. The frames are tested as the table's
# rows are (the variance the runs' own, floored at one sample a run, not
# at a count's Poisson variance, which would hide it): a is red.
check 'a change the table calls slower, in runs that agree to the sample: its frame red' '
	for i in 1 2 3 4 5; do
		printf "main;a %d\nmain;b 950\n" $((50 + i % 2)) >ra.$i
		printf "main;a %d\nmain;b 950\n" $((60 + i % 2)) >rb.$i
	done &&
	expect_status 0 fgfold --compare ra.? -- rb.? >table 2>table.err &&
	grep_q "^fgfold: 5 runs before, 5 after: " table.err &&
	grep_q "^a	.*	slower\$" table &&
	fgsvg --compare ra.? -- rb.? >tight.svg 2>err &&
	frames tight.svg >list &&
	test "$(hue "$(fill list a)")" = red &&
	test "$(hue "$(fill list main)")" = red &&
	test "$(fill list b)" = "$GREY"
'

check 'the removed function keeps its before width; the bigger change the deeper' '
	expect_status 0 fgfold --compare "$R"/before.? -- "$R"/after.? >table 2>err &&
	frames "$R/cmp.svg" >list &&
	before=$(awk -F "\t" "\$1 == \"slow_search\" { printf \"%.1f\", \$2 }" table) &&
	tip list slow_search >t &&
	grep_q "^slow_search ($before ms wide, [0-9.]*%; here $before -> 0.0 ms a run" t &&
	test "$(green list slow_search)" -lt "$(green list lookup)" &&
	test "$(green list lookup)" -lt "$(green list main)" &&
	test "$(green list slow_search)" -lt "$(green list hash_probe)"
'

check 'tooltips carry the table'"'"'s intervals and verdicts, total and self' '
	expect_status 0 fgfold --compare "$R"/before.? -- "$R"/after.? >total 2>err &&
	expect_status 0 fgfold --compare --self "$R"/before.? -- "$R"/after.? >self 2>err &&
	frames "$R/cmp.svg" >list &&
	for f in slow_search hash_probe parse lookup alloc; do
		tip list $f >t &&
		grep_q "total .*95% interval $(interval total $f)" t &&
		grep_q "; self .*95% interval $(interval self $f))\$" t || exit 1
	done &&
	tip list all >t &&
	grep_q "whole run .*95% interval $(interval total "[all]"))\$" t
'

check 'the title says the runs a side and the whole run'"'"'s verdict' '
	grep_q "<text id=\"title\"[^>]*>Comparison of 5 runs before, 5 after: the whole run faster, " "$R/cmp.svg" &&
	grep_q "<text id=\"subtitle\"[^>]*>total time per run; red slower, blue faster, grey the same" "$R/cmp.svg"
'

check 'A/A: the program against itself is all grey, the whole run the same' '
	expect_status 0 fgsvg --compare "$R"/before.? -- "$R"/again.? >aa.svg 2>err &&
	frames aa.svg >list &&
	test "$(wc -l <list)" -ge 7 &&
	test "$(awk -F "\t" "\$2 != \"$GREY\"" list | wc -l)" = 0 &&
	grep_q "the whole run the same, " aa.svg
'

check '--self: only frames whose own time changed are coloured, and the root' '
	expect_status 0 fgsvg --compare --self "$R"/before.? -- "$R"/after.? >self.svg 2>err &&
	frames self.svg >list &&
	test "$(hue "$(fill list all)")" = blue &&
	for f in main lookup parse render; do
		test "$(fill list $f)" = "$GREY" || { echo "$f: $(fill list $f)"; exit 1; }
	done &&
	test "$(hue "$(fill list slow_search)")" = blue &&
	test "$(hue "$(fill list hash_probe)")" = red &&
	grep_q "<text id=\"subtitle\"[^>]*>self time per run" self.svg
'

# Work that moved between callers: collatz, 83 ms a run under walk
# before, 86 under scan after (its total the same, within its noise).
# Both frames moved beyond their noise and are coloured, blue and red;
# so with --self, by the frames' self time. A frame that did not move
# (main's other child, steady) stays grey.
check 'work moved between callers: both frames coloured, by total and by self time' '
	set -- 78 88 80 86 83 90 81 87 84 88 &&
	for i in 1 2 3 4 5; do
		eval "b=\${$i} a=\${$((i + 5))}" &&
		printf "main;walk;collatz %d\nmain;walk %d\nmain;steady %d\n" $b $((19 + i % 3)) $((300 + i % 3)) >mb.$i &&
		printf "main;scan;collatz %d\nmain;scan %d\nmain;steady %d\n" $a $((19 + i % 2)) $((301 - i % 3)) >ma.$i || exit 1
	done &&
	expect_status 0 fgfold --compare mb.? -- ma.? >tab 2>err && cat tab &&
	awk -F "\t" "\$1 == \"collatz\" { exit \$7 != \"same\" }" tab &&
	for self in "" --self; do
		expect_status 0 fgsvg --compare $self mb.? -- ma.? >m.svg 2>err &&
		frames m.svg >list &&
		awk -F "\t" "\$1 == \"collatz\" { print \$2 }" list >fills &&
		test "$(wc -l <fills)" = 2 &&
		test "$(hue "$(sed -n 1p fills)")" != grey &&
		test "$(hue "$(sed -n 2p fills)")" != grey &&
		test "$(for f in $(cat fills); do hue "$f"; done | sort | tr "\n" " ")" = "blue red " &&
		test "$(fill list steady)" = "$GREY" || { echo "with [$self]:"; cat list; exit 1; }
	done
'

check 'one run a side: drawn, and said to tell sampling noise only' '
	expect_status 0 fgsvg --compare "$R/before.1" -- "$R/after.1" >one.svg 2>err &&
	grep_q "Comparison of 1 run before, 1 after" one.svg &&
	grep_q "Comparison of 1 run before, 1 after: .* (from one run a side: sampling noise and 5% for the noise between runs)" one.svg &&
	test "$(grep -c "from one run" one.svg)" = 1 &&
	frames one.svg >list && test "$(hue "$(fill list slow_search)")" = blue
'

check 'runs of different events: exit 2, nothing drawn, one line naming the run' '
	sed "s/ cpu-clock:\$/ page-faults:/" "$R/after.1" >faults &&
	expect_status 2 fgsvg --compare "$R"/before.? -- faults >out.svg 2>err &&
	test ! -s out.svg && test "$(wc -l <err)" = 1 &&
	grep_q "^fgsvg: .faults. records .page-faults., and .*before.1. records .cpu-clock.: compare runs of one event" err
'

check 'an empty run, a stream cut short: exit 2, nothing drawn, the file named' '
	: >empty &&
	expect_status 2 fgsvg --compare "$R/before.1" -- empty >out.svg 2>err &&
	test ! -s out.svg && test "$(wc -l <err)" = 1 &&
	grep_q "^fgsvg: .empty.: no sample in this run" err &&
	expect_status 2 fgsvg --compare empty -- "$R/after.1" >out.svg 2>err &&
	grep_q "^fgsvg: .empty.: no sample in this run" err &&
	awk "NR > 40 && /^\t/ { print; exit } { print }" "$R/after.2" >cut &&
	expect_status 2 fgsvg --compare "$R/before.1" -- "$R/after.1" cut >out.svg 2>err &&
	test ! -s out.svg &&
	grep_q "^fgsvg: .cut.: a run with a bad line, or cut short, is no run to compare" err
'

check 'folded runs: drawn in samples; no function in common: exit 2, said' '
	for i in 1 2 3; do
		expect_status 0 fgfold "$R/before.$i" >b.$i 2>err &&
		expect_status 0 fgfold "$R/after.$i" >a.$i 2>err || exit 1
	done &&
	expect_status 0 fgsvg --compare b.? -- a.? >f.svg 2>err &&
	grep_q "samples a run, change" f.svg &&
	frames f.svg >list && test "$(hue "$(fill list slow_search)")" = blue &&
	echo "other;thing 10" >x &&
	expect_status 2 fgsvg --compare b.1 -- x >out.svg 2>err &&
	test ! -s out.svg && test "$(wc -l <err)" = 1 &&
	grep_q "^fgsvg: no function of the runs before (.b.1.) is in the runs after (.x.)" err
'

check 'usage: --compare needs "--" and runs on each side; its options need it' '
	expect_status 2 fgsvg --compare "$R/before.1" "$R/after.1" >out.svg 2>err &&
	grep_q "^fgsvg: --compare takes the runs before, .--., and the runs after" err &&
	expect_status 2 fgsvg --compare "$R/before.1" -- >out.svg 2>err &&
	expect_status 2 fgsvg --self "$R/before.1" >out.svg 2>err &&
	grep_q "go with --compare" err &&
	expect_status 2 fgsvg --compare --normalize=ratio "$R/before.1" -- "$R/after.1" >out.svg 2>err &&
	grep_q "^fgsvg: --normalize: .ratio. is neither .share. nor .median.\$" err
'

# --compare's options are parsed once (profile/cmpargs) for both tools:
# the same words for the same mistake.
check '--compare options: fgsvg and fgfold say a bad value alike' '
	for o in --normalize=ratio --min-change=lots --per=0; do
		expect_status 2 fgsvg --compare $o "$R/before.1" -- "$R/after.1" >out.svg 2>svg.err &&
		expect_status 2 fgfold --compare $o "$R/before.1" -- "$R/after.1" >out 2>fold.err &&
		test "$(sed "s/^fgsvg: //" svg.err)" = "$(sed "s/^fgfold: //" fold.err)" &&
		test "$(wc -l <svg.err)" = 1 || { cat svg.err fold.err; exit 1; }
	done &&
	expect_status 2 fgsvg --min-change=1 "$R/before.1" >out.svg 2>svg.err &&
	grep_q "^fgsvg: --self, --per, --normalize, --min-change, --objects and --inuse go with --compare\$" svg.err
'

steps='the title says the runs a side and the whole run'"'"'s verdict
unchanged frames are grey, the removed one blue, the new one red
hovering the removed function shows its interval and verdict
clicking the removed function zooms into it
Reset Zoom brings every frame back
search finds the removed function; Matched is its share of the width
Ctrl+click on the removed function opens its function view
no script errors'

browser_skip "$steps"
check 'open the comparison in Chromium' '
	{ timeout 180 node "$B/compare.js" "$R/cmp.svg" >"$R/results" 2>"$R/stderr" ||
	  echo "node exited $? (each step is checked below)"; } &&
	cat "$R/results" "$R/stderr" && test -s "$R/results"
'
browser_report "$steps" "$R/results"
