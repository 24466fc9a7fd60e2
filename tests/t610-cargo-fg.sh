#!/bin/sh
# t610-cargo-fg: `cargo fg` on the std-only crate tests/cargo-fixture (a
# library with unit tests, two binaries, an example, an integration test,
# a benchmark, a default feature, two custom profiles), built offline: it
# builds with debug info without touching Cargo.toml, records, writes the
# SVG, names the widest leaf functions, passes fgrecord's explanation on
# unchanged, and takes cargo-flamegraph's options with their meaning; each
# option's effect is checked in the SVG or the build directory.
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 43
# FG_TEST_CARGO_FG: another cargo-fg to try the argument checks on.
CFG=${FG_TEST_CARGO_FG:-$TOP/scripts/cargo-fg}

# Argument checks: they need no cargo.
# cargo fg --perfdata draws a perf.data: t420-perfdata.sh.
check "cargo fg --perfdata: a file that is not there is said; --cmd is refused" '
	expect_status 2 "$CFG" fg --perfdata x.data 2>err &&
	grep_q "^cargo fg: --perfdata: cannot read .x.data." err &&
	expect_status 2 "$CFG" fg --cmd "record -g" 2>err &&
	grep_q "no perf command line to change" err
'
check "cargo fg -V and --version print the Makefile VERSION; --help exits 0 on stdout" '
	v=$(sed -n "s/^VERSION[ 	]*= *//p" "$TOP/Makefile") &&
	echo "cargo-fg (fgtools) $v" >want &&
	"$CFG" fg -V >out && test_cmp want out &&
	"$CFG" --version >out && test_cmp want out &&
	"$CFG" fg --help >out 2>err && grep_q "^usage: cargo fg" out && test ! -s err &&
	grep_q "unit-test" out
'
if fgrecord --help 2>&1 | grep -q -e --off-cpu; then
	offcpu=yes
else
	check "cargo fg --off-cpu and --wall: refused while fgrecord lacks them" '
		expect_status 2 "$CFG" fg --off-cpu 2>err &&
		grep_q "this fgrecord does not record that yet" err &&
		expect_status 2 "$CFG" fg --wall 2>err &&
		grep_q "this fgrecord does not record that yet" err
	'
	offcpu=no
fi
# Issue 23 point 5: a profile name reached an unquoted eval. A stand-in
# cargo that records its arguments; ./X would create the marker if the
# shell ever ran it.
check "cargo fg --profile 'x;. ./X;': refused in one line, exit 2, nothing run" '
	printf "#!/bin/sh\ntouch \"%s/marker\"\n" "$PWD" >X && chmod 755 X &&
	printf "#!/bin/sh\nprintf \"%%s\\\\n\" \"\$@\" >\"\$(dirname \"\$0\")/cargo.args\"\n" >cargo &&
	chmod 755 cargo &&
	for p in "x;. ./X;" "x\$(./X)" "x\`./X\`" "-x" "1x" "x y" ""; do
		expect_status 2 env CARGO="$PWD/cargo" "$CFG" fg --profile "$p" 2>err &&
		test ! -e marker && test ! -e cargo.args &&
		test "$(wc -l <err)" = 1 &&
		grep_q "^cargo fg: --profile: .* is not a profile name: cargo.s are letters, digits" err &&
		expect_status 2 env CARGO="$PWD/cargo" "$CFG" fg "--profile=$p" 2>err &&
		test ! -e marker && test "$(wc -l <err)" = 1 || { echo "profile: $p"; cat err; exit 1; }
	done
'
check "cargo fg: names and values reach cargo as they are, never evaluated" '
	{ printf "#!/bin/sh\ntouch \"%s/marker\"\n" "$PWD" >X && chmod 755 X &&
	printf "#!/bin/sh\nprintf \"%%s\\\\n\" \"\$@\" >\"\$(dirname \"\$0\")/cargo.args\"\nenv | grep ^CARGO_PROFILE_ | sort >\"\$(dirname \"\$0\")/cargo.env\"\n" >cargo &&
	chmod 755 cargo &&
	expect_status 2 env CARGO="$PWD/cargo" "$CFG" fg --profile my-prof_1 --bin "a;. ./X;b" \
		--features "\$(./X) \`./X\`" -p "x'"'"'y" 2>err &&
	test ! -e marker &&
	grep_q "the build made no executable" err &&
	grep -qx -e "--profile" cargo.args && grep -qx "my-prof_1" cargo.args &&
	grep -qx "a;. ./X;b" cargo.args &&
	grep -qx -e "\$(./X) \`./X\`" cargo.args && grep -qx "x'"'"'y" cargo.args &&
	grep -qx "CARGO_PROFILE_MY_PROF_1_DEBUG=true" cargo.env || { cat err cargo.args cargo.env; false; }; }
'
check "cargo fg --runs, --save, --compare, --against: usage errors in one line, exit 2" '
	for a in "--runs 3" "--fail-slower=2" "--save a --compare b" "--save a --against HEAD" \
	    "--runs 0 --save a" "--runs x --save a" "--save a/b" "--save current" "--compare against" "--save compare.tsv" "--compare compare.tsv" \
	    "--save a --fail-slower=2" "--compare a --fail-slower=x" "--save a --flamechart" \
	    "--compare a --open" "--against="; do
		expect_status 2 "$CFG" fg $a 2>err && test "$(wc -l <err)" = 1 ||
			{ echo "cargo fg $a:"; cat err; exit 1; }
	done &&
	expect_status 2 "$CFG" fg --runs 3 2>err && grep_q "^cargo fg: --runs N goes with --save NAME, --compare NAME or --against REV\$" err &&
	expect_status 2 "$CFG" fg --save a --compare b 2>err && grep_q "give one of --save, --compare and --against" err &&
	expect_status 2 "$CFG" fg --save current 2>err && grep_q "is the name of cargo fg.s own runs (target/fg/current)" err &&
	expect_status 2 "$CFG" fg --save compare.tsv 2>err && grep_q "^cargo fg: --save: .compare.tsv. is the name of cargo fg.s table (target/fg/compare.tsv): choose another\$" err &&
	expect_status 2 "$CFG" fg --save a --flamechart 2>err && grep_q "^cargo fg: --flamechart draws one run: it does not go with --save\$" err
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
	skip_rest
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
		{ "$CFG" fg --bin spin -o "$OLDPWD/out.svg" -- 40 >"$OLDPWD/out" 2>"$OLDPWD/err" ||
			{ cat "$OLDPWD/out" "$OLDPWD/err"; false; }; } &&
		cd "$OLDPWD" &&
		cat err &&
		grep_q "^spin: [0-9a-f]*\$" out &&
		grep_q "CARGO_PROFILE_RELEASE_DEBUG=true (for this build only; Cargo.toml is not changed)" err &&
		grep_q "wrote .*out.svg ([0-9]* samples)\$" err &&
		sed -n "/^the widest leaf functions:/,\$p" err >top &&
		# Three rows, and spin::crunch among them (its own inlined
		# callees may take some of its self samples, depending on rustc).
		[ "$(sed -n "3,\$p" top | grep -c "%.*%")" = 3 ] &&
		{ sed -n "3,5p" top | grep -q " spin::crunch\$" ||
			{ echo "spin::crunch is not among the widest leaves:"; cat top; false; }; } &&
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
		{ "$CFG" fg --test heavy -o "$OLDPWD/t.svg" >"$OLDPWD/out" 2>"$OLDPWD/err" ||
			{ cat "$OLDPWD/err"; false; }; } &&
		cd "$OLDPWD" &&
		grep_q "recording: fgrecord -- .*/deps/heavy-[0-9a-f]*\$" err &&
		grep_q "wrote .*t.svg ([0-9]* samples)" err &&
		grep_q "heavy::grind" t.svg &&
		readelf -S "$(sed -n "s/.*recording: fgrecord -- //p" err)" | grep -q "\.debug_info"
	'
	check "cargo fg --bench churn: run with --bench, as cargo bench runs it, arguments after" '
		cd "$TMP/crate" &&
		{ "$CFG" fg --bench=churn -o "$OLDPWD/b.svg" -- extra >"$OLDPWD/out" 2>"$OLDPWD/err" ||
			{ cat "$OLDPWD/err"; false; }; } &&
		cd "$OLDPWD" &&
		grep_q "recording: fgrecord -- .*/deps/churn-[0-9a-f]* --bench extra\$" err &&
		! grep -q "exited with status" err &&
		grep_q "churn::churn" b.svg
	'
	check "cargo fg: Ctrl-C stops the program, the SVG is still drawn" '
		# In the crate, in a process group of its own, with SIGINT at its
		# default (a background job of a script starts with it ignored).
		{ perl -e '\''chdir shift or die "chdir: $!"; $SIG{INT} = "DEFAULT";
			setpgrp(0, 0); exec @ARGV or die "exec: $!"'\'' "$TMP/crate" \
			"$CFG" fg --bin spin -o "$PWD/out.svg" -- 2000 >out 2>err & } &&
		pid=$! &&
		n=0 && while ! grep -q "recording:" err && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done &&
		sleep 1.5 && kill -INT -$pid &&
		{ st=; wait $pid; st=$?; } && cat err &&
		[ "$st" = 130 ] &&
		grep_q "interrupted: .spin. exited with status 130; drawing what was recorded" err &&
		grep_q "spin::crunch" out.svg
	'
	# cfg ARGS...: cargo fg in the crate, stdout to out, stderr to err in
	# the check's directory; the SVG is out.svg there unless -o is given.
	cfg() {
		(cd "$TMP/crate" && "$CFG" fg "$@") >out 2>err || { _s=$?; cat err; return $_s; }
	}
	# y SVG NAME: the smallest y of NAME's frames.
	y() {
		grep -o "<title>$2 ([^<]*</title><rect [^>]* y=\"[0-9]*\"" "$1" |
			sed "s/.*y=\"//; s/\"//" | sort -n | head -1
	}
	# fills SVG NAME: the fill colours of NAME's frames.
	fills() {
		grep -o "<title>$2 ([^<]*</title><rect [^>]*fill=\"[^\"]*\"" "$1" |
			sed "s/.*fill=//" | sort -u
	}
	check "the default feature is built; --no-default-features leaves it out" '
		cfg --bin spin -o "$PWD/d.svg" -- 20 && grep_q "spin::wrapped" d.svg &&
		cfg --bin spin --no-default-features -o "$PWD/n.svg" -- 20 &&
		grep_q "spin::crunch" n.svg && ! grep -q "spin::wrapped" n.svg
	'
	check "-r and --release are the default: target/release" '
		cfg -r --bin spin -o "$PWD/r.svg" -- 5 &&
		grep_q "recording: fgrecord -- .*/release/spin 5\$" err &&
		cfg --release --bin spin -o "$PWD/r.svg" -- 5 &&
		grep_q "recording: fgrecord -- .*/release/spin 5\$" err
	'
	check "--profile profiling: target/profiling, with debug info, no warning" '
		cfg --profile profiling --bin spin -o "$PWD/p.svg" -- 10 &&
		grep_q "building the profiling profile with debug info: CARGO_PROFILE_PROFILING_DEBUG=true" err &&
		grep_q "recording: fgrecord -- .*/profiling/spin 10\$" err &&
		! grep -q "not optimised" err &&
		readelf -S "$CARGO_TARGET_DIR/profiling/spin" | grep -q "\.debug_info" &&
		grep_q "spin::crunch" p.svg
	'
	check "--profile slow and --dev: built and drawn, with a warning that they are not optimised" '
		cfg --profile=slow --bin spin -o "$PWD/s.svg" -- 1 &&
		grep_q "recording: fgrecord -- .*/slow/spin 1\$" err &&
		grep_q "warning: the .slow. profile is not optimised (opt-level 0)" err &&
		cfg --dev --bin spin -o "$PWD/v.svg" -- 1 &&
		grep_q "recording: fgrecord -- .*/debug/spin 1\$" err &&
		grep_q "warning: the .dev. profile is not optimised" err &&
		grep_q "spin::crunch" v.svg
	'
	check "-v: cargo verbose, and each step of the pipeline shown" '
		cfg -v --bin spin -o "$PWD/x.svg" -- 5 &&
		grep_q "Fresh cargo-fixture" err &&
		grep_q "running: fgsym " err && grep_q "running: fgfold " err &&
		grep_q "running: fgsvg " err
	'
	check "--unit-test -- heavy_test: the library test binary, only the selected test" '
		cfg --unit-test -o "$PWD/u.svg" -- heavy_test &&
		grep_q "recording: fgrecord -- .*/deps/cargo_fixture-[0-9a-f]* heavy_test\$" err &&
		grep_q "cargo_fixture::knead" u.svg && ! grep -q "cargo_fixture::stir" u.svg &&
		grep_q "cargo fg: cargo_fixture (unit tests)" u.svg &&
		cfg --unit-test=spin -o "$PWD/b.svg" &&
		grep_q "recording: fgrecord -- .*/deps/spin-[0-9a-f]*\$" err &&
		grep_q "spin::tests::crunches" b.svg && ! grep -q "cargo_fixture::knead" b.svg
	'
	# One recording, drawn many ways. Long enough for the inlined
	# wrapping_add, the leaf of 3% of the samples with rustc 1.95, to be
	# in it for sure: about 1,000 samples, 30 of them there. With Debian
	# 12's rustc 1.63 it is the leaf of a sample in hundreds (none, in a
	# run on a fresh Debian 12), the range steps inlined into crunch of
	# a fifth ($INL, below).
	(cd "$TMP" && cfg --bin spin -F 1999 -o "$TMP/base.svg" -- 300) || true
	check "-i/--inverted: an icicle graph, the root at the top" '
		cfg -i --bin spin -o "$PWD/i.svg" -- 10 &&
		ya=$(y i.svg all) && yc=$(y i.svg spin::crunch) && test "$ya" -lt "$yc" &&
		ya=$(y "$TMP/base.svg" all) && yc=$(y "$TMP/base.svg" spin::crunch) && test "$ya" -gt "$yc" &&
		cfg --inverted --bin spin -o "$PWD/i2.svg" -- 5 && grep_q "<svg" i2.svg
	'
	check "--reverse: stacks leaf first, so the process name is a leaf" '
		cfg --reverse --bin spin -o "$PWD/r.svg" -- 10 &&
		grep -q "<title>spin ([0-9]* samples, [0-9.]*%; self [1-9]" r.svg &&
		! grep -q "<title>spin ([0-9]* samples, [0-9.]*%; self [1-9]" "$TMP/base.svg"
	'
	check "--notes, --image-width, --min-width reach the SVG" '
		cfg --notes "run 42" --image-width 800 --min-width=300 --bin spin -o "$PWD/w.svg" -- 10 &&
		grep_q "<desc id=\"notes\">run 42</desc>" w.svg &&
		grep_q "<svg [^>]*width=\"800\"" w.svg &&
		test "$(grep -c "<g><title>" w.svg)" -lt "$(grep -c "<g><title>" "$TMP/base.svg")"
	'
	check "--palette blue: every frame blue; the default is the rust palette" '
		cfg --palette blue --bin spin -o "$PWD/b.svg" -- 10 &&
		grep -o "<rect [^>]*fill=\"rgb([0-9,]*)\"" b.svg | sed "s/.*rgb(//; s/).*//" |
			awk -F, "\$3 < \$1 || \$3 < \$2 { bad++ } END { exit !(NR > 3 && !bad) }" &&
		test "$(fills b.svg spin::crunch)" != "$(fills "$TMP/base.svg" spin::crunch)"
	'
	# Runs long enough for tens of samples at the lowest rate (spin takes
	# about 2 ms of CPU a million steps): with a handful, a run may have
	# no spin::crunch frame to compare.
	check "--deterministic: a name has the same colour in every graph" '
		cfg --deterministic --bin spin -F 499 -o "$PWD/d1.svg" -- 100 &&
		cfg --deterministic --bin spin -F 1499 -o "$PWD/d2.svg" -- 150 &&
		echo "spin::crunch: $(fills d1.svg spin::crunch), $(fills d2.svg spin::crunch)," \
			"$(fills "$TMP/base.svg" spin::crunch)" &&
		test -n "$(fills d1.svg spin::crunch)" &&
		test "$(fills d1.svg spin::crunch)" = "$(fills d2.svg spin::crunch)" &&
		test "$(fills d1.svg spin::crunch)" = "$(fills "$TMP/base.svg" spin::crunch)"
	'
	check "--flamechart: a flame chart, samples in time order" '
		cfg --flamechart --bin spin -F 1999 -o "$PWD/c.svg" -- 200 &&
		# The leaves alternate from sample to sample: a chart draws a
		# frame for each run of them, a graph one per stack. Above
		# crunch, its inlined callees (wrapping_add, next of the range:
		# which ones depends on rustc) and the interrupts of the kernel
		# are the leaf of a sample in five or more: with hundreds of
		# samples, the runs are tens, the frames of the graph a few.
		row() { r=$(($(y "$1" spin::crunch) - 16)) &&
			grep -o "</title><rect [^>]* y=\"$r\"" "$1" | wc -l; } &&
		chart=$(row c.svg) && graph=$(row "$TMP/base.svg") &&
		echo "frames just above crunch: $chart in the chart, $graph in the graph" &&
		test "$chart" -gt "$((graph * 2))" &&
		grep_q "<title>spin::crunch (" c.svg && ! grep -q "[0-9]\{10\}:spin" c.svg
	'
	check "--skip-after FUNC (repeatable): the frames below FUNC are cut" '
		cfg --skip-after spin::crunch --skip-after=spin::nothing --bin spin -o "$PWD/k.svg" -- 20 &&
		# spin::crunch becomes a root: its frame sits right on "all".
		ya=$(y k.svg all) && yc=$(y k.svg spin::crunch) &&
		echo "all at y=$ya, spin::crunch at y=$yc" && test $((ya - yc)) = 16 &&
		ya=$(y "$TMP/base.svg" all) && yc=$(y "$TMP/base.svg" spin::crunch) &&
		test $((ya - yc)) -gt 16
	'
	check "--post-process CMD runs on the folded stacks before drawing" '
		cfg --post-process "sed s/crunch/CRUNCHED/" --bin spin -o "$PWD/p.svg" -- 10 &&
		grep_q "spin::CRUNCHED" p.svg && ! grep -q "spin::crunch" p.svg &&
		expect_status 2 sh -c "cd \"$TMP/crate\" && \"$CFG\" fg --post-process false --bin spin -o \"$PWD/q.svg\" -- 1" 2>err &&
		grep_q "post-process .false. failed" err
	'
	# Issue 24 point 4: the headline counted the samples recorded, not
	# those --post-process left to draw.
	check "--post-process: the headline counts what is drawn, as the SVG and the table do" '
		cfg --post-process "grep -v \"spin::crunch [0-9]*\\\$\"" --bin spin -F 1999 -o "$PWD/p.svg" -- 100 &&
		cat err &&
		rec=$(sed -n "s/^fgrecord: \([0-9]*\) samples in .*/\1/p" err) &&
		head=$(sed -n "s/^cargo fg: wrote .*p.svg (\([0-9]*\) samples)\$/\1/p" err) &&
		all=$(grep -o "<title>all ([0-9,]* samples" p.svg | sed "s/[^0-9]//g") &&
		tab=$(sed -n "s/^\([0-9]*\) samples, [0-9]* functions\$/\1/p" err) &&
		echo "recorded $rec, headline $head, SVG $all, table $tab" &&
		[ "$rec" -gt "$all" ] && [ "$all" -gt 0 ] &&
		[ "$head" = "$all" ] && [ "$tab" = "$all" ]
	'
	# Issue 24 point 3: the first answer was the widest leaves, std's
	# inlined intrinsics. matrix's hot function is inlined into main and
	# spends its time in std's inlined helpers and its hash map.
	check "the crate's own functions first, inlined callees counted in them: slow_matrix_search on top" '
		cfg --bin matrix -o "$PWD/m.svg" -- 1500 && cat err &&
		sed -n "/^the functions of matrix, /,/^the widest leaf functions:/p" err >own &&
		grep_q "each with its inlined callees:\$" own &&
		{ sed -n 3p own | grep -q "  matrix::slow_matrix_search\$" ||
			{ echo "slow_matrix_search is not the top own function:"; cat own; false; }; } &&
		! grep -v "^the \|self%" own | grep -v "  matrix::" &&
		sed -n "/^the widest leaf functions:/,\$p" err >leaves &&
		[ "$(sed -n "3,\$p" leaves | grep -c "%.*%")" = 3 ]
	'
	# Inlined into crunch: wrapping_add, and the range steps (which of
	# them are sampled depends on rustc: 1.63 leaves few wrapping_add).
	INL="::wrapping_add (\|::unchecked_add (\|::spec_next ("
	check "--no-inline: no inlined frames in the graph" '
		grep_q "$INL" "$TMP/base.svg" &&
		cfg --no-inline --bin spin -o "$PWD/n.svg" -- 10 &&
		grep_q "spin::crunch" n.svg && ! grep "$INL" n.svg
	'
	check "--ignore-status: the program failed, cargo fg exits 0; without it, the status, and says so" '
		cfg --ignore-status --bin spin -o "$PWD/g.svg" -- 10 3 &&
		grep_q "exited with status 3; drawing what was recorded (--ignore-status: cargo fg exits 0)" err &&
		grep_q "spin::crunch" g.svg &&
		expect_status 3 cfg --bin spin -o "$PWD/h.svg" -- 10 3 &&
		grep_q "exited with status 3; drawing what was recorded, then exiting with that status" err
	'
	check "--annotate[=N]: hot.txt next to the SVG, with the hottest function" '
		mkdir sub && cfg --annotate=2 --bin spin -o "$PWD/sub/a.svg" -- 20 &&
		grep_q "spin::crunch" sub/hot.txt && grep_q "wrote .*sub/hot.txt" err &&
		cfg --annotate --bin spin -o "$PWD/a.svg" -- 10 && test -s hot.txt
	'
	check "--open with no display and no BROWSER prints the path" '
		env -u DISPLAY -u WAYLAND_DISPLAY -u BROWSER sh -c "cd \"$TMP/crate\" && \"$CFG\" fg --open --bin spin -o \"$PWD/o.svg\" -- 5" 2>err &&
		grep_q "open: no display to open it on; the graph is $PWD/o.svg\$" err
	'
	check "--root as root: records directly, no sudo" '
		cfg --root --bin spin -o "$PWD/o.svg" -- 5 &&
		grep_q "recording: fgrecord -- " err && ! grep -q sudo err
	'
	for_nobody "$CFG" "$TOP"/bin/*
	check "--root as a user: records through sudo, builds as the user" '
		# A user with a stand-in cargo (reporting the spin already built)
		# and a stand-in sudo that says how it was called.
		chmod 755 "$TMP" . && mkdir -m 777 u && cp "$CARGO_TARGET_DIR/release/spin" u/ &&
		cat >u/cargo <<-EOF &&
		#!/bin/sh
		echo "{\"reason\":\"compiler-artifact\",\"profile\":{\"opt_level\":\"3\"},\"executable\":\"$PWD/u/spin\"}"
		EOF
		cat >u/sudo <<-EOF &&
		#!/bin/sh
		echo "\$*" >"$PWD/u/sudo.args"
		shift
		exec "\$@"
		EOF
		chmod 755 u/cargo u/sudo &&
		{ setpriv --reuid=65534 --regid=65534 --clear-groups env PATH="$PWD/u:$PATH" CARGO="$PWD/u/cargo" HOME="$PWD/u" \
			sh -c "cd u && \"$NOBODY/scripts/cargo-fg\" fg --root -o r.svg -- 10" >out 2>err || { cat err; false; }; } &&
		grep_q "^-- /.*/bin/fgrecord -o .* -- $PWD/u/spin 10\$" u/sudo.args &&
		grep_q "recording: sudo -- /.*/bin/fgrecord -- $PWD/u/spin 10\$" err &&
		grep_q "spin::crunch" u/r.svg
	'
	if [ "$offcpu" = yes ]; then
		check "--off-cpu and --wall are passed to fgrecord" '
			cfg --off-cpu --bin nap -o "$PWD/o.svg" &&
			grep_q "recording: fgrecord --off-cpu -- " err &&
			grep_q "nap::main" o.svg && grep_q "sleep" o.svg && grep_q "\[off-cpu\]" o.svg &&
			cfg --wall --bin spin -o "$PWD/w.svg" -- 5 &&
			grep_q "recording: fgrecord --wall -- " err
		'
	fi
else
	skip "cargo fg: cargo-flamegraph options" "$why"
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
	{ grep -qx "fgrecord: perf_event_open: Permission denied; kernel.perf_event_paranoid is 4: run '\''sudo sysctl kernel.perf_event_paranoid=1'\''" err ||
		{ cat err; false; }; } &&
	grep_q "nothing was recorded" err &&
	! [ -e out.svg ]
'
# Issue 24 point 2: --off-cpu on a program that never blocks said it ran
# for less than one sampling period. A stand-in fgrecord writes what the
# real one writes then: an off-CPU stream with its headers and no sample.
mkdir -p "$TMP/nowait"
cat >"$TMP/nowait/fgrecord" <<'EOS'
#!/bin/sh
case $* in *--help*) echo "usage: fgrecord [--off-cpu] [--wall]"; exit 0 ;; esac
while [ $# -gt 0 ] && [ "$1" != -o ]; do shift; done
printf "# fgrecord 1\n# cmdline : x\n# event : offcpu-time callgraph dwarf 8192\n" >"$2"
echo "fgrecord: 0 waits off the CPU, 0.000 s in all; 336 preemptions left out (the thread could run)" >&2
EOS
chmod +x "$TMP/nowait/fgrecord"
for t in fgsym fgfold fgsvg; do ln -s "$TOP/bin/$t" "$TMP/nowait/$t"; done
check "cargo fg --off-cpu, a program that never waited: said so, exit 0, an empty graph" '
	cd "$TMP/crate" &&
	{ env FG_BIN="$TMP/nowait" "$CFG" fg --off-cpu --bin spin -o "$OLDPWD/o.svg" -- 5 >/dev/null 2>"$OLDPWD/err" ||
		{ cat "$OLDPWD/err"; false; }; } &&
	cd "$OLDPWD" && cat err &&
	grep_q "^cargo fg: wrote .*o.svg, but it has no samples: .spin. never waited off the CPU" err &&
	! grep -q "less than one sampling period" err &&
	! grep -q "well formed" err &&
	grep_q ">no samples</text>" o.svg
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
# Runs compared: a copy of the crate in a git repository of its own; the
# working tree's crunch does twice the work of HEAD's. Five runs a side
# of 20 million steps (about 40 ms of CPU time against 80): with three, a
# busy machine's spread between runs, over a family of 171 rows, left the
# doubling 'same' (Welch with two degrees of freedom asks for much more).
# Five runs of that size cost a second.
if perf_ok && command -v git >/dev/null 2>&1; then
	cp -r "$TESTS/cargo-fixture" "$TMP/ab"
	(cd "$TMP/ab" && git init -q . && git add -A &&
		git -c user.name=t -c user.email=t@localhost commit -q -m base) >/dev/null 2>&1
	# cab ARGS...: cargo fg in the copy, its own target folder.
	cab() {
		(cd "$TMP/ab" && CARGO_TARGET_DIR=$TMP/abtarget "$CFG" fg "$@") >out 2>err
	}
	check "cargo fg --save base, then --compare base after a change: crunch slower, --fail-slower exits 1" '
		{ cab --runs 5 --save base --bin spin -- 20 || { cat err; false; }; } &&
		for i in 1 2 3 4 5; do test -s "$TMP/abtarget/fg/base/run.$i" && test -f "$TMP/abtarget/fg/base/run.$i.log"; done &&
		! test -e "$TMP/abtarget/fg/base/run.6" &&
		grep_q "^cargo fg: saved 5 runs of .spin. in .*/abtarget/fg/base; after a change, compare: cargo fg --runs 5 --compare base\$" err &&
		grep -q "^# event : cpu-clock" "$TMP/abtarget/fg/base/run.1" &&
		grep -q "spin::crunch" "$TMP/abtarget/fg/base/run.1" &&
		sed -i "s/for i in 0\.\.steps {/for i in 0..steps * 2 {/" "$TMP/ab/src/main.rs" &&
		grep -q "0..steps \* 2" "$TMP/ab/src/main.rs" &&
		{ cab --runs 5 --compare base --fail-slower=10 --bin spin -- 20; st=$?; } &&
		cat out err && test "$st" = 1 &&
		head -1 out | grep -q "^function  *before ms  *after ms  *change ms  *low ms  *high ms  *verdict\$" &&
		sed -n 2p out | grep -q "^\[all\]  .* slower\$" &&
		test "$(grep -vc "^(and " out)" -le 12 &&
		grep -q "^spin::crunch	.*	slower\$" "$TMP/abtarget/fg/compare.tsv" &&
		grep_q "^fgfold: 5 runs before, 5 after of cpu-clock: total time per run" err &&
		grep_q "^cargo fg: slower by more than 10% of the whole run (--fail-slower=10): \[all\] +[0-9.]* ms (95% interval [^)]*), most of it in spin::[a-z]* +[0-9.]* ms (95% interval .*: exit 1\$" err &&
		head -1 "$TMP/abtarget/fg/compare.tsv" | grep -q "^function	before	after	change	low	high	verdict\$" &&
		if fgsvg --help 2>&1 | grep -q -e --compare; then
			grep_q "^cargo fg: wrote compare.svg" err && head -c 300 "$TMP/ab/compare.svg" | grep -q "<svg"
		else
			grep_q "^cargo fg: this fgsvg has no --compare: no graph drawn" err
		fi &&
		expect_status 2 cab --compare nosuch --bin spin -- 20 &&
		grep_q "^cargo fg: --compare: no runs saved as .nosuch. in .*/fg: the saved ones are base (or save them first" err &&
		! grep -q "building" err
	'
	check "cargo fg --against HEAD: HEAD built beside, runs in turns, crunch slower, the worktree removed" '
		{ cab --runs 5 --against HEAD --bin spin -- 20 || { cat out err; false; }; } &&
		cat out err &&
		grep_q "^cargo fg: building .HEAD. ([0-9a-f]*) in a worktree of its own\$" err &&
		grep_q "^cargo fg: recording 5 runs a side, in turns: .HEAD. into .*/fg/against, the working tree into .*/fg/current\$" err &&
		grep -q "^spin::crunch	.*	slower\$" "$TMP/abtarget/fg/compare.tsv" &&
		sed -n 2p out | grep -q "^\[all\]  .* slower\$" &&
		test -s "$TMP/abtarget/fg/against/run.5" && test -s "$TMP/abtarget/fg/current/run.5" &&
		{ test "$(git -C "$TMP/ab" worktree list | wc -l)" = 1 ||
			{ git -C "$TMP/ab" worktree list; false; }; }
	'
	check "cargo fg --against a revision that is not there: one line, exit 2" '
		expect_status 2 cab --against no-such-branch --bin spin -- 20 &&
		grep_q "^cargo fg: --against: .no-such-branch. is no commit of this repository" err &&
		! grep -q "building the" err
	'
else
	skip "cargo fg --save, --compare, --against" "${why:-git not found (Debian: apt-get install git)}"
fi
done_testing
