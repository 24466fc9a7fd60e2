#!/bin/sh
# fgsvg in a real browser: headless Chromium (Debian's chromium) driven by
# playwright-core (tests/browser, installed with npm install) opens the SVG
# from disk and checks that frames render, that hover, click zoom, search
# (Ctrl-F, F3, Esc), "Matched", Reset Zoom and the URL state work, and that
# a profile of 100,000 unique stacks opens, searches and zooms, with a
# "Matched" that the folded stacks confirm, and says when it is only a lower
# bound (--search-budget too small); and that the function view opens by
# Ctrl+click, by "f" and by a #f= link, with its share, callers and callees,
# on the big profile too (its time printed, make bench measures it); and that the #s= links that
# froze the tab (issue 23) open the big profile and say that their pattern
# was refused; and that on the big profile, scrolled to the top, Matched
# comes back into the window (the controls follow once a scroll pauses).
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 30
. "$TESTS/browser/steps.sh"
F=$TESTS/fgsvg
steps='frames render
hover shows name, count and self
click zooms into a frame
clicking a dimmed ancestor zooms out to it
Ctrl-F searches, case-insensitive; Matched counts nested frames once
Esc clears the search
F3 searches too; Matched of separate frames adds up
Reset Zoom restores every frame
a link with #z=...&s=... reopens the same view
a flamegraph.pl link (?x=...&y=...&s=...) opens the same view
no script errors and no network requests
search sees the names inside grey frames and hidden ones; Matched is exact
Ctrl+click opens the function view: share, callers above, callees below, nothing else
search and Matched work in the function view
zoom works in the function view, and Reset Zoom keeps the view
Esc returns to the full graph
f on a hovered frame opens the function view
a link with #f=NAME opens the function view
function view of a name inside grey and hidden frames counts them
hover on a grey frame shows its count
big profile: the function view opens
big profile opens, searches and zooms
big profile: scrolled to the top, Matched comes back into the window
big profile: a #s= link of (.|.) forty times answers, the pattern refused and said
big profile: a #s= link of .? thirty times answers, the pattern refused and said
big profile: the search data fits, Matched is exact
over the size budget, Matched says it is a lower bound
time-weighted graph: the function view reads times in any unit
differential graph: the function view opens with the second profile'"'"'s share'

browser_skip "$steps"

out=$TMP/browser
mkdir -p "$out"
check 'draw the SVGs and run Chromium' '
	fgsvg "$F/small.folded" >"$out/small.svg" &&
	awk "function rnd(){ s=(s*16807)%2147483647; return s/2147483647 }
	BEGIN { s = 11; for (i = 0; i < 100000; i++) { d = 15 + int(rnd() * 45); l = \"main\";
		for (j = 1; j < d; j++) l = l \";ns\" j%5 \"::Class\" int(rnd() * (j < 4 ? 2 : (j < 10 ? 5 : 40))) \"::method_\" j;
		c = 1; while (rnd() < 0.3) c *= 4; print l, c } }" >"$out/big.folded" &&
	fgsvg "$out/big.folded" >"$out/big.svg" &&
	fgsvg --search-budget 2 "$out/big.folded" >"$out/capped.svg" &&
	awk "{ t += \$NF } /method_3[0-9]/ { m += \$NF } END { printf \"%.1f\", 100 * m / t }" \
		"$out/big.folded" >"$out/matched" &&
	rm -f "$out/big.folded" &&
	awk "BEGIN { print \"main;big 80000\"; for (i = 0; i < 2000; i++) {
		print \"main;f\" i \";needle 2\"; print \"main;f\" i, 3; print \"main;g\" i \";x;needle;needle 5\" }
		for (i = 0; i < 100; i++) { print \"main;h\" i, 994; print \"main;h\" i \";needle 6\" } }" >"$out/merged.folded" &&
	fgsvg "$out/merged.folded" >"$out/merged.svg" &&
	printf "%s\n" "main;a;[off-cpu] 3000000000" "main;b;lock;[off-cpu] 700000000" \
		"main;c;lock;[off-cpu] 300000000" | fgsvg >"$out/time.svg" &&
	printf "%s\n" "main;a 30 20" "main;b;lock 5 15" "main;c;lock 5 5" | fgsvg >"$out/diff.svg" &&
	{ BIG_MATCHED=$(cat "$out/matched") timeout 180 node "$B/fgsvg.js" "$out/small.svg" \
		"$out/big.svg" "$out/merged.svg" "$out/capped.svg" "$out/time.svg" "$out/diff.svg" >"$out/results" 2>"$out/stderr" ||
	  echo "node exited $? (each step is checked below)"; } &&
	cat "$out/results" "$out/stderr" && test -s "$out/results"
'
browser_report "$steps" "$out/results"
