#!/bin/sh
# Every fuzz harness replays its seeds and every input a fuzzer ever found a
# problem with (tests/fuzz/regress/NAME/), built without libFuzzer; under
# make check SANITIZE=1 with ASan and UBSan. A crash or a hang fails.
. "$(dirname "$0")/lib.sh"
# a check (or a skip) per harness built
plan $(ls -d "$TOP"/build/regress/regress_* 2>/dev/null | wc -l)
# Under SANITIZE=1: the library leaks listed in lsan.supp are not ours.
LSAN_OPTIONS=suppressions=$TESTS/fuzz/lsan.supp:print_suppressions=0
ASAN_OPTIONS=fast_unwind_on_malloc=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
export LSAN_OPTIONS ASAN_OPTIONS
for h in "$TOP"/build/regress/regress_*; do
	[ -x "$h" ] || continue
	name=${h##*/regress_}
	set -- "$TESTS"/fuzz/seeds/$name/* "$TESTS"/fuzz/regress/$name/*
	files=
	for f; do [ -f "$f" ] && files="$files $f"; done
	if [ -z "$files" ]; then
		skip "fuzz regressions: $name" "no seeds in tests/fuzz/seeds/$name"
		continue
	fi
	check "fuzz regressions: $name replays $(echo $files | wc -w) inputs cleanly" "
		{ timeout 120 $h $files >out 2>err || { tail -20 err; false; }; }
	"
done
done_testing
