#!/bin/sh
# The house: man pages lint-clean and cross-referenced, every tool built
# and documented, usage errors exit 2, --help and --version, one format for
# input errors.
. "$(dirname "$0")/lib.sh"
plan 25

if command -v mandoc >/dev/null 2>&1; then
	check 'every file in man/ is a lint-clean man page (mandoc -Tlint -W warning man/*)' '
		{ mandoc -Tlint -W warning $TOP/man/* >lint 2>&1 || test -s lint; } &&
		test_cmp /dev/null lint
	'
else
	skip 'man pages lint-clean' 'mandoc is not installed (apt-get install mandoc)'
fi

for t in fgrecord fgsym fgfold fgsvg fgpprof; do
	check "$t: built, has a man page that SEE ALSO links to its siblings" "
		test -x $TOP/bin/$t && test -f $TOP/man/$t.1 &&
		for s in fgrecord fgsym fgfold fgsvg fg-stream; do
			[ \$s = $t ] || grep -q \"^\\.Xr \$s [15]\" $TOP/man/$t.1 || { echo \"$t.1 lacks .Xr \$s\"; exit 1; }
		done
	"
	check "$t: an unknown option is a usage error, exit 2" "
		expect_status 2 $t --no-such-option </dev/null 2>err && grep_q usage err
	"
	check "$t: --help prints the usage on stdout, exit 0; -V and --version the Makefile's VERSION" "
		$t --help >out 2>err && grep_q '^usage: $t ' out && test ! -s err &&
		v=\$(sed -n 's/^VERSION[ 	]*= *//p' \$TOP/Makefile) && test -n \"\$v\" &&
		echo \"$t (fgtools) \$v\" >want &&
		$t -V >out && test_cmp want out &&
		$t --version >out && test_cmp want out
	"
done

# Lifecycle names (HACKING.md, "Lifecycle"): a struct its header defines
# is the caller's to hold, so no function there returns a new one
# (x_new, x_open, x_create, x_alloc); x_new is for opaque types only, and
# no header says x_create or x_destroy.
check 'lifecycle: no heap constructor for a struct its header defines; no x_create, x_destroy' '
	for h in $TOP/common/*/*.h; do
		sed -n "s/^struct \([a-z_0-9]*\) *\*\1_\(new\|open\|create\|alloc\)(.*/\1 &/p" "$h" |
		while read -r t line; do
			! grep -q "^struct $t {" "$h" || echo "${h#$TOP/}: $line"
		done
		grep -H "^[a-z].*[a-z_0-9]_\(create\|destroy\)(" "$h" | sed "s|^$TOP/||"
	done >bad &&
	test_cmp /dev/null bad
'

# An input that cannot be opened or read: one message format everywhere.
for t in fgsym fgfold fgsvg fgpprof; do
	check "$t: open and read errors say 'cannot open/read FILE: reason', exit 1" "
		expect_status 1 $t nosuch >/dev/null 2>err &&
		echo \"$t: cannot open 'nosuch': No such file or directory\" >want &&
		test_cmp want err &&
		mkdir dir && expect_status 1 $t dir >/dev/null 2>err &&
		echo \"$t: cannot read 'dir': Is a directory\" >want &&
		test_cmp want err
	"
done

# The suite itself (tests/lib.sh, tests/run): small test files run by a
# copy of both, each of which must fail, or pass, as said. A check whose
# lines are not chained fails without running; a file that prints fewer
# results than its plan fails; a check that cannot decide is a skip; a
# file without a plan still runs, warned of.
check 'tests/run: a broken && chain fails the check, unrun' '
	mkdir -p fake/tests && cp "$TESTS/run" "$TESTS/lib.sh" fake/tests/ &&
	cat >fake/tests/t1-chain.sh <<-\EOF &&
	. "$(dirname "$0")/lib.sh"
	plan 2
	check "false on one line, true on the next" "
		false
		true
	"
	check "the same, chained, after a guarded failure" "
		{ false || true; } &&
		true
	"
	done_testing
	EOF
	expect_status 1 fake/tests/run -j 1 tests/t1-chain.sh >out &&
	grep_q "^t1-chain.sh  *1 passed, 1 failed, 0 skipped" out &&
	grep_q "^    not ok 1 - false on one line, true on the next" out &&
	grep_q "broken && chain" fake/tests/out/t1-chain.sh.tap
'
check 'tests/run: a file whose plan says 5 and runs 4 fails' '
	mkdir -p fake/tests && cp "$TESTS/run" "$TESTS/lib.sh" fake/tests/ &&
	cat >fake/tests/t2-lost.sh <<-\EOF &&
	. "$(dirname "$0")/lib.sh"
	plan 5
	for i in 1 2 3 4; do check "check $i" "true"; done
	done_testing
	EOF
	expect_status 1 fake/tests/run -j 1 tests/t2-lost.sh >out &&
	grep_q "^t2-lost.sh  *4 passed, 1 failed, 0 skipped" out &&
	grep_q "planned 5 results but printed 4" out
'
check 'tests/run: a file that keeps its plan passes; a check that cannot decide is a skip; no plan is warned of' '
	mkdir -p fake/tests && cp "$TESTS/run" "$TESTS/lib.sh" fake/tests/ &&
	cat >fake/tests/t3-kept.sh <<-\EOF &&
	. "$(dirname "$0")/lib.sh"
	plan 3
	check "one" "true"
	check "undecided" "
		true &&
		cannot_decide the machine was busy &&
		false
	"
	skip "three" "not here"
	done_testing
	EOF
	cat >fake/tests/t4-noplan.sh <<-\EOF &&
	. "$(dirname "$0")/lib.sh"
	check "one" "true"
	done_testing
	EOF
	expect_status 0 fake/tests/run -j 1 tests/t3-kept.sh tests/t4-noplan.sh >out &&
	grep_q "^t3-kept.sh  *1 passed, 0 failed, 2 skipped" out &&
	grep_q "^    ok 2 - undecided # SKIP the machine was busy" out &&
	sed -n "/^t4-noplan/,\$p" out >out.4 &&
	grep_q "^t4-noplan.sh  *1 passed, 0 failed, 0 skipped" out.4 &&
	grep_q "^    # no plan: add .plan 1. before the first check" out.4 &&
	test "$(grep -c "# no plan" out)" = 1
'

# The pseudo-frame fg-stream(5) documents for a stack deeper than the
# copy is the one fgrecord writes: taken from the page, looked for in a
# real recording of a deep recursion with a small stack copy.
frame=$(sed -n "s/^\.Dl <tab>\(.*truncated.*\)/\1/p" "$TOP/man/fg-stream.5")
if perf_ok; then
	check 'fg-stream(5) names the pseudo-frame fgrecord writes for a stack deeper than the copy' '
		{ test -n "$frame" || { echo "fg-stream.5 shows no [truncated] frame"; false; }; } &&
		${CC:-cc} -O2 -g -o deep "$TESTS/record/deep.c" &&
		fgrecord -q --call-graph dwarf,512 -o out ./deep 0.2 3000 &&
		printf "\t%s\n" "$frame" >want &&
		{ grep -qxF -f want out || { echo "no line \"$frame\" in the stream:"; head -20 out; false; }; }
	'
else
	skip 'fg-stream(5) names the pseudo-frame fgrecord writes' "$why"
fi

done_testing
