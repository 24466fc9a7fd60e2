#!/bin/sh
# Regressions for what fuzzing and the corrupt-input work found, one check
# per fix, through the real binaries.
. "$(dirname "$0")/lib.sh"
plan 3

check 'fgsym --annotate: a FIFO, a device or a directory as DSO neither hangs nor reads, exit 1' '
	mkfifo fifo &&
	for d in "$PWD/fifo" /dev/zero "$PWD"; do
		printf "# fgrecord 1\napp 1/1 [000] 1.0: 1 cpu-clock:\n\t1000 [unknown] (%s)\n\n" "$d" >in &&
		expect_status 1 timeout 10 fgsym --annotate in >out 2>err &&
		grep_q "$d. is not a regular file; its samples are not annotated" err ||
		exit 1
	done
'

check 'fgfold --diff -n: a scaled BEFORE beyond 2^64 - 1 is the largest count, not garbage' '
	printf "a 1\n" >before &&
	printf "a 18446744073709551615\n" >after &&
	fgfold --diff -n before after >out &&
	echo "a 18446744073709551615 18446744073709551615" >expect &&
	test_cmp expect out
'

check 'fgsvg --cp: a palette.map colour cannot inject an attribute into the SVG' '
	printf "main->x\" onload=\"alert(1)\nf->rgb(1,2,3)\ng->rgb(256,0,0)\n" >palette.map &&
	printf "main;f;g 5\n" >in &&
	expect_status 1 fgsvg --cp in >out.svg 2>err &&
	grep_q "palette.map:1: expected" err &&
	! grep -q onload out.svg &&
	grep_q "fill=\"rgb(1,2,3)\"" out.svg &&
	! grep -q "rgb(256" out.svg &&
	! grep -q onload palette.map
'

done_testing
