#!/bin/sh
# t314-fgrecord-trust: fgrecord, often root or holding capabilities, gives
# no one more than they had, and says what happened in words that fit.
#
#   - root's -o refuses a file another user left behind, or one with a
#     second link;
#   - the unwinder's depth: deep stacks reach main by default, and
#     --max-depth cuts them;
#   - the ring-buffer note appears only when samples were lost;
#   - the paranoid-level fix names the level that helps, never the
#     current one;
#   - a mapped file swapped for a FIFO or a device is never opened;
#   - a set-user-ID command: said before it runs, never gains privilege
#     under an unprivileged fgrecord, and the stream holds no stack bytes;
#   - -a without root says how many processes' maps were unreadable.
#
# FG_BIN=DIR runs the tools of DIR instead of bin/ (to show that a check
# fails on an older build).
# serial: it sets kernel.perf_event_paranoid for a while.
. "$(dirname "$0")/lib.sh"
plan 17
if [ -n "${FG_BIN:-}" ]; then
	PATH=$FG_BIN:$PATH
	FGRECORD=$FG_BIN/fgrecord
else
	FGRECORD=$TOP/bin/fgrecord
fi
export FGRECORD

cc=${CC:-cc}
B=$TMP/build
mkdir -p "$B"
export B cc
root=
[ "$(id -u)" = 0 ] && root=1
asnobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
$cc -O2 -g -o "$B/tall" "$TESTS/record/tall.c" 2>"$B/err" || tall_err=$(head -1 "$B/err")

# The tools and tall where nobody can run them: $NB/fgrecord, $NB/tall.
nobody_copy() {
	for_nobody "$FGRECORD" "$B/tall" || return 1
	case $FGRECORD in
	"$TOP"/*) NB_FGRECORD=$NOBODY/${FGRECORD#"$TOP"/} ;;
	*) NB_FGRECORD=$NOBODY/fgrecord ;;
	esac
	NB=$NOBODY
	export NB NB_FGRECORD asnobody
}

# 7: -o, as root, into a file another user owns or that has two links.
if [ -z "$root" ]; then
	skip_checks 2 "root's -o into another user's file or a second link: refused" 'needs root'
else
	check "root's -o into another user's file: refused, the file untouched, exit 2" '
		chmod 777 . &&
		setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo theirs >planted; chmod 666 planted" &&
		expect_status 2 fgrecord -q -o planted true 2>err &&
		cat err &&
		grep_q "cannot write to .planted.: it belongs to user 65534" err &&
		test "$(wc -l <err)" = 1 &&
		test "$(cat planted)" = theirs
	'
	check "root's -o into a file with a second link: refused, exit 2" '
		echo precious >victim &&
		ln victim alias &&
		expect_status 2 fgrecord -q -o alias true 2>err &&
		cat err &&
		grep_q "cannot write to .alias.: it has 2 links" err &&
		test "$(cat victim)" = precious &&
		fgrecord -q -o mine true && fgrecord -q -o mine true &&
		head -2 mine | grep -q "^# fgrecord 1"
	'
fi

# 13: the depth limit. tall recurses 1000 frames, deeper than the old
# limit of 512 and within one stack copy: at most 2% truncated, none for
# the depth limit (1.0% "stack copy too small" was seen once, under
# SANITIZE=1; the old limit truncated every sample).
if [ -n "${tall_err:-}" ]; then
	skip_checks 3 'a stack of 1000 frames reaches main; --max-depth' "cannot build tests/record/tall.c: $tall_err"
elif ! perf_ok; then
	skip_checks 3 'a stack of 1000 frames reaches main; --max-depth' "$why"
else
	check 'a stack of 1000 frames reaches main by default, not truncated' '
		fgrecord -o out "$B/tall" 0.3 1000 2>err && cat err &&
		fgsym out >sym 2>symerr && fgfold sym >folded &&
		awk "/;main;/ { m += \$NF } { n += \$NF } END { print m \" of \" n \" reach main\"; exit !(n > 0 && m >= n * 0.95) }" folded &&
		! grep "depth limit" err &&
		t=$(sed -n "s/^fgrecord: .* lost, [<>]\{0,1\}\([0-9.]*\)% truncated.*/\1/p" err) &&
		awk -v t="$t" "BEGIN { exit !(t != \"\" && t <= 2) }"
	'
	check '--max-depth 100 keeps 100 user frames and says depth limit' '
		fgrecord --max-depth 100 -o out "$B/tall" 0.3 1000 2>err && cat err &&
		grep_q "truncated (mostly: depth limit)" err &&
		awk "/^[^\t#]/ && NF { n = 0; next } /^\t/ && !/\[truncated\]/ && !/kernel\.kallsyms/ { n++ } /^\$/ { if (n > max) max = n; s++ } END { print s \" samples, at most \" max \" frames\"; exit !(s > 0 && max == 100) }" out
	'
	check '--max-depth out of range: usage error, exit 2' '
		expect_status 2 fgrecord --max-depth 0 true 2>err &&
		grep_q "max-depth .0.: expected a whole number" err &&
		expect_status 2 fgrecord --max-depth 65537 true 2>err2 &&
		grep_q "max-depth 65537: at most 65536 frames" err2
	'
fi

# 14: the note on ring buffers cut by kernel.perf_event_mlock_kb, only
# when samples were lost. A slow reader no longer makes fgrecord fall
# behind (its output is spooled: t308), so fgrecord itself is stopped
# for 1.5 s (SIGSTOP, as a machine that starves it would) while the
# program runs at 10 kHz: the rings fill and the kernel drops samples.
mlock=$(cat /proc/sys/kernel/perf_event_mlock_kb 2>/dev/null || echo 0)
if [ -z "$root" ] || ! command -v setpriv >/dev/null || [ -n "${tall_err:-}" ] || ! perf_ok; then
	skip_checks 2 'the ring-buffer note only when samples were lost' 'needs root and setpriv to become nobody, perf_event_open, and tests/record/tall.c built'
elif [ "$mlock" -gt 100000 ]; then
	skip_checks 2 'the ring-buffer note only when samples were lost' "kernel.perf_event_mlock_kb is $mlock: the rings are not cut"
else
	nobody_copy
	check 'no samples lost: no note about ring buffers (lost: the note, last)' '
		here=$PWD &&
		cd "$NB" && { $asnobody "$NB_FGRECORD" -o /dev/null ./tall 0.3 10 2>"$here/err"; st=$?; } &&
		cd "$here" && cat err && test $st = 0 &&
		if ! grep -q " 0 lost" err; then
			cannot_decide "the machine was too busy: samples were lost even with fgrecord running (the note then is for the next check)"
		fi &&
		! grep -q "ring buffers" err
	'
	check 'samples lost: the note at the end, beside the count; exit 0' '
		here=$PWD &&
		cd "$NB" && { $asnobody "$NB_FGRECORD" -F 10000 ./tall 1 10 >"$here/out" 2>"$here/err" & } &&
		rec=$! &&
		for i in $(seq 400); do
			test "$(wc -c <"$here/out" 2>/dev/null || echo 0)" -gt 20000 && break
			sleep 0.05
		done && echo "waited $i rounds for samples" &&
		kill -STOP $rec && sleep 1.5 && kill -CONT $rec &&
		{ wait $rec; st=$?; } &&
		cd "$here" && cat err && echo "status $st" && test $st = 0 &&
		! grep -q " 0 lost" err &&
		tail -1 err | grep -q "samples were lost with ring buffers cut to [0-9]* KiB per CPU by kernel.perf_event_mlock_kb: raise it with sudo sysctl kernel.perf_event_mlock_kb=[0-9]*$" &&
		test "$(grep -c "ring buffers" err)" = 1
	'
fi

# 10: the fix for -a names level 0, whatever the current level (1 or 2);
# never the current one. The level is restored at the end.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo missing)
if [ -z "$root" ] || ! command -v setpriv >/dev/null || [ "$paranoid" = missing ] ||
   ! sysctl -q kernel.perf_event_paranoid="$paranoid" 2>/dev/null; then
	skip_checks 2 "-a as nobody at levels 1 and 2: the fix names level 0" 'needs root, setpriv and a writable kernel.perf_event_paranoid'
	skip '-a as nobody at level 0: unreadable maps said' 'needs root, setpriv and a writable kernel.perf_event_paranoid'
else
	trap 'sysctl -q kernel.perf_event_paranoid="$paranoid"; rm -rf "$TMP" ${NOBODY:+"$NOBODY"}' EXIT
	nobody_copy
	for level in 1 2; do
		sysctl -q kernel.perf_event_paranoid=$level
		check "-a as nobody at level $level: the fix names level 0, not $level" '
			here=$PWD && cd "$NB" &&
			{ expect_status 2 $asnobody "$NB_FGRECORD" -a -d 0.2 -o /dev/null 2>"$here/err"; st=$?; } &&
			cd "$here" && cat err && test $st = 0 &&
			grep_q "^fgrecord: fix: sudo sysctl kernel.perf_event_paranoid=0 (what -a needs)" err &&
			! grep "paranoid=$level\b" err &&
			! grep "paranoid=-*1 " err
		'
	done
	# 11: at level 0 nobody may use -a, but not read root's maps: the
	# summary says how many processes that left unreadable.
	sysctl -q kernel.perf_event_paranoid=0
	check '-a as nobody at level 0: the share of processes whose maps were unreadable is said' '
		here=$PWD && cd "$NB" &&
		{ $asnobody "$NB_FGRECORD" -a -d 0.5 -o /dev/null 2>"$here/err"; st=$?; } &&
		cd "$here" && cat err && test $st -le 1 &&
		grep_q "^fgrecord: the maps of [1-9][0-9]* of [1-9][0-9]* processes ([0-9.]*%) could not be read (other users. processes)" err
	'
	sysctl -q kernel.perf_event_paranoid="$paranoid"
fi

# 6: a program that maps a library and then puts links to something else
# where it was (and at "lib.so (deleted)", its name in /proc/PID/maps):
# root's fgrecord reads the mapped file itself and never opens what the
# links name: another user's (here root's own 0600) ELF file, watched with
# inotify, or a device node.
if [ -z "$root" ] || ! command -v setpriv >/dev/null; then
	skip_checks 3 'a library swapped for links: the target never opened' 'needs root and setpriv'
elif ! $cc -O2 -g -shared -fPIC -o "$B/libspin.so" "$TESTS/hostile/spinlib.c" 2>"$B/err" ||
     ! $cc -O1 -shared -fPIC -o "$B/other.so" "$TESTS/hostile/spinlib.c" 2>>"$B/err" ||
     ! $cc -O2 -g -o "$B/libswap" "$TESTS/record/libswap.c" -ldl 2>>"$B/err" ||
     ! $cc -O2 -o "$B/openwatch" "$TESTS/hostile/openwatch.c" 2>>"$B/err"; then
	skip_checks 3 'a library swapped for links: the target never opened' "cannot build the fixtures: $(head -1 "$B/err")"
elif ! perf_ok; then
	skip_checks 3 'a library swapped for links: the target never opened' "$why"
else
	# inlib STREAM: at least 90% of the samples have a frame of lib.so
	# read from the mapped file (an unreadable one gives [unknown] DSOs).
	inlib() {
		awk '/^\t/ && /lib\.so/ { hit = 1 } /^$/ { h += hit; n++; hit = 0 } END { print h " of " n " samples in lib.so"; exit !(n > 0 && h >= n * 0.9) }' "$1"
	}
	check 'a command: its library swapped for a link to a root-only ELF file, never opened' '
		mkdir -m 700 secret && cp "$B/other.so" secret/other.so && chmod 600 secret/other.so &&
		cp "$B/libspin.so" lib.so &&
		{ timeout 60 "$B/openwatch" "$PWD/secret/other.so" fgrecord -o out "$B/libswap" "$PWD/lib.so" 1 "$PWD/secret/other.so" 2>err; st=$?; } &&
		cat err && echo "status $st (3: the target was opened)" &&
		test $st = 0 && test -L lib.so &&
		inlib out
	'
	check 'a command: its library swapped for a link to a device node: frames read, exit 0' '
		mknod dev c 1 3 && cp "$B/libspin.so" lib.so &&
		{ timeout 60 "$B/openwatch" "$PWD/dev" fgrecord -o out "$B/libswap" "$PWD/lib.so" 1 "$PWD/dev" 2>err; st=$?; } &&
		cat err && echo "status $st (3: the device was opened)" &&
		test $st = 0 &&
		inlib out
	'
	check '-p of nobody'"'"'s process whose library is now a link to a root-only file: never opened' '
		mkdir -m 700 secret && cp "$B/other.so" secret/other.so && chmod 600 secret/other.so &&
		pub=$(mktemp -d /tmp/fgswap.XXXXXX) && chmod 777 "$pub" &&
		trap "rm -rf \"$pub\"" EXIT &&
		cp "$B/libspin.so" "$B/libswap" "$pub/" && chmod 755 "$pub/libswap" "$pub/libspin.so" &&
		{ $asnobody "$pub/libswap" "$pub/libspin.so" 60 "$PWD/secret/other.so" & } && tp=$! &&
		trap "kill $tp 2>/dev/null; rm -rf \"$pub\"" EXIT &&
		wait_for 30 test -L "$pub/libspin.so (deleted)" &&
		{ timeout 60 "$B/openwatch" "$PWD/secret/other.so" fgrecord -p $tp -d 1.5 -o out 2>err; st=$?; } &&
		kill $tp && expect_status 143 wait $tp &&
		cat err && echo "status $st (3: the target was opened)" &&
		test $st = 0 &&
		awk "/^\t/ && /lib/ && !/\[unknown\]\)/ { hit = 1 } /^\$/ { h += hit; n++; hit = 0 } END { print h \" of \" n \" samples in the library\"; exit !(n > 0 && h >= n * 0.9) }" out
	'
fi

# 3 and 5: a set-user-ID-root program that reads a root-only file onto its
# stack, where a frame-pointer walk finds it as a return address (setid.c).
# Run by nobody, it must gain nothing under fgrecord, even one given
# cap_perfmon,cap_sys_ptrace (under whose ptrace the kernel would honour
# the bit), fgrecord must say so in one line before it runs, and no word
# of the stack that is no code may reach the stream.
if [ -z "$root" ] || ! command -v setpriv >/dev/null; then
	skip_checks 4 'set-user-ID programs and frame-pointer words' 'needs root and setpriv'
elif ! $cc -O2 -o "$B/setid" "$TESTS/record/setid.c" 2>"$B/err"; then
	skip_checks 4 'set-user-ID programs and frame-pointer words' "cannot build tests/record/setid.c: $(head -1 "$B/err")"
elif ! perf_ok; then
	skip_checks 4 'set-user-ID programs and frame-pointer words' "$why"
else
	check 'the frame-pointer walk writes no word that is not code, with either sampler' '
		for s in perf ptrace; do
			fgrecord --sampler $s --call-graph fp -o out.$s "$B/setid" 0.3 /nonexistent 1122334455667788 >prog.$s 2>err.$s &&
			cat err.$s && grep_q "euid 0" prog.$s &&
			! grep "^	1122334455667788 " out.$s || exit 1
		done
	'
	nobody_copy
	for_nobody "$B/setid"
	printf SECRET42 >"$TMP/secret" && chmod 600 "$TMP/secret"
	chmod 4755 "$NOBODY/setid"
	hexsecret=3234544552434553	# SECRET42 as a little-endian word
	export hexsecret
	for s in perf ptrace; do
		check "nobody, --sampler $s: a set-user-ID-root command is said to run without privilege, and does" '
			here=$PWD && cd "$NB" &&
			{ $asnobody "$NB_FGRECORD" --sampler '$s' --call-graph fp ./setid 0.3 "$TMP/secret" >"$here/out" 2>"$here/err"; st=$?; } &&
			cd "$here" && cat err && test $st = 0 && grep "^euid" err >prog &&
			head -1 err | grep -q "^fgrecord: .\./setid. is set-user-ID root: under fgrecord, not run by root, it runs without those privileges" &&
			grep_q "^euid 65534" prog &&
			grep_q " cpu-clock:\$" out
		'
	done
	if ! command -v setcap >/dev/null; then
		skip 'nobody with cap_sys_ptrace: a set-user-ID command gains nothing' 'no setcap (Debian package libcap2-bin)'
	else
		cp "$NB_FGRECORD" "$NOBODY/fgrecord-caps" && chmod 755 "$NOBODY/fgrecord-caps"
		if ! setcap cap_perfmon,cap_sys_ptrace+ep "$NOBODY/fgrecord-caps" 2>"$B/err"; then
			skip 'nobody with cap_sys_ptrace: a set-user-ID command gains nothing' "setcap failed: $(head -1 "$B/err")"
		else
			check 'nobody with cap_sys_ptrace, --sampler ptrace --call-graph fp: no privilege, no secret' '
				here=$PWD && cd "$NB" &&
				{ $asnobody ./fgrecord-caps --sampler ptrace --call-graph fp ./setid 0.3 "$TMP/secret" >"$here/out" 2>"$here/err"; st=$?; } &&
				cd "$here" && cat err && test $st = 0 && grep "^euid" err >prog &&
				grep_q "^euid 65534" prog &&
				grep_q "is set-user-ID root" err &&
				! grep "$hexsecret" out
			'
		fi
	fi
fi

done_testing
