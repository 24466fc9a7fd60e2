#!/bin/sh
# t720-pipes-signals: the tools when the reader of their output goes away,
# and fgrecord under SIGINT, SIGTERM and SIGHUP: the command signalled and
# waited for, the stream complete, the summary printed, no stray process,
# no inherited perf fd, no temporary file.
. "$(dirname "$0")/lib.sh"
plan 15

cc=${CC:-cc}
B=$TMP/build
mkdir -p "$B"
built=yes
$cc -O2 -g -o "$B/prog" "$TESTS/hostile/prog.c" 2>>"$B/err" || built=no
$cc -O2 -g -o "$B/fds" "$TESTS/hostile/fds.c" 2>>"$B/err" || built=no
$cc -O2 -g -pthread -o "$B/hot" "$TESTS/record/hot.c" 2>>"$B/err" || built=no
$cc -O2 -o "$B/gen" "$TESTS/hostile/gen.c" 2>>"$B/err" || built=no
if [ $built != yes ]; then
	skip 'pipe and signal tests' "cannot build the test programs: $(head -1 "$B/err")"
	skip_rest
fi
PATH=$B:$PATH
export B

# A big stream, as fgsym and fgfold read it: 120,000 samples of prog.
addr=$(nm "$B/prog" | awk '$3 == "leaf" { print $1 }')
awk -v a="$addr" -v p="$B/prog" 'BEGIN {
	for (i = 0; i < 120000; i++)
		printf "prog 42/42 [000] 1.%06d: 1 cpu-clock:\n\t%s [unknown] (%s)\n\t%s [unknown] (%s)\n\n", i % 1000000, a, p, a, p
}' >"$TMP/big.stream"
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "app;main;f%d 1\n", i }' >"$TMP/big.folded"
export BIG=$TMP/big.stream BIGF=$TMP/big.folded

# quiet_head CMD...: CMD | head -1 must end with status 0 or 141 (SIGPIPE)
# and nothing on stderr. Then the same with SIGPIPE ignored by the parent,
# as some CI runners and daemons leave it.
quiet_head() {
	{ "$@" 2>err; echo $? >rc; } | head -1 >out &&
	test -s out && test ! -s err || { echo "stderr:"; cat err; return 1; }
	rc=$(cat rc); { [ "$rc" = 0 ] || [ "$rc" = 141 ]; } || { echo "status $rc: $*"; return 1; }
	python3 - "$@" <<-\PY || return 1
	import signal, subprocess, sys
	signal.signal(signal.SIGPIPE, signal.SIG_IGN)
	p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE,
	    stderr=subprocess.PIPE, restore_signals=False)
	p.stdout.readline(); p.stdout.close()
	err = p.stderr.read(); rc = p.wait()
	if err or rc not in (0, -13):
	    sys.exit("with SIGPIPE ignored: status %d, stderr %r" % (rc, err))
	PY
}

check 'fgsym | head -1 ends quietly (status 0 or 141, no Broken pipe)' '
	quiet_head fgsym "$BIG"
'

check 'fgfold (a stream) | head -1 ends quietly' '
	gen stream 300000 100000 >many &&
	quiet_head fgfold many
'

check 'fgfold --folded | head -1 ends quietly' '
	quiet_head fgfold --folded "$BIGF"
'

check 'fgsvg | head -1 ends quietly' '
	quiet_head fgsvg --minwidth 0 "$BIGF"
'

check 'fgsym, fgfold, fgsvg man pages document the SIGPIPE exit' '
	for m in fgsym fgfold fgsvg; do
		grep -q "SIGPIPE" "$TOP/man/$m.1" || { echo "$m.1 says nothing of SIGPIPE"; exit 1; }
	done
'

if ! perf_ok; then
	skip 'fgrecord under signals and a closed output' "$why"
	skip_rest
fi
if ! fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip 'fgrecord under signals and a closed output' "fgrecord cannot sample here: $(head -1 "$TMP/probe.err")"
	skip_rest
fi

# signalled SIG STATUS: fgrecord runs fds (spinning until killed) with its
# stream in a pipe to fgfold; SIG is sent to fgrecord with kill(1) once the
# program runs. fgrecord must exit STATUS, the program must be gone, the
# stream must fold cleanly, the summary must be printed, and TMPDIR left
# empty.
signalled() {
	mkdir tmpd && mkfifo pipe || return 1
	{ fgfold <pipe >folded 2>ferr; echo $? >frc; } &
	fp=$!
	TMPDIR=$PWD/tmpd fgrecord fds -1 pidfile >pipe 2>err &
	rp=$!
	n=0
	while ! grep -q "fds listed" err 2>/dev/null && [ $n -lt 100 ]; do
		sleep 0.05; n=$((n + 1))
	done
	sleep 0.3 && kill -$1 $rp
	wait $rp; st=$?
	wait $fp
	echo "fgrecord exited $st" && test "$st" = "$2" &&
	test "$(cat frc)" = 0 && ! grep -v "put fgsym between" ferr &&
	grep_q "^fds;" folded &&
	grep_q "^fgrecord: [0-9]* samples* in" err &&
	cpid=$(cat pidfile) && ! kill -0 "$cpid" 2>/dev/null &&
	test -z "$(ls -A tmpd)"
}

check 'SIGINT to fgrecord: the command gets it, stream folds cleanly, exit 130' '
	signalled INT 130
'

check 'SIGTERM to fgrecord: the command gets it, stream folds cleanly, exit 143' '
	signalled TERM 143
'

check 'SIGHUP to fgrecord: the command gets it, stream folds cleanly, exit 129' '
	signalled HUP 129
'

check 'with -p, SIGTERM ends the recording and leaves the process running' '
	{ fds -1 pidfile 2>/dev/null & } &&
	tp=$! && trap "kill $tp 2>/dev/null" EXIT &&
	sleep 0.2 &&
	{ fgrecord -p $tp -o out 2>err & } &&
	rp=$! &&
	sleep 0.5 && kill -TERM $rp &&
	{ wait $rp; st=$?; } &&
	alive=no && { ! kill -0 $tp 2>/dev/null || alive=yes; } &&
	echo "status $st, process alive: $alive" &&
	test "$st" = 0 && test $alive = yes &&
	fgfold out >folded && grep_q "^fds;" folded
'

check 'the command inherits no perf fd nor any other fd of fgrecord' '
	fds 0.1 2>base.err >/dev/null && grep "^fd " base.err | sed "s/ -> .*//" | sort >base &&
	fgrecord -o out fds 0.1 2>err && grep "^fd " err | sort >got &&
	sed "s/ -> .*//" got >gotfds &&
	! grep -q "perf_event\|anon_inode" got &&
	test_cmp base gotfds &&
	fgrecord fds 0.1 2>err2 >/dev/null && grep "^fd " err2 | sed "s/ -> .*//" | sort >got2 &&
	test_cmp base got2
'

# no_orphan CMD...: runs CMD as a child of a subreaper. A child that CMD
# leaves behind when it ends (a zombie it did not reap, or a process still
# running) is handed to the subreaper, which finds it with waitpid.
no_orphan() {
	python3 - "$@" <<-\PY
	import ctypes, os, subprocess, sys
	if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
	    sys.exit("prctl(PR_SET_CHILD_SUBREAPER) failed")
	rc = subprocess.call(sys.argv[1:])
	try:
	    pid, st = os.waitpid(-1, os.WNOHANG)
	except ChildProcessError:
	    sys.exit(rc)
	if pid == 0:
	    print("a child of %s is still running after it ended" % sys.argv[1])
	else:
	    print("%s ended without reaping its child %d (status %d)" % (sys.argv[1], pid, st))
	sys.exit(99)
	PY
}

check 'no zombie: fgrecord reaps the command before it ends (at its end, and after -d)' '
	no_orphan fgrecord -o out fds 0.3 2>err &&
	expect_status 143 no_orphan fgrecord -o out -d 0.3 fds -1 2>err &&
	# The check can fail: a parent that ends without waiting leaves its
	# child to the subreaper, dead (a zombie) or alive.
	! no_orphan sh -c "true & exec sleep 0.2" >why &&
	grep_q "ended without reaping its child" why &&
	! no_orphan sh -c "sleep 0.2 & exec true" >why &&
	grep_q "still running" why
'

check 'the reader goes away: sampling stops, the command runs to its end, clear message, exit 2' '
	{ fgrecord fds 1.5 pidfile 2>err; echo $? >rc; } | head -2 >first &&
	test "$(cat rc)" = 2 &&
	grep_q "^# fgrecord 1" first &&
	grep_q "^fgrecord: the reader of .<stdout>. went away (Broken pipe): recording stopped; waiting for .fds. to end" err &&
	grep_q "^fgrecord: [0-9]* samples* in" err &&
	grep_q "^fds done\$" err &&
	cpid=$(cat pidfile) && ! kill -0 "$cpid" 2>/dev/null
'

check 'the reader goes away under -p and -a: fgrecord ends at once' '
	{ fds -1 2>/dev/null & } &&
	tp=$! && trap "kill $tp 2>/dev/null" EXIT &&
	sleep 0.2 &&
	{ timeout 20 fgrecord -p $tp 2>err; echo $? >rc; } | head -1 >/dev/null &&
	test "$(cat rc)" = 2 && grep_q "went away (Broken pipe): recording stopped\$" err &&
	{ timeout 20 fgrecord -a 2>err2; echo $? >rc2; } | head -1 >/dev/null &&
	test "$(cat rc2)" = 2 && grep_q "went away" err2
'

# A start that fails after the command was forked (here: a hardware event
# this machine lacks) must not leave the forked child waiting for ever.
if fgrecord -q -e cycles -o "$TMP/cyc" true 2>/dev/null; then
	skip 'a start that fails after the fork leaves no stray child' 'this machine has the cycles event: no failure to provoke'
else
	check 'a start that fails after the fork leaves no stray child' '
		expect_status 2 fgrecord -e cycles -o out fds 0.1 "$PWD/marker" 2>err &&
		sleep 0.5 &&
		! ps -eo args | grep -F "$PWD/marker" | grep -v grep
	'
fi

check 'fgrecord(1) documents signals and a closed output' '
	grep_q "SIGHUP" "$TOP/man/fgrecord.1" &&
	grep_q "reader of the stream goes away" "$TOP/man/fgrecord.1"
'

done_testing
