#!/bin/sh
# fgsym on a real recording of libc frames: libc's debug file (libc6-dbg)
# gives global aliases with version suffixes (__libc_start_main@@GLIBC_2.34
# beside __libc_start_main_impl, pthread_mutex_lock@@GLIBC_2.2.5 beside
# ___pthread_mutex_lock and __GI___pthread_mutex_lock); the name callers
# wrote is used, without its version, and fgsym --annotate names every
# function as fgsym names the frame.
. "$(dirname "$0")/lib.sh"
plan 2

CC=${CC:-cc}
FIX=$TMP/fix
mkdir -p "$FIX"
export FIX

if ! perf_ok; then
	skip 'libc frames carry no version suffix' "$why"
	skip 'fgsym --annotate names functions as fgsym does' "$why"
	skip_rest
fi
if ! $CC -O2 -g -o "$FIX/libcalls" "$TESTS/sym/libcalls.c" 2>"$FIX/cc.log" ||
   ! fgrecord -o "$FIX/rec" "$FIX/libcalls" 2>"$FIX/rec.err"; then
	skip 'libc frames carry no version suffix' "cannot build or record: $(head -1 "$FIX/cc.log" "$FIX/rec.err")"
	skip 'fgsym --annotate names functions as fgsym does' 'no recording'
	skip_rest
fi
fgsym "$FIX/rec" >"$FIX/sym" 2>"$FIX/sym.err"

# names FILE: the frame names of libc in a symbolized stream, offsets cut.
names() {
	awk '/^[ \t]/ && /libc\.so/ { n = $2; sub(/\+0x[0-9a-f]+$/, "", n); print n }' "$1" | sort -u
}

# leaves FILE: the names of the leaf frames in libc (inlined lines skipped).
leaves() {
	awk '/^[^ \t]/ { leaf = 1; next }
	/^[ \t]/ && / \(inlined\)$/ { next }
	/^[ \t]/ { if (leaf && /libc\.so/) { n = $2; sub(/\+0x[0-9a-f]+$/, "", n); print n }; leaf = 0 }' "$1" | sort -u
}

# ranked FILE: the libc functions in an annotation's ranking.
ranked() {
	awk '/^ *[0-9]+ +[0-9]+ +[0-9.]+%  .* \(libc\.so\.6\)$/ { print $4 }' "$1" | sort -u
}

# debugfile ELF: the path of its separate debug file by build ID.
debugfile() {
	id=$(readelf -n "$1" 2>/dev/null | awk '/Build ID/ { print $3 }')
	echo "/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
}
libc=$(ldd "$FIX/libcalls" | awk '/libc\.so/ { print $3 }')
export libc

check 'libc frames carry no version suffix; the names callers wrote' '
	names "$FIX/sym" >n && grep_q . n &&
	! grep "@" n | grep -v "@plt\$" &&
	! grep "^__GI_\|^___pthread" n &&
	if readelf -sW "$(debugfile "$libc")" 2>/dev/null |
	    grep -q " pthread_mutex_lock@@GLIBC"; then
		grep_q "^pthread_mutex_lock\$" n &&
		grep_q "^__libc_start_main\$" n
	fi
'

check 'fgsym --annotate names functions as fgsym does (malloc, not __libc_malloc)' '
	fgsym --annotate=1000 "$FIX/rec" >ann 2>err &&
	ranked ann >an && grep_q . an &&
	leaves "$FIX/sym" >lv && comm -23 an lv >extra && test_cmp /dev/null extra
'

done_testing
