#!/bin/sh
# t305-fgrecord-ptrace: fgrecord where perf_event_open is refused. The
# programs of tests/record/ run under noperf, a seccomp filter that makes
# perf_event_open fail with EPERM as Docker's default profile does:
# fgrecord must name the filter (not the paranoid level), sample with
# ptrace on its own, and give the same stream: commands, threads, forks,
# -p, exit status, Ctrl-C and -d, as root and as nobody. A SIGKILL of
# fgrecord must leave the program running and untraced. --wall samples
# blocked threads as offcpu-time.
. "$(dirname "$0")/lib.sh"
plan 17

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
built=yes
for p in hot threads forker noperf work churn pool; do
	$cc -O2 -g -pthread -o "$B/$p" "$TESTS/record/$p.c" 2>"$B/$p.err" || built=no
done
chmod a+rx "$TMP" "$B"
PATH=$B:$PATH

# within N LO HI
within() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ] || { echo "$1 not within [$2, $3]"; return 1; }; }
# nsamples STREAM [EVENT]
nsamples() { grep -c "^[^#	].* [0-9]*/[0-9]* \[.*: [0-9]* ${2:-[a-z-]*}:\$" "$1"; }
# moments STREAM ERE: the sampled moments (thread and time) with a frame
# line matching ERE. A thread found after a long wait for the sampler
# stands for all its CPU time since in one moment, written as that many
# samples of a period each: one stack, counted once.
moments() {
	awk -v re="$2" '/^[^#\t].* [0-9]+\/[0-9]+ \[/ { at = $2 " " $4; next }
		/^\t/ && at != "" && $0 ~ re { print at; at = "" }' "$1" | sort -u | wc -l
}
# tids STREAM: the thread IDs that have samples, one a line
tids() { awk '/^[^#\t].* [0-9]+\/[0-9]+ \[/ { split($2, p, "/"); print p[2] }' "$1" | sort -u; }
# fshare STREAM FUNC: percentage of samples with FUNC on the stack, symbolized
fshare() {
	symfold "$1" "$1.folded" >&2 &&
	awk -v f="$2" '{ n = $NF; t += n; if ((";" $0) ~ (";" f "[; ]")) h += n }
	END { printf "%d\n", t ? 100 * h / t : -1 }' "$1.folded"
}
# of_pid STREAM PID: STREAM with the samples of PID only. How the CPU is
# shared between two processes on a busy machine is the scheduler's
# choice; which function each one runs is not.
of_pid() {
	awk -v pid="$2" '/^#/ { print; next } /^[^\t]/ { split($2, p, "/"); keep = p[1] == pid } keep' "$1"
}
# untraced PID: every thread of PID runs on untraced, none stopped
untraced() {
	for s in /proc/"$1"/task/*/status; do
		grep -q "^TracerPid:	0\$" "$s" || { echo "traced: $s"; grep TracerPid "$s"; return 1; }
		grep -q "^State:	[tT]" "$s" && { echo "stopped: $s"; grep State "$s"; return 1; }
	done
	return 0
}
# traced_child PID NAME N: a child of PID runs NAME with N threads, each
# traced by PID (fgrecord has it in hand)
traced_child() {
	_c=$(pgrep -P "$1") && running "$_c" "$2" "$3" && traced_by "$_c" "$1"
}
# main_samples STREAM: "PERIOD EVENT:" of each sample of the main thread
# (the one whose TID is the PID of the first sample)
main_samples() {
	awk '/^[^#\t].* [0-9]+\/[0-9]+ \[/ { split($2, p, "/")
		if (m == "") m = p[1]
		if (p[2] == m) print $(NF - 1), $NF }' "$1"
}
# as_nobody CMD...: runs CMD with the user and group IDs of nobody, the
# copies for_nobody made first on PATH
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env PATH="$NOBODY/bin:$NOBODY:$PATH" "$@"
}

if [ "$built" != yes ]; then
	skip 'fgrecord with ptrace' "cannot build tests/record/*.c with $cc: $(cat "$B"/*.err | head -3)"
	skip_rest
fi
if ! noperf true 2>"$TMP/np.err"; then
	skip 'fgrecord with ptrace' "cannot install a seccomp filter: $(head -1 "$TMP/np.err")"
	skip_rest
fi
if ! noperf fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip 'fgrecord with ptrace' "ptrace is refused here too: $(head -1 "$TMP/probe.err")"
	skip_rest
fi

check 'under a seccomp filter: the filter is named, once, and ptrace takes over' '
	noperf fgrecord -o out hot 0.3 2>err &&
	test "$(grep -c "^fgrecord: perf_event_open is refused by a seccomp filter (Seccomp: 2 .*: sampling with ptrace instead" err)" = 1 &&
	! grep -q paranoid err &&
	wellformed out &&
	grep_q "^# kernel : excluded\$" out &&
	! grep -q "kernel.kallsyms" out &&
	within "$(fshare out hot)" 80 100 &&
	within "$(fshare out main)" 95 100
'

check '--sampler=perf under the filter: exit 2, blaming the filter, even as root' '
	expect_status 2 noperf fgrecord --sampler=perf -o out true 2>err &&
	grep_q "^fgrecord: perf_event_open is refused by a seccomp filter (Seccomp: 2 in /proc/self/status; the call fails with EPERM" err &&
	! grep -q paranoid err &&
	expect_status 2 noperf -n fgrecord --sampler=perf -o out true 2>err &&
	grep_q "fails with ENOSYS" err
'

check '--sampler=ptrace where perf works: the same stream, without a word' '
	fgrecord --sampler=ptrace -o out hot 0.3 2>err &&
	! grep -q "sampling with ptrace" err &&
	wellformed out &&
	within "$(fshare out hot)" 80 100 &&
	expect_status 2 fgrecord --sampler=bogus true 2>err &&
	grep_q "^fgrecord: --sampler .bogus.: expected perf or ptrace\$" err &&
	expect_status 2 fgrecord --sampler=ptrace -a -d 0.1 2>err &&
	grep_q "not -a" err
'

check 'the exit status is passed on: a code, and a death by signal' '
	expect_status 7 noperf fgrecord -q -o out sh -c "exit 7" &&
	expect_status 139 noperf fgrecord -q -o out sh -c "kill -SEGV \$\$" &&
	expect_status 127 noperf fgrecord -q -o out no-such-command-here 2>err
'

check 'two threads: both sampled, each in its own function, as with perf' '
	noperf fgrecord -q -o out threads 1 &&
	wellformed out &&
	test "$(tids out | wc -l)" -ge 2 &&
	started out >st &&
	a=$(fshare st alpha_work) && b=$(fshare st beta_work) &&
	echo "alpha $a% beta $b%" &&
	within "$a" 10 90 && within "$b" 10 90 &&
	a=$(fshare st alpha) && b=$(fshare st beta) &&
	within $((a + b)) 95 100 &&
	t=$(moments out "^	0 [[]truncated]") && n=$(moments out .) &&
	echo "$t of $n sampled moments end in [truncated]" &&
	within "$t" 0 $((n / 20))
'

check 'two threads doing equal work: equal shares, and one sample a period of CPU time, as cpu-clock' '
	noperf fgrecord -q -o out work 300 >work.out 2>&1 &&
	wellformed out &&
	l=$(fshare out left_work) && r=$(fshare out right_work) &&
	echo "left_work $l% right_work $r%" &&
	within "$l" 38 62 && within "$r" 38 62 &&
	cpu=$(awk "/^cpu-seconds/ { print \$3 }" work.out) &&
	n=$(nsamples out) && want=$(awk -v c="$cpu" "BEGIN { printf \"%d\", c * 999 }") &&
	echo "$n samples for $cpu s of CPU ($want periods)" &&
	within "$n" $((want * 3 / 4)) $((want * 5 / 4))
'

# churn makes thousands of threads a second: a tick often meets the main
# thread as it clones, and the kernel then drops the interrupt's stop for
# the clone's. Were that stop waited for, fgrecord would hang, or (once
# another stop ended the wait) never sample the main thread again. The
# time the sampler holds it at its clone stops (10% to 20% of its second)
# is not the program's, and not in its --wall samples. Its samples add up
# to 0.6 s at least, and at most to the time they span (from the first
# sample's time stamp less its period to the last's plus its period, 5%
# over): churn runs a second of wall time, but on a busy machine its
# start and its exit take longer (they took it to 1.18 s beside four busy
# loops).
check 'a thread met by the tick as it clones: sampled on, never waited for' '
	{ timeout 600 noperf fgrecord --wall -o out churn 1 2>err ||
		{ echo "exit $?"; cat err; false; }; } &&
	wellformed out &&
	ms=$(main_samples out | awk "{ s += \$1 } END { printf \"%d\", s / 1e6 }") &&
	span=$(awk "/^[^#\t].* [0-9]+\/[0-9]+ \[/ { split(\$2, p, \"/\"); if (m == \"\") m = p[1]
		if (p[2] != m) next; t = \$4; sub(/:\$/, \"\", t); t = t * 1000 + 0
		if (f == \"\") f = t - \$(NF - 1) / 1e6; l = t + \$(NF - 1) / 1e6 }
		END { printf \"%d\", (l - f) * 1.05 }" out) &&
	echo "the main thread: $ms ms in $(grep threads err), its samples spanning $span ms (5% over)" &&
	within "$ms" 600 "$span"
'

# A pool of 32 idle threads with --wall: each is stopped once, where it
# waits, and then sampled without being woken while it stays there (its
# syscall file says where it is): it makes a few context switches, not
# thousands, and its off-CPU time is still the time it waited, as the
# program measured it: from its wait's start to the wake-up call at the
# least, to its return from the wait at the most (a busy machine makes
# both longer, not the check looser).
check '--wall: idle threads are sampled where they wait, without being woken' '
	noperf fgrecord --wall -o out pool 0.3 32 2>err &&
	wellformed out && cat err &&
	w=$(awk "/^work / { print \$2 }" err) &&
	s=$(awk "/^idle-switches / { print \$2 }" err) &&
	test "$s" -lt $((32 * 40)) &&
	symfold out folded --event-filter=offcpu-time &&
	ms=$(awk "/pool_idle/ { t += \$NF } END { printf \"%d\", t / 32 / 1e6 }" folded) &&
	lo=$(awk "/^idle-wait / { print \$2 }" err) && hi=$(awk "/^idle-wait / { print \$3 }" err) &&
	echo "each idle thread: $ms ms off-CPU in pool_idle; it waited $lo s to the wake-up, $hi s to its return (the work took $w s)" &&
	awk -v ms="$ms" -v lo="$lo" -v hi="$hi" "BEGIN { exit !(ms >= 900 * lo && ms <= 1100 * hi) }"
'

# A sampler that cannot tick (stopped here 0.3 s, as a busy machine or a
# slow disk can hold it) gives the time since its last tick to where each
# thread is at the late one: fgrecord says how late its ticks came, so
# that a reader knows how far a function's edges may be off.
check '--wall: a sampler held 0.3 s says how late its ticks came' '
	{ noperf fgrecord --wall -o out threads 1.5 2>err & } && f=$! &&
	trap "kill -CONT $f 2>/dev/null; kill $f 2>/dev/null" EXIT &&
	wait_for 30 traced_child $f threads 3 &&
	kill -STOP $f && sleep 0.3 && kill -CONT $f && wait $f &&
	wellformed out &&
	ms=$(sed -n "s/^fgrecord: the sampler.s ticks came up to \([0-9.]*\) ms late (.*/\1/p" err) &&
	echo "said: ${ms:-nothing} ms late" &&
	awk -v m="$ms" "BEGIN { exit !(m >= 250) }"
'

check 'a forked child is followed, with its own pid and function' '
	noperf fgrecord -q -o out forker 1 &&
	awk "/ cpu-clock:\$/ { split(\$2, p, \"/\"); if (!(p[1] in s)) print p[1]; s[p[1]] }" out >pids &&
	test "$(wc -l <pids)" = 2 &&
	of_pid out "$(sed -n 1p pids)" >a && of_pid out "$(sed -n 2p pids)" >b &&
	# which process has the first sample in the stream is the
	# scheduler'"'"'s choice: each is known by what it runs
	if [ "$(fshare a parent_work)" -ge 50 ]; then p=a c=b; else p=b c=a; fi &&
	within "$(fshare $p parent_work)" 80 100 &&
	within "$(fshare $c child_work)" 80 100
'

# The programs run in the background are waited for (their threads
# started, fgrecord attached to them) before a signal or an attach, never
# slept for; each runs longer than any wait and is killed at the end.
check '-p: every thread of a running process, then it runs on untraced' '
	{ threads 60 2>/dev/null & } && pid=$! && trap "kill $pid 2>/dev/null" EXIT &&
	wait_for 30 running $pid threads 3 &&
	noperf fgrecord -q -p $pid -d 0.6 -o out &&
	wait_for 5 untraced $pid &&
	kill $pid && expect_status 143 wait $pid &&
	wellformed out &&
	test "$(tids out | wc -l)" -ge 2
'

check 'Ctrl-C: the command gets it, the stream ends whole, its status is passed on' '
	{ noperf fgrecord -q -o out threads 60 & } && f=$! && trap "kill -INT $f 2>/dev/null" EXIT &&
	wait_for 30 traced_child $f threads 3 &&
	kill -INT $f && expect_status 130 wait $f &&
	wellformed out
'

check '-d: the command is ended with SIGTERM, the stream ends whole' '
	expect_status 143 noperf fgrecord -q -d 0.4 -o out threads 5 &&
	wellformed out
'

check 'SIGKILL of fgrecord: the command runs on, untraced, never stopped' '
	ok=0 &&
	for i in 1 2 3 4 5; do
		noperf fgrecord -q -F 2999 -o out threads 60 & f=$!
		wait_for 30 traced_child $f threads 3
		c=$(pgrep -P $f)
		sleep 0.$i
		kill -KILL $f; wait $f
		if [ -n "$c" ] && wait_for 5 untraced $c; then ok=$((ok + 1)); fi
		grep -q "^State:	[RS]" /proc/$c/status || echo "not running: $(grep State /proc/$c/status)"
		kill $c 2>/dev/null
	done &&
	test $ok = 5
'

check 'SIGKILL of fgrecord -p: the process runs on, untraced' '
	{ threads 60 2>/dev/null & } && pid=$! && trap "kill $pid 2>/dev/null" EXIT &&
	wait_for 30 running $pid threads 3 &&
	{ noperf fgrecord -q -F 2999 -p $pid -o out & } && f=$! &&
	wait_for 30 traced_by $pid $f &&
	kill -KILL $f && expect_status 137 wait $f &&
	wait_for 5 untraced $pid &&
	kill $pid && expect_status 143 wait $pid
'

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip 'as nobody: a command, its threads and -p of its own process' 'needs root and setpriv to become nobody'
	skip 'as nobody at paranoid 2: --wall falls back to ptrace, off-CPU stacks included' 'needs root and setpriv to become nobody'
else
for_nobody "$TOP/bin/fgrecord" "$B/noperf" "$B/threads"
check 'as nobody: a command, its threads and -p of its own process' '
	mkdir nb && chmod 777 nb &&
	as_nobody noperf fgrecord -q -o nb/out threads 1 &&
	wellformed nb/out &&
	test "$(tids nb/out | wc -l)" -ge 2 &&
	within "$(fshare nb/out alpha_work)" 10 90 &&
	# Not as_nobody: $! must be the pid of threads, not of a subshell.
	{ setpriv --reuid=65534 --regid=65534 --clear-groups "$NOBODY/threads" 60 2>/dev/null & } &&
	pid=$! && trap "kill $pid 2>/dev/null" EXIT &&
	wait_for 30 running $pid threads 3 &&
	{ as_nobody noperf fgrecord -q -p $pid -d 0.5 -o nb/out2; st=$?; } &&
	if [ -e /proc/sys/kernel/yama/ptrace_scope ] &&
	    [ "$(cat /proc/sys/kernel/yama/ptrace_scope)" -ge 1 ]; then
		# Yama allows a user to trace only its descendants.
		test $st = 2
	else
		test $st = 0 && wellformed nb/out2 && untraced $pid
	fi &&
	kill $pid && expect_status 143 wait $pid
'

p=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
if [ "$p" -lt 2 ]; then
	skip 'as nobody at paranoid 2: --wall falls back to ptrace, off-CPU stacks included' "kernel.perf_event_paranoid is $p: perf_event_open can do it"
else
# wallrun: records threads as nobody with --wall and checks the main
# thread's samples.
wallrun() {
	as_nobody fgrecord --wall -o nb/out threads 1 2>err &&
	grep_q "sampling with ptrace instead" err &&
	wellformed nb/out &&
	main_samples nb/out >main.s &&
	off=$(grep -c "offcpu-time:" main.s) && on=$(grep -c "cpu-clock:" main.s || true) &&
	echo "main thread: $off off-CPU, $on on-CPU samples" &&
	test "$off" -gt $((on * 4)) &&
	ms=$(awk "{ s += \$1 } END { printf \"%d\", s / 1e6 }" main.s) &&
	echo "its periods add up to $ms ms" && within "$ms" 800 1150 &&
	grep -q "cpu-clock:" nb/out &&
	symfold nb/out folded --event-filter=offcpu-time &&
	grep -q "main;[^ ]*join" folded
}
check 'as nobody at paranoid 2: --wall falls back to ptrace, off-CPU stacks included' '
	mkdir nb && chmod 777 nb &&
	wallrun
'
fi
fi

done_testing
