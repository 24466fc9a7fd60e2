# tests/browser/steps.sh: what the Chromium tests (t290, t293) share,
# sourced after tests/lib.sh.
#
#   browser_skip "$steps"     the drawing check and every step skipped, and
#                             exit, when the machine lacks Chromium, node
#                             or playwright-core
#   browser_report "$steps" RESULTS
#                             one check per step, from the PASS/FAIL/INFO
#                             lines a tests/browser/*.js script wrote
B=$TESTS/browser

browser_skip() {
	_why=
	if [ ! -x /usr/bin/chromium ]; then
		_why='no /usr/bin/chromium (apt-get install chromium)'
	elif ! command -v node >/dev/null 2>&1; then
		_why='no node (apt-get install nodejs)'
	elif [ ! -d "$B/node_modules/playwright-core" ]; then
		_why='no tests/browser/node_modules/playwright-core (cd tests/browser && npm install)'
	fi
	[ -n "$_why" ] || return 0
	echo "$1" | {
		skip 'draw the graphs and run Chromium' "$_why"
		while read -r s; do skip "chromium: $s" "$_why"; done
		done_testing
	}
	exit 0
}

browser_report() {
	_results=$2
	grep '^INFO ' "$_results" 2>/dev/null | sed 's/^INFO /# /'
	echo "$1" | {
		while read -r s; do
			check "chromium: $s" '
				{ grep -F -x -q "PASS $s" "$_results" || {
					grep -F "$s" "$_results"; grep "^FAIL browser" "$_results"
					false
				}; }
			'
		done
		done_testing
	}
}
