#!/bin/sh
# t500-annotate: the annotated listing (common/sym/annotate.c) on a real
# program sampled by perf: a loop around a 64-bit division, built -O2 -g
# here. The module is driven through tests/annotate/driver.c (make builds
# it as build/tests/annotate-driver), which reads "DSO VADDR" lines; t510
# runs the same through fgsym --annotate.
. "$(dirname "$0")/lib.sh"
plan 11
. "$TESTS/annotate/lib.sh"

FX=$TMP/fx
mkdir -p "$FX"

# The fixture: -no-pie, so that perf's sample addresses are the ELF vaddrs.
# The driver is build/tests/annotate-driver, which make builds with
# build/libfg.a like the tools.
built=
if cc -O2 -g -no-pie -o "$FX/hot" "$TESTS/annotate/hot.c" 2>"$FX/cc.log"; then
	if [ -x "$TOP/build/tests/annotate-driver" ]; then
		cp "$TOP/build/tests/annotate-driver" "$FX/driver" && built=yes
	else
		echo "no $TOP/build/tests/annotate-driver: run make" >>"$FX/cc.log"
	fi
fi
check 'fixture and driver build' '
	{ test -n "$built" || { cat "$FX/cc.log"; false; }; }
'

# Synthetic samples, no perf needed: four at divide_loop, one at main.
nm_addr() { nm "$FX/hot" | awk -v s="$1" '$3 == s { print $1 }'; }
if test -n "$built"; then
	dl=$(nm_addr divide_loop) && mn=$(nm_addr main)
	printf '%s %s\n' "$FX/hot" "$dl" "$FX/hot" "$dl" "$FX/hot" "$dl" \
		"$FX/hot" "$dl" "$FX/hot" "$mn" >"$FX/synthetic"
fi

check 'synthetic samples: ranking, heading, 80% and 20%' '
	"$FX/driver" <"$FX/synthetic" >out 2>err &&
	test ! -s err &&
	grep_q "^fgsym annotate: 5 samples in 1 file, 2 functions" out &&
	grep_q "^    1         4  80.00%  divide_loop (hot)" out &&
	grep_q "^    2         1  20.00%  main (hot)" out &&
	grep_q "^== 1\. divide_loop ===" out &&
	grep_q "^   $FX/hot  0x$(echo $dl | sed "s/^0*//")\.\." out &&
	grep_q "^>>       4 100.00%" out
'

check 'call and branch targets are named symbol+offset' '
	"$FX/driver" <"$FX/synthetic" >out &&
	grep_q "call.*0x[0-9a-f]* <helper>" out &&
	grep_q "j[a-z]* *0x[0-9a-f]* <divide_loop+0x[0-9a-f]*>" out &&
	grep_q "call.*<divide_loop>" out
'

check 'source lines interleaved, inlined function beside its line' '
	"$FX/driver" <"$FX/synthetic" >out &&
	grep_q "^ \{20\}hot\.c:[0-9]*  \[inlined step\]  return x + (x \* 2654435761u + i) / d + (x & 0xff);" out &&
	grep_q "^ \{20\}hot\.c:[0-9]*  for (unsigned long i = 1; i <= n; i++) {" out &&
	insn_lines out divide_loop >insns &&
	grep_q " div" insns
'

check 'every line fits in 100 columns, no colour unless asked' '
	"$FX/driver" <"$FX/synthetic" >out &&
	awk "length > 100 { print; bad = 1 } END { exit bad }" out &&
	! grep -q "$(printf "\033")" out &&
	"$FX/driver" -c <"$FX/synthetic" >color &&
	grep -q "$(printf "\033")\[1;31m>>" color
'

check 'a missing file and a file that is not ELF are named, the rest listed' '
	cp "$FX/synthetic" in &&
	echo "/nonexistent/libgone.so 1234" >>in &&
	echo "$TESTS/annotate/hot.c 10" >>in &&
	"$FX/driver" <in >out 2>err &&
	grep_q "cannot open .*/nonexistent/libgone.so.: No such file or directory" err &&
	grep_q "hot\.c. is not an ELF file" err &&
	test "$(wc -l <err)" = 2 &&
	grep_q "cannot open .*/nonexistent/libgone.so.: No such file or directory" out &&
	grep_q "^== 1\. divide_loop" out &&
	grep_q "^    1         4  57.14%  divide_loop (hot)" out
'

if command -v c++ >/dev/null; then
	check 'C++ names as fgsym writes them in the ranking, headings and call targets' '
		c++ -O2 -g -no-pie -o tmpl "$TESTS/annotate/tmpl.cc" &&
		a=$(nm tmpl | awk "/sum_squares/ { print \$1 }") &&
		m=$(nm tmpl | awk "\$3 == \"main\" { print \$1 }") &&
		test -n "$a" && test -n "$m" &&
		printf "%s %s\n" "$PWD/tmpl" "$a" "$PWD/tmpl" "$m" >in &&
		"$FX/driver" <in >out &&
		grep_q "  fx::sum_squares<long> (tmpl)" out &&
		grep_q "^== [12]\. fx::sum_squares<long> ==" out &&
		grep_q "call.*<fx::sum_squares<long>>" out
	'
else
	skip 'C++ names as fgsym writes them in the ranking, headings and call targets' 'no c++'
fi

check 'kernel: disassembled from /proc/kcore, or said to be unreadable' '
	k=$(awk "\$3 == \"schedule\" { print \$1; exit }" /proc/kallsyms) &&
	test -n "$k" && test "$k" != 0000000000000000 &&
	echo "[kernel.kallsyms] $k" >in &&
	"$FX/driver" <in >out &&
	grep_q "^== 1\. schedule " out &&
	if test -r /proc/kcore; then
		grep_q "^>> .*  $k:  " out
	else
		grep_q "the kernel text is not readable: ./proc/kcore.: " out
	fi
'

# Real samples from perf.
if test -z "$built"; then
	skip 'perf samples: the division or its skid is in the top 3' 'no fixture'
	skip 'perf samples: percentages per function sum to 100' 'no fixture'
	skip 'perf samples: the hottest source line is the division' 'no fixture'
elif ! perf_ok; then
	skip 'perf samples: the division or its skid is in the top 3' "$why"
	skip 'perf samples: percentages per function sum to 100' "$why"
	skip 'perf samples: the hottest source line is the division' "$why"
elif ! (cd "$FX" && perf record -q -e cpu-clock -F 2000 -o p.data \
	./hot 20000000 >/dev/null 2>perf.err); then
	why="perf record failed: $(head -1 "$FX/perf.err")"
	skip 'perf samples: the division or its skid is in the top 3' "$why"
	skip 'perf samples: percentages per function sum to 100' "$why"
	skip 'perf samples: the hottest source line is the division' "$why"
else
	perf script -i "$FX/p.data" -F ip,dso 2>/dev/null |
	awk '{ d = $2; gsub(/[()]/, "", d); print d, $1 }' >"$FX/perf.in"

	check 'perf samples: the division or its skid is in the top 3' '
		"$FX/driver" <"$FX/perf.in" >out 2>err &&
		grep_q "^    1 .*divide_loop (hot)" out &&
		div_in_top3 out divide_loop
	'

	check 'perf samples: percentages per function sum to 100' '
		"$FX/driver" <"$FX/perf.in" >out &&
		sums_to_100 out
	'

	check 'perf samples: the hottest source line is the division' '
		"$FX/driver" <"$FX/perf.in" >out &&
		sed -n "/^== hottest source lines/,\$p" out >bottom &&
		sed -n 3p bottom >first &&
		grep_q "hot\.c:[0-9]*  (divide_loop, inlined step)" first &&
		sed -n 4p bottom >text &&
		grep_q "return x + (x \* 2654435761u + i) / d" text &&
		test "$(grep -c "^ *[0-9][0-9]* *[0-9.]*%  " bottom)" -le 5
	'
fi

done_testing
