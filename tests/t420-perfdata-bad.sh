#!/bin/sh
# fgsym on perf.data files gone bad (issue 25): cut short, a corrupt
# header, a record of size 0 or past the end, samples of an id no event
# lists, big-endian. Each is said in one line with 'FILE':OFFSET, exits 1
# (2 for what it does not read), keeps the samples before (and after,
# read on from the next good record, where the rest is sound), never
# hangs.
# FG_BIN=DIR runs another build's tools (the ones before this reader).
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 13
[ -n "${FG_BIN:-}" ] && PATH=$FG_BIN:$PATH
ED=$TESTS/perfdata/pdedit.py

if ! perf_ok || ! command -v perf >/dev/null 2>&1 ||
    ! perf record -q -o "$TMP/probe.data" true >/dev/null 2>&1; then
	skip 'perf.data gone bad' "perf record does not work here (${why:-no perf}: apt-get install linux-perf, run as root)"
	skip_rest
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip 'perf.data gone bad' 'no python3 to damage the files (apt-get install python3)'
	skip_rest
fi
loop='i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done'
# record OUT PERF-RECORD-OPTIONS...: perf record of the loop into OUT,
# tried twice (a machine running other perf sessions beside this one
# may refuse one for a moment); the reason in perf.log when it fails.
record() {
	r_out=$1
	shift
	for r_try in 1 2; do
		perf record -q "$@" -o "$r_out" -- sh -c "$loop" >/dev/null 2>perf.log &&
			return 0
	done
	return 1
}
cd "$TMP" || exit 2
if ! record g.data -g || ! record two.data -g -e cpu-clock,task-clock ||
    ! perf script -i g.data -F event 2>perf.log | wc -l >g.n; then
	echo "Bail out! perf record worked for the probe, then failed: $(head -3 perf.log)"
	exit 2
fi
cd / || exit 2

# samples FILE: the sample heads in a stream
samples() { grep -ac '^[^#	].*: [0-9]* [a-z:-]*:$' "$1"; }
# said_at FILE ERR: one message with 'FILE':OFFSET in ERR
said_at() { test "$(grep -c "'[^']*$1':[0-9]*: " "$2")" -eq 1 || { cat "$2"; false; }; }

check 'a good perf.data: every sample, exit 0' '
	expect_status 0 fgsym "$TMP/g.data" >out 2>err &&
	test "$(samples out)" -eq "$(cat "$TMP/g.n")"
'
check 'cut short in its data: one line with the offset, exit 1, the samples before kept' '
	n=$(cat "$TMP/g.n") && size=$(wc -c <"$TMP/g.data") &&
	head -c $((size * 3 / 5)) "$TMP/g.data" >cut.data &&
	expect_status 1 timeout 60 fgsym cut.data >out 2>err &&
	said_at cut.data err && grep_q "cut short" err &&
	k=$(samples out) && test "$k" -gt 0 && test "$k" -lt "$n"
'
check 'cut at 40 places, and in a pipe: never a crash or a hang, exit 0 or 1, one line' '
	size=$(wc -c <"$TMP/g.data") && i=0 &&
	while [ $i -lt 40 ]; do
		head -c $((size * i / 40 + i)) "$TMP/g.data" >c.data &&
		{ timeout 60 fgsym c.data >out 2>err; st=$?; } &&
		{ [ $st -le 1 ] || { echo "cut at $((size * i / 40 + i)): $st"; cat err; false; }; } &&
		{ [ $st = 0 ] || said_at c.data err ||
			{ echo "cut at $((size * i / 40 + i)): not one line"; false; }; } &&
		{ timeout 60 fgsym <c.data >out 2>err; st=$?; } &&
		{ [ $st -le 1 ] || { echo "piped, cut: $st"; cat err; false; }; } || return 1
		i=$((i + 1))
	done
'
check 'a corrupt header (attribute size 7): one line with the offset, exit 1' '
	cp "$TMP/g.data" h.data && python3 "$ED" attrsize h.data 7 &&
	expect_status 1 timeout 60 fgsym h.data >out 2>err &&
	said_at h.data err && grep_q "header is corrupt" err
'
check 'a corrupt header in the first of two files: said, exit 1, every sample of the second kept, and the summary' '
	cp "$TMP/g.data" h.data && python3 "$ED" attrsize h.data 7 &&
	expect_status 1 timeout 60 fgsym h.data "$TMP/g.data" >out 2>err &&
	said_at h.data err &&
	test "$(samples out)" -eq "$(cat "$TMP/g.n")" &&
	grep_q "^fgsym: resolved " err
'
# perf gives a TID of -1 to a thread that is exiting. A replay names the
# sample from the recording, as perf script does: never from the /proc of
# the machine that replays it (here pid 1, which runs now, is another
# process than the recorded one).
check 'a sample of TID -1 of a process the file does not name: ":-1", as perf script says, not /proc/1 of this machine' '
	cp "$TMP/g.data" t.data && python3 "$ED" tid t.data 3 1 -1 &&
	perf script -i t.data -F comm,pid,tid 2>/dev/null >perf.txt &&
	test "$(grep -c "^ *:-1  *1/-1 *\$" perf.txt)" = 1 &&
	expect_status 0 fgsym t.data >out 2>err &&
	test "$(grep -ac "^:-1 1/-1 \[" out)" = 1
'
# A file name is the recorded program's choice: a newline in it must not
# split a frame's line (the writer's '?' for each control character).
check 'a program whose path holds a newline and an escape: its frames stay on their lines, the name with a ? for each' '
	d="$TMP/nl
dir" && mkdir -p "$d" && cp /bin/sh "$d/sh$(printf "\033")" &&
	perf record -q -g -o nl.data -- "$d/sh$(printf "\033")" -c "$loop" \
	    >/dev/null 2>perf.log &&
	expect_status 0 fgsym nl.data >out 2>err &&
	grep -aq "(.*/nl?dir/sh?)\$" out &&
	! grep -a "$(printf "\033")" out err &&
	expect_status 0 fgfold out >folded 2>ferr
'
# A record of bad size in a sound file: read on from the next good record
# (the one after it), said with where, and every other sample kept.
check 'a record of size 0 mid-way: one line with its offset and where reading resumed, exit 1, the samples before and after kept' '
	n=$(cat "$TMP/g.n") &&
	cp "$TMP/g.data" z.data && m=$(python3 "$ED" count z.data) &&
	off=$(python3 "$ED" offset z.data $((m / 2))) &&
	next=$(python3 "$ED" offset z.data $((m / 2 + 1))) &&
	python3 "$ED" size z.data $((m / 2)) 0 &&
	expect_status 1 timeout 60 fgsym z.data >out 2>err &&
	said_at z.data err && grep_q "z.data.:$off: a record of size 0" err &&
	grep_q "reading resumed at .[^ ]*z.data.:$next, the next good record" err &&
	k=$(samples out) && echo "$k of $n samples" && test "$k" -ge $((n - 1))
'
check 'a record mid-way whose size goes past the data'"'"'s end: read on from the next good record, the samples after kept' '
	n=$(cat "$TMP/g.n") &&
	cp "$TMP/g.data" e.data && m=$(python3 "$ED" count e.data) &&
	i=$(python3 "$ED" near e.data 60000) && { [ $i -ge $((m / 2)) ] || i=$((m / 2)); } &&
	off=$(python3 "$ED" offset e.data $i) &&
	next=$(python3 "$ED" offset e.data $((i + 1))) &&
	python3 "$ED" size e.data $i 65528 &&
	expect_status 1 timeout 60 fgsym e.data >out 2>err &&
	said_at e.data err && grep_q "e.data.:$off: a record of 65528 bytes .* past the data section" err &&
	grep_q "reading resumed at .[^ ]*e.data.:$next, the next good record" err &&
	k=$(samples out) && echo "$k of $n samples" && test "$k" -ge $((n - 1))
'
check 'a record past the data section'"'"'s end: one line with its offset, exit 1' '
	cp "$TMP/g.data" p.data && m=$(python3 "$ED" count p.data) &&
	python3 "$ED" size p.data $((m - 1)) 65535 &&
	expect_status 1 timeout 60 fgsym p.data >out 2>err &&
	said_at p.data err && grep_q "past the data section" err &&
	test "$(samples out)" -gt 0
'
check 'samples of an id no event lists: said once, exit 1, the other event'"'"'s kept' '
	cp "$TMP/two.data" i.data && python3 "$ED" ids i.data &&
	expect_status 1 timeout 60 fgsym i.data >out 2>err &&
	said_at i.data err && grep_q "which no event" err &&
	test "$(grep -ac " task-clock:\$" out)" -gt 0 &&
	test "$(grep -ac " cpu-clock:\$" out)" -eq 0
'
# A recording of another kernel that holds no build ID of it (-B): the
# file's OSRELEASE and HOSTNAME say where it came from, once. dd copies
# in the kernel: kernel frames.
check 'another kernel'"'"'s recording without its build ID: said once, with its host and release' '
	perf record -q -B -g -o b.data -- dd if=/dev/zero of=/dev/null \
	    bs=64k count=20000 >/dev/null 2>&1 &&
	expect_status 0 fgsym b.data >out 2>err &&
	grep_q "(\[kernel.kallsyms\])\$" out &&
	! grep -q "recorded under Linux" err &&
	python3 "$ED" osrelease b.data 0.0.1-elsewhere &&
	python3 "$ED" hostname b.data farhost &&
	{ fgsym b.data >out 2>err; test $? -le 1; } &&
	test "$(grep -c "recorded under Linux" err)" -eq 1 &&
	grep_q "^fgsym: .b.data. was recorded under Linux 0.0.1-elsewhere on .farhost., and this machine runs Linux $(uname -r); the file holds no build ID of its kernel: its kernel frames are named from this machine.s /proc/kallsyms, another kernel.s, and are wrong; run fgsym on the machine that recorded it, or pass that kernel.s symbols (--kallsyms=FILE)\$" err
'
check 'big-endian: one line, exit 2, nothing written' '
	{ printf 2ELIFREP; tail -c +9 "$TMP/g.data"; } >be.data &&
	expect_status 2 fgsym be.data >out 2>err && test ! -s out &&
	test "$(wc -l <err)" -eq 1 && grep_q "big-endian" err
'
done_testing
