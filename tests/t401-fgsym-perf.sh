#!/bin/sh
# fgsym against perf: record a fixture with perf record --call-graph dwarf,
# blank the names perf script gives, and check that fgsym puts the same
# name and offset back on every frame of the fixture that perf resolved.
. "$(dirname "$0")/lib.sh"
plan 6

FIX=$TMP/fix
mkdir -p "$FIX"
CC=${CC:-cc}
export FIX

# blank: every frame's symbol becomes [unknown].
blank() {
	sed -E 's/^([ 	]+[0-9a-f]+) .* \(([^()]*)\)$/\1 [unknown] (\2)/' "$1"
}

# frames FILE DSO: the frame lines of DSO whose symbol is known.
frames() {
	awk -v dso="$2" '
	/^[ \t]/ && match($0, /\([^()]*\)$/) {
		d = substr($0, RSTART + 1, RLENGTH - 2)
		if (d == dso && $2 != "[unknown]") print
	}' "$1"
}

try_record() {
	# $1: binary, $2: name, then its arguments. Leaves $FIX/NAME.data,
	# or fails with the reason in $why.
	tr_bin=$1 tr_name=$2
	shift 2
	perf record -q -o "$FIX/$tr_name.data" --call-graph dwarf,16384 \
	    "$tr_bin" "$@" >"$FIX/$tr_name.log" 2>&1 ||
	{ why="perf record failed: $(head -1 "$FIX/$tr_name.log")"; return 1; }
}

skip_all() {
	skip 'perf script and fgsym agree (PIE, bfd)' "$1"
	skip 'perf script and fgsym agree (lld layout)' "$1"
	skip 'perf script and fgsym agree on [vdso] frames' "$1"
	skip 'perf script and fgsym agree on C++ STL names' "$1"
	skip 'fgrecord | fgsym: every frame of the fixture is named' "$1"
	skip 'one-line samples (perf record without -g): passed on as they are, said once' "$1"
	skip_rest
}
# agree DATA DSO MIN: perf script and fgsym name the same frames in DSO,
# more than MIN of them, on the recording DATA.
agree() {
	perf script -i "$1" --no-inline >ref 2>/dev/null &&
	frames ref "$2" >expect &&
	test $(wc -l <expect) -gt "$3" &&
	blank ref >in &&
	{ fgsym --no-inline in >out 2>err; test $? -le 1; } &&
	frames out "$2" >actual &&
	test_cmp expect actual
}
command -v perf >/dev/null 2>&1 || skip_all 'perf is not installed'
perf_ok || skip_all "$why"

$CC -O2 -g "$TESTS/sym/spin.c" -o "$FIX/spin" || exit 1
if try_record "$FIX/spin" spin; then
	check 'perf script and fgsym agree (PIE, bfd)' '
		agree "$FIX/spin.data" "$FIX/spin" 50
	'
else
	skip 'perf script and fgsym agree (PIE, bfd)' "$why"
fi

if command -v ld.lld >/dev/null 2>&1 &&
    $CC -O2 -g -fuse-ld=lld "$TESTS/sym/spin.c" -o "$FIX/spin-lld" 2>/dev/null; then
	if try_record "$FIX/spin-lld" spinlld; then
		check 'perf script and fgsym agree (lld layout)' '
			agree "$FIX/spinlld.data" "$FIX/spin-lld" 50
		'
	else
		skip 'perf script and fgsym agree (lld layout)' "$why"
	fi
else
	skip 'perf script and fgsym agree (lld layout)' 'ld.lld is not installed (apt-get install lld)'
fi

$CC -O2 "$TESTS/sym/vdso.c" -o "$FIX/vdso" || exit 1
if try_record "$FIX/vdso" vdso; then
	check 'perf script and fgsym agree on [vdso] frames' '
		agree "$FIX/vdso.data" "[vdso]" 20
	'
else
	skip 'perf script and fgsym agree on [vdso] frames' "$why"
fi

# The C++ fixture sorts for perf in mode p. perf script prints C++ names
# without return type and parameters: fgsym must print the same.
CXX=${CXX:-c++}
if $CXX -O2 -g -I"$TESTS/sym" "$TESTS/sym/stl.cc" -o "$FIX/stl" 2>"$FIX/stl.log" &&
    try_record "$FIX/stl" stl p; then
	check 'perf script and fgsym agree on C++ STL names' '
		agree "$FIX/stl.data" "$FIX/stl" 50 &&
		grep -q " std::__introsort_loop<__gnu_cxx::__normal_iterator<unsigned int\*, std::vector<unsigned int, std::allocator<unsigned int> > >, long, __gnu_cxx::__ops::_Iter_comp_iter<main::{lambda(unsigned int, unsigned int)#1}> >+0x" actual
	'
else
	skip 'perf script and fgsym agree on C++ STL names' "${why:-the C++ fixture does not build}"
fi

if command -v fgrecord >/dev/null 2>&1; then
	check 'fgrecord | fgsym: every frame of the fixture is named' '
		fgrecord -o rec "$FIX/spin" 2>rec.err &&
		grep -q "^# fgrecord" rec &&
		{ fgsym rec >out 2>err; test $? -le 1; } &&
		frames out "$FIX/spin" >fr &&
		sed -E "s/^[ 	]+[0-9a-f]+ //; s/\+0x[0-9a-f]+ .*//" fr | sort -u >names &&
		grep -qx "hot_a" names && grep -qx "driver" names &&
		grep -qx "main" names &&
		! grep -q "\[unknown\] ($FIX/spin)" out
	'
else
	skip 'fgrecord | fgsym: every frame of the fixture is named' 'bin/fgrecord is not built'
fi

# Without -g, perf script prints each sample on one line, its address as
# the process saw it (not an offset in the file): fgsym cannot place it,
# so it passes such samples on byte for byte, and says why once, exit 0.
# The frames perf named (the same recording, symbols at hand) pass too.
if perf record -q -o "$FIX/flat.data" "$FIX/spin" >"$FIX/flat.log" 2>&1; then
	check 'one-line samples (perf record without -g): passed on as they are, said once' '
		mkdir -p nosyms &&
		perf script -i "$FIX/flat.data" --symfs="$PWD/nosyms" >in 2>/dev/null &&
		n=$(grep -c " \[unknown\] ($FIX/spin)\$" in) &&
		{ test "$n" -gt 50 || { echo "only $n one-line samples in spin:"; head in; false; }; } &&
		fgsym in >out 2>err && test_cmp in out &&
		{ test "$(wc -l <err)" = 1 || { echo "fgsym said more than one line:"; cat err; false; }; } &&
		grep_q "^fgsym: $(grep -c "^ *[^ ].* \[unknown\] (" in) one-line samples (perf record without -g) left \[unknown\]: .*record with -g" err &&
		perf script -i "$FIX/flat.data" >named 2>/dev/null &&
		grep_q " hot_a+0x" named &&
		fgsym named >out2 2>err2 && test_cmp named out2 &&
		{ ! test -s err2 || { echo "fgsym spoke on named samples:"; cat err2; grep "\[unknown\]" named | head; false; }; }
	'
else
	skip 'one-line samples (perf record without -g): passed on as they are, said once' "perf record failed: $(head -1 "$FIX/flat.log")"
fi

done_testing
