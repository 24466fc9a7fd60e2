#!/bin/sh
# t308-fgrecord-spool: the README's pipeline with a reader slow to start
# (fgsym indexing a large binary first) loses no sample: fgrecord drains
# the kernel's rings at their pace and holds the stream for the reader
# (its spool), as root and as nobody, whose rings are small; and -o's
# file is its owner's only (0600), as perf's perf.data is.
#
# No timing is asserted: hot spins for CPU time, so each run takes as many
# samples however busy the machine; a run whose reader starts 3 s late
# must say 0 lost and keep at least three quarters of the samples of a
# run with no stall (before the spool, half of them were lost as root on
# an idle machine, and 30-45% as nobody on a busy one).
. "$(dirname "$0")/lib.sh"

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
if ! $cc -O2 -g -o "$B/hot" "$TESTS/record/hot.c" 2>"$B/err"; then
	skip 'fgrecord with a slow reader' "cannot build tests/record/hot.c with $cc: $(head -3 "$B/err")"
	done_testing
	exit 0
fi
PATH=$B:$PATH
if ! perf_ok; then
	skip 'fgrecord with a slow reader' "$why"
	done_testing
	exit 0
fi
if ! fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip 'fgrecord with a slow reader' "fgrecord cannot sample here: $(head -1 "$TMP/probe.err")"
	done_testing
	exit 0
fi

# nsamples STREAM; lost ERR: the summary's count of lost samples.
nsamples() { grep -c '^[^#	].* [0-9]*/[0-9]* \[' "$1"; }
lost() { sed -n 's/^[^:]*: [0-9]* samples in .*, \([0-9]*\) lost, .*/\1/p' "$1"; }

# stalled FGRECORD HOT: FGRECORD HOT 2 with its stream read 3 s late, then
# with none: no sample lost, and about as many samples. FGRECORD may be a
# command line (setpriv ... fgrecord).
stalled() {
	pipeline late "$1 $2 2" 'sleep 3; cat' &&
	wellformed late &&
	echo "late: $(cat late.1.err)" &&
	test "$(lost late.1.err)" = 0 &&
	$1 $2 2 >ref 2>ref.err &&
	echo "no stall: $(cat ref.err)" &&
	n=$(nsamples late) && m=$(nsamples ref) &&
	echo "$n samples read late, $m with no stall" &&
	test $((n * 4)) -ge $((m * 3))
}

check 'a reader 3 s late: no sample lost, as many as with no stall' '
	stalled fgrecord hot
'

if [ "$(id -u)" != 0 ]; then
	skip 'as nobody, with smaller rings: no sample lost either' 'needs root to become nobody (the check above ran unprivileged)'
elif ! command -v setpriv >/dev/null; then
	skip 'as nobody, with smaller rings: no sample lost either' 'needs setpriv (util-linux) to become nobody'
else
for_nobody "$TOP/bin/fgrecord" "$B/hot"
check 'as nobody, with smaller rings: no sample lost either' '
	chmod a+rx "$TMP" . &&
	stalled "setpriv --reuid=65534 --regid=65534 --clear-groups $NOBODY/bin/fgrecord" "$NOBODY/hot"
'
fi

if [ -w /dev/full ]; then
check 'a full output behind the spool: said as before, exit 2' '
	expect_status 2 fgrecord hot 0.2 >/dev/full 2>err &&
	grep_q "^fgrecord: cannot write .<stdout>.: No space left on device\$" err &&
	grep_q "^fgrecord: [0-9]* samples in" err
'
else
	skip 'a full output behind the spool: said as before, exit 2' 'no writable /dev/full'
fi

check '-o: a new file is 0600, whatever the umask' '
	(umask 0 && fgrecord -q -o rec hot 0.1 2>err) &&
	wellformed rec &&
	test "$(stat -c %a rec)" = 600
'

check '-o: an old file of the user'"'"'s loses its group'"'"'s and others'"'"' bits' '
	echo old >rec && chmod 664 rec &&
	fgrecord -q -o rec hot 0.1 2>err &&
	wellformed rec &&
	test "$(stat -c %a rec)" = 600
'

check 'fgrecord(1) says what the spool holds and where' '
	man_page="$TOP/man/fgrecord.1" &&
	grep_q "SPOOL\|spool" "$man_page" &&
	grep_q "64 MiB" "$man_page" &&
	grep_q "TMPDIR" "$man_page" &&
	grep_q "0600" "$man_page"
'

done_testing
