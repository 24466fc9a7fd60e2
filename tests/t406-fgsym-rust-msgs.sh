#!/bin/sh
# t406-fgsym-rust-msgs: the messages for a Rust build without debug info
# or symbols name the right cause (issue 40). Code of Rust's prebuilt
# standard library without DWARF in a binary built with it is named as
# such and not blamed on the crate; a flag that drops the debug info or
# strips the binary in RUSTFLAGS, CARGO_ENCODED_RUSTFLAGS or
# .cargo/config.toml is named with its place; under cargo fg the advice
# names the profile built (FG_CARGO_PROFILE), never [profile.release]
# under --dev; and cargo fg says such a flag before it builds. Debian's
# rustc builds std with debug info: there, std is never said to lack it.
# FG_TEST_BIN: a directory of other tools to try (an older build's bin/).
. "$(dirname "$0")/lib.sh"
plan 13
[ -n "${FG_TEST_BIN:-}" ] && PATH=$FG_TEST_BIN:$PATH && export PATH

if ! command -v rustc >/dev/null 2>&1; then
	skip 'Rust messages' 'rustc not found (Debian: apt-get install rustc)'
	skip_rest
fi
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS FG_CARGO_PROFILE
FIX=$TMP/fix
mkdir -p "$FIX"
# With debug info; without (rustc alone keeps std's units); stripped.
rustc -O -C debuginfo=2 "$TESTS/sym/rsbt.rs" -o "$FIX/bt" >"$FIX/rustc.log" 2>&1
rustc -O -C debuginfo=0 "$TESTS/sym/rsbt.rs" -o "$FIX/bt0" >>"$FIX/rustc.log" 2>&1
rustc -O -C strip=symbols "$TESTS/sym/rsbt.rs" -o "$FIX/bts" >>"$FIX/rustc.log" 2>&1
rustc -O -C strip=debuginfo "$TESTS/sym/rsbt.rs" -o "$FIX/btn" >>"$FIX/rustc.log" 2>&1
export FIX

check 'fixtures build' '
	{ test -x "$FIX/bt" && test -x "$FIX/bt0" && test -x "$FIX/bts" &&
	  test -x "$FIX/btn" ||
	  { cat "$FIX/rustc.log"; false; }; }
'

# Recordings, made once: fgsym reads each as often as needed.
fgrecord -o "$FIX/rec" "$FIX/bt" 60 >/dev/null 2>"$FIX/rec.err"
fgrecord -o "$FIX/rec0" "$FIX/bt0" 60 >/dev/null 2>"$FIX/rec0.err"
fgrecord -o "$FIX/recs" "$FIX/bts" 60 >/dev/null 2>"$FIX/recs.err"

STD="^fgsym: .$FIX/bt.: Rust's standard library, prebuilt without debug info, is on [0-9.]*% of the samples: its inlined functions are drawn as their callers there; this is how rustup ships it, not your build's doing (cargo +nightly -Z build-std would build it with your settings)\$"
export STD
# Debian's rustc (1.63 in Debian 12) builds its standard library with full
# debug info, its units compiled in /usr/src/rustc-VERSION; rustup's has
# none for the symbolizer's code. fgsym names std's code without DWARF, so
# the line is there with rustup's; with Debian's, on 5% of the samples or
# more it would be wrong (its few functions without DWARF may be under 2%).
if readelf --debug-dump=info "$FIX/bt" 2>/dev/null |
    grep -q "DW_AT_comp_dir.*: /usr/src/rustc-"; then
	STD_DW=1
else
	STD_DW=
fi
# std_named ERR: the line on std's code is in ERR as the build asks.
std_named() {
	if [ -n "$STD_DW" ]; then
		! grep "standard library, prebuilt without debug info, is on \([1-9][0-9]\|[5-9]\)" "$1"
	else
		grep_q "$STD" "$1"
	fi
}

check 'built with debug info: std without DWARF is named, the crate not blamed' '
	expect_status 0 fgsym "$FIX/rec" >out 2>err &&
	cat err &&
	std_named err &&
	! grep -q "has no DWARF" err &&
	! grep -q "profile.release" err &&
	grep_q "own_work" out &&
	cat "$FIX/rec.err" &&
	grep_q "^fgrecord: [0-9]* samples" "$FIX/rec.err" &&
	! grep -q "DWARF" "$FIX/rec.err"
'

check 'the same under cargo fg --dev: no [profile.release] advice' '
	FG_CARGO_PROFILE=dev expect_status 0 fgsym "$FIX/rec" >out 2>err &&
	std_named err &&
	! grep -q "profile.release\|has no DWARF" err
'

check 'the crate without DWARF: the crate line with the fix, std apart' '
	expect_status 0 fgsym "$FIX/rec0" >out 2>err &&
	cat err &&
	grep_q "^fgsym: .$FIX/bt0. has no DWARF debug info for the sampled code (only some of its units have it): its inlined functions are drawn as their callers, on [0-9.]*% of the samples; build it with \[profile.release\] debug = true (or CARGO_PROFILE_RELEASE_DEBUG=true)\$" err
'

check 'under cargo fg --dev: [profile.dev], never [profile.release]' '
	FG_CARGO_PROFILE=dev expect_status 0 fgsym "$FIX/rec0" >out 2>err &&
	cat err &&
	grep_q "^fgsym: .$FIX/bt0. has no DWARF .*; cargo fg built it with \[profile.dev\] debug = true and no strip, and found no flag that undoes them: something else in the build removed its debug info (a build script, a linker wrapper)\$" err &&
	! grep -q "profile.release" err
'

check 'RUSTFLAGS -C debuginfo=0 is named as the cause' '
	RUSTFLAGS="-O -C debuginfo=0" expect_status 0 fgsym "$FIX/rec0" >out 2>err &&
	cat err &&
	grep_q "^fgsym: .$FIX/bt0. has no DWARF .*; RUSTFLAGS sets -C debuginfo=0, which Cargo.s profile settings do not undo: build without it\$" err &&
	! grep -q "debug = true" err &&
	RUSTFLAGS="-C debuginfo=0 -g -Cdebuginfo=none" expect_status 0 fgsym "$FIX/rec0" >out 2>err &&
	grep_q "RUSTFLAGS sets -C debuginfo=none," err &&
	RUSTFLAGS="-C debuginfo=0 -C debuginfo=2" expect_status 0 fgsym "$FIX/rec0" >out 2>err &&
	grep_q "debug = true (or CARGO_PROFILE_RELEASE_DEBUG=true)\$" err
'

check 'CARGO_ENCODED_RUSTFLAGS (0x1f between flags) comes first' '
	CARGO_ENCODED_RUSTFLAGS=$(printf "%s\037%s" -C strip=debuginfo) RUSTFLAGS=-g \
	    expect_status 0 fgsym "$FIX/rec0" >out 2>err &&
	grep_q "; CARGO_ENCODED_RUSTFLAGS sets -C strip=debuginfo, which" err
'

check '.cargo/config.toml rustflags, from here up: the file and its line' '
	mkdir -p proj/.cargo proj/src/deep &&
	printf "%s\n" "# a comment" "[build]" "rustflags = [" "  \"-C\", \"target-cpu=native\"," "  \"-C\", \"debuginfo=0\"," "]" >proj/.cargo/config.toml &&
	(cd proj/src/deep && expect_status 0 fgsym "$FIX/rec0" >out 2>err) &&
	cat proj/src/deep/err &&
	grep_q "; .$PWD/proj/.cargo/config.toml.:5 sets -C debuginfo=0, which" proj/src/deep/err &&
	printf "%s\n" "[target.x86_64-unknown-linux-gnu]" "rustflags = \"-C link-arg=-Wl,--strip-debug\"" >proj/.cargo/config.toml &&
	(cd proj && expect_status 0 fgsym "$FIX/rec0" >out 2>err) &&
	grep_q "config.toml.:2 sets -C link-arg=-Wl,--strip-debug, which" proj/err
'

check 'stripped by RUSTFLAGS: named, not "debug = true and no strip"' '
	RUSTFLAGS="-C strip=symbols" expect_status 0 fgsym "$FIX/recs" >out 2>err &&
	cat err &&
	grep_q "^fgsym: .$FIX/bts. is stripped, on [0-9.]*% of the samples: RUSTFLAGS sets -C strip=symbols, which Cargo.s profile settings do not undo: build without it\$" err &&
	! grep -q "no strip" err &&
	expect_status 0 fgfold out >folded 2>ferr &&
	cat ferr &&
	grep_q "although fgsym was between" ferr &&
	! grep -q "put fgsym between" ferr
'

# perf.data read by fgsym is marked as fgrecord's stream is. Most frames
# are unnamed, for fgfold to speak of, only where std has frame pointers
# to walk (rustup's; not Debian's 1.63, whose chains stop at once).
if command -v perf >/dev/null 2>&1 &&
    perf record -q -g -o "$FIX/p.data" "$FIX/bts" 20 >/dev/null 2>"$FIX/perf.err"; then
	check 'perf.data through fgsym: marked, fgfold blames the files' '
		expect_status 0 fgsym "$FIX/p.data" >out 2>err &&
		test "$(grep -c "^# symbolized : fgsym " out)" = 1 &&
		expect_status 0 fgfold out >folded 2>ferr &&
		{ [ -n "$STD_DW" ] || grep_q "although fgsym was between" ferr; } &&
		! grep -q "put fgsym between" ferr
	'
else
	skip 'perf.data through fgsym: marked, fgfold blames the files' \
	    "perf record failed: $(head -1 "$FIX/perf.err" 2>/dev/null)"
fi

check 'fgrecord names the same cause; std code kept out of its judgement' '
	RUSTFLAGS="-C strip=debuginfo" expect_status 0 fgrecord -o rec "$FIX/btn" 60 >/dev/null 2>err &&
	cat err &&
	grep_q "^fgrecord: no DWARF debug info in .$FIX/btn. .*(Cargo: RUSTFLAGS sets -C strip=debuginfo; build without it)" err &&
	RUSTFLAGS="-C debuginfo=0" expect_status 0 fgrecord -o rec "$FIX/bt0" 60 >/dev/null 2>err &&
	grep_q "^fgrecord: no DWARF debug info in .$FIX/bt0. ([0-9.]*% of the samples; only some of its units have it, none of the sampled code): .*(Cargo: RUSTFLAGS sets -C debuginfo=0; build without it)" err &&
	FG_CARGO_PROFILE=dev expect_status 0 fgrecord -o rec "$FIX/btn" 60 >/dev/null 2>err &&
	grep_q "(Cargo: cargo fg set \[profile.dev\] debug = true, and something else in the build removed it)" err &&
	! grep -q "profile.release" err
'

# cargo fg: a crate of the test's own, std only, built offline.
if ! command -v cargo >/dev/null 2>&1; then
	skip 'cargo fg: RUSTFLAGS strip said before the build and named after' \
	    'cargo not found (Debian: apt-get install cargo)'
	skip 'cargo fg --dev: std named, no [profile.release] advice' \
	    'cargo not found (Debian: apt-get install cargo)'
	skip_rest
fi
mkdir -p "$TMP/crate/src"
printf "%s\n" "[package]" "name = \"rsbt\"" "version = \"0.1.0\"" "edition = \"2021\"" "[workspace]" >"$TMP/crate/Cargo.toml"
cp "$TESTS/sym/rsbt.rs" "$TMP/crate/src/main.rs"
CARGO_FG=$(cd "$TESTS/../scripts" && pwd)/cargo-fg
export CARGO_FG CARGO_NET_OFFLINE=true CARGO_TARGET_DIR=$TMP/target

check 'cargo fg: RUSTFLAGS strip said before the build and named after' '
	here=$PWD &&
	(cd "$TMP/crate" && RUSTFLAGS="-C strip=symbols" expect_status 0 \
	    "$CARGO_FG" -o "$here/g.svg" -- 40 >"$here/out" 2>"$here/err") &&
	cat err &&
	grep_q "^cargo fg: warning: RUSTFLAGS sets -C strip=symbols, which comes after the profile.s debug info and wins" err &&
	test "$(grep -n "RUSTFLAGS sets" err | head -1 | cut -d: -f1)" -lt "$(grep -n "cargo fg: building" err | cut -d: -f1)" &&
	grep_q "^fgsym: .*rsbt. is stripped, on [0-9.]*% of the samples: RUSTFLAGS sets -C strip=symbols" err &&
	! grep -q "put fgsym between\|no strip" err
'

check 'cargo fg --dev: std named, no [profile.release] advice' '
	here=$PWD &&
	(cd "$TMP/crate" && expect_status 0 "$CARGO_FG" --dev -o "$here/g.svg" -- 40 \
	    >"$here/out" 2>"$here/err") &&
	cat err &&
	{ if [ -n "$STD_DW" ]; then ! grep "prebuilt without debug info, is on \([1-9][0-9]\|[5-9]\)" err
	  else grep_q "^fgsym: .*/debug/rsbt.: Rust.s standard library, prebuilt without debug info, is on" err; fi; } &&
	grep_q "^fgsym: .*/debug/rsbt. is a Cargo debug build: .*; profile the release build (cargo fg without --dev)\$" err &&
	! grep -q "profile.release\|has no DWARF\|^cargo fg: warning: .* sets" err
'
done_testing
