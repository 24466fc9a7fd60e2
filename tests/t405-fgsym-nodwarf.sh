#!/bin/sh
# t405-fgsym-nodwarf: a release build without DWARF (Cargo's debug =
# false with its symbols kept, C without -g) loses its inlined functions:
# fgsym says so by default, once per file that matters, with the fix, and
# fgrecord says it at the end of the recording. A build with DWARF, a file
# on few samples and a stripped file (which has its own line) get no such
# line. FG_TEST_BIN: a directory of other tools to try (e.g. an older
# build's bin/).
. "$(dirname "$0")/lib.sh"
plan 14
[ -n "${FG_TEST_BIN:-}" ] && PATH=$FG_TEST_BIN:$PATH && export PATH

FIX=$TMP/fix
mkdir -p "$FIX"
CC=${CC:-cc}
$CC -O2 -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl-nog" 2>"$FIX/cc.log"
$CC -O2 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl" 2>>"$FIX/cc.log"
$CC -O2 -I"$TESTS/record" "$TESTS/record/hot.c" -o "$FIX/hot-nog" 2>>"$FIX/cc.log"
$CC -O2 -g -I"$TESTS/record" "$TESTS/record/hot.c" -o "$FIX/hot" 2>>"$FIX/cc.log"
$CC -O2 -g -fPIC -shared "$TESTS/sym/launch_lib.c" -o "$FIX/libwork.so" 2>>"$FIX/cc.log"
$CC -O2 "$TESTS/sym/launch.c" -o "$FIX/launch" -L"$FIX" -lwork -Wl,-rpath,"$FIX" 2>>"$FIX/cc.log"
cp "$FIX/launch" "$FIX/launch-s" && strip "$FIX/launch-s" 2>>"$FIX/cc.log"
export FIX

check 'fixtures build' '
	{ test -x "$FIX/inl-nog" && test -x "$FIX/inl" && test -x "$FIX/hot" &&
	  test -x "$FIX/hot-nog" || { cat "$FIX/cc.log"; false; }; } &&
	! readelf -SW "$FIX/inl-nog" | grep -q "\.debug_info"
'

check 'C without -g: one line naming the file, inlined calls and -g; exit 0' '
	"$FIX/inl-nog" v >in &&
	expect_status 0 fgsym in >out 2>err &&
	cat err &&
	echo "fgsym: '\''$FIX/inl-nog'\'' has no DWARF debug info: its inlined functions are drawn as their callers, on 100.0% of the samples; rebuild it with -g" >expect &&
	grep "DWARF" err >actual &&
	test_cmp expect actual &&
	test "$(wc -l <err)" = 2 &&
	grep_q "^fgsym: resolved all [0-9]* frames\$" err
'

check 'the line is said once per file, over two streams and many samples' '
	"$FIX/inl-nog" v >one &&
	sed 1,2d one >body &&
	{ cat one; for i in 1 2 3 4 5 6 7 8 9; do cat body; done; } >in &&
	expect_status 0 fgsym in in >out 2>err &&
	test "$(grep -c "inl-nog. has no DWARF" err)" = 1
'

check 'C with -g: no such line' '
	"$FIX/inl" v >in &&
	expect_status 0 fgsym in >out 2>err &&
	! grep -q "DWARF" err &&
	test "$(wc -l <err)" = 1
'

# A PLT stub is the linker's: no compiler describes it in DWARF, so a
# sample there is no sign of a build without -g (make demo's program,
# built with -g, was told to rebuild with -g for its free@plt and
# malloc@plt samples). Every sample's leaf is moved into the PLT here.
check 'C with -g, samples in its PLT stubs: no such line' '
	plt=$(readelf -SW "$FIX/inl" | sed -n "s/.* \.plt  *PROGBITS  *0*\([0-9a-f]*\) .*/\1/p") &&
	test -n "$plt" && at=$(printf %x $((0x$plt + 20))) &&
	"$FIX/inl" v | awk -v p="$FIX/inl" -v at="$at" "/cpu-clock:\$/ { print; getline
		printf \"\\t            %s [unknown] (%s)\\n\", at, p; print; next } { print }" >in &&
	expect_status 0 fgsym in >out 2>err &&
	cat err && grep_q "@plt+0x4 " out &&
	! grep -q "DWARF" err
'

check 'a file on 0.5% of the samples: no line (with --srcline: said)' '
	"$FIX/inl" v >g && sed 1,2d g >gbody &&
	"$FIX/inl-nog" v | sed 1,2d >nbody &&
	{ cat g; i=1; while [ $i -lt 200 ]; do cat gbody; i=$((i + 1)); done; cat nbody; } >in &&
	test "$(grep -c "cpu-clock" in)" = 201 &&
	expect_status 0 fgsym in >out 2>err &&
	! grep -q "DWARF" err &&
	expect_status 0 fgsym --srcline in >out 2>err &&
	grep_q "^fgsym: .$FIX/inl-nog. has no DWARF debug info: its inlined functions are drawn as their callers, with no source lines, on 0.5% of the samples; rebuild it with -g\$" err
'

check 'a stripped file: its own line only, never two' '
	cp "$FIX/inl-nog" app && strip app &&
	"$FIX/inl-nog" v | sed "s|($FIX/inl-nog)|($PWD/app)|" >in &&
	expect_status 0 fgsym in >out 2>err &&
	grep_q "^fgsym: .$PWD/app. is stripped, on 100.0% of the samples: rebuild it with -g and without -s or strip\$" err &&
	! grep -q "DWARF" err
'

check '--no-inline: nothing looked for, nothing said' '
	"$FIX/inl-nog" v >in &&
	expect_status 0 fgsym --no-inline in >out 2>err &&
	! grep -q "DWARF" err
'

# fgrecord's end, on a real recording: hot spins in CPU time.
check 'fgrecord, C without -g: the end of the recording names the file' '
	expect_status 0 fgrecord -o rec "$FIX/hot-nog" 0.3 2>err &&
	cat err &&
	grep_q "^fgrecord: no DWARF debug info in .$FIX/hot-nog. ([0-9.]*% of the samples): fgsym will draw its inlined functions as their callers; build with debug info (C and C++: -g), or install a Debian file.s -dbgsym package\$" err &&
	test "$(grep -c "DWARF" err)" = 1 &&
	expect_status 0 fgsym rec >out 2>serr &&
	test "$(grep -c "hot-nog. has no DWARF debug info: .* rebuild it with -g\$" serr)" = 1
'

check 'fgrecord, C with -g: no such line' '
	expect_status 0 fgrecord -o rec "$FIX/hot" 0.3 2>err &&
	cat err &&
	grep_q "^fgrecord: [0-9]* samples" err &&
	! grep -q "DWARF" err &&
	expect_status 0 fgsym rec >out 2>serr &&
	! grep -q "DWARF" serr
'

check 'fgrecord -q: no line' '
	expect_status 0 fgrecord -q -o rec "$FIX/hot-nog" 0.1 2>err &&
	! grep -q "DWARF" err
'

# A launcher (issue 34): all its time is in libwork.so, which has DWARF;
# the program itself has none, or is stripped. It is on every stack, but
# its own code is sampled on none: neither fgrecord nor fgsym blames it;
# the stripped one is counted in the line of the files under 1%.
check 'a launcher whose time is in a library with DWARF is not blamed' '
	{ test -x "$FIX/launch" && test -x "$FIX/launch-s" || { cat "$FIX/cc.log"; false; }; } &&
	expect_status 0 fgrecord -o rec "$FIX/launch" 0.3 2>err &&
	cat err &&
	! grep -q "DWARF" err &&
	expect_status 0 fgsym rec >out 2>serr &&
	cat serr &&
	! grep -q "DWARF\|stripped" serr &&
	expect_status 0 fgrecord -o rec2 "$FIX/launch-s" 0.3 2>err2 &&
	! grep -q "DWARF" err2 &&
	expect_status 0 fgsym rec2 >out2 2>serr2 &&
	cat serr2 &&
	! grep -q "launch-s. is stripped" serr2 &&
	grep_q "^fgsym: [0-9]* stripped files\? under 1% of the samples\$" serr2
'

# The seed's Rust program (tests/cargo-fixture), built offline by Cargo
# with and without debug info.
if ! command -v cargo >/dev/null 2>&1; then
	skip_rest 'Rust release builds: cargo not found (Debian: apt-get install cargo)'
fi
cp -r "$TESTS/cargo-fixture" "$TMP/crate"
for d in false true; do
	(cd "$TMP/crate" && CARGO_TARGET_DIR=$TMP/target-$d CARGO_NET_OFFLINE=true \
	    CARGO_PROFILE_RELEASE_DEBUG=$d cargo build --release --bin spin) \
	    >"$FIX/cargo-$d.log" 2>&1
done
export RS=$TMP/target-false/release/spin RSG=$TMP/target-true/release/spin

check 'Rust release build, CARGO_PROFILE_RELEASE_DEBUG=false: fgrecord and fgsym say it' '
	{ test -x "$RS" || { cat "$FIX/cargo-false.log"; false; }; } &&
	readelf -SW "$RS" | grep -q " .symtab " &&
	expect_status 0 fgrecord -o rec "$RS" 150 >/dev/null 2>err &&
	cat err &&
	grep_q "^fgrecord: no DWARF debug info in .$RS. ([0-9.]*% of the samples[^)]*): fgsym will draw its inlined functions as their callers; build with debug info (Cargo: \[profile.release\] debug = true, or CARGO_PROFILE_RELEASE_DEBUG=true), or install .*\$" err &&
	expect_status 0 fgsym rec >out 2>serr &&
	cat serr &&
	test "$(grep -c "DWARF" serr)" = 1 &&
	grep_q "^fgsym: .$RS. has no DWARF debug info\(.*\)\?: its inlined functions are drawn as their callers, on [0-9.]*% of the samples; build it with \[profile.release\] debug = true (or CARGO_PROFILE_RELEASE_DEBUG=true)\$" serr &&
	grep_q "spin::crunch" out
'

check 'Rust release build with debug = true: no such line' '
	{ test -x "$RSG" || { cat "$FIX/cargo-true.log"; false; }; } &&
	expect_status 0 fgrecord -o rec "$RSG" 150 >/dev/null 2>err &&
	! grep -q "DWARF" err &&
	expect_status 0 fgsym rec >out 2>serr &&
	cat serr &&
	! grep -q "DWARF" serr
'
done_testing
