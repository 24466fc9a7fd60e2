#!/bin/sh
# t710-fgsym-hostile: fgsym on broken and hostile streams. It is a filter:
# lines that fit no format pass through byte for byte (fgsym(1)), frames it
# cannot resolve stay [unknown]; it never crashes, blocks or reads forever.
. "$(dirname "$0")/lib.sh"
plan 37

check 'thousands of missing files: ten named, then one line, then the summary' '
	{ echo "# fgrecord 1"; i=0; while [ $i -lt 2000 ]; do
		printf "a 1/1 [000] 1.0: 1 cpu-clock:\n\t10 [unknown] (/nonexist/lib%d.so)\n\n" $i
		i=$((i + 1)); done; } >in &&
	expect_status 0 fgsym in >out 2>err &&
	test "$(grep -c "no such file" err)" = 10 &&
	grep_q "more files are missing" err &&
	grep_q "resolved 0 of 2000 frames" err && test $(wc -l <err) = 12
'

# A sample of the C fixture's program: fgsym has a real ELF file to open.
cc=${CC:-cc}
B=$TMP/build
mkdir -p "$B"
$cc -O2 -g -o "$B/prog" "$TESTS/hostile/prog.c" 2>"$B/err" || {
	skip 'fgsym hostile-input tests' "cannot build tests/hostile/prog.c: $(head -1 "$B/err")"
	skip_rest
}
addr=$(nm "$B/prog" | awk '$3 == "leaf" { print $1 }' | sed 's/^0*//')
export B addr
# The same program "compiled from" /dev/zero and from a FIFO (#line), and
# openwatch, which says whether a command opened a file.
mkfifo "$B/srcfifo"
{ echo '#line 1 "/dev/zero"'; cat "$TESTS/hostile/prog.c"; } >"$B/zero.c"
{ echo "#line 1 \"$B/srcfifo\""; cat "$TESTS/hostile/prog.c"; } >"$B/fifo.c"
$cc -O2 -g -o "$B/linezero" "$B/zero.c" 2>>"$B/err" &&
$cc -O2 -g -o "$B/linefifo" "$B/fifo.c" 2>>"$B/err" &&
$cc -O2 -o "$B/openwatch" "$TESTS/hostile/openwatch.c" 2>>"$B/err" || {
	skip 'fgsym hostile-input tests' "cannot build the #line programs or openwatch.c: $(head -1 "$B/err")"
	skip_rest
}

# sample DSO [ADDR]: one sample with one frame in DSO
sample() {
	printf 'prog 42/42 [000] 1.000000: 1 cpu-clock:\n\t%s [unknown] (%s)\n\n' "${2:-$addr}" "$1"
}

# A perf map in /tmp is the one path fgsym opens that anyone may create:
# a pid no process has, and the file removed when the test ends.
mpid=$((4194304 + $$))
trap 'rm -rf "$TMP" /tmp/perf-$mpid.map' EXIT
export mpid

check 'the fixture resolves (sanity)' '
	sample "$B/prog" >in && fgsym in >out 2>err &&
	grep_q "leaf+0x0 (" out
'

# Issue 33: "resolved 39627 of 39628 frames (100.0%)" while listing the
# one left: a share short of all is never rounded up to all.
check 'one frame unresolved of 2001: not 100.0% resolved' '
	{ sample /nonexist/lib.so; i=0; while [ $i -lt 2000 ]; do sample "$B/prog"
		i=$((i + 1)); done; } >in &&
	expect_status 0 fgsym in >out 2>err &&
	grep_q "^fgsym: resolved 2000 of 2001 frames (>99.9%); unresolved frames are in /nonexist/lib.so (1)\$" err
'

check 'empty input: nothing out, nothing said, exit 0' '
	: >empty && fgsym empty >out 2>err && test ! -s out && test ! -s err
'

check 'only headers: passed through, exit 0' '
	printf "# fgrecord 1\n# cmdline : x\n" >h && fgsym h >out 2>err &&
	test_cmp h out && test ! -s err
'

check 'binary garbage after a stream: passed through (CR LF read as LF), said, exit 1' '
	{ seq 1 1000 | sed "s/.*/# line &/"; head -c 300000 /dev/urandom; } >garbage &&
	expect_status 1 fgsym garbage >out 2>err && sed "s/\r\$//" garbage >want &&
	cmp want out && grep_q "unrecognised line" err
'

check 'a 10 MB line between samples: passed through, said once, exit 1, neighbours resolved' '
	{ sample "$B/prog"; head -c 10000000 /dev/zero | tr "\0" x; echo; sample "$B/prog"; } >in &&
	expect_status 1 fgsym in >out 2>err &&
	test "$(grep -c "^fgsym: in:4: unrecognised line" err)" = 1 &&
	test $(grep -c "leaf+0x0" out) = 2 &&
	test $(wc -c <out) -gt 10000000
'

check 'NUL bytes in a frame line: passed through, said, exit 1; neighbours resolved' '
	{ sample "$B/prog"; printf "prog 42/42 [000] 1.000000: 1 cpu-clock:\n\t%s\0 [unknown] (%s)\n\n" $addr "$B/prog"; sample "$B/prog"; } >in &&
	expect_status 1 fgsym in >out 2>err &&
	grep_q "^fgsym: in:5: unrecognised line .*\\\\x00" err &&
	test $(grep -c "leaf+0x0" out) = 2 &&
	tr -d "\0" <out | grep -c "\[unknown\]" >n && test $(cat n) = 1
'

check 'NUL byte inside the DSO path: never opens the truncated path' '
	printf "prog 42/42 [000] 1.000000: 1 cpu-clock:\n\t%s [unknown] (%s\0junk)\n\n" $addr "$B/prog" >in &&
	{ fgsym in >out 2>err; test $? -le 1; } &&
	! grep -q "leaf+" out
'

check 'CRLF line ends: read as LF, resolved' '
	sample "$B/prog" | sed "s/\$/\r/" >in &&
	fgsym in >out 2>err &&
	grep_q "leaf+0x0 (.*prog)\$" out && test $(tr -dc "\r" <out | wc -c) = 0
'

check 'a sample cut off mid-frame: passed through, said with FILE:LINE, exit 1; fgfold reports it' '
	{ sample "$B/prog"; sample "$B/prog" | head -c 40; } >in &&
	expect_status 1 fgsym in >out 2>err &&
	grep_q "^fgsym: in:4: the last sample has no closing empty line.*passed it on" err &&
	tail -c 20 in >want && tail -c 20 out >got && test_cmp want got &&
	expect_status 1 fgfold out >folded 2>ferr &&
	grep_q "cut off" ferr
'

# The last line without its newline: the writer stopped in its middle. That
# is a cut, said with its line and the sample it belongs to, never as an
# unrecognised line ahead of the cut.
check 'a stream cut in the middle of a line: said as a cut, with its sample, not as a stranger' '
	{ sample "$B/prog"; sample "$B/prog" | head -c 52; } >in &&
	expect_status 1 fgsym in >out 2>err && cat err &&
	grep_q "^fgsym: in:5: the input ends in the middle of this line, with no newline, so the stream was cut off; passed on the sample of line 4 as it is\$" err &&
	! grep -q unrecognised err && test "$(wc -l <err)" -le 2 &&
	expect_status 1 fgfold in >folded 2>ferr && cat ferr &&
	grep_q "^fgfold: in:5: the input ends in the middle of this line, .* dropped the sample of line 4\$" ferr &&
	! grep -q unrecognised ferr && test "$(wc -l <folded)" = 1 &&
	{ sample "$B/prog"; printf "prog 42/42 [0"; } >in2 &&
	expect_status 1 fgfold in2 >folded 2>ferr && cat ferr &&
	grep_q "^fgfold: in2:4: the input ends in the middle of this line, .* dropped the sample of line 4\$" ferr &&
	test "$(wc -l <folded)" = 1 &&
	{ sample "$B/prog"; printf "odd line, cut"; } >in3 &&
	expect_status 1 fgfold in3 >folded 2>ferr && cat ferr &&
	grep_q "^fgfold: in3:4: the input ends in the middle of this line, with no newline, so the stream was cut off; passed over it\$" ferr &&
	test "$(wc -l <folded)" = 1
'

check 'an address that overflows 64 bits: FILE:LINE warning, passed through, exit 1' '
	sample "$B/prog" 1ffffffffffffffffff >in &&
	expect_status 1 fgsym in >out 2>err &&
	grep_q "in:2: frame address .1ffffffffffffffffff. is not a 64-bit hex number" err &&
	test_cmp in out
'

check 'the largest 64-bit address: unresolved, no crash, exit 0' '
	sample "$B/prog" ffffffffffffffff >in &&
	expect_status 0 fgsym in >out 2>err &&
	grep_q "ffffffffffffffff \[unknown\]" out
'

check 'a DSO that is a FIFO: not opened for reading, not waited for, exit 1' '
	mkfifo fifo && sample "$PWD/fifo" >in &&
	expect_status 1 timeout 10 fgsym in >out 2>err &&
	grep_q "fifo. is not a regular file: its frames stay \[unknown\]" err &&
	test_cmp in out
'

check 'a DSO that is a directory: exit 1, named, passed through' '
	sample /tmp >in &&
	expect_status 1 timeout 10 fgsym in >out 2>err &&
	grep_q "./tmp. is not a regular file" err && test_cmp in out
'

check 'a DSO that is /dev/zero: never read, exit 1' '
	sample /dev/zero >in &&
	expect_status 1 timeout 10 fgsym in >out 2>err &&
	grep_q "./dev/zero. is not a regular file" err && test_cmp in out
'

check 'a perf map that is a FIFO: not waited for, exit 1' '
	rm -f /tmp/perf-$mpid.map && mkfifo /tmp/perf-$mpid.map &&
	printf "x $mpid/$mpid [000] 1.000000: 1 cpu-clock:\n\t7f0000001000 [unknown] ([unknown])\n\n" >in &&
	{ timeout 10 fgsym in >out 2>err; st=$?; rm -f /tmp/perf-$mpid.map; test $st = 1; } &&
	grep_q "perf-$mpid.map.: not a regular file: its frames stay \[unknown\]" err
'

check 'a perf map that is /dev/zero: never read, exit 1' '
	rm -f /tmp/perf-$mpid.map && ln -s /dev/zero /tmp/perf-$mpid.map &&
	printf "x $mpid/$mpid [000] 1.000000: 1 cpu-clock:\n\t7f0000001000 [unknown] (/tmp/perf-$mpid.map)\n\n" >in &&
	{ timeout 10 fgsym in >out 2>err; st=$?; rm -f /tmp/perf-$mpid.map; test $st = 1; } &&
	grep_q "not a regular file" err && test_cmp in out
'

check 'a .gnu_debuglink naming a FIFO: never opened, no hang, exit 0' '
	cp "$B/prog" prog && objcopy --only-keep-debug prog prog.debug &&
	objcopy --strip-debug --strip-unneeded prog prog.s &&
	objcopy --add-gnu-debuglink=prog.debug prog.s &&
	rm prog.debug && mkfifo prog.debug &&
	sample "$PWD/prog.s" >in &&
	expect_status 0 timeout 10 fgsym in >out 2>err &&
	grep_q "prog.s. is stripped" err &&
	{ timeout 10 fgsym --annotate in >ann 2>aerr; test $? -le 1; } &&
	mkdir .debug && rm prog.debug && mkfifo .debug/prog.debug &&
	expect_status 0 timeout 10 fgsym in >out 2>err
'

check 'a DSO that is a non-ELF file: named once, frames stay [unknown], exit 1' '
	echo "just text" >notelf &&
	{ sample "$PWD/notelf"; sample "$PWD/notelf"; } >in &&
	expect_status 1 fgsym in >out 2>err &&
	test $(grep -c "notelf" err) -ge 1 && test_cmp in out
'

check 'a source path of /dev/zero (#line): fgsym --annotate never reads it' '
	sample "$B/linezero" >in &&
	{ timeout 20 fgsym --annotate in >out 2>err; test $? -le 1; } &&
	grep_q "== 1\. leaf " out && grep_q "zero:[0-9]" out
'

check 'a source path that is a FIFO (#line): fgsym --annotate never opens it' '
	sample "$B/linefifo" >in &&
	{ timeout 20 "$B/openwatch" "$B/srcfifo" fgsym --annotate in >out 2>err
	  test $? -le 1; } &&
	grep_q "== 1\. leaf " out && grep_q "srcfifo:[0-9]" out
'

check 'a DSO that is a FIFO: not even opened to check its type' '
	mkfifo fifo && sample "$PWD/fifo" >in &&
	expect_status 1 timeout 10 "$B/openwatch" "$PWD/fifo" fgsym in >out 2>err &&
	grep_q "fifo. is not a regular file" err && test_cmp in out &&
	{ timeout 10 "$B/openwatch" "$PWD/fifo" fgsym --annotate in >out 2>err
	  test $? -le 1; }
'

if [ "$(id -u)" = 0 ]; then
check 'a DSO that is a device (as /dev/ptmx, /dev/watchdog): never opened' '
	mknod node c 1 3 && sample "$PWD/node" >in &&
	expect_status 1 timeout 10 "$B/openwatch" "$PWD/node" fgsym in >out 2>err &&
	grep_q "node. is not a regular file" err && test_cmp in out &&
	{ timeout 10 "$B/openwatch" "$PWD/node" fgsym --annotate in >out 2>err
	  test $? -le 1; }
'

check 'a perf map owned by another user names no frame, and fgsym says why' '
	rm -f /tmp/perf-$mpid.map &&
	echo "7f0000001000 100 planted_name" >/tmp/perf-$mpid.map &&
	printf "x $mpid/$mpid [000] 1.000000: 1 cpu-clock:\n\t7f0000001010 [unknown] ([unknown])\n\n" >in &&
	fgsym in >mine 2>err && grep_q "planted_name+0x10" mine &&
	chown 65534 /tmp/perf-$mpid.map &&
	{ fgsym in >out 2>err; st=$?; rm -f /tmp/perf-$mpid.map; test $st = 1; } &&
	test_cmp in out &&
	grep_q "perf-$mpid.map.: owned by uid 65534, .*not trusted: its frames stay \[unknown\]" err
'
else
skip 'a DSO that is a device: never opened' 'mknod needs root'
skip 'a perf map owned by another user names no frame' 'chown needs root'
fi

check 'a sparse 8 GB perf map: refused at once, said why' '
	rm -f /tmp/perf-$mpid.map && truncate -s 8G /tmp/perf-$mpid.map &&
	printf "x $mpid/$mpid [000] 1.000000: 1 cpu-clock:\n\t7f0000001010 [unknown] ([unknown])\n\n" >in &&
	{ timeout 10 fgsym in >out 2>err; st=$?; rm -f /tmp/perf-$mpid.map; test $st = 1; } &&
	test_cmp in out &&
	grep_q "perf-$mpid.map.: larger than 256 MiB, not read: its frames stay" err
'

# Issue 23.9: what fgsym passes on without reading it (a line that fits
# no format, a NUL byte, a 10 MB line, a last sample cut off) is said
# once with FILE:LINE, exit 1, and passed on byte for byte: fgsym | fgsym
# is fgsym.
check 'bad lines passed on: each said once with FILE:LINE, exit 1; fgsym twice is fgsym once' '
	{ sample "$B/prog"; printf "odd line\n"; printf "prog 42/42 [000] 1.0: 1 cpu-clock:\n\t1 a\0b (/x)\n\n";
	  head -c 10000000 /dev/zero | tr "\0" y; echo; sample "$B/prog" | head -c 40; } >in &&
	expect_status 1 fgsym in >once 2>err1 &&
	test "$(wc -l <err1)" -le 6 &&
	grep_q "^fgsym: in:4: unrecognised line .odd line" err1 &&
	grep_q "^fgsym: in:6: unrecognised line .*\\\\x00" err1 &&
	grep_q "^fgsym: in:8: unrecognised line .yyyy" err1 &&
	grep_q "^fgsym: in:9: the last sample has no closing empty line" err1 &&
	! grep -q "[^ -~]" err1 &&
	expect_status 1 fgsym once >twice 2>err2 && cmp once twice &&
	grep_q "leaf+0x0" once
'

# Issue 33.6: one file under many names (/a/./b, /a//b, a link) is opened
# and indexed once, not once per name: a file without DWARF, said once
# per file loaded with --srcline, is said once. Each frame keeps its name.
check 'one file under 300 names: loaded once, said once, each frame its own name' '
	objcopy --strip-debug "$B/prog" prog && ln -s prog link &&
	{ echo "# fgrecord 1"; sample "$PWD/link"; p=$PWD/prog i=0
	  while [ $i -lt 150 ]; do sample "$p"; sample "$(echo "$p" | sed "s|/prog\$|//prog|")"
		p=$(echo "$p" | sed "s|/prog\$|/./prog|"); i=$((i + 1)); done; } >in &&
	expect_status 0 fgsym --srcline in >out 2>err &&
	test "$(grep -c "has no DWARF debug info" err)" = 1 &&
	grep_q "^fgsym: resolved all 301 frames\$" err &&
	test "$(grep -c -F "leaf+0x0 ($PWD/./././prog)" out)" = 1 &&
	test "$(grep -c "leaf.*(.*//prog)\$" out)" = 150 &&
	test "$(grep -c "leaf.*(.*/link)\$" out)" = 1
'

check 'a name that is a link to a file opened before, recorded as another build: checked all the same' '
	cp "$B/prog" prog && ln -s prog link &&
	{ echo "# fgrecord 1"; echo "# buildid : 0123456789abcdef $PWD/link"; sample "$PWD/prog"; sample "$PWD/link"; } >in &&
	expect_status 0 fgsym in >out 2>err &&
	grep_q "link. was rebuilt after the recording" err &&
	test "$(grep -c "leaf+0x0" out)" = 1
'

check 'more names than the file table holds: the rest left [unknown], said once, memory bounded' '
	awk "BEGIN { print \"# fgrecord 1\"; for (i = 0; i < 66000; i++)
		printf \"a 1/1 [000] 1.0: 1 cpu-clock:\\n\\t10 [unknown] (/nonexist/%d)\\n\\n\", i }" >in &&
	expect_status 0 fgsym in >out 2>err &&
	test "$(grep -c "more than 65536 files named" err)" = 1 &&
	grep_q "unresolved frames are in \[more files than fgsym holds\] (464)" err
'

# Issue 33.8: ESC, BEL and CR in a file name set the terminal's title and
# cleared the screen from fgsym's warnings: they are quoted, \xHH.
check 'control bytes in a DSO name: quoted in every warning, never raw' '
	n=$(printf "/nonexist/a\033]0;PWNED\007b\033[2Jc\rd") &&
	{ echo "# fgrecord 1"; sample "$n"; sample "$n$n"; } >in &&
	printf "just text" >"notelf$(printf "\033[2J")" &&
	sample "$PWD/notelf$(printf "\033[2J")" >>in &&
	expect_status 1 fgsym in >out 2>err &&
	! grep -q "$(printf "[\033\007\r]")" err &&
	test "$(grep -c -F "a\x1b]0;PWNED\x07b\x1b[2Jc\x0dd" err)" = 3 &&
	grep_q "notelf.x1b\[2J. is not an ELF file" err &&
	expect_status 1 fgsym --annotate in >out 2>err &&
	! grep -q "$(printf "[\033\007\r]")" err && grep_q "x1b" err
'

# Issue 33.12: perf's build-ID cache is a name like any other. A copy
# there is used when it is a regular ELF file of the recorded build ID,
# owned by the user or root and writable by no one else; one refused is
# said as refused, with the reason, never as "no such file".
id=$(readelf -n "$B/prog" 2>/dev/null | awk '/Build ID:/ { print $3 }')
export id
# cached WHAT: a stream of /gone/prog recorded as $id, and the cache's
# directory for it in ./c, with WHAT ("copy", "fifo", "dir") as its elf
cached() {
	d=c/.build-id/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	mkdir -p "$d" && case $1 in
	copy) cp "$B/prog" "$d/elf" && chmod 644 "$d/elf" ;;
	fifo) mkfifo "$d/elf" ;;
	esac &&
	{ echo "# fgrecord 1"; echo "# buildid : $id /gone/prog"; sample /gone/prog; } >in
}
if [ -z "$id" ]; then
	skip 'the build-ID cache (four checks)' 'cc wrote no build ID into prog'
else
check 'a copy in the build-ID cache: used for a file gone' '
	cached copy && PERF_BUILDID_DIR=$PWD/c expect_status 0 fgsym in >out 2>err &&
	grep_q "gone/prog. is gone: its frames are named from the recorded build.s copy" err &&
	grep_q "leaf+0x0" out
'

check 'a FIFO in the build-ID cache: refused as such, never "no such file", never opened' '
	cached fifo &&
	PERF_BUILDID_DIR=$PWD/c expect_status 1 timeout 10 "$B/openwatch" "$d/elf" fgsym in >out 2>err &&
	grep_q "gone/prog. is gone, and the copy of its recorded build in perf.s build-ID cache is not used: .*/elf. is not a regular file: its frames stay \[unknown\]; remove that copy" err &&
	! grep -q "no such file" err && test "$(wc -l <err)" = 2
'

check 'a copy in the build-ID cache writable by anyone: refused, said' '
	cached copy && chmod 666 "$d/elf" &&
	PERF_BUILDID_DIR=$PWD/c expect_status 1 fgsym in >out 2>err &&
	grep_q "is not used: .*/elf. is writable by anyone: its frames stay" err &&
	! grep -q "leaf" out
'

if [ "$(id -u)" = 0 ]; then
check 'a copy in the build-ID cache owned by another user: refused by root, said' '
	cached copy && chown 65534 "$d/elf" &&
	PERF_BUILDID_DIR=$PWD/c expect_status 1 fgsym in >out 2>err &&
	grep_q "is not used: .*/elf. belongs to user 65534, neither you nor root" err &&
	! grep -q "leaf" out
'
else
	skip 'a copy in the build-ID cache owned by another user' 'not root: cannot give a file away'
fi
fi

# Issue 22.12: perf's end-of-stack markers are no kernel frames.
check 'perf end-of-stack markers: passed on, never counted as kernel frames' '
	printf "prog 42 1.000000: 1 cpu-clock:\n\t%s [unknown] (%s)\n\tffffffffffffffff [unknown] ([unknown])\n\n" $addr "$B/prog" >in &&
	sed -n 1,3p in >>in && echo >>in &&
	expect_status 0 fgsym in >out 2>err &&
	grep_q "^fgsym: resolved all 2 frames\$" err && ! grep -q "kernel" err &&
	test "$(grep -c "^	ffffffffffffffff \[unknown\] (\[unknown\])\$" out)" = 2
'

done_testing
