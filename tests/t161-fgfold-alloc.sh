#!/bin/sh
# t161-fgfold-alloc: heap profiles (fg-stream(5), "Heap allocations") folded
# by bytes, by allocations (--objects) and by what was live at the end
# (--inuse); each stack's leaf says which; --top says it in its units.
. "$(dirname "$0")/lib.sh"
plan 8
GEN=$TESTS/alloc/gen.awk

# The truth: token allocates 1.5 MiB in 300 allocations, leak 2 MiB in 2
# that are never freed, grow 4 KiB in one.
spec() {
	printf "%s\n" "main;parse;token 1048576 200" "main;parse;token 524288 100" \
	    "main;load;leak 2097152 2 live" "main;grow 4096 1"
}

check 'bytes by default, the four events folded as one without a word' '
	spec | awk -f "$GEN" >in &&
	expect_status 0 fgfold in >out 2>err &&
	cat out && test_cmp /dev/null err &&
	printf "%s\n" "app;main;grow;[alloc-bytes] 4096" \
	    "app;main;load;leak;[alloc-bytes] 2097152" \
	    "app;main;parse;token;[alloc-bytes] 1572864" >expect &&
	test_cmp expect out
'

check '--objects: allocations, and the leaf says so' '
	spec | awk -f "$GEN" >in &&
	expect_status 0 fgfold --objects in >out 2>err &&
	test_cmp /dev/null err &&
	printf "%s\n" "app;main;grow;[alloc-objects] 1" \
	    "app;main;load;leak;[alloc-objects] 2" \
	    "app;main;parse;token;[alloc-objects] 300" >expect &&
	test_cmp expect out
'

check '--inuse and --inuse --objects: only what was never freed' '
	spec | awk -f "$GEN" >in &&
	expect_status 0 fgfold --inuse in >out 2>err &&
	test_cmp /dev/null err &&
	echo "app;main;load;leak;[inuse-bytes] 2097152" >expect &&
	test_cmp expect out &&
	expect_status 0 fgfold --inuse --objects in >out &&
	echo "app;main;load;leak;[inuse-objects] 2" >expect &&
	test_cmp expect out
'

check '--event-filter names one of the four itself' '
	spec | awk -f "$GEN" >in &&
	expect_status 0 fgfold --event-filter=inuse-objects in >out 2>err &&
	test_cmp /dev/null err &&
	echo "app;main;load;leak;[inuse-objects] 2" >expect &&
	test_cmp expect out
'

check '--inuse with nothing left at the end: said, nothing written, exit 0' '
	printf "%s\n" "main;a 100 1" | awk -f "$GEN" >in &&
	expect_status 0 fgfold --inuse in >out 2>err &&
	cat err && test ! -s out &&
	grep_q "nothing was still allocated when the program ended" err
'

check '--top in bytes and in allocations, the leaf taken off' '
	spec | awk -f "$GEN" >in &&
	fgfold --top=3 in >top &&
	cat top &&
	grep_q "^3.50 MiB of .alloc-bytes., 6 functions\$" top &&
	grep_q "self MiB" top &&
	sed -n 3p top | grep_q " leak\$" - &&
	! grep -q "\[alloc" top &&
	fgfold --top=3 --objects in >top &&
	grep_q "^303 allocations of .alloc-objects." top &&
	sed -n 3p top | grep_q "300 *99.01% *300  token\$" - &&
	fgfold in | fgfold --folded --top=2 >ftop &&
	grep_q "^3.50 MiB, 6 functions\$" ftop
'

check '--objects on a CPU profile: said, weighed as it is, exit 1' '
	printf "%s\n" "app 7/7 [000] 1.000000: 1000 cpu-clock:" \
	    "	1000 main+0x4 (/bin/app)" "" >in &&
	expect_status 1 fgfold --objects in >out 2>err &&
	cat err &&
	grep_q "choose among the events of a heap profile" err &&
	echo "app;main 1" >expect && test_cmp expect out &&
	expect_status 2 fgfold --inuse --event-filter=alloc-bytes in &&
	expect_status 2 fgfold --folded --objects in
'

check 'a CPU profile is folded as before: no leaf, counts are samples' '
	printf "%s\n" "app 7/7 [000] 1.000000: 1000 cpu-clock:" \
	    "	1000 main+0x4 (/bin/app)" "" >in &&
	expect_status 0 fgfold in >out &&
	echo "app;main 1" >expect && test_cmp expect out
'

done_testing
