#!/bin/sh
# t711-fgfold-hostile: fgfold on broken and hostile streams and folded
# files, beyond what t100 covers: NUL bytes, sums past 64 bits, periods at
# the 64-bit limit, very deep stacks, odd counts. Every bad line is named
# with FILE:LINE, the good ones are kept, the exit status is 1.
. "$(dirname "$0")/lib.sh"
plan 21

# sample PERIOD FUNC...: one sample, leaf first
sample() {
	p=$1; shift
	printf 'app 1/1 [000] 1.000000: %s cpu-clock:\n' "$p"
	for f in "$@"; do printf '\t1000 %s (/bin/app)\n' "$f"; done
	echo
}

check 'stream: a NUL byte in a frame: FILE:LINE, the other samples kept, exit 1' '
	{ sample 1 leaf main; printf "app 1/1 [000] 1.000000: 1 cpu-clock:\n\t1000 le\0af (/bin/app)\n\t1000 main (/bin/app)\n\n"; sample 1 leaf main; } >in &&
	expect_status 1 fgfold in >out 2>err &&
	grep_q "^fgfold: in:6: unrecognised line" err &&
	grep_q "^app;main;leaf 2\$" out && ! grep -q "le\$" out
'

check 'stream: a NUL byte in the DSO path: never folded as the shorter path' '
	printf "app 1/1 [000] 1.000000: 1 cpu-clock:\n\t1000 [unknown] (/bin/a\0pp)\n\n" >in &&
	expect_status 1 fgfold in >out 2>err &&
	grep_q "in:2: unrecognised line" err && ! grep -q "\[a\]" out
'

check 'stream: only headers, no samples, with --period: nothing, said, exit 0' '
	printf "# fgrecord 1\n# lost : 3\n" >in && expect_status 0 fgfold --period in >out 2>err &&
	test ! -s out && grep_q "no samples: the input is well formed" err
'

check 'stream: samples with no frame under --no-comm are said, never silently dropped' '
	printf "a 1 [000] 1.0: 1 cpu-clock:\n\n" >in &&
	expect_status 1 fgfold --no-comm in >out 2>err && test ! -s out &&
	grep_q "1 sample had no frame" err
'

check 'stream: off-CPU periods past 2^64-1: said with FILE:LINE, never wrapped, exit 1' '
	printf "a 1 [000] 1.0: 18446744073709551615 offcpu-time:\n\t1 f (x)\n\na 1 [000] 1.1: 5 cpu-clock:\n\t1 g (x)\n\n" >in &&
	expect_status 1 fgfold in >out 2>err &&
	printf "a;f;[off-cpu] 18446744073709551615\n" >want && test_cmp want out &&
	grep_q "^fgfold: in:4: the total passes 2^64-1 here: 1 sample not counted" err
'

check 'stream: a one-line sample with a hostile symbol: one frame, name tidied' '
	printf "a 1 1.0: 1 cpu-clock: 10 x;y\$LT\$z\$GT\$::h0123456789abcdef+0x1 (/bin/a)\n" >in &&
	fgfold in >out 2>err && printf "a;x:y<z> 1\n" >want && test_cmp want out
'

check 'stream: a period of 2^64-1 is read exactly' '
	sample 18446744073709551615 leaf main >in &&
	fgfold --period in >out 2>err &&
	echo "app;main;leaf 18446744073709551615" >want && test_cmp want out
'

check 'stream: periods that add up past 2^64-1: FILE:LINE, never wrapped, exit 1' '
	{ sample 18446744073709551614 leaf main; sample 5 leaf main; sample 9 x main; sample 1 other main; } >in &&
	expect_status 1 fgfold --period in >out 2>err &&
	printf "app;main;leaf 18446744073709551614\napp;main;other 1\n" >want && test_cmp want out &&
	grep_q "^fgfold: in:5: the total passes 2^64-1 here: 2 samples not counted" err
'

check 'stream: a 10,000-frame sample folds to a 10,000-frame stack' '
	awk "BEGIN { print \"app 1/1 [000] 1.000000: 1 cpu-clock:\"; for (i = 10000; i > 0; i--) printf \"\t%x f%d (/bin/app)\n\", i, i; print \"\" }" >in &&
	fgfold in >out 2>err && test ! -s err &&
	test $(tr ";" "\n" <out | wc -l) = 10001 &&
	grep_q "^app;f1;f2;f3;.*;f10000 1\$" out
'

check 'stream: an address past 64 bits is only text to fgfold: folded, exit 0' '
	sample 1 "[unknown]" main | sed "s/1000 \[unknown\]/1ffffffffffffffffff [unknown]/" >in &&
	fgfold in >out 2>err && grep_q "^app;main;\[app\] 1\$" out
'

check 'folded: fractional counts are kept as decimals and add up' '
	printf "a;b 1.25\na;b 0.5\na;c 2\n" >in &&
	fgfold --folded in >out 2>err &&
	printf "a;b 1.75\na;c 2\n" >want && test_cmp want out && test ! -s err
'

check 'folded: exponents, hex, two dots, a trailing word: FILE:LINE, exit 1' '
	printf "a;e 1e3\na;f 0x10\na;g 1.2.3\na;h 12abc\na;ok 4\n" >in &&
	expect_status 1 fgfold --folded in >out 2>err &&
	echo "a;ok 4" >want && test_cmp want out &&
	grep_q "^fgfold: in:1: " err &&
	grep_q "^fgfold: in: 4 malformed lines skipped" err
'

check 'folded: counts of 2^64-1 are read; a sum past it is refused, never wrapped' '
	printf "a;d 18446744073709551615\na;d 1\n" >in &&
	expect_status 1 fgfold --folded in >out 2>err &&
	echo "a;d 18446744073709551615" >want && test_cmp want out &&
	grep_q "^fgfold: in:2: the counts add up past 2^64-1 here: skipped the line" err
'

check 'folded: a fractional count of 70 digits is refused with FILE:LINE, not read from its first 63' '
	big=$(printf "%070d" 0 | tr 0 9) &&
	printf "a;ok 4\na;big $big.5\na;ok 1\n" >in &&
	expect_status 1 fgfold --folded in >out 2>err &&
	echo "a;ok 5" >want && test_cmp want out &&
	grep_q "^fgfold: in:2: count does not fit in 64 bits (scale the counts down)" err
'

check 'folded: a stack of 10,000 frames, merged and sorted' '
	awk "BEGIN { for (i = 0; i < 10000; i++) printf \"f%d;\", i; print \"leaf 3\"; for (i = 0; i < 10000; i++) printf \"f%d;\", i; print \"leaf 4\" }" >in &&
	fgfold --folded in >out 2>err && test ! -s err &&
	test $(wc -l <out) = 1 && grep_q ";leaf 7\$" out &&
	test $(tr ";" "\n" <out | wc -l) = 10001
'

check 'folded: a NUL byte in a stack: said with FILE:LINE, skipped, never cut, exit 1' '
	printf "a;b 1\na;x\0y 2\na;c 3\na;x\0y 1\n" >in &&
	expect_status 1 fgfold --folded in >out 2>err &&
	grep_q "^fgfold: in:2: a NUL byte" err &&
	printf "a;b 1\na;c 3\n" >want && cmp want out
'

check 'folded: CRLF line ends read as LF' '
	printf "a;b 1\r\na;c 2\r\n" >in && fgfold --folded in >out 2>err &&
	printf "a;b 1\na;c 2\n" >want && test_cmp want out
'

check 'folded: binary garbage after folded lines: no crash, reported, exit 1' '
	{ seq 1 2000 | sed "s/.*/a;b&;c 1/"; head -c 200000 /dev/urandom; } >in &&
	expect_status 1 fgfold --folded in >out 2>err &&
	grep_q "malformed lines skipped" err
'

check 'a FIFO is read like a pipe; a directory is a read error (exit 1), the rest folded' '
	mkfifo fifo && { printf "a;b 1\n" >fifo & } &&
	timeout 10 fgfold --folded fifo >out 2>err && grep_q "^a;b 1" out &&
	printf "a;c 2\n" >ok &&
	expect_status 1 timeout 10 fgfold --folded . ok >out 2>err &&
	grep_q "^fgfold: cannot read .\..: Is a directory" err && grep_q "^a;c 2" out
'

check 'stream: a period past 2^64-1 is 2^64-1 for --period, never 1: FILE:LINE, exit 1' '
	printf "a 1 [000] 1.0: 99999999999999999999999 cpu-clock:\n\t1 f (x)\n\na 1 [000] 1.1: 5 cpu-clock:\n\t1 g (x)\n\n" >in &&
	expect_status 1 fgfold --period in >out 2>err &&
	printf "a;f 18446744073709551615\n" >want && test_cmp want out &&
	grep_q "^fgfold: in:4: the total passes 2^64-1 here: 1 sample not counted" err &&
	fgfold in >out && printf "a;f 1\na;g 1\n" >want && test_cmp want out
'

check 'an [unknown] frame in a deleted file is named after the file' '
	printf "a 1/1 [000] 1.0: 1 cpu-clock:\n\t10 [unknown] (/usr/lib/libx.so (deleted))\n\n" >in &&
	fgfold in >out && printf "a;[libx.so] 1\n" >want && test_cmp want out
'

done_testing
