#!/bin/sh
# t610-cargo-fg: `cargo fg` on the std-only crate tests/cargo-fixture,
# built offline: it builds release with debug info without touching
# Cargo.toml (a binary, an example, an integration test, a benchmark),
# records, writes the SVG, names the widest leaf functions,
# passes fgrecord's explanation on unchanged, and checks its arguments.
. "$(dirname "$0")/lib.sh"
CFG=$TOP/scripts/cargo-fg

# Argument checks: they need no cargo.
check "cargo fg refuses a debug build, and says why" '
	expect_status 2 "$CFG" fg --dev 2>err &&
	grep_q "always profiles the release build; a debug build.s profile misleads" err
'
check "cargo fg: unknown option and stray argument are usage errors" '
	expect_status 2 "$CFG" fg --frobnicate 2>err &&
	grep_q "unknown option .--frobnicate." err &&
	expect_status 2 "$CFG" fg --bin spin 10 2>err &&
	grep_q "put the program.s arguments after .--." err &&
	expect_status 2 "$CFG" fg --bin 2>err &&
	grep_q "option .--bin. needs a value" err
'
if ! command -v cargo >/dev/null 2>&1; then
	skip "cargo fg" "cargo not found (Debian: apt-get install cargo)"
	done_testing
	exit 0
fi
# One target directory for every check, so the crate is built once.
export CARGO_TARGET_DIR=$TMP/target CARGO_NET_OFFLINE=true
# A private copy of the crate: cargo writes Cargo.lock beside Cargo.toml.
cp -r "$TESTS/cargo-fixture" "$TMP/crate"
cp "$TESTS/cargo-fixture/Cargo.toml" "$TMP/Cargo.toml.orig"

# A stand-in for fgrecord where perf_event_open is denied, with the real
# fgsym, fgfold and fgsvg.
mkdir -p "$TMP/denied"
cat >"$TMP/denied/fgrecord" <<'EOS'
#!/bin/sh
echo "fgrecord: perf_event_open: Permission denied; kernel.perf_event_paranoid is 4: run 'sudo sysctl kernel.perf_event_paranoid=1'" >&2
exit 2
EOS
chmod +x "$TMP/denied/fgrecord"
for t in fgsym fgfold fgsvg; do ln -s "$TOP/bin/$t" "$TMP/denied/$t"; done

if perf_ok; then
	check "cargo fg --bin spin: SVG, spin::crunch in the top three, debug info, Cargo.toml untouched" '
		cd "$TMP/crate" &&
		"$CFG" fg --bin spin -o "$OLDPWD/out.svg" -- 40 >"$OLDPWD/out" 2>"$OLDPWD/err" ||
			{ cat "$OLDPWD/out" "$OLDPWD/err"; false; } &&
		cd "$OLDPWD" &&
		cat err &&
		grep_q "^spin: [0-9a-f]*\$" out &&
		grep_q "CARGO_PROFILE_RELEASE_DEBUG=true (for this build only; Cargo.toml is not changed)" err &&
		grep_q "wrote .*out.svg ([0-9]* samples); the widest leaf functions:" err &&
		sed -n "/widest leaf functions/,\$p" err >top &&
		# Three rows, and spin::crunch among them (its own inlined
		# callees may take some of its self samples, depending on rustc).
		[ "$(sed -n "4,\$p" top | grep -c "%.*%")" = 3 ] &&
		sed -n "4,6p" top | grep -q " spin::crunch\$" ||
			{ echo "spin::crunch is not among the widest leaves:"; cat top; false; } &&
		head -c 300 out.svg | grep -q "<svg" &&
		grep_q "spin::crunch" out.svg &&
		cmp "$TMP/Cargo.toml.orig" "$TMP/crate/Cargo.toml" &&
		readelf -S "$CARGO_TARGET_DIR/release/spin" | grep -q "\.debug_info"
	'
	check "cargo fg passes the program exit status on, and still draws" '
		cd "$TMP/crate" &&
		expect_status 3 "$CFG" fg --bin=spin -o "$OLDPWD/out.svg" -F 499 -- 20 3 >/dev/null 2>"$OLDPWD/err" &&
		cd "$OLDPWD" &&
		grep_q "recording: fgrecord -F 499 -- .*/spin 20 3\$" err &&
		grep_q "'\''spin'\'' exited with status 3; drawing what was recorded" err &&
		grep_q "spin::crunch" out.svg
	'
	check "cargo fg --open hands the SVG to \$BROWSER" '
		printf "#!/bin/sh\necho \"\$1\" >\"%s/opened\"\n" "$PWD" >browser &&
		chmod +x browser &&
		cd "$TMP/crate" &&
		BROWSER=$OLDPWD/browser "$CFG" fg --bin spin -F 199 -o "$OLDPWD/x.svg" --open -- 5 \
			>/dev/null 2>"$OLDPWD/err" &&
		cd "$OLDPWD" &&
		n=0 && while ! [ -s opened ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done &&
		echo "$PWD/x.svg" >expect &&
		test_cmp expect opened
	'
	check "cargo fg --example short: a run too short for a sample says so, exit 1" '
		cd "$TMP/crate" &&
		expect_status 1 "$CFG" fg --example short -F 1 -o "$OLDPWD/out.svg" >/dev/null 2>"$OLDPWD/err" &&
		cd "$OLDPWD" &&
		grep_q "has no samples: .short. ran for less than one sampling period" err &&
		head -c 300 out.svg | grep -q "<svg"
	'
	check "cargo fg --test heavy: the integration test's own executable, its hot function" '
		cd "$TMP/crate" &&
		"$CFG" fg --test heavy -o "$OLDPWD/t.svg" >"$OLDPWD/out" 2>"$OLDPWD/err" ||
			{ cat "$OLDPWD/err"; false; } &&
		cd "$OLDPWD" &&
		grep_q "recording: fgrecord -- .*/deps/heavy-[0-9a-f]*\$" err &&
		grep_q "wrote .*t.svg ([0-9]* samples)" err &&
		grep_q "heavy::grind" t.svg &&
		readelf -S "$(sed -n "s/.*recording: fgrecord -- //p" err)" | grep -q "\.debug_info"
	'
	check "cargo fg --bench churn: run with --bench, as cargo bench runs it, arguments after" '
		cd "$TMP/crate" &&
		"$CFG" fg --bench=churn -o "$OLDPWD/b.svg" -- extra >"$OLDPWD/out" 2>"$OLDPWD/err" ||
			{ cat "$OLDPWD/err"; false; } &&
		cd "$OLDPWD" &&
		grep_q "recording: fgrecord -- .*/deps/churn-[0-9a-f]* --bench extra\$" err &&
		! grep -q "exited with status" err &&
		grep_q "churn::churn" b.svg
	'
	check "cargo fg: Ctrl-C stops the program, the SVG is still drawn" '
		# In the crate, in a process group of its own, with SIGINT at its
		# default (a background job of a script starts with it ignored).
		perl -e '\''chdir shift or die "chdir: $!"; $SIG{INT} = "DEFAULT";
			setpgrp(0, 0); exec @ARGV or die "exec: $!"'\'' "$TMP/crate" \
			"$CFG" fg --bin spin -o "$PWD/out.svg" -- 2000 >out 2>err &
		pid=$! &&
		n=0 && while ! grep -q "recording:" err && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done &&
		sleep 1.5 && kill -INT -$pid &&
		{ st=; wait $pid; st=$?; } ; cat err &&
		[ "$st" = 130 ] &&
		grep_q "interrupted: .spin. exited with status 130; drawing what was recorded" err &&
		grep_q "spin::crunch" out.svg
	'
else
	skip "cargo fg records spin" "$why"
	skip "cargo fg: Ctrl-C" "$why"
	skip "cargo fg --open" "$why"
	skip "cargo fg passes the exit status on" "$why"
	skip "cargo fg --example short" "$why"
	skip "cargo fg --test heavy" "$why"
	skip "cargo fg --bench churn" "$why"
fi

check "cargo fg without perf_event_open: passes fgrecord's explanation on, unchanged" '
	cd "$TMP/crate" &&
	expect_status 2 env FG_BIN="$TMP/denied" "$CFG" fg --bin spin -o "$OLDPWD/out.svg" >/dev/null 2>"$OLDPWD/err" &&
	cd "$OLDPWD" &&
	grep -qx "fgrecord: perf_event_open: Permission denied; kernel.perf_event_paranoid is 4: run '\''sudo sysctl kernel.perf_event_paranoid=1'\''" err ||
		{ cat err; false; } &&
	grep_q "nothing was recorded" err &&
	! [ -e out.svg ]
'
check "cargo fg with two binaries and no --bin asks for one" '
	cd "$TMP/crate" &&
	expect_status 2 "$CFG" fg 2>"$OLDPWD/err" &&
	cd "$OLDPWD" &&
	grep_q "several executables (.*spin.*): pick one with --bin NAME or --example NAME" err
'
check "cargo fg: a build error stops it before recording" '
	mkdir -p bad/src &&
	printf "[package]\nname = \"bad\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n" >bad/Cargo.toml &&
	echo "fn main() { nope }" >bad/src/main.rs &&
	cd bad &&
	expect_status 2 "$CFG" fg 2>err &&
	grep_q "cargo build failed" err &&
	! grep -q "recording:" err
'
done_testing
