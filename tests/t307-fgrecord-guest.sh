#!/bin/sh
# serial
# t307-fgrecord-guest: a profiler is a guest. The program must not
# notice it, and fgrecord must say what stands in its way.
#
# - tests/record/waiter.c makes 10,000 waits of 1 ms that time out, in
#   epoll_wait and sigtimedwait, which a stop ends with EINTR: bare, and
#   under both samplers in every mode (CPU at -F 10000, --off-cpu,
#   --wall), none ends with EINTR, and the off-CPU profile still shows
#   the waits in the functions that wait.
# - tests/record/spawner.c creates and joins threads one after another:
#   under --wall with the ptrace sampler, the time its main thread sits
#   at the sampler's stops is not written as its off-CPU time in clone3
#   (at most 10% of it: bare, creating a thread does not block; what is
#   left is its waits for a CPU after a tick's stop, which a busy
#   machine gives bare too: measured 0.9% to 3.3% quiet, 0.1% to 2.7%
#   beside four busy loops, 6.5% once), and it creates threads at least
#   a twentieth as fast as bare. The rates are wall-clock ones, so each
#   side is the best of three runs, bare and traced taking turns: a load
#   that comes and goes slows some runs of both, and a steady one slows
#   both alike (measured: traced 0.55 to 0.75 of bare quiet, 0.65 to 1.9
#   beside four busy loops). Binaries of 1fd6a73: 13% to 37%, more on a
#   busy machine; of before it: half the main thread's time in clone3,
#   and a fortieth of the rate.
# serial: the thread-creation rates are compared within one run.
# - -p of a process that another tracer holds (a second fgrecord, gdb)
#   names that tracer; -p of a zombie says it has exited.
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 14

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
built=yes
for p in waiter spawner; do
	$cc -O2 -g -pthread -o "$B/$p" "$TESTS/record/$p.c" 2>"$B/$p.err" || built=no
done
PATH=$B:$PATH
N=${FG_WAITS:-10000}

# waitstat FILE: "EPOLL SIGTIMEDWAIT OTHER" EINTR counts waiter printed
waitstat() {
	awk '/^eintr-epoll / { e = $2 } /^eintr-sigtimedwait / { s = $2 }
	/^other / { o = $2 } END { print e + 0, s + 0, o + 0 }' "$1"
}
# tracer PID: its TracerPid
tracer() { awk '/^TracerPid:/ { print $2 }' "/proc/$1/status"; }
# traced PID: some tracer holds PID
traced() { [ "$(tracer "$1")" != 0 ]; }

if [ "$built" != yes ]; then
	skip_rest "cannot build tests/record/waiter.c with $cc: $(cat "$B"/*.err | head -3)"
fi

check "bare: $N waits of 1 ms, none ends with EINTR (the control)" '
	expect_status 0 waiter $N 2>err && cat err &&
	test "$(waitstat err)" = "0 0 0"
'

# Every run side by side: they wait far more than they work, and the
# count of EINTR does not depend on the machine's load.
samplers=
for s in perf ptrace; do
	if fgrecord -q --sampler=$s -o "$TMP/probe" true 2>"$TMP/probe.err"; then
		samplers="$samplers $s"
	else
		for m in 'CPU at -F 10000' --off-cpu --wall; do
			skip "--sampler=$s $m: $N waits, none ends with EINTR" "the $s sampler cannot run here: $(head -1 "$TMP/probe.err")"
		done
		skip "--sampler=$s --off-cpu: the waits are seen in wait_epoll and wait_signal" "the $s sampler cannot run here"
	fi
done
R=$TMP/runs
mkdir -p "$R"
for s in $samplers; do
	( cd "$R" &&
	  fgrecord --sampler=$s -F 10000 -o $s.cpu waiter $N 2>$s.cpu.err; echo $? >$s.cpu.st ) &
	( cd "$R" &&
	  fgrecord --sampler=$s --off-cpu -o $s.off waiter $N 2>$s.off.err; echo $? >$s.off.st ) &
	( cd "$R" &&
	  fgrecord --sampler=$s --wall -o $s.wall waiter $N 2>$s.wall.err; echo $? >$s.wall.st ) &
done
wait

for s in $samplers; do
	for m in cpu off wall; do
		case $m in
		cpu) what='CPU at -F 10000' ;;
		off) what='--off-cpu' ;;
		wall) what='--wall' ;;
		esac
		check "--sampler=$s $what: $N waits, none ends with EINTR" "
			cat $R/$s.$m.err &&
			test \"\$(cat $R/$s.$m.st)\" = 0 &&
			test \"\$(waitstat $R/$s.$m.err)\" = '0 0 0' &&
			wellformed $R/$s.$m
		"
	done
	# The waits are in the off-CPU profile, in the functions that wait.
	check "--sampler=$s --off-cpu: the waits are seen in wait_epoll and wait_signal" "
		cp $R/$s.off off && symfold off folded &&
		awk '{ t += \$NF } /;main;wait_epoll;/ { e += \$NF } /;main;wait_signal;/ { g += \$NF }
		END { printf \"%.0f%% in wait_epoll, %.0f%% in wait_signal\\n\", 100 * e / t, 100 * g / t
			exit !(e * 100 >= t * 35 && g * 100 >= t * 35) }' folded
	"
done

# ---- thread creation under --wall with the ptrace sampler ----

# rate FILE...: the most threads a second spawner printed in FILEs
rate() { awk '/^rate / { if ($2 > r) r = $2 } END { print r + 0 }' "$@"; }

if echo "$samplers" | grep -q ptrace; then
check '--wall, ptrace: clone stops are not off-CPU time, and threads come at least 1/20 as fast as bare' '
	for i in 1 2 3; do
		expect_status 0 spawner 20000 2>bare$i.err &&
		expect_status 0 fgrecord --sampler=ptrace --wall -o out$i spawner 20000 2>err$i ||
		exit 1
	done &&
	b=$(rate bare?.err) && p=$(rate err?) &&
	echo "bare $b threads/s, --sampler=ptrace --wall $p threads/s (best of 3 each)" &&
	test "$b" -gt 0 && test $((p * 20)) -ge "$b" &&
	mv out1 out && mv err1 err &&
	symfold out folded --tid &&
	pid=$(awk "/^[^#\t].* [0-9]+\/[0-9]+ \[/ { split(\$2, q, \"/\"); print q[1]; exit }" out) &&
	awk -v m="-$pid/$pid;" "index(\$0, m) { t += \$NF; if (\$0 ~ /;clone3;\[off-cpu\] /) c += \$NF }
		END { printf \"main thread: %.3f s, %.3f s of it off-CPU in clone3\\n\", t / 1e9, c / 1e9
			exit !(t > 0 && c * 100 <= t * 10) }" folded
'
# The time the sampler held threads is said, and with it the main
# thread's samples add up to its wall time (it was left out silently:
# 0.86 s a second). The run is the check's before.
check '--wall, ptrace: the time held at the sampler'"'"'s stops is said, and the main thread adds up' '
	cd "$TMP/$((_n - 1))" && test -s folded && cat err &&
	pid=$(awk "/^[^#\t].* [0-9]+\/[0-9]+ \[/ { split(\$2, q, \"/\"); print q[1]; exit }" out) &&
	held=$(sed -n "s/^fgrecord: \([0-9.]*\) s that the sampler held threads at its stops is left out of --wall time ([0-9.]*% of it)\$/\1/p" err) &&
	test -n "$held" && w=$(awk "/^main-wall / { print \$2 }" err) &&
	awk -v m="-$pid/$pid;" -v h="$held" -v w="$w" "index(\$0, m) { t += \$NF }
		END { t /= 1e9; printf \"main thread: %.3f s sampled + %.3f s held (all threads), wall %.3f s\\n\", t, h, w
			exit !(t + h >= w * 0.85 && t <= w * 1.15) }" folded
'
else
	skip '--wall, ptrace: clone stops are not off-CPU time' 'no ptrace sampler here'
	skip '--wall, ptrace: the time held at the sampler'"'"'s stops is said' 'no ptrace sampler here'
fi

# ---- -p of a process fgrecord cannot trace: the reason, not ENOENT ----

if ! fgrecord -q --sampler=ptrace -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip_rest "-p held by another tracer, or a zombie: no ptrace sampler here: $(head -1 "$TMP/probe.err")"
fi

check '-p of a process a second fgrecord traces: that tracer is named' '
	{ sleep 60 & } && pid=$! && trap "kill $pid 2>/dev/null" EXIT &&
	{ fgrecord --sampler=ptrace -q -p $pid -o first & } && f=$! &&
	wait_for 10 traced $pid && test "$(tracer $pid)" = $f &&
	{ expect_status 2 fgrecord --sampler=ptrace -p $pid -d 0.2 -o second 2>err; r=$?; } &&
	kill -INT $f && expect_status 0 wait $f && kill $pid && expect_status 143 wait $pid &&
	cat err && test $r = 0 &&
	grep_q "^fgrecord: cannot trace process $pid: it is already traced by process $f (.fgrecord.)" err &&
	! grep -q "No such file" err
'

if command -v gdb >/dev/null; then
check '-p of a process gdb holds: gdb is named' '
	{ sleep 60 & } && pid=$! && trap "touch done; kill $pid 2>/dev/null" EXIT &&
	{ gdb -q -nx -batch -p $pid -ex "shell while [ ! -e done ]; do sleep 0.1; done" >gdb.out 2>&1 & } && g=$! &&
	wait_for 30 traced $pid && t=$(tracer $pid) &&
	{ expect_status 2 fgrecord --sampler=ptrace -p $pid -d 0.2 -o out 2>err; r=$?; } &&
	touch done && { wait $g || cat gdb.out; } && kill $pid && expect_status 143 wait $pid &&
	cat err && test $r = 0 &&
	grep_q "^fgrecord: cannot trace process $pid: it is already traced by process $t (.gdb.)" err
'
else
	skip '-p of a process gdb holds: gdb is named' 'no gdb here (apt-get install gdb)'
fi

check '-p of a zombie: it has exited' '
	{ sh -c "sleep 0 & exec sleep 60" & } && parent=$! && trap "kill $parent 2>/dev/null" EXIT &&
	wait_for 10 pgrep -P $parent >/dev/null && z=$(pgrep -P $parent) &&
	wait_for 10 grep -q "^State:	Z" /proc/$z/status &&
	{ expect_status 2 fgrecord --sampler=ptrace -p $z -d 0.2 -o out 2>err; r=$?; } &&
	kill $parent && expect_status 143 wait $parent &&
	cat err && test $r = 0 &&
	grep_q "^fgrecord: cannot trace process $z: it has exited (a zombie" err
'

done_testing
