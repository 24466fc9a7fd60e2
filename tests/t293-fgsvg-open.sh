#!/bin/sh
# fgsvg's deep graphs in a real browser (issue 24, point 5): headless
# Chromium driven by playwright-core (tests/browser/open.js) opens, at
# 1200x1000 and at 800x600, a graph with a stack of 1,000 frames and one
# about 1,600 px high, and checks that the root frames, the details line,
# Matched and Search are in the window as it opens; that a search, and a
# #s= link, bring the widest match into view with Matched; that the title,
# Search and Matched stay in the window wherever it is scrolled; that a zoom
# and the function view of a deep frame show it; that an icicle opens with
# its roots; and that the graph prints as written and works in an <img>
# and an <object>. FGSVG names the fgsvg to try (bin/'s by default).
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 25
. "$TESTS/browser/steps.sh"
FGSVG=${FGSVG:-fgsvg}
steps=
for g in 'deep (1,000 frames)' '1,600 px'; do
	for w in 1200x1000 800x600; do
		steps="$steps$g, $w: opens with the root frames, the details line, Matched and Search in view
$g, $w: a search brings its widest match into view, and Matched
$g, $w: the controls stay in view however the window scrolls
$g, $w: a #s= link opens with its widest match and Matched in view
"
		[ "$w" = 1200x1000 ] && steps="$steps$g, $w: a zoom on a deep frame shows it, from a link too
$g, $w: the function view of a deep frame shows it
"
	done
done
steps="${steps}icicle: opens with its roots, the details line and Matched in view
print shows the graph as written: title at the top, details at the bottom
the graph works in an <img> and an <object>
no script errors"

browser_skip "$steps"

out=$TMP/open
mkdir -p "$out"
check 'draw the deep graphs and run Chromium' '
	awk "BEGIN { l = \"main\"; for (i = 1; i < 1000; i++) l = l \";f\" i; print l, 5
		print \"main;a 100\"; print \"main;b;c 80\"; print \"main;b;needle 20\" }" >"$out/deep.folded" &&
	awk "BEGIN { l = \"main\"; for (i = 1; i <= 95; i++) l = l \";g\" i; print l, 30
		print \"main;x;y 50\"; print \"main;x;needle 20\" }" >"$out/mid.folded" &&
	expect_status 0 "$FGSVG" "$out/deep.folded" >"$out/deep.svg" &&
	expect_status 0 "$FGSVG" "$out/mid.folded" >"$out/mid.svg" &&
	expect_status 0 "$FGSVG" --inverted "$out/deep.folded" >"$out/icicle.svg" &&
	{ timeout 300 node "$B/open.js" "$out/deep.svg" "$out/mid.svg" "$out/icicle.svg" \
		>"$out/results" 2>"$out/stderr" ||
	  echo "node exited $? (each step is checked below)"; } &&
	cat "$out/results" "$out/stderr" && test -s "$out/results"
'
browser_report "$steps" "$out/results"
