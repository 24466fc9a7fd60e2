#!/bin/sh
# t306-fgrecord-stitch: a stack three times deeper than the kernel's
# largest stack copy (tests/record/chain.c: f0..f99, 2 KiB frames) reaches
# main on nearly every sample, because fgrecord completes a stack that
# ran off the copy from the same thread's last complete stack; each
# completed stack is exactly the program's (main;f0;f1;...;fK, in order,
# nothing missing or repeated). With --no-stitch the deep samples end in
# [truncated]. The ptrace sampler does the same (it samples less often,
# so the program descends more slowly there: a sample must find the
# thread less than a stack copy deeper than an earlier one).
#
# chain.c times everything in its own CPU time, so that the samples fall
# at the same depths on a busy machine as on an idle one: 600 samples,
# one every 5 levels on the way down, and the shares below hold by
# design rather than by luck.
. "$(dirname "$0")/lib.sh"
plan 3

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
built=yes
for p in chain noperf; do
	$cc -O2 -g -o "$B/$p" "$TESTS/record/$p.c" 2>"$B/$p.err" || built=no
done
PATH=$B:$PATH

# folded STREAM: symbolizes and folds STREAM into STREAM.folded
folded() { symfold "$1" "$1.folded"; }

# chainstat FOLDED: prints "total main deep bad": the samples in the
# chain (a frame fN, or cut short), samples that reach main untruncated,
# samples deeper than f40 that reach main, and stacks whose f-chain is
# not f0..fK in order right above main. Samples of the program's start
# and exit, before main and after it, are no stack to complete: a busy
# machine makes more of them (the ptrace sampler caught 55 of 1,063 so,
# beside two test suites).
chainstat() {
	awk '{
		w = $NF
		s = $0; sub(/ [0-9]+$/, "", s)
		if (s !~ /;f[0-9]+(;|$)/ && s !~ /\[truncated\]/) next
		t += w
		n = split(s, fr, ";")
		if (s ~ /\[truncated\]/) next
		m = 0; for (i = 1; i <= n; i++) if (fr[i] == "main") m = i
		if (!m) next
		ok += w; k = -1
		for (i = m + 1; i <= n; i++) {
			if (fr[i] !~ /^f[0-9]+$/) break
			if (fr[i] != "f" (k + 1)) { bad += w; print "bad: " s >"/dev/stderr"; break }
			k++
		}
		if (k > 40) deep += w
	} END { printf "%d %d %d %d\n", t, ok, deep, bad }' "$1"
}

if [ "$built" != yes ]; then
	skip 'stitched stacks' "cannot build tests/record/chain.c with $cc: $(cat "$B"/*.err | head -3)"
	skip_rest
fi
if ! perf_ok; then
	skip 'stitched stacks' "$why"
	skip_rest
fi
if ! fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip 'stitched stacks' "fgrecord cannot sample here: $(head -1 "$TMP/probe.err")"
	skip_rest
fi

check '200 KiB deep: >= 95% reach main, each stack exactly main;f0;...;fK' '
	fgrecord -o out chain 0.6 2>err &&
	wellformed out && folded out &&
	set -- $(chainstat out.folded) && echo "total $1 main $2 deep $3 bad $4" &&
	test "$1" -gt 100 && test $(($2 * 100)) -ge $(($1 * 95)) &&
	test $(($3 * 100)) -ge $(($1 * 50)) && test "$4" = 0 &&
	n=$(sed -n "s/.* \([0-9]*\) stacks* completed from an earlier sample of the same thread.*/\1/p" err) &&
	echo "$n completed" && test "$n" -ge "$3"
'

check '--no-stitch: the same stacks end in [truncated]' '
	fgrecord --no-stitch -o out chain 0.6 2>err &&
	wellformed out && folded out &&
	set -- $(chainstat out.folded) && echo "total $1 main $2 deep $3 bad $4" &&
	test "$1" -gt 100 && test "$3" = 0 && test "$4" = 0 &&
	t=$(grep -c "^	0 \[truncated\]" out) && echo "$t truncated" &&
	test $((t * 100)) -ge $(($1 * 50)) &&
	! grep -q "completed from an earlier sample" err &&
	grep_q "% truncated (mostly: stack copy too small)" err
'

if noperf fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	# A level takes 2 ms of the program's CPU here: a stack copy holds
	# 32 levels, so a sampler kept off the CPU for up to 64 ms of the
	# program's running (the machine busy with two suites) still finds
	# it less than a copy deeper than its last complete stack. A longer
	# gap loses the rest of that descent (each later sample is more than
	# a copy below the last complete stack), and the next descent starts
	# again from main: CI's run beside another test once lost 63 of 1,087
	# samples so. Two seconds make about nine descents, so that one lost
	# descent costs at most a ninth; 90% must reach main.
	check 'the ptrace sampler: stitched the same way' '
		noperf fgrecord -o out chain 2 10 2>err &&
		wellformed out && folded out &&
		set -- $(chainstat out.folded) && echo "total $1 main $2 deep $3 bad $4" &&
		test "$1" -gt 100 && test $(($2 * 100)) -ge $(($1 * 90)) &&
		test $(($3 * 100)) -ge $(($1 * 50)) && test "$4" = 0
	'
else
	skip 'the ptrace sampler: stitched the same way' "no ptrace sampler here: $(head -1 "$TMP/probe.err")"
fi

done_testing
