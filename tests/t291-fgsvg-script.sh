#!/bin/sh
# The SVG's script (common/svg/svgscript.js) as JavaScript under node: it
# parses (node --check), and its pure functions (label fitting, parsing of
# the search data, taming a link's pattern, the search count, the function
# view's merge and layout) give what the folded stacks say
# (tests/fgsvg/script.js draws the SVGs with fgsvg).
. "$(dirname "$0")/lib.sh"
steps='label fits a name to a width
parsel reads depths, names and own times
tame keeps a plain pattern and quotes one that backtracks
layout: the root full width, children by name, narrow ones hidden, their search data kept
search in the function view: the call tree walked in place counts as its copy'
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
		done_testing
	}
	exit 0
fi

check 'node --check common/svg/svgscript.js' '
	node --check "$TOP/common/svg/svgscript.js"
'
out=$TMP/script
mkdir -p "$out"
node "$TESTS/fgsvg/script.js" "$TOP/common/svg/svgscript.js" "$out" >"$out/results" 2>&1
echo "$steps" | {
	while read -r s; do
		check "script: $s" '
			grep -F -x -q "PASS $s" "$out/results" || {
				grep -F "$s" "$out/results"; grep -v "^PASS" "$out/results" | head -5
				false
			}
		'
	done
	done_testing
}
