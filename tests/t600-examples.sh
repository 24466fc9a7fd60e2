#!/bin/sh
# t600-examples: every example builds, its unit tests pass (the slow and
# the fixed version agree on valid and malformed input), and its before
# and after programs print the same result. The C and the Rust versions
# print the same lines too. No profiling here: see t601.
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 17
EX=$TOP/examples

# A small amount of work per example, so that the slow versions run fast.
arg_for() {
	case $1 in
	alloc-loop) echo 20000 ;;
	parse-alloc) echo 2 ;;
	sensor-hash) echo 300000 ;;
	fib-tower) echo 1 ;;
	lock-wait) echo 50 ;;
	esac
}

for ex in alloc-loop parse-alloc sensor-hash fib-tower lock-wait; do
	check "$ex (C): unit tests pass, before and after agree" '
		{ "$EX/run" -k -a '"$(arg_for $ex)"' -o out '"$ex"' c >log 2>&1 ||
			{ cat log; false; }; } &&
		grep_q "unit tests pass; before and after agree" log &&
		grep -q "^ok " out/unit.log && ! grep -q "^not ok" out/unit.log &&
		test_cmp out/before.out out/after.out
	'
done

if command -v rustc >/dev/null 2>&1; then
	for ex in alloc-loop parse-alloc sensor-hash fib-tower lock-wait; do
		check "$ex (Rust): unit tests pass, before and after agree, same output as C" '
			{ "$EX/run" -k -a '"$(arg_for $ex)"' -o rust '"$ex"' rust >log 2>&1 ||
				{ cat log; false; }; } &&
			grep_q "test result: ok" rust/unit.log &&
			test_cmp rust/before.out rust/after.out &&
			"$EX/run" -k -a '"$(arg_for $ex)"' -o c '"$ex"' c >/dev/null &&
			test_cmp c/after.out rust/after.out
		'
	done
else
	skip "the Rust examples" "rustc not found (Debian: apt-get install rustc)"
fi

# The unit tests can fail: a fixed version with a planted off-by-one must
# be caught.
check "alloc-loop: unit test catches a wrong fast version" '
	sed "s/i < j; i++/i + 1 < j; i++/" "$EX/alloc-loop/c/fast.c" >fast.c &&
	! cmp -s fast.c "$EX/alloc-loop/c/fast.c" &&
	cc -O2 -I"$EX/alloc-loop/c" -o unit "$EX/alloc-loop/c/test.c" \
		"$EX/alloc-loop/c/slow.c" fast.c &&
	expect_status 1 ./unit >out &&
	grep_q "^not ok" out
'
check "parse-alloc: unit test catches a parser that allows an empty level" '
	sed "s/ || b == a + 1//" "$EX/parse-alloc/c/fast.c" >fast.c &&
	! cmp -s fast.c "$EX/parse-alloc/c/fast.c" &&
	cc -O2 -I"$EX/parse-alloc/c" -o unit "$EX/parse-alloc/c/test.c" \
		"$EX/parse-alloc/c/slow.c" fast.c &&
	expect_status 1 ./unit >out &&
	grep_q "^not ok .* empty level" out
'

check "examples/run: unknown example is a usage error that lists the names" '
	expect_status 2 "$EX/run" no-such-example 2>err &&
	grep_q "no example .no-such-example.: pick one of alloc-loop" err
'
check "examples/run: unknown language is a usage error" '
	expect_status 2 "$EX/run" alloc-loop fortran 2>err &&
	grep_q "unknown language .fortran." err
'
check "examples/run -l lists the five examples" '
	"$EX/run" -l >out &&
	printf "%s\n" alloc-loop parse-alloc sensor-hash fib-tower lock-wait >expect &&
	test_cmp expect out
'
check "examples/run: a build failure says so and exits 2" '
	expect_status 2 env CC=false "$EX/run" -k -o out alloc-loop c 2>err &&
	grep_q "the C build failed" err
'
check "examples/run: missing tools are named, with the fix" '
	mkdir empty &&
	expect_status 2 env PATH=/usr/bin:/bin FG_BIN="$PWD/empty" \
		"$EX/run" -a 1000 -o out alloc-loop c 2>err &&
	grep_q "examples/run: .fgrecord. not found: run .make. at the top of the checkout, or set FG_BIN" err
'
done_testing
