#!/bin/sh
# t420-perfdata: fgsym reads perf.data (issue 25). Real `perf record`
# recordings of programs built here: -g (t419, quick), --call-graph dwarf, -z, pipe mode
# (-o -), -a with kernel frames, two events, a multi-threaded C program and
# the Rust example alloc-loop. On each, fgsym's samples per event and per
# thread are perf script's, and fgsym names each frame as perf script
# does, sample by sample: frames.awk compares them by fgsym's naming
# rules, exact where the names are the files', frames in the vDSO, the
# loader or nothing counted apart (and 99% of the folded weight is named
# as stackcollapse-perf.pl does, with FLAMEGRAPH_DIR set). Both sides leave
# inlined frames out (--no-inline), so that what is compared is the
# reader: its samples, its stacks, its file names. DWARF recordings reach
# main. A binary rebuilt after the recording is refused as fgsym refuses
# it in a stream; a copy in perf's build-ID cache (~/.debug) is used
# instead, and a stream of fgrecord's finds it there too.
# serial
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 21
. "$TESTS/perfdata/rec.sh"

cases="dwarf z pipe sys events threads rust"

skip_cache() {
	skip "a binary rebuilt after the recording is refused" "$1"
	skip "a rebuilt binary is found in the build-ID cache" "$1"
	skip "a binary gone from its path is found in the build-ID cache" "$1"
	skip "fgrecord's stream: a rebuilt binary is found in the build-ID cache" "$1"
}
skip_all() {
	for c in $cases; do skip_each "$c" "$1"; done
	skip "dwarf: the stacks reach main" "$1"
	skip "sys: kernel frames are named" "$1"
	skip_cache "$1"
	skip_rest
}
rec_setup

# -g: its two checks are t419's (make check runs them); the recording is
# cargo fg --perfdata's below.
rec g -g -- "$FIX/work" 0.3
if recorded dwarf "" suffix --call-graph dwarf -- "$FIX/work" 0.3; then
	# Of the samples in the program's own functions, 99% reach main.
	check "dwarf: the stacks reach main" '
		{ fgfold "$FIX/dwarf.got" >got.f 2>err; test $? -le 1; } &&
		awk "/;(outer|middle|leaf_mix|leaf_add)(;| )/ { n += \$NF; if (/;main;/) m += \$NF }
		    END { printf \"%d of %d reach main\\n\", m, n; exit !(n > 100 && m >= 0.99 * n) }" got.f
	'
else
	skip "dwarf: the stacks reach main" "$why"
fi
recorded z "" "" -z -g -- "$FIX/work" 0.3 1
recorded pipe "" "" -g -o - -- "$FIX/work" 0.3 1
# The program runs under a name of this run's own: a busy machine may run
# another program called work (another test suite) that -a records too.
share_comm=sys$$
cp "$FIX/work" "$FIX/$share_comm"
if recorded sys "" "" -a -g -- "$FIX/$share_comm" 0.3; then
	check "sys: kernel frames are named" '
		n=$(grep -c "^	.* (\[kernel.kallsyms\])\$" "$FIX/sys.got"; :) &&
		u=$(grep -c "^	.* \[unknown\] (\[kernel.kallsyms\])\$" "$FIX/sys.got"; :) &&
		echo "$u of $n kernel frames unnamed" &&
		test "$n" -gt 0 && test "$u" -le $((n / 100))
	'
else
	skip "sys: kernel frames are named" "$why"
fi
share_comm=
recorded events "cpu-clock task-clock" "" -e cpu-clock,task-clock -g -- "$FIX/work" 0.3
recorded threads "" "" -g -- "$FIX/work" 0.2 4

# The Rust example, built as examples/run builds it, recorded as
# cargo-flamegraph records (DWARF).
if command -v rustc >/dev/null 2>&1; then
	src=$TOP/examples/alloc-loop/rust
	rf="--edition 2021 -C opt-level=2 -C debuginfo=2"
	if rustc $rf --crate-type lib --crate-name alloc_loop \
	    -o "$FIX/liballoc_loop.rlib" "$src/src/lib.rs" 2>"$FIX/rustc.log" &&
	    rustc $rf --crate-name before --extern "alloc_loop=$FIX/liballoc_loop.rlib" \
	    -o "$FIX/alloc-loop" "$src/src/bin/before.rs" 2>>"$FIX/rustc.log"; then
		recorded rust "" suffix --call-graph dwarf -- "$FIX/alloc-loop" 100000
	else
		skip_each rust "rustc failed: $(head -1 "$FIX/rustc.log")"
	fi
else
	skip_each rust "rustc not found (Debian: apt-get install rustc)"
fi

# cargo fg --perfdata: an existing perf.data drawn with the graph
# options, nothing built, neither cargo nor perf run (stand-ins on PATH
# leave a marker if they are).
if [ -s "$FIX/g.data" ]; then
	check "cargo fg --perfdata FILE: the SVG, without cargo or perf" '
		mkdir stand && for t in cargo perf; do
			printf "#!/bin/sh\ntouch \"%s/ran-%s\"\nexit 1\n" "$PWD" $t >stand/$t &&
			chmod 755 stand/$t || exit 1
		done &&
		expect_status 0 env PATH="$PWD/stand:$PATH" CARGO="$PWD/stand/cargo" \
		    "$TOP/scripts/cargo-fg" fg --perfdata "$FIX/g.data" -o out.svg \
		    --title "t420 graph" -i >out 2>err &&
		test ! -e ran-cargo && test ! -e ran-perf &&
		head -c 300 out.svg | grep -q "<svg" &&
		grep_q "t420 graph" out.svg && grep_q "leaf_mix" out.svg &&
		grep_q "^cargo fg: wrote out.svg ([0-9]* samples)$" err && grep_q "^cargo fg: the widest leaf functions:$" err && ! grep -v "^fgsym: \|^cargo fg: \|^ \|^[0-9]* samples of " err &&
		grep -A5 "widest leaf" err | grep -q " leaf_mix\$" &&
		expect_status 2 "$TOP/scripts/cargo-fg" fg --perfdata "$FIX/g.data" --bin x 2>err &&
		grep_q "builds nothing" err &&
		expect_status 2 "$TOP/scripts/cargo-fg" fg --perfdata nosuch.data 2>err &&
		grep_q "^cargo fg: --perfdata: cannot read .nosuch.data." err
	'
else
	skip "cargo fg --perfdata FILE: the SVG, without cargo or perf" "no recording"
fi

# The build-ID cache. perf record keeps a copy of work in $HOME/.debug;
# work is then rebuilt (-O1: another build ID) at the same path.
# named STREAM: fgsym named work's frames; none stays [unknown].
named() {
	grep_q " leaf_mix+0x[0-9a-f]* ($CACHE/work)\$" "$1" &&
	! grep -q " \[unknown\] ($CACHE/work)\$" "$1"
}
CACHE=$TMP/cache
mkdir -p "$CACHE/home" "$CACHE/nohome"
export CACHE
if $CC -O2 -g -fno-omit-frame-pointer -pthread "$PD/work.c" -o "$CACHE/work" &&
    HOME=$CACHE/home perf record -q -g -o "$CACHE/perf.data" "$CACHE/work" 0.2 \
    >"$CACHE/rec.log" 2>&1 &&
    $CC -O1 -g -fno-omit-frame-pointer -pthread "$PD/work.c" -o "$CACHE/work"; then
	check "a binary rebuilt after the recording is refused" '
		{ HOME=$CACHE/nohome fgsym "$CACHE/perf.data" >out 2>err; test $? -le 1; } &&
		grep_q "^fgsym: .$CACHE/work. was rebuilt after the .*(build ID [0-9a-f]*, .*[0-9a-f]*): its frames .* \[unknown\]; record .*again\$" err &&
		grep_q "^	.* \[unknown\] (" out &&
		! grep -q " leaf_mix+0x[0-9a-f]* ($CACHE/work)\$" out
	'
	check "a rebuilt binary is found in the build-ID cache" '
		expect_status 0 env HOME=$CACHE/home fgsym "$CACHE/perf.data" >out 2>err &&
		grep_q "^fgsym: .$CACHE/work. was rebuilt after the recording: its frames are named from the recorded build.s copy in perf.s build-ID cache, .$CACHE/home/.debug/.build-id/[0-9a-f][0-9a-f]/[0-9a-f]*/elf.\$" err &&
		named out
	'
	check "a binary gone from its path is found in the build-ID cache" '
		cp "$CACHE/work" work.new && rm "$CACHE/work" &&
		{ expect_status 0 env HOME=$CACHE/home fgsym "$CACHE/perf.data" >out 2>err; st=$?; } &&
		mv work.new "$CACHE/work" && test $st = 0 &&
		grep_q "^fgsym: .$CACHE/work. is gone: its frames are named from the recorded build.s copy" err &&
		named out
	'
else
	skip_cache "perf record failed: $(head -1 "$CACHE/rec.log")"
	CACHE=
fi
# fgrecord's stream names its binaries' build IDs too: perf
# buildid-cache --add keeps a copy of the build that was recorded.
if [ -n "$CACHE" ]; then
	check "fgrecord's stream: a rebuilt binary is found in the build-ID cache" '
		$CC -O2 -g -fno-omit-frame-pointer -pthread "$PD/work.c" -o "$CACHE/work" &&
		fgrecord -o rec "$CACHE/work" 0.2 2>rec.err &&
		HOME=$PWD/h perf buildid-cache --add "$CACHE/work" &&
		$CC -O1 -g -fno-omit-frame-pointer -pthread "$PD/work.c" -o "$CACHE/work" &&
		expect_status 0 env HOME=$PWD/h fgsym rec >out 2>err &&
		grep_q "was rebuilt after the recording: its frames are named from the recorded build.s copy in perf.s build-ID cache, .$PWD/h/.debug/" err &&
		named out &&
		HOME=$PWD/none fgsym rec >out2 2>err2 &&
		grep_q "was rebuilt after the recording (build ID" err2
	'
fi
done_testing
