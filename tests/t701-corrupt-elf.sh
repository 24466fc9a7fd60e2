#!/bin/sh
# fgsym and fgsym --annotate on binaries that went bad after the recording:
# truncated, with a corrupt .debug_info, rebuilt (build ID mismatch), and
# with neither a usable symbol table nor usable DWARF. Each time: a warning
# that names the file, its frames stay [unknown] (or keep only what an
# intact part of the file gives), no crash, and exit status 1 for the
# malformed files, 0 for the rebuilt one (well-formed, only not the one
# recorded: its frames stay [unknown], as a stripped file's do).
. "$(dirname "$0")/lib.sh"
plan 9

FIX=$TMP/fix
mkdir -p "$FIX"
CC=${CC:-cc}
$CC -O2 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/app" || exit 1
export FIX CC

# app_stream: a fresh copy of the binary as ./app, and its own stack,
# as fgrecord writes it, in ./in (with its build ID recorded).
app_stream() {
	cp "$FIX/app" app &&
	id=$(readelf -n app | awk '/Build ID/ { print $3 }') &&
	./app v | sed "1a\\
# buildid : $id $PWD/app" >in
}

# unknown_only: every frame into ./app in OUT is still [unknown].
unknown_only() {
	grep -q "($PWD/app)" "$1" &&
	! grep "($PWD/app)" "$1" | grep -v '\[unknown\]'
}

# section_at NAME FILE: the offset and size of a section, in decimal.
section_at() {
	set -- $(readelf -S -W "$2" | sed 's/^.*\]//' |
	    awk -v n="$1" '$1 == n { print $4, $5 }')
	[ $# = 2 ] && echo $((0x$1)) $((0x$2))
}

check 'a truncated binary: warned as truncated, frames stay [unknown], exit 1' '
	app_stream &&
	size=$(stat -c %s app) &&
	head -c $((size / 2)) "$FIX/app" >app &&
	expect_status 1 fgsym in >out 2>err &&
	grep_q "$PWD/app. is truncated: it has $((size / 2)) bytes" err &&
	unknown_only out &&
	grep_q "__libc_start" out
'

check 'a binary cut inside its program headers: the same, no crash' '
	app_stream &&
	head -c 100 "$FIX/app" >app &&
	expect_status 1 fgsym in >out 2>err &&
	grep_q "$PWD/app. is truncated" err &&
	unknown_only out
'

check '--annotate on a truncated binary: warned, not annotated, exit 1' '
	app_stream &&
	head -c 9000 "$FIX/app" >app &&
	expect_status 1 fgsym --annotate in >out 2>err &&
	grep_q "$PWD/app. is truncated" err &&
	grep_q "not annotated" out &&
	! grep -q "leaf" out
'

check 'a corrupt .debug_info: warned, symtab names kept, no source lines, exit 1' '
	app_stream &&
	set -- $(section_at .debug_info app) &&
	test -n "$2" &&
	head -c "$2" /dev/urandom | tr "\000" "\377" >junk &&
	dd if=junk of=app bs=1 seek="$1" conv=notrunc status=none &&
	expect_status 1 fgsym --srcline in >out 2>err &&
	grep_q "$PWD/app. has corrupt DWARF debug info" err &&
	grep_q "leaf+0x0 ($PWD/app)" out &&
	! grep -q "inl.c:" out
'

check 'corrupt .debug_info and no symbol table: frames stay [unknown], exit 1' '
	app_stream &&
	objcopy --strip-unneeded --keep-section=.debug_info \
	    --keep-section=.debug_abbrev --keep-section=.debug_line \
	    --keep-section=.debug_str --keep-section=.debug_line_str \
	    --keep-section=.debug_rnglists --keep-section=.debug_aranges \
	    app app2 && mv app2 app &&
	! readelf -S -W app | grep -q " .symtab " &&
	set -- $(section_at .debug_info app) &&
	head -c "$2" /dev/urandom | tr "\000" "\377" >junk &&
	dd if=junk of=app bs=1 seek="$1" conv=notrunc status=none &&
	expect_status 1 fgsym in >out 2>err &&
	grep_q "$PWD/app. has corrupt DWARF debug info" err &&
	unknown_only out
'

check '--annotate on corrupt .debug_info: warned, code still listed, exit 1' '
	app_stream &&
	set -- $(section_at .debug_info app) &&
	head -c "$2" /dev/urandom | tr "\000" "\377" >junk &&
	dd if=junk of=app bs=1 seek="$1" conv=notrunc status=none &&
	expect_status 1 fgsym --annotate in >out 2>err &&
	grep_q "$PWD/app. has corrupt DWARF debug info" err &&
	grep_q "leaf" out
'

check 'a rebuilt binary (build ID mismatch): warned, frames stay [unknown], exit 0' '
	app_stream &&
	$CC -O1 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o app &&
	expect_status 0 fgsym in >out 2>err &&
	grep_q "$PWD/app. was rebuilt after the recording" err &&
	unknown_only out
'

check '--annotate on a rebuilt binary: warned, not annotated, exit 0' '
	app_stream &&
	$CC -O1 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o app &&
	expect_status 0 fgsym --annotate in >out 2>err &&
	grep_q "$PWD/app. was rebuilt after the recording" err &&
	! grep -q "leaf" out
'

check 'an intact binary still gives exit 0 with and without --annotate' '
	app_stream &&
	expect_status 0 fgsym --srcline in >out 2>err &&
	grep_q "leaf+0x0 ($PWD/app)" out &&
	expect_status 0 fgsym --annotate in >out 2>err &&
	grep_q "leaf" out
'

done_testing
