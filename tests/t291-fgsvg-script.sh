#!/bin/sh
# The SVG's script (common/svg/svgscript.js) as JavaScript under node: it
# parses (node --check), and its pure functions (label fitting, parsing of
# the search data, taming a link's pattern, the search count, the function
# view's merge and layout) give what the folded stacks say
# (tests/fgsvg/script.js draws the SVGs with fgsvg); and no pattern makes
# its search run for long (tests/fgsvg/search.js).
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 37
steps='label fits a name to a width
parsel reads depths, names and own times
tame keeps a plain pattern and quotes one that backtracks
layout: the root full width, children by name, narrow ones hidden, their search data kept
search in the function view: the call tree walked in place counts as its copy
function view of a --wall graph: the off-CPU part of each frame
function view of a --wall graph: the off-CPU part of each frame (--reverse)'
for o in '' ' (--inverted)' ' (--reverse)'; do
	steps="$steps
the SVG has grey frames and hidden ones$o"
	for n in rec mid leaf other w3; do
		steps="$steps
function view of $n: share, self, callers, callees$o"
	done
	for p in '^rec$' w1 'other|io'; do
		steps="$steps
search counts /$p/ once per stack$o"
	done
done

if ! command -v node >/dev/null 2>&1; then
	skip 'node --check common/svg/svgscript.js' 'no node (apt-get install nodejs)'
	echo "$steps" | {
		while read -r s; do skip "script: $s" 'no node (apt-get install nodejs)'; done
		skip 'search: the patterns of a frozen tab end in time' 'no node (apt-get install nodejs)'
		skip 'search: names too long for a pattern are left out' 'no node (apt-get install nodejs)'
		done_testing
	}
	exit 0
fi

# A search cannot freeze the page, whoever wrote the pattern (a #s= link,
# or the search box): the patterns of issue 23 and the classic
# catastrophic ones, on the profile of 100,000 stacks of t290, each end
# within 20 times the CPU time of a harmless search in the same run, plus the
# script's own budget (50 ms) twice over, and say that they were refused
# (searched as text) or stopped. Names of 200 characters: a pattern the
# script lets run is stopped by its budget, or leaves out the names too
# long for it, and says so. tests/fgsvg/search.js runs each in a child
# node that it kills after 30 s (today's main: killed, or seconds).
hostile_search() {
	check 'search: the patterns of a frozen tab end in time, refused or stopped, on 100,000 stacks' '
		awk "function rnd(){ s=(s*16807)%2147483647; return s/2147483647 }
		BEGIN { s = 11; for (i = 0; i < 100000; i++) { d = 15 + int(rnd() * 45); l = \"main\";
			for (j = 1; j < d; j++) l = l \";ns\" j%5 \"::Class\" int(rnd() * (j < 4 ? 2 : (j < 10 ? 5 : 40))) \"::method_\" j;
			c = 1; while (rnd() < 0.3) c *= 4; print l, c } }" >big.folded &&
		fgsvg big.folded >big.svg && rm big.folded &&
		alt=$(printf "(.|.)%.0s" $(seq 40))"#" && opt=$(printf ".?%.0s" $(seq 30))$(printf ".%.0s" $(seq 30))"#" &&
		test ${#alt} = 201 && test ${#opt} = 91 &&
		node "$TESTS/fgsvg/search.js" "$TOP/common/svg/svgscript.js" big.svg \
			"method_3[0-9]" "$alt" "$opt" "(a+)+\$" "(a*)*b" "(a|a)*b" "(.|a)*#" \
			"([a-z]+)*#" "(x)\\1" "(?<n>.)\\k<n>#" "(.*a){12}" "(?:.|.){40}#" \
			"[a-z]*[a-z]*[a-z]*[a-z]*#" "a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?aaaaaaaaaaaaaaaaaaaa" >res &&
		cut -c1-120 res &&
		awk -F "	" "NR == 1 { h = \$2; if (\$3 !~ /^matched 7/) { print \"harmless: \" \$0; bad = 1 }; next }
			\$2 > 20 * h + 100 { print \"slow: \" \$0 \" (harmless \" h \" ms)\"; bad = 1 }
			\$3 !~ /^(text|stopped) / { print \"no word: \" \$0; bad = 1 }
			END { exit bad + (NR != 14) }" res
	'
	check 'search: names too long for a pattern are left out and said; a costly search stops at its budget' '
		awk "BEGIN { a = sprintf(\"%200s\", \"\"); gsub(/ /, \"a\", a)
			for (i = 0; i < 2000; i++) print \"main;\" a i, 1; print \"main;short\", 2000 }" >long.folded &&
		fgsvg long.folded >long.svg &&
		node "$TESTS/fgsvg/search.js" "$TOP/common/svg/svgscript.js" long.svg \
			short "[a-z]*[a-z]*x" "a.*a.*a.*b" "a{0,99}a{0,99}a{0,99}b" >res &&
		cut -c1-120 res &&
		awk -F "	" "NR == 1 { h = \$2; if (\$3 != \"matched 50.0\") { print \"harmless: \" \$0; bad = 1 }; next }
			\$2 > 20 * h + 100 { print \"slow: \" \$0 \" (harmless \" h \" ms)\"; bad = 1 }
			NR == 2 && \$3 !~ /^stopped / { print \"not stopped: \" \$0; bad = 1 }
			NR == 3 && \$3 != \"matched 0.0 skipped 2000\" { print \"not said: \" \$0; bad = 1 }
			NR == 4 && \$3 !~ /^text 0.0 / { print \"not refused: \" \$0; bad = 1 }
			END { exit bad + (NR != 4) }" res
	'
}

check 'node --check common/svg/svgscript.js' '
	node --check "$TOP/common/svg/svgscript.js"
'
out=$TMP/script
mkdir -p "$out"
node "$TESTS/fgsvg/script.js" "$TOP/common/svg/svgscript.js" "$out" >"$out/results" 2>&1
echo "$steps" | {
	while read -r s; do
		check "script: $s" '
			{ grep -F -x -q "PASS $s" "$out/results" || {
				grep -F "$s" "$out/results"; grep -v "^PASS" "$out/results" | head -5
				false
			}; }
		'
	done
	hostile_search
	done_testing
}
