#!/bin/sh
# t713-fgrecord-hostile: a profiled program that works against fgrecord.
# It loads a library, then puts a FIFO or a directory where the library's
# file was: fgrecord opens mapped files by path to read their program
# headers and must neither block on the FIFO nor read the directory; it
# reads the file through /proc/PID/map_files instead.
. "$(dirname "$0")/lib.sh"
plan 7

cc=${CC:-cc}
B=$TMP/build
mkdir -p "$B"
if ! $cc -O2 -g -shared -fPIC -o "$B/libspin.so" "$TESTS/hostile/spinlib.c" 2>"$B/err" ||
   ! $cc -O2 -g -o "$B/fifoswap" "$TESTS/hostile/fifoswap.c" -ldl 2>>"$B/err"; then
	skip 'fgrecord on a hostile program' "cannot build tests/hostile/fifoswap.c: $(head -1 "$B/err")"
	skip_rest
fi
if ! perf_ok; then
	skip 'fgrecord on a hostile program' "$why"
	skip_rest
fi
if ! fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip 'fgrecord on a hostile program' "fgrecord cannot sample here: $(head -1 "$TMP/probe.err")"
	skip_rest
fi
export B

# unwound STREAM: at least 90% of the samples reach main through the
# library, whose file fgsym cannot read either: [lib.so].
unwound() {
	{ fgsym "$1" >sym 2>symerr; test $? -le 1; } &&
	fgfold sym >folded &&
	awk "/;main;\[lib.so\]/ { h += \$NF } { n += \$NF } END { print h \" of \" n; exit !(n > 0 && h >= n * 0.9) }" folded
}

check 'the library replaced by a FIFO: no block, frames unwound, exit 0' '
	cp "$B/libspin.so" lib.so &&
	timeout 60 fgrecord -o out "$B/fifoswap" "$PWD/lib.so" 1 2>err &&
	test -p lib.so && unwound out
'

check 'the library replaced by a directory: frames unwound, exit 0' '
	cp "$B/libspin.so" lib.so &&
	timeout 20 fgrecord -o out "$B/fifoswap" "$PWD/lib.so" 1 dir 2>err &&
	test -d lib.so && unwound out
'

check 'with -p: the FIFO does not stop -d from ending the recording' '
	cp "$B/libspin.so" lib.so &&
	{ "$B/fifoswap" "$PWD/lib.so" 60 late & } &&
	tp=$! && trap "kill $tp 2>/dev/null" EXIT &&
	sleep 0.2 &&
	{ timeout 30 fgrecord -p $tp -d 1.8 -o out 2>err; st=$?; } &&
	echo "status $st (124: still recording after 30 s)" && cat err &&
	test $st = 0 && unwound out
'

check '-o through a symbolic link: refused, its target untouched, exit 2' '
	echo precious >victim &&
	ln -s victim link &&
	expect_status 2 fgrecord -o link true 2>err &&
	grep_q "cannot write to .link.: it is a symbolic link" err &&
	test "$(wc -l <err)" = 1 &&
	test "$(cat victim)" = precious
'

check '-o FIFO or device: refused at once, exit 2; a regular file is truncated' '
	mkfifo fifo &&
	expect_status 2 timeout 10 fgrecord -o fifo true 2>err &&
	grep_q "cannot write to .fifo.: not a regular file" err &&
	{ timeout 10 cat fifo >/dev/null & } &&
	sleep 0.3 &&
	expect_status 2 timeout 10 fgrecord -o fifo true 2>err2 &&
	grep_q "not a regular file" err2 &&
	expect_status 2 fgrecord -o /dev/full true 2>err3 &&
	grep_q "not a regular file" err3 &&
	seq 100000 >out &&
	fgrecord -q -o out true &&
	head -2 out >first && printf "# ========\n# fgrecord 1\n" >expect && test_cmp expect first &&
	! grep -q "^99999" out &&
	fgrecord -q -o /dev/null true
'

# As an unprivileged user whose fgrecord has CAP_PERFMON (setcap
# cap_perfmon+ep, here an ambient capability): -p on root's process is
# refused unless --any-user is given.
asuser="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon"
if [ "$(id -u)" != 0 ]; then
	skip '-p on another user'"'"'s process by capability' 'needs root to become an unprivileged user'
elif ! command -v setpriv >/dev/null 2>&1 || ! $asuser true 2>/dev/null; then
	skip '-p on another user'"'"'s process by capability' 'setpriv cannot give CAP_PERFMON here (util-linux or kernel too old)'
else
	for_nobody "$TOP/bin/fgrecord"
	check '-p on another user'"'"'s process by capability: refused without --any-user' '
		$cc -O2 -o hot "$TESTS/record/hot.c" &&
		{ ./hot 60 & } && tp=$! && trap "kill $tp 2>/dev/null" EXIT &&
		sleep 0.2 &&
		{ $asuser "$NOBODY/bin/fgrecord" -p $tp -d 0.3 >out 2>err; st=$?; } &&
		{ $asuser "$NOBODY/bin/fgrecord" --any-user -q -p $tp -d 0.5 >out2 2>err2; st2=$?; } &&
		echo "status $st, with --any-user $st2" && cat err err2 &&
		test $st = 2 && grep_q "process $tp belongs to another user: fgrecord may record it only through its capabilities; give --any-user" err &&
		test ! -s out &&
		test $st2 -le 1 && grep_q " cpu-clock:\$" out2
	'
fi

check '-p on a process whose main thread has already left: its maps still read, exit 0' '
	$cc -O2 -g -pthread -o le "$TESTS/record/leader_exit.c" &&
	{ ./le 1.5 2>/dev/null & } &&
	tp=$! &&
	wait_for 30 grep -q "^State:.*zombie" /proc/$tp/status &&
	{ fgrecord -p $tp -o out 2>err; st=$?; } &&
	wait $tp &&
	echo "status $st" && cat err && test $st = 0 &&
	{ fgsym out >sym 2>symerr; test $? -le 1 || { cat symerr; false; }; } &&
	fgfold sym >folded &&
	awk "/;worker / { h += \$NF } { n += \$NF } END { print h \" of \" n; exit !(n > 0 && h >= n * 0.8) }" folded
'

done_testing
