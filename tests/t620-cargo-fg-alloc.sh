#!/bin/sh
# t620-cargo-fg-alloc: `cargo fg --alloc` on tests/cargo-fixture's matrix
# (a HashMap per call): it passes --alloc to fgrecord, and the graph, the
# headline and the top functions are in bytes (or allocations with
# --objects, what was left with --inuse). A stand-in fgrecord writes a heap
# profile of the built binary's own addresses (tests/alloc/gen.awk), which
# the real fgsym names; with a fgrecord that has --alloc (issue 44's
# recorder), the real one records the real program too.
. "$(dirname "$0")/lib.sh"
plan 5
# FG_BIN=DIR: the tools of DIR first (a recorder built elsewhere).
[ -n "${FG_BIN:-}" ] && PATH=$FG_BIN:$PATH
CFG=$TOP/scripts/cargo-fg

check "cargo fg --objects without --alloc, and --alloc with a fgrecord without it: refused" '
	mkdir old && printf "%s\n" "#!/bin/sh" "echo \"usage: fgrecord [--off-cpu]\"" >old/fgrecord &&
	chmod +x old/fgrecord &&
	for t in fgsym fgfold fgsvg; do ln -s "$TOP/bin/$t" old/$t; done &&
	expect_status 2 env FG_BIN="$PWD/old" "$CFG" fg --alloc 2>err &&
	grep_q "^cargo fg: .--alloc.: this fgrecord does not record heap allocations yet" err &&
	expect_status 2 "$CFG" fg --objects 2>err &&
	grep_q "^cargo fg: .--objects. chooses among heap allocations: it goes with --alloc" err
'

if ! command -v cargo >/dev/null 2>&1; then
	skip "cargo fg --alloc: bytes drawn" "cargo not found (Debian: apt-get install cargo)"
	skip "cargo fg --alloc --objects, --inuse" "cargo not found (Debian: apt-get install cargo)"
	skip "cargo fg --alloc --objects --compare" "cargo not found (Debian: apt-get install cargo)"
	skip "cargo fg --alloc with the real recorder" "cargo not found (Debian: apt-get install cargo)"
	done_testing
	exit 0
fi
export CARGO_TARGET_DIR=$TMP/target CARGO_NET_OFFLINE=true
cp -r "$TESTS/cargo-fixture" "$TMP/crate"

# The stand-in: takes --alloc, and writes 3 MiB in 3000 allocations under
# matrix::main, and 1 MiB in one allocation never freed.
mkdir -p "$TMP/fake"
cat >"$TMP/fake/fgrecord" <<EOS
#!/bin/sh
case \$* in *--help*) echo "usage: fgrecord [--off-cpu] [--wall] [--alloc]"; exit 0 ;; esac
echo "\$*" >"$TMP/fake/args"
while [ \$# -gt 0 ] && [ "\$1" != -o ]; do shift; done
out=\$2; shift 3
nm "\$1" >"$TMP/fake/nm"
m=\$(awk '\$3 ~ /6matrix4main/ { print \$3; exit }' "$TMP/fake/nm")
printf "%s\n" "main;\$m 2097152 2000" "main;\$m 1048576 1000" "main;\$m 1048576 1 live" |
	awk -v nm="$TMP/fake/nm" -v dso="\$1" -v comm=matrix -f "$TESTS/alloc/gen.awk" >"\$out"
EOS
chmod +x "$TMP/fake/fgrecord"
for t in fgsym fgfold fgsvg; do ln -s "$TOP/bin/$t" "$TMP/fake/$t"; done

check "cargo fg --alloc: bytes drawn, the headline and the top in MiB" '
	cd "$TMP/crate" &&
	{ env FG_BIN="$TMP/fake" "$CFG" fg --alloc --bin matrix -o "$OLDPWD/a.svg" -- 3 >/dev/null 2>"$OLDPWD/err" ||
		{ cat "$OLDPWD/err"; false; }; } &&
	cd "$OLDPWD" && cat err &&
	grep_q "^--alloc " "$TMP/fake/args" &&
	grep_q "^cargo fg: wrote .*a.svg (4.00 MiB allocated)\$" err &&
	grep_q "^4.00 MiB of .alloc-bytes." err &&
	grep_q "matrix::main" err &&
	grep_q "<title>matrix::main (4.00 MiB, " a.svg &&
	grep_q ">cargo fg --alloc: matrix<" a.svg &&
	! grep -q "samples" a.svg
'

check "cargo fg --alloc --objects, --inuse: allocations, and what was left" '
	cd "$TMP/crate" &&
	{ env FG_BIN="$TMP/fake" "$CFG" fg --alloc --objects --bin matrix -o "$OLDPWD/o.svg" -- 3 >/dev/null 2>"$OLDPWD/err" ||
		{ cat "$OLDPWD/err"; false; }; } &&
	{ env FG_BIN="$TMP/fake" "$CFG" fg --alloc --inuse --bin matrix -o "$OLDPWD/i.svg" -- 3 >/dev/null 2>"$OLDPWD/ierr" ||
		{ cat "$OLDPWD/ierr"; false; }; } &&
	cd "$OLDPWD" && cat err ierr &&
	grep_q "^cargo fg: wrote .*o.svg (3001 allocations)\$" err &&
	grep_q "<title>matrix::main (3,001 allocations, " o.svg &&
	grep_q "^cargo fg: wrote .*i.svg (1.00 MiB still allocated at the end)\$" ierr &&
	grep_q "<title>matrix::main (1.00 MiB, " i.svg
'

check "cargo fg --alloc --objects --compare: the runs compared in allocations" '
	cd "$TMP/crate" &&
	{ env FG_BIN="$TMP/fake" "$CFG" fg --alloc --runs 2 --save base --bin matrix -- 3 >/dev/null 2>"$OLDPWD/err" ||
		{ cat "$OLDPWD/err"; false; }; } &&
	{ env FG_BIN="$TMP/fake" "$CFG" fg --alloc --objects --runs 2 --compare base --bin matrix -o "$OLDPWD/c.svg" -- 3 >"$OLDPWD/out" 2>"$OLDPWD/err" ||
		{ cat "$OLDPWD/out" "$OLDPWD/err"; false; }; } &&
	cd "$OLDPWD" && cat out err &&
	grep_q "^fgfold: 2 runs before, 2 after of alloc-objects: total allocations per run" err &&
	grep_q "^matrix::main  *3001.0  *3001.0 .* same\$" out &&
	grep_q ">Comparison of 2 runs before, 2 after: the whole run the same, 3001.0 -&gt; 3001.0 allocations a run<" c.svg
'

if ! fgrecord --help 2>&1 | grep -q -e --alloc; then
	skip "cargo fg --alloc with the real recorder" "this fgrecord has no --alloc yet (issue 44's recorder)"
else
	check "cargo fg --alloc with the real recorder: the HashMap's bytes under matrix::main" '
		cd "$TMP/crate" &&
		{ env FG_BIN="$(dirname "$(command -v fgrecord)")" "$CFG" fg --alloc -c 65536 --bin matrix -o "$OLDPWD/r.svg" -- 40 >/dev/null 2>"$OLDPWD/err" ||
			{ cat "$OLDPWD/err"; false; }; } &&
		cd "$OLDPWD" && cat err &&
		grep_q "^cargo fg: wrote .*r.svg ([0-9.]* [KMG]*i*B allocated)\$" err &&
		grep_q "<title>matrix::main ([0-9.]* [KMG]iB, " r.svg
	'
fi

done_testing
