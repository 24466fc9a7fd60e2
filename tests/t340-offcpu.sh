#!/bin/sh
# t340-offcpu: fgrecord --off-cpu and --wall on tests/record/offcpu.c, a
# main thread that spins, sleeps, reads a pipe and waits for a mutex, each
# for a known time: the offcpu-time samples carry those times, --wall adds
# up to the wall-clock time, and the stream stays valid at the edges
# (a thread that dies blocked, -d, Ctrl-C, -p, a wait still going at the end).
. "$(dirname "$0")/lib.sh"
plan 13

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
U=0.2		# the program's time unit, in seconds
if ! $cc -O2 -g -pthread -o "$B/offcpu" "$TESTS/record/offcpu.c" 2>"$B/err"; then
	skip 'fgrecord --off-cpu tests' "cannot build tests/record/offcpu.c with $cc: $(head -3 "$B/err")"
	skip_rest
fi
PATH=$B:$PATH

# phases STREAM: the main thread's time by phase_* function and event,
# "EVENT FUNCTION SECONDS", from a symbolized stream.
phases() {
	awk '
	function flush() { if (ph != "") sum[ev " " ph] += per; ph = ""; in_s = 0 }
	/^#/ { next }
	/^$/ { flush(); next }
	/^[ \t]/ {
		if (in_s && ph == "" && match($0, /phase_[a-z]+/))
			ph = substr($0, RSTART, RLENGTH)
		next
	}
	{
		flush()
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, pt, "/"); in_s = pt[1] == pt[2] }
		ev = $NF; sub(/:$/, "", ev); per = $(NF - 1)
	}
	END { flush(); for (k in sum) printf "%s %.4f\n", k, sum[k] / 1e9 }' "$1" | sort
}

# symbolize STREAM: fgsym STREAM >sym; exit 1 (some frames unresolved, as
# in a user-space-only stream) is fine.
symbolize() {
	fgsym "$1" >sym 2>fgsym.err
	[ $? -le 1 ] || { cat fgsym.err; return 1; }
}

# near GOT WANT PCT [SLACK]: GOT is within PCT percent of WANT, and
# SLACK seconds more either way (the run-queue wait the program measured
# in the phase: a busy machine's, which a sampler may count on either
# side of the phase's edge). A slack over half of WANT would make the
# bound no bound: the check cannot decide (a skip, said why). Each
# argument must be a number (get's "none" is not).
near() {
	for _a in "$1" "$2" "$3" "${4:-0}"; do
		case $_a in
		''|*[!0-9.]*|*.*.*) echo "near $*: '$_a' is not a number"; return 1 ;;
		esac
	done
	if awk -v w="$2" -v s="${4:-0}" 'BEGIN { exit !(s > w / 2) }'; then
		cannot_decide "the program waited ${4} s for a CPU in a phase of $2 s: the machine too busy to measure"
	fi
	awk -v g="$1" -v w="$2" -v p="$3" -v s="${4:-0}" 'BEGIN {
		ok = g >= w * (1 - p / 100) - s && g <= w * (1 + p / 100) + s
		if (!ok) printf "%s is not within %s%% of %s (and %s s)\n", g, p, w, s
		exit !ok
	}'
}

# get FILE KEY...: the number after KEY in FILE; "none", and said on
# stderr, when FILE has no such line (never 0, a number a bound may
# take).
get() {
	_f=$1; shift
	awk -v k="$*" 'index($0, k " ") == 1 { v = $NF; n++ }
	    END { if (n) print v + 0; else { print "none"; print "no \"" k "\" in " FILENAME >"/dev/stderr" } }' "$_f"
}

# get0 FILE KEY...: as get, but 0 when FILE has no such line: for a
# time that is rightly absent when none was counted (a spinning phase's
# off-CPU time), never for one the check needs to find.
get0() {
	_f=$1; shift
	awk -v k="$*" 'index($0, k " ") == 1 { v = $NF } END { print v + 0 }' "$_f"
}

# slack ERR PHASE: the seconds a phase's time may be off either way: the
# run-queue wait the program measured in it, and twice how late the
# ptrace sampler's latest tick came when fgrecord says so (a late tick
# gives the time before it to where each thread is at it: off by up to
# that at each of the phase's two edges; a busy CI once moved 0.15 s of
# read into lock so, the sampler stalled while the program was not).
slack() {
	awk -v d="$(get "$1" "$2_delay")" '/^fgrecord: the sampler.s ticks came up to / {
		for (i = 1; i <= NF; i++) if ($i == "ms") l = $(i - 1) / 1000 }
	    END { printf "%.4f\n", d + 2 * l }' "$1"
}

# positive V: V is a number above 0 (get's "none" is not).
positive() {
	awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9.]+$/ && v + 0 > 0) }' ||
	    { echo "'$1' is not a number above 0"; return 1; }
}

# units FILE: the four phases' times in units (sleep is two), from lines
# "phase_NAME SECONDS"; in_step PCT FILE: each within PCT% of their mean.
units() {
	awk '{ n[$1] = $2 } END { print n["phase_spin"], n["phase_sleep"] / 2,
	    n["phase_read"], n["phase_lock"] }' "$1"
}
in_step() {
	_one=$(awk '{ print ($1 + $2 + $3 + $4) / 4 }' "$2")
	for _u in $(cat "$2"); do near $_u $_one "$1" || return 1; done
}

# accuracy: the --off-cpu and --wall checks, with fgrecord run through
# $run (setpriv, to drop privilege, or nothing), named by $who: $rec
# records $prog (for setpriv, copies nobody can reach). The truth
# is what the program measured itself: a loaded machine stretches its
# phases. With --wall the four are also 1 : 2 : 1 : 1, as the program
# meant them, when the machine let it keep to that. The time the
# ptrace sampler held threads at its stops is left out of --wall, and
# said: only the spinning thread is ever stopped (a blocked one is read
# where it waits), so that time is the spin phase's.
accuracy() {
	check "$who: --off-cpu: each blocking function weighs the time it blocked" '
		{ $run "$rec" --off-cpu "$prog" $U >out 2>err ||
			{ echo "exit $?"; cat err; false; }; } &&
		grep_q "^# event : offcpu-time " out &&
		n=$(grep -c "^fgrecord: off-CPU time from \|sampling with ptrace instead" err || :) &&
		{ test "$n" = 1 || { echo "$n lines name the mechanism:"; cat err; false; }; } &&
		wellformed out &&
		! grep "^[^#	].*:\$" out | grep -v " offcpu-time:\$" &&
		symbolize out && phases sym >got && cat got err &&
		near $(get got offcpu-time phase_sleep) $(get err phase_sleep) 10 \
		    $(slack err phase_sleep) &&
		near $(get got offcpu-time phase_read) $(get err phase_read) 10 \
		    $(slack err phase_read) &&
		near $(get got offcpu-time phase_lock) $(get err phase_lock) 10 \
		    $(slack err phase_lock) &&
		{ [ "$spin_check" = 0 ] ||
		awk -v s=$(get0 got offcpu-time phase_spin) -v w=$(get err phase_spin) \
		    -v c=$(get err phase_spin_cpu) -v u=$U "BEGIN { if (s < w - c + u / 10) exit 0
		    printf \"phase_spin: %s s off-CPU, more than its %s s off a CPU\\n\", s, w - c; exit 1 }"; }
	'
	check "$who: --wall: spin, sleep, read and lock weigh 1 : 2 : 1 : 1" '
		{ $run "$rec" --wall "$prog" $U >out 2>err ||
			{ echo "exit $?"; cat err; false; }; } &&
		grep_q "^# event : cpu-clock " out && grep_q "^# event : offcpu-time " out &&
		wellformed out &&
		symbolize out && phases sym >got && cat got err &&
		held=$(sed -n "s/^fgrecord: \([0-9.]*\) s that the sampler held threads at its stops is left out of --wall time .*/\1/p" err) &&
		awk -v h="${held:-0}" "{ t[\$2] += \$3 } END { t[\"phase_spin\"] += h
			for (f in t) print f, t[f] }" got >wall &&
		positive "$(get got cpu-clock phase_spin)" &&
		for f in phase_spin phase_sleep phase_read phase_lock; do
			near $(get wall $f) $(get err $f) 10 $(slack err $f) ||
			    exit 1
		done &&
		units wall >units && units err >meant && cat units meant &&
		if ! in_step 5 meant; then
			cannot_decide "the machine stretched a phase by more than 5%: 1:2:1:1 not checked"
		fi &&
		in_step 10 units
	'
}

if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ]; then
	who='perf_event_open' run= spin_check=1 rec=$TOP/bin/fgrecord prog=$B/offcpu accuracy
else
	skip_checks 2 'perf_event_open: --off-cpu and --wall accuracy' 'needs root, CAP_PERFMON or kernel.perf_event_paranoid <= 1'
fi

# Without privilege at paranoid 2, no context-switch sample arrives: the
# ptrace sampler is the mechanism there, when this build has one.
p=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip_checks 3 'unprivileged: --off-cpu and --wall accuracy, a spinning thread.s wait' 'needs root and setpriv to drop privilege'
else
	chmod a+rx "$TMP" "$B"
	for_nobody "$TOP/bin/fgrecord" "$B/offcpu"
	drop='setpriv --reuid=65534 --regid=65534 --clear-groups'
	cd "$TMP" && $drop "$NOBODY/bin/fgrecord" --off-cpu -o /dev/null true 2>"$TMP/unpriv" >/dev/null
	if grep -q "context-switch samples" "$TMP/unpriv"; then
		skip_checks 3 'unprivileged: --off-cpu and --wall accuracy, a spinning thread.s wait' "at kernel.perf_event_paranoid $p this build has no mechanism for an ordinary user: $(head -1 "$TMP/unpriv")"
	else
		who="unprivileged (paranoid $p)" run=$drop spin_check=0 \
			rec=$NOBODY/bin/fgrecord prog=$NOBODY/offcpu accuracy
		# The program shares CPU 0 with a busy loop: its spinning phase
		# waits for that CPU about half the time. The ptrace sampler
		# must leave that wait out of --off-cpu (schedstat's run-queue
		# time says it), as perf's switch records do; what it still
		# counts is the time its own stops held the thread.
		check "unprivileged (paranoid $p): --off-cpu leaves out a spinning thread's wait for a CPU" '
			{ taskset -c 0 sh -c "while :; do :; done" & } && hog=$! &&
			{ $drop "$NOBODY/bin/fgrecord" --off-cpu taskset -c 0 "$NOBODY/offcpu" $U >out 2>err
			  st=$?; kill $hog; test $st = 0; } &&
			symbolize out && phases sym >got && cat got err &&
			awk -v s=$(get0 got offcpu-time phase_spin) -v w=$(get err phase_spin) \
			    -v c=$(get err phase_spin_cpu) "BEGIN { off = w - c
				if (off > 0.05 && s < off / 2) exit 0
				printf \"phase_spin: %s s counted off-CPU of its %s s off a CPU\\n\", s, off
				exit 1 }" &&
			grep_q "^fgrecord: .* waits off the CPU, .*; [1-9][0-9]* preemptions left out" err
		'
	fi
fi

if [ "$(id -u)" != 0 ] && [ "$p" -gt 1 ]; then
	skip_rest 'off-CPU edge cases: needs root, CAP_PERFMON or kernel.perf_event_paranoid <= 1'
fi

# The helper blocks, then the main thread spins 0.2 s and exits: the wait
# is that spin (as the program measured it: a loaded machine stretches
# it) and the exit after it, less when the machine delays the helper's read.
check 'a thread that dies blocked: its wait up to its death, exit status kept' '
	fgrecord --off-cpu -o out offcpu $U exit 2>err &&
	wellformed out &&
	symbolize out &&
	awk "/ offcpu-time:\$/ { p = \$(NF - 1) } /helper_block/ && p { print p; p = 0 }" sym >w &&
	cat w && test "$(wc -l <w)" = 1 &&
	spun=$(get err phase_spin) &&
	awk -v w="$(cat w)" -v s="$spun" "BEGIN { if (w > 100000000 && w < (s + 0.15) * 1e9) exit 0
		printf \"a wait of %d ns for a spin of %s s\\n\", w, s; exit 1 }"
'

# SIGTERM comes 2 s after the start, in the 2 s sleep that starts at 1 s
# (a unit of 1 s: a second of slack each side for a busy machine): the
# wait counted is more than nothing, less than the whole sleep.
check '-d mid-wait: the command gets SIGTERM, the wait so far counts' '
	expect_status 143 fgrecord --off-cpu -d 2 -o out offcpu 1 2>err &&
	wellformed out && symbolize out && phases sym >got && cat got &&
	awk -v w="$(get got offcpu-time phase_sleep)" "BEGIN { exit !(w > 0.05 && w < 2) }"
'

check 'Ctrl-C mid-wait: exit 130, the stream ends with whole samples' '
	{ fgrecord --off-cpu -o out offcpu 1 2>err & } && pid=$! &&
	sleep 2 && kill -INT $pid && { wait $pid; st=$?; } &&
	test $st = 130 && wellformed out &&
	symbolize out && phases sym >got && cat got &&
	positive "$(get got offcpu-time phase_sleep)"
'

# A wait that began before fgrecord attached is not seen (its switch out
# is gone): attach while the program spins, stop while it sleeps (a 2 s
# sleep from 1 s on; -d 1.5 from 0.1 s). The wait counted is what passed
# of it.
check '-p: a thread still blocked at the end counts up to the end' '
	{ offcpu 1 2>/dev/null & } && pid=$! &&
	sleep 0.1 &&
	{ fgrecord --off-cpu -d 1.5 -p $pid -o out 2>err; st=$?
	  kill $pid 2>/dev/null; wait $pid; test $st = 0; } &&
	wellformed out && symbolize out &&
	phases sym >got && cat got err &&
	test "$(grep -c phase_sleep got)" = 1 &&
	awk -v w="$(get got offcpu-time phase_sleep)" "BEGIN { exit !(w > 0.1 && w < 1.95) }"
'

# Issue 22 point 4: the wait in progress when fgrecord attaches counts.
# nap sleeps 1.5 s at a time; attached 0.3 s in, its first wait has 1.2 s
# to go. --wall -d 2 must weigh 2 s in all, under either sampler (the perf
# sampler gives that wait to the stack of the thread's next sleep).
cat >"$B/nap.c" <<'EOF2'
#include <time.h>
int
main(void)
{
	struct timespec ts = { 1, 500000000 };

	for (;;)
		nanosleep(&ts, NULL);
}
EOF2
$cc -O2 -o "$B/nap" "$B/nap.c"
# total STREAM: the seconds all samples of STREAM weigh.
total() {
	awk '/^[^#\t ]/ { s += $(NF - 1) } END { printf "%.4f\n", s / 1e9 }' "$1"
}
for s in perf ptrace; do
	check "--wall -p, $s sampler: the wait in progress at the attach counts, 2 s in all" '
		{ nap & } && pid=$! && trap "kill $pid 2>/dev/null" EXIT &&
		sleep 0.3 &&
		{ fgrecord --sampler '$s' --wall -d 2 -p $pid -o out 2>err; st=$?; } &&
		kill $pid && expect_status 143 wait $pid &&
		cat err && test $st = 0 && wellformed out &&
		t=$(total out) && echo "weighed $t s" && near "$t" 2 5
	'
done

check 'usage: --off-cpu with --wall, -e or -a, and --wall with a tiny -c' '
	expect_status 2 fgrecord --off-cpu --wall true 2>err && grep_q exclusive err &&
	expect_status 2 fgrecord --off-cpu -e cpu-clock true 2>err && grep_q "own events" err &&
	expect_status 2 fgrecord --wall -a 2>err && grep_q "not -a" err &&
	expect_status 2 fgrecord --wall -c 100 true 2>err && grep_q "at least 10000" err
'

if flamegraph_ok; then
	check 'stackcollapse-perf.pl reads an --off-cpu stream, weighed by time' '
		fgrecord --off-cpu -o out offcpu $U 2>err && symbolize out &&
		perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" sym >folded &&
		awk "/phase_sleep/ { s += \$NF } END { print s / 1e9 }" folded >s && cat s &&
		near "$(cat s)" 0.4 10
	'
else
	skip 'stackcollapse-perf.pl reads an --off-cpu stream' "$why"
fi

done_testing
