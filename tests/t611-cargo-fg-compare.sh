#!/bin/sh
# t611-cargo-fg-compare: cargo fg's answers before and after a change name
# the crate's code. tests/cargo-words is a std-only crate whose
# is_stopword builds its set of stop words on every call; the test puts
# it in a git repository of its own and fixes it in a second commit (a
# binary search of the sorted list). cargo fg --against HEAD~1 calls
# is_stopword faster, leads the table with the crate's functions, folds
# the rows with the whole run's numbers (main, the runtime's start) and
# the chains of calls with the same numbers into one line each (never
# the crate's own), and
# names the crate first where the own time changed (is_stopword's own
# time, outside the std code inlined into it, falls with rustup's rustc;
# with Debian 12's 1.63 it hardly moves, and std's rows are all there
# is to name); --fail-slower names
# the row; --self, --min-change and --normalize reach fgfold; one run
# saved says what it cannot tell; an unknown saved name stops before the
# build.
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 7
CFG=${FG_TEST_CARGO_FG:-$TOP/scripts/cargo-fg}

# Argument checks: they need no cargo.
check "cargo fg --self, --min-change, --normalize: with --compare or --against only, checked" '
	for a in "--self" "--min-change=2" "--normalize=share" "--save a --self" \
	    "--save a --min-change 2" "--compare a --min-change=x" "--compare a --normalize=mean" \
	    "--against HEAD --normalize"; do
		expect_status 2 "$CFG" fg $a 2>err && test "$(wc -l <err)" = 1 ||
			{ echo "cargo fg $a:"; cat err; exit 1; }
	done &&
	expect_status 2 "$CFG" fg --self 2>err && grep_q "^cargo fg: --self goes with --compare NAME or --against REV\$" err &&
	expect_status 2 "$CFG" fg --save a --min-change 2 2>err && grep_q "^cargo fg: --min-change goes with --compare NAME or --against REV: --save only records\$" err &&
	expect_status 2 "$CFG" fg --compare a --normalize=mean 2>err && grep_q "^cargo fg: --normalize: .mean. is neither .share. nor .median.\$" err
'
if ! command -v cargo >/dev/null 2>&1; then
	skip "cargo fg, runs compared" "cargo not found (Debian: apt-get install cargo)"
	skip_rest
fi
if ! command -v git >/dev/null 2>&1; then
	skip "cargo fg, runs compared" "git not found (Debian: apt-get install git)"
	skip_rest
fi
if ! perf_ok; then
	skip "cargo fg, runs compared" "$why"
	skip_rest
fi
export CARGO_NET_OFFLINE=true CARGO_TARGET_DIR=$TMP/target
W=$TMP/words
cp -r "$TESTS/cargo-words" "$W"
git_c() { git -C "$W" -c user.name=t -c user.email=t@localhost "$@"; }
(git_c init -q . && git_c add -A && git_c commit -q -m "a set a call") >/dev/null 2>&1
sed -i "s/STOPWORDS.iter().copied().collect::<std::collections::HashSet<&str>>().contains(w)/STOPWORDS.binary_search(\&w).is_ok()/" "$W/src/main.rs"
git_c commit -q -am "a binary search" >/dev/null 2>&1
# cw ARGS...: cargo fg in the repository, out and err here.
cw() {
	(cd "$W" && "$CFG" fg "$@") >out 2>err
}
# rows TABLE TSV: the rows printed after [all] (not the lines that fold
# rows), each as the TSV has it, its numbers unrounded. A name may hold
# spaces: the six last fields printed are the numbers and the verdict.
rows() {
	awk 'NR > 2 && !/^\(and / { name = $1; for (i = 2; i < NF - 5; i++) name = name " " $i
		print name }' "$1" >names &&
	awk -F "\t" 'NR == FNR { want[$0] = 1; next } $1 in want' names "$2"
}

check "the fix is in HEAD, the set built on every call in HEAD~1" '
	grep -q "binary_search" "$W/src/main.rs" &&
	git_c show HEAD~1:src/main.rs | grep -q "collect::<std::collections::HashSet"
'
check "cargo fg --runs 5 --against HEAD~1: is_stopword faster, the crate first, runtime rows folded" '
	{ cw --runs 5 --against HEAD~1 -- 300 || { cat out err; false; }; } &&
	cat out err &&
	grep -q "^words::is_stopword  .*  faster\$" out &&
	sed -n 2p out | grep -q "^\[all\]  .*  faster\$" &&
	rows out "$TMP/target/fg/compare.tsv" >rows &&
	head -1 out | grep -q "^function " &&
	sed -n 3p out | grep -q "^words::\|^(and [0-9]* rows\? with \[all\].s numbers, on every stack: " &&
	sed -n "/^\[all\]/,\$p" out | grep -v "^\[all\]\|^(and" | head -1 | grep -q "^words::" &&
	all=$(sed -n "2p" "$TMP/target/fg/compare.tsv" | cut -f 2,3) &&
	awk -F "\t" -v all="$all" "/^words::/ { next } { k = \$2 \"\t\" \$3; if (k == all) { print \"as [all]: \" \$0; bad = 1 }
		n = k \"\t\" \$4 \"\t\" \$5 \"\t\" \$6; if (n == last) { print \"as the row above: \" \$0; bad = 1 }; last = n }
		END { exit bad }" rows &&
	grep_q "^cargo fg: own time changed: " err &&
	! grep "^cargo fg: own time changed: .*, words::" err &&
	grep -q "^words::is_stopword	.*	faster\$" "$TMP/target/fg/compare.tsv"
'
check "cargo fg --runs 1 --save base: one run said, in the singular, with what it cannot tell" '
	{ cw --runs 1 --save base -- 300 || { cat err; false; }; } &&
	grep_q "^cargo fg: recording 1 run of .words. into " err &&
	grep_q "^cargo fg: saved 1 run of .words. in .*/fg/base; " err &&
	grep_q "^cargo fg: one run a side cannot tell the noise between runs .*: a comparison with it has its verdicts rest on sampling noise only" err &&
	! grep -q "1 runs" err
'
check "cargo fg --compare nosuch: stops before the build, naming the saved runs" '
	expect_status 2 cw --compare nosuch -- 300 &&
	cat err &&
	test "$(wc -l <err)" = 1 &&
	grep_q "^cargo fg: --compare: no runs saved as .nosuch. in .*/fg: the saved ones are base " err &&
	! grep -q "building" err
'
check "cargo fg --fail-slower: the slow HEAD~1 against the fixed base, the row named in the last line" '
	{ cw --runs 3 --save base -- 300 || { cat err; false; }; } &&
	git_c checkout -q HEAD~1 2>/dev/null &&
	{ cw --runs 3 --compare base --fail-slower=10 -- 300; st=$?; } &&
	git_c checkout -q - 2>/dev/null &&
	cat out err && test "$st" = 1 &&
	tail -1 err | grep -q "^cargo fg: slower by more than 10% of the whole run (--fail-slower=10): .* +[0-9.]* ms (95% interval +[0-9.]* to +[0-9.]*)\(, and [0-9]* more rows\?\)\?: exit 1\$" &&
	! grep -q "^fgfold: slower by more than" err
'
check "cargo fg --compare base --self --min-change=2 --normalize=share: passed to fgfold" '
	{ cw --runs 3 --compare base --self --min-change=2 --normalize=share -- 300 || { cat out err; false; }; } &&
	grep_q "^fgfold: 3 runs before, 3 after of cpu-clock: self time as a share of the run.s, in %; .* (2% of the whole)" err &&
	head -1 out | grep -q "before %" &&
	! grep -q "own time changed" err
'
done_testing
