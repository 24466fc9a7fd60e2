#!/bin/sh
# t311-fgrecord-deep: a program whose outer frame holds a 1 MiB array on
# the stack, with its hot work five calls below it (tests/record/bigframe.c,
# and bigframe.rs for Rust): every sample is sixteen times deeper than the
# largest stack copy the kernel takes, and the program dives there at
# once, so that stitching alone never sees it whole (100% truncated
# before). The ptrace sampler walks each such stack while the thread is
# stopped, reading what the walk asks for beyond the copy: every sample
# reaches main, also under --no-stitch (which turns off the completions
# made after the sample: stitching, the live stack, frame pointers), so
# that a return to reading the stack after the thread was let go fails
# here. The perf sampler reads on in the thread's live stack where the
# copy runs out, when the frame it stopped at is still there: at least
# 95% of the samples reach main, each stack exactly
# main;outer;level1;...;level4;hot. --no-stitch leaves them truncated
# and says so; `cargo fg` on a crate holding bigframe.rs draws its main
# on 95% of the samples or more. When the live stack cannot be read (a
# process that made itself not dumpable, recorded as nobody) the stacks
# stay truncated, fgrecord still exits 0, and the summary names why and
# the fix; built with frame pointers, the same program is completed from
# the kernel's frame-pointer chain, taken with each sample.
#
# That a stale live stack is not used (the frame where the copy ended has
# changed since the sample) depends on timing a test cannot hold; the
# check itself is tested in tests/unit/test_livestack.c (a slot changed
# since is seen, its chunk read before; a stopped walk's pieces keep
# what was read then), and the walk read on beyond a copy in
# tests/unit/test_unwind.c.
#
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 9

B=$TMP/build
mkdir -p "$B"
cc=${CC:-cc}
built=yes
$cc -O2 -g -o "$B/bigframe" "$TESTS/record/bigframe.c" 2>"$B/bigframe.err" || built=no
$cc -O2 -g -fno-omit-frame-pointer -o "$B/bigframe_fp" "$TESTS/record/bigframe.c" 2>"$B/bigframe.err" || built=no
PATH=$B:$PATH

# deepstat FOLDED [PREFIX]: prints "total main bad": the samples below
# PREFIXouter (the frame with the big array, or cut short), those that
# reach PREFIXmain untruncated, and those that do but whose frames from
# there are not PREFIXouter, then (when PREFIXhot is on the stack)
# PREFIXlevel1;...;PREFIXlevel4;PREFIXhot in order. Samples of the
# program's start and exit, before outer and after it, are no deep stack.
deepstat() {
	awk -v p="${2-}" 'BEGIN { want = p "outer;" p "level1;" p "level2;" p "level3;" p "level4;" p "hot" }
	{
		w = $NF
		s = $0; sub(/ [0-9]+$/, "", s)
		n = split(s, fr, ";")
		below = 0
		for (i = 1; i <= n; i++) if (fr[i] == p "outer") below = i
		if (!below) next
		t += w
		if (s ~ /\[truncated\]/) next
		m = 0; for (i = 1; i < below; i++) if (fr[i] == p "main") m = i
		if (!m) next
		ok += w
		got = fr[m + 1]
		if ((";" s ";") ~ (";" p "hot;"))
			for (i = m + 2; i <= n && i <= m + 6; i++) got = got ";" fr[i]
		if (got != ((";" s ";") ~ (";" p "hot;") ? want : p "outer")) {
			bad += w; print "bad: " s >"/dev/stderr"
		}
	} END { printf "%d %d %d\n", t, ok, bad }' "$1"
}

if [ "$built" != yes ]; then
	skip 'deep stacks' "cannot build tests/record/bigframe.c with $cc: $(cat "$B"/*.err | head -3)"
	skip_rest
fi
if ! perf_ok; then
	skip 'deep stacks' "$why"
	skip_rest
fi
if ! fgrecord -q -o "$TMP/probe" true 2>"$TMP/probe.err"; then
	skip 'deep stacks' "fgrecord cannot sample here: $(head -1 "$TMP/probe.err")"
	skip_rest
fi

check '1 MiB frame, perf sampler: >= 95% reach main, each stack exact' '
	fgrecord -o out bigframe 0.6 2>err &&
	wellformed out && symfold out out.folded &&
	set -- $(deepstat out.folded) && echo "total $1 main $2 bad $3" &&
	test "$1" -gt 300 && test $(($2 * 100)) -ge $(($1 * 95)) &&
	test "$3" = 0 &&
	grep_q "from the thread.s live stack" err
'

# Every sample below outer is walked while its thread is stopped: none
# is left truncated, none needs a completion after the thread was let go.
check '1 MiB frame, --sampler ptrace: every sample reaches main, walked while stopped' '
	fgrecord --sampler ptrace -o out bigframe 0.6 2>err &&
	wellformed out && symfold out out.folded &&
	set -- $(deepstat out.folded) && echo "total $1 main $2 bad $3" && cat err &&
	test "$1" -gt 300 && test "$2" = "$1" && test "$3" = 0 &&
	grep_q "read beyond the copy while the thread was stopped" err &&
	! grep -q "live stack" err
'

check '--sampler ptrace --no-stitch: still 100%: nothing is read after the stop' '
	fgrecord --sampler ptrace --no-stitch -o out bigframe 0.5 2>err &&
	wellformed out && symfold out out.folded &&
	set -- $(deepstat out.folded) && echo "total $1 main $2 bad $3" &&
	test "$1" -gt 100 && test "$2" = "$1" && test "$3" = 0 &&
	grep_q "read beyond the copy while the thread was stopped" err
'

# The ptrace sampler reads a process's mappings at its first sample: when
# that sample finds the dynamic linker still searching for libc (here a
# search path of 1200 folders that do not exist), the mappings it sent
# lacked libc, and until their next reading 50 ms later the stacks of
# main ended in [truncated] below it ("pc in no known mapping"): up to 7%
# of them beside CI. A sample in the dynamic linker now has the next one
# read them again. Three rounds: without that, one round in three to
# one in two failed here.
check '--sampler ptrace, a start slow in the dynamic linker: every sample reaches main' '
	LP=$(seq -f /nonexistent/%g 1 1200 | paste -sd: -) &&
	for r in 1 2 3; do
		LP=$LP fgrecord --sampler ptrace --no-stitch -o out$r sh -c "LD_LIBRARY_PATH=\$LP exec bigframe 0.3" 2>err$r &&
		wellformed out$r && symfold out$r out$r.folded &&
		grep -q "_dl_" out$r.folded &&
		set -- $(deepstat out$r.folded) && echo "round $r: total $1 main $2 bad $3" &&
		test "$1" -gt 100 && test "$2" = "$1" && test "$3" = 0 || exit 1
	done
'

check '--no-stitch: the same stacks end in [truncated], and it says so' '
	fgrecord --no-stitch -o out bigframe 0.5 2>err &&
	wellformed out && symfold out out.folded &&
	set -- $(deepstat out.folded) && echo "total $1 main $2 bad $3" &&
	test "$1" -gt 100 && test $(($2 * 100)) -le $(($1 * 5)) &&
	! grep -q "live stack" err &&
	grep_q "of the stacks stopped where the stack copy ran out: without --no-stitch they are completed" err
'

p=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || [ "$p" -gt 2 ]; then
	skip 'live stack refused: truncated, exit 0, the cause and the fix named' "needs root and setpriv to drop privilege, and kernel.perf_event_paranoid <= 2 (it is $p)"
	skip 'live stack refused, frame pointers: completed from the kernel chain' "needs root and setpriv to drop privilege, and kernel.perf_event_paranoid <= 2 (it is $p)"
else
	for_nobody "$TOP/bin/fgrecord" "$B/bigframe" "$B/bigframe_fp"
	chmod a+rx "$TMP" "$B"
	check 'live stack refused: truncated, exit 0, the cause and the fix named' '
		setpriv --reuid=65534 --regid=65534 --clear-groups "$NOBODY/bin/fgrecord" "$NOBODY/bigframe" 0.5 nodump >out 2>err &&
		wellformed out && symfold out out.folded &&
		set -- $(deepstat out.folded) && echo "total $1 main $2 bad $3" &&
		test "$1" -gt 100 && test $(($2 * 100)) -le $(($1 * 5)) &&
		grep_q "reading the live stack was refused (Permission denied: " err &&
		grep_q "force-frame-pointers=yes" err
	'
	check 'live stack refused, frame pointers: completed from the kernel chain' '
		setpriv --reuid=65534 --regid=65534 --clear-groups "$NOBODY/bin/fgrecord" "$NOBODY/bigframe_fp" 0.5 nodump >out 2>err &&
		wellformed out && symfold out out.folded &&
		set -- $(deepstat out.folded) && echo "total $1 main $2 bad $3" &&
		test "$1" -gt 100 && test $(($2 * 100)) -ge $(($1 * 95)) && test "$3" = 0 &&
		grep_q " from frame pointers" err && ! grep -q "live stack" err
	'
fi

if ! command -v rustc >/dev/null; then
	skip 'Rust, 1 MiB frame: >= 95% reach main with each sampler' 'no rustc (install Rust with rustup)'
elif ! rustc -C opt-level=2 -g -o "$B/bigframe_rs" "$TESTS/record/bigframe.rs" 2>"$B/rs.err"; then
	skip 'Rust, 1 MiB frame: >= 95% reach main with each sampler' "rustc cannot build tests/record/bigframe.rs: $(head -3 "$B/rs.err")"
else
	check 'Rust, 1 MiB frame: >= 95% reach main with each sampler' '
		fgrecord -o out bigframe_rs 0.6 >/dev/null 2>err &&
		wellformed out && symfold out out.folded &&
		set -- $(deepstat out.folded bigframe::) && echo "perf: total $1 main $2 bad $3" &&
		test "$1" -gt 300 && test $(($2 * 100)) -ge $(($1 * 95)) && test "$3" = 0 &&
		fgrecord --sampler ptrace -o out2 bigframe_rs 0.6 >/dev/null 2>err2 &&
		wellformed out2 && symfold out2 out2.folded &&
		set -- $(deepstat out2.folded bigframe::) && echo "ptrace: total $1 main $2 bad $3" && cat err2 &&
		test "$1" -gt 300 && test "$2" = "$1" && test "$3" = 0
	'
fi

if ! command -v cargo >/dev/null; then
	skip 'cargo fg on a crate with a 1 MiB frame: main on >= 95%' 'no cargo (install Rust with rustup)'
else
	check 'cargo fg on a crate with a 1 MiB frame: main on >= 95%' '
		mkdir -p crate/src && cp "$TESTS/record/bigframe.rs" crate/src/main.rs &&
		printf "[package]\nname = \"bigframe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n" >crate/Cargo.toml &&
		(cd crate && "$TOP/scripts/cargo-fg" fg --offline -o ../bf.svg -- 0.6 >../out 2>../err) &&
		grep_q "from the thread.s live stack" err &&
		t=$(sed -n "s/.*<title>bigframe::main (\([0-9]*\) samples, \([0-9]*\)\..*/\2/p" bf.svg) &&
		echo "bigframe::main on $t% of the samples" && test "$t" -ge 95
	'
fi

done_testing
