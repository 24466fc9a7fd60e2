#!/bin/sh
# t717-fgsym-openings: the files a binary names for its debug info
# (.gnu_debugaltlink, .gnu_debuglink) are opened by fgsym's own search,
# each checked before the open (regular, size bounded), never by libdw's
# or libdwfl's: no FIFO blocks it, no device is opened, no huge file is
# read (issue 23, points 1 and 2). FG_TEST_BIN: other tools to try.
. "$(dirname "$0")/lib.sh"
plan 15
[ -n "${FG_TEST_BIN:-}" ] && PATH=$FG_TEST_BIN:$PATH
cc=${CC:-cc}
B=$TMP/build
mkdir -p "$B"
P="python3 $TESTS/sym/elfpatch.py"
$cc -O2 -g -o "$B/prog" "$TESTS/sym/altname.c" 2>"$B/err" &&
$cc -O2 -g -Wl,--build-id=none -o "$B/noid" "$TESTS/sym/altname.c" 2>>"$B/err" &&
$cc -O2 -g -Wl,--build-id=0x0102030405060708090a0b0c0d0e0f1011121314 \
    -o "$B/realalt" "$TESTS/sym/altname.c" 2>>"$B/err" &&
$cc -O2 -o "$B/openwatch" "$TESTS/hostile/openwatch.c" 2>>"$B/err" &&
python3 -c 1 2>>"$B/err" || {
	skip 'fgsym: files named for debug info' "cannot build the fixtures: $(head -1 "$B/err")"
	skip_rest
}
addr=$(nm "$B/prog" | awk '$3 == "named_only_in_dwarf" { print $1 }' | sed 's/^0*//')
export B addr P

# sample DSO: one sample with one frame in DSO, at the function.
sample() {
	printf 'prog 42/42 [000] 1.000000: 1 cpu-clock:\n\t%s [unknown] (%s)\n\n' "$addr" "$1"
}
# altapp NAME OUT: the program without its symbol table, whose function
# names are strings of the alternate file that a .gnu_debugaltlink names.
altapp() {
	objcopy --strip-unneeded --keep-section=".debug_*" "$B/prog" "$2" &&
	$P strp-sup "$2" && $P altlink "$1" alt.sec &&
	objcopy --add-section .gnu_debugaltlink=alt.sec "$2"
}
# linkapp NAME IN OUT [CRC]: IN without its DWARF and symbols, with a
# .gnu_debuglink naming NAME as it is (objcopy would keep the base name).
linkapp() {
	objcopy --strip-debug --strip-unneeded "$2" "$3" && $P debuglink "$1" link.sec ${4:-} &&
	objcopy --add-section .gnu_debuglink=link.sec "$3"
}

check 'a .gnu_debugaltlink naming a FIFO: never opened, said, no hang' '
	mkfifo fifo && altapp "$PWD/fifo" app && sample "$PWD/app" >in &&
	{ timeout 10 "$B/openwatch" "$PWD/fifo" fgsym in >out 2>err; st=$?; } &&
	cat err && test "$st" = 0 &&
	grep_q "alternate debug file .$PWD/fifo. refused: not a regular file" err &&
	grep_q "^prog 42/42" out
'

if [ "$(id -u)" = 0 ]; then
check 'a .gnu_debugaltlink naming a device: never opened, said' '
	mknod node c 1 3 && altapp "$PWD/node" app && sample "$PWD/app" >in &&
	{ timeout 10 "$B/openwatch" "$PWD/node" fgsym in >out 2>err; st=$?; } &&
	cat err && test "$st" = 0 &&
	grep_q "alternate debug file .$PWD/node. refused: not a regular file" err
'
else
	skip 'a .gnu_debugaltlink naming a device' 'mknod needs root'
fi

check 'a .gnu_debugaltlink to a real alternate file with its build ID: names from it' '
	cp "$B/realalt" realalt && altapp realalt app && sample "$PWD/app" >in &&
	timeout 10 fgsym in >out 2>err && cat err &&
	grep_q "named_only_in_dwarf+0x0 ($PWD/app)" out && ! grep -q refused err
'

check 'a .gnu_debugaltlink whose file has another build ID: not used, no hang' '
	cp "$B/prog" other && altapp other app && sample "$PWD/app" >in &&
	timeout 10 fgsym in >out 2>err && cat err &&
	! grep -q "named_only_in_dwarf" out
'

check 'a .gnu_debuglink of /sub/../../fifo: the path that would be opened is checked' '
	mkdir -p d/bin/sub && mkfifo d/fifo &&
	linkapp /sub/../../fifo "$B/prog" d/bin/app && sample "$PWD/d/bin/app" >in &&
	{ timeout 10 "$B/openwatch" "$PWD/d/fifo" fgsym in >out 2>err; st=$?; } &&
	cat err && test "$st" = 0 &&
	grep_q "debug file .$PWD/d/bin//sub/../../fifo. refused: not a regular file" err
'

check 'a DSO reached through a symbolic link: the debug file beside its target is checked too' '
	mkdir real link && mkfifo real/app.debug &&
	linkapp app.debug "$B/prog" real/app && ln -s ../real/app link/app &&
	sample "$PWD/link/app" >in &&
	{ timeout 10 "$B/openwatch" "$PWD/real/app.debug" fgsym in >out 2>err; st=$?; } &&
	cat err && test "$st" = 0 &&
	grep_q "debug file .$PWD/real/app.debug. refused: not a regular file" err
'

check 'a debug file beside a symbolic link target, the real one: found and used' '
	mkdir real link && objcopy --only-keep-debug "$B/prog" real/app.debug &&
	linkapp app.debug "$B/prog" real/app && ln -s ../real/app link/app &&
	sample "$PWD/link/app" >in && timeout 10 fgsym in >out 2>err && cat err &&
	grep_q "named_only_in_dwarf+0x0 ($PWD/link/app)" out
'

check 'a 200 GB sparse debug file without a build ID: refused at once, said' '
	linkapp big.debug "$B/noid" app 12345678 && sample "$PWD/app" >in &&
	if truncate -s 200G big.debug 2>/dev/null; then
		{ timeout 20 fgsym in >out 2>err; st=$?; } && rm -f big.debug &&
		cat err && test "$st" = 0 &&
		grep_q "debug file .$PWD/big.debug. refused: larger than 64 GiB" err
	else
		echo "# no sparse file of 200 GB here: the 5 GiB case below stands"
	fi
'

check 'a 5 GiB debug file without a build ID: its CRC is not read, said' '
	linkapp big.debug "$B/noid" app 12345678 && sample "$PWD/app" >in &&
	objcopy --only-keep-debug "$B/noid" big.debug && truncate -s 5G big.debug &&
	{ timeout 20 fgsym in >out 2>err; st=$?; } && rm -f big.debug &&
	cat err && test "$st" = 0 &&
	grep_q "debug file .$PWD/big.debug. refused: 5368709120 bytes and no build ID: its CRC is checked up to 4 GiB" err
'

check 'a debug file without a build ID and the right CRC: used' '
	objcopy --only-keep-debug "$B/noid" app.debug &&
	objcopy --strip-debug --strip-unneeded "$B/noid" app &&
	objcopy --add-gnu-debuglink=app.debug app &&
	sample "$PWD/app" >in && timeout 10 fgsym in >out 2>err && cat err &&
	grep_q "named_only_in_dwarf+0x0 ($PWD/app)" out &&
	echo junk >>app.debug && timeout 10 fgsym in >out 2>err &&
	! grep -q "named_only_in_dwarf" out
'
check 'a debug file in the debuginfod cache, found by build ID; none without it' '
	id=$(readelf -n "$B/prog" | awk "/Build ID/ { print \$3 }") && test -n "$id" &&
	objcopy --strip-debug --strip-unneeded "$B/prog" app &&
	sample "$PWD/app" >in &&
	mkdir -p cache/$id && objcopy --only-keep-debug "$B/prog" cache/$id/debuginfo &&
	DEBUGINFOD_CACHE_PATH=$PWD/cache timeout 10 fgsym in >out 2>err && cat err &&
	grep_q "named_only_in_dwarf+0x0 ($PWD/app)" out &&
	mkdir -p xdg/debuginfod_client && mv cache/$id xdg/debuginfod_client/ &&
	env -u DEBUGINFOD_CACHE_PATH XDG_CACHE_HOME=$PWD/xdg timeout 10 fgsym in >out 2>err &&
	grep_q "named_only_in_dwarf+0x0 ($PWD/app)" out &&
	env -u DEBUGINFOD_CACHE_PATH XDG_CACHE_HOME=$PWD/none HOME=$PWD/none timeout 10 fgsym in >out 2>err &&
	! grep -q "named_only_in_dwarf" out &&
	mkfifo cache2 && mkdir -p c2/$id && mv cache2 c2/$id/debuginfo &&
	{ DEBUGINFOD_CACHE_PATH=$PWD/c2 timeout 10 fgsym in >out 2>err; st=$?; } &&
	cat err && test "$st" != 124 &&
	grep_q "debug file .$PWD/c2/$id/debuginfo. refused: not a regular file" err
'
# One safe-open (issue 43): the files fgsym's options name go through
# base/safeopen as the files a stream names do.
ksample() {
	printf 'prog 42/42 [000] 1.000000: 1 cpu-clock:\n\tffffffff81000000 [unknown] ([kernel.kallsyms])\n\n'
}

check '--kallsyms naming a FIFO: never opened, said, the stream still written' '
	mkfifo ks && ksample >in &&
	{ timeout 10 "$B/openwatch" "$PWD/ks" fgsym --kallsyms ks in >out 2>err; st=$?; } &&
	cat err && test "$st" = 1 &&
	grep_q "^fgsym: .ks. is not a regular file: kernel frames stay \[unknown\]" err &&
	grep_q "^prog 42/42" out
'

check '--annotate-to a symbolic link: refused, its target untouched, exit 2' '
	echo "victim data" >victim && ln -s victim list && ksample >in &&
	expect_status 2 fgsym --annotate-to=list in >out 2>err &&
	grep_q "cannot write to .list.: it is a symbolic link" err &&
	echo "victim data" >want && test_cmp want victim && test -L list
'

check '--annotate-to a dangling link or a FIFO: nothing created or opened, exit 2' '
	ln -s created list && mkfifo fifo && ksample >in &&
	expect_status 2 fgsym --annotate-to=list in >out 2>err &&
	test ! -e created && grep_q "symbolic link" err &&
	expect_status 2 timeout 10 fgsym --annotate-to=fifo in >out 2>err &&
	grep_q "cannot write to .fifo.: not a regular file" err
'

check '--annotate-to a regular file: truncated and written; /dev/null taken' '
	ksample >in && head -c 100000 /dev/zero >list &&
	printf "ffffffff81000000 T start_kernel\nffffffff81100000 T end_kernel\n" >ks &&
	fgsym --kallsyms ks --annotate-to=list in >out 2>err &&
	test "$(wc -c <list)" -lt 100000 && grep_q "start_kernel" out &&
	fgsym --annotate-to=/dev/null in >out 2>err && grep_q "^prog 42/42" out
'

done_testing
