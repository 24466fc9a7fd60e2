#!/bin/sh
# t408-fgsym-symfs: a recording whose binaries are not at their recorded
# paths any more (another machine's, handed over in a folder): fgsym
# --symfs DIR finds each recorded path under DIR first, as perf script
# --symfs does; --symbol-dir DIR finds a file by build ID or base name in
# a flat folder, and refuses one of another build with one line. The
# "no such file" line names both options.
. "$(dirname "$0")/lib.sh"
plan 12

FIX=$TMP/fix
mkdir -p "$FIX/opt/app" "$FIX/other"
CC=${CC:-cc}
# hot spins in CPU time: main -> middle -> hot; frame pointers for perf -g.
$CC -O2 -g -fno-omit-frame-pointer -I"$TESTS/record" "$TESTS/record/hot.c" \
    -o "$FIX/opt/app/hot" 2>"$FIX/cc.log"
# Another build of the same program: the same name, another build ID.
$CC -O1 -g -fno-omit-frame-pointer -I"$TESTS/record" "$TESTS/record/hot.c" \
    -o "$FIX/other/hot" 2>>"$FIX/cc.log"
# perf's build-ID cache would hand fgsym the copy: keep it empty.
PERF_BUILDID_DIR=$TMP/no-buildid-cache
export FIX PERF_BUILDID_DIR

check 'fixtures build' '
	{ test -x "$FIX/opt/app/hot" && test -x "$FIX/other/hot" ||
	  { cat "$FIX/cc.log"; false; }; }
'

# The recording, named in place: the reference.
expect_status 0 fgrecord -o "$FIX/rec" "$FIX/opt/app/hot" 0.3 2>"$FIX/rec.err"
fgsym "$FIX/rec" >"$FIX/inplace" 2>"$FIX/inplace.err"
echo $? >"$FIX/inplace.rc"

# user FILE: the names of the frames of hot in FILE, sorted and counted.
user() {
	frame_names "$1" "$FIX/opt/app/hot" | sort | uniq -c
}

check 'in place: every frame of hot is named, main, middle and hot among them' '
	test "$(cat "$FIX/inplace.rc")" = 0 &&
	user "$FIX/inplace" >names && cat names &&
	grep -q " hot\$" names && grep -q " middle\$" names &&
	grep -q " main\$" names && ! grep -q "unknown" names
'

# The binary moves into a root laid out as recorded, and leaves its path.
mkdir -p "$FIX/root$FIX/opt/app" "$FIX/flat"
cp "$FIX/opt/app/hot" "$FIX/root$FIX/opt/app/hot"
cp "$FIX/opt/app/hot" "$FIX/flat/hot"
mv "$FIX/opt/app/hot" "$FIX/hot.moved"

check 'moved, no option: its frames stay [unknown], and the line names --symfs and --symbol-dir' '
	expect_status 0 fgsym "$FIX/rec" >out 2>err && cat err &&
	test "$(user out | grep -vc "unknown")" = 0 &&
	grep_q "^fgsym: .$FIX/opt/app/hot.: no such file: its frames stay \[unknown\] (recorded on another machine? give its files with --symfs DIR, laid out as recorded, or --symbol-dir DIR, or symbolize where it was recorded)\$" err
'

check '--symfs DIR: every frame named as in place, the same bytes' '
	expect_status 0 fgsym --symfs "$FIX/root" "$FIX/rec" >out 2>err &&
	cat err &&
	test_cmp "$FIX/inplace" out &&
	test_cmp "$FIX/inplace.err" err
'

check '--symfs DIR/ (a trailing slash) is the same root' '
	expect_status 0 fgsym --symfs "$FIX/root/" "$FIX/rec" >out 2>err &&
	test_cmp "$FIX/inplace" out
'

check '--symbol-dir with the binary alone in a flat folder: named as in place' '
	expect_status 0 fgsym --symbol-dir "$FIX/other" --symbol-dir "$FIX/flat" \
	    "$FIX/rec" >out 2>err &&
	cat err &&
	test_cmp "$FIX/inplace" out &&
	test_cmp "$FIX/inplace.err" err
'

check '--symbol-dir with the .build-id layout: named as in place' '
	id=$(grep "^# buildid : .* $FIX/opt/app/hot\$" "$FIX/rec" | cut -d" " -f4) &&
	test -n "$id" &&
	mkdir -p "ids/.build-id/$(echo "$id" | cut -c1-2)" &&
	cp "$FIX/hot.moved" "ids/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)" &&
	expect_status 0 fgsym --symbol-dir ids "$FIX/rec" >out 2>err &&
	test_cmp "$FIX/inplace" out
'

check 'a build-ID mismatch is refused, in one line, and names nothing wrongly' '
	expect_status 0 fgsym --symbol-dir "$FIX/other" "$FIX/rec" >out 2>err &&
	cat err &&
	test "$(user out | grep -vc "unknown")" = 0 &&
	test "$(grep -c "build ID" err)" = 1 &&
	grep_q "^fgsym: .$FIX/opt/app/hot.: no such file, and .$FIX/other/hot. has build ID [0-9a-f]*, not the recorded [0-9a-f]*: not used: its frames stay \[unknown\]\$" err
'

check '--symfs with the file missing there too: says where it looked' '
	mkdir empty &&
	expect_status 0 fgsym --symfs empty "$FIX/rec" >out 2>err &&
	grep_q "no such file, nor under --symfs .empty.: its frames stay" err
'

# A candidate refused for what it is (a FIFO, a device, over 64 GiB) is
# named, not the recorded path, and is "not usable here" as a missing file
# is: exit 0 (it said the recorded path, and exit 1).
check 'a FIFO, a device or a 70 GiB file as the candidate: named, exit 0 as for a missing file' '
	mkdir -p fifo "r$FIX/opt/app" big dev &&
	mkfifo fifo/hot "r$FIX/opt/app/hot" &&
	truncate -s 70G big/hot &&
	expect_status 0 fgsym --symbol-dir fifo "$FIX/rec" >out 2>err && cat err &&
	grep_q "^fgsym: .$FIX/opt/app/hot.: .fifo/hot. is not a regular file: not used: its frames stay \[unknown\]\$" err &&
	test "$(user out | grep -vc "unknown")" = 0 &&
	expect_status 0 fgsym --symfs r "$FIX/rec" >out 2>err && cat err &&
	grep_q "^fgsym: .$FIX/opt/app/hot.: .r$FIX/opt/app/hot. is not a regular file: not used: its frames stay \[unknown\]\$" err &&
	expect_status 0 fgsym --symbol-dir big "$FIX/rec" >out 2>err && cat err &&
	grep_q "^fgsym: .$FIX/opt/app/hot.: .big/hot.: larger than 64 GiB: not used: its frames stay \[unknown\]\$" err &&
	if mknod dev/hot c 1 3 2>/dev/null; then
		expect_status 0 fgsym --symbol-dir dev "$FIX/rec" >out 2>err && cat err &&
		grep_q "^fgsym: .$FIX/opt/app/hot.: .dev/hot. is not a regular file: not used: its frames stay \[unknown\]\$" err
	else
		echo "no device node made here (mknod needs root)"
	fi
'

check '--symfs and --symbol-dir need a directory: exit 2, one line' '
	expect_status 2 fgsym --symfs "$FIX/rec" "$FIX/rec" >out 2>err &&
	grep_q "^fgsym: --symfs: .$FIX/rec. is not a directory\$" err &&
	expect_status 2 fgsym --symbol-dir nowhere "$FIX/rec" >out 2>err &&
	grep_q "^fgsym: --symbol-dir: .nowhere.: No such file or directory\$" err &&
	test ! -s out
'

# perf record, then perf script --symfs and fgsym --symfs on the same file.
if ! command -v perf >/dev/null 2>&1; then
	skip 'perf script --symfs and fgsym --symfs (and cargo fg --perfdata) name the same user frames' 'perf is not installed (apt-get install linux-perf)'
elif ! perf_ok; then
	skip 'perf script --symfs and fgsym --symfs (and cargo fg --perfdata) name the same user frames' "$why"
elif cp "$FIX/hot.moved" "$FIX/opt/app/hot" &&
    ! perf record -q -N -g -o "$FIX/perf.data" "$FIX/opt/app/hot" 0.3 \
    >"$FIX/perf.log" 2>&1; then
	skip 'perf script --symfs and fgsym --symfs (and cargo fg --perfdata) name the same user frames' "perf record failed: $(head -1 "$FIX/perf.log")"
else
	rm -f "$FIX/opt/app/hot"
	check 'perf script --symfs and fgsym --symfs (and cargo fg --perfdata) name the same user frames' '
		perf script --symfs "$FIX/root" -i "$FIX/perf.data" -F ip,sym,dso \
		    >ref 2>ref.err &&
		awk -v d="$FIX/opt/app/hot" "index(\$0, \"(\" d \")\") { print \$2 }" ref |
		    sed "s/+0x[0-9a-f]*\$//" | sort | uniq -c >expect &&
		cat expect &&
		grep -q " hot\$" expect && ! grep -q unknown expect &&
		expect_status 0 fgsym --no-inline --symfs "$FIX/root" "$FIX/perf.data" \
		    >out 2>err &&
		frame_names out "$FIX/opt/app/hot" | sort | uniq -c >actual &&
		test_cmp expect actual &&
		expect_status 1 fgsym --no-inline "$FIX/perf.data" >out2 2>err2 &&
		grep_q "give its files with --symfs DIR" err2 &&
		test "$(frame_names out2 "$FIX/opt/app/hot" | grep -vc unknown)" = 0 &&
		echo "cargo fg --perfdata passes --symfs on" &&
		expect_status 0 "$TOP/scripts/cargo-fg" fg --perfdata "$FIX/perf.data" \
		    --symfs "$FIX/root" -o a.svg >cf.out 2>cf.err &&
		grep_q "%  *[0-9]*  hot\$" cf.err
	'
fi

done_testing
