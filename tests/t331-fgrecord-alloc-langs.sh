#!/bin/sh
# t331-fgrecord-alloc-langs: fgrecord --alloc on C++ (operator new) and on
# Rust (std's default global allocator, a HashMap per call): the
# functions that allocate are named, and what they keep to the end is in
# use within 10%.
. "$(dirname "$0")/lib.sh"
plan 2

B=$TMP/build
mkdir -p "$B"

# share SYMSTREAM EVENT FUNCTION: the sum of EVENT's periods over the
# stacks with a frame naming FUNCTION (each stack once), and over all
# stacks: "PART ALL".
share() {
	awk -v e="$2:" -v fn="$3" '
	/^#/ { next }
	/^$/ { if (is_e) { all += per; if (hit) part += per }; is_e = 0; next }
	/^[ \t]/ { if (index($0, fn)) hit = 1; next }
	{ is_e = $NF == e; per = $(NF - 1); hit = 0 }
	END { if (is_e) { all += per; if (hit) part += per }; print part + 0, all + 0 }' "$1"
}

# within GOT WANT: 10%
within() {
	awk -v g="$1" -v w="$2" 'BEGIN { ok = g >= w * 0.9 && g <= w * 1.1; if (!ok) print g " is not within 10% of " w; exit !ok }'
}

if [ ! -f "$TOP/lib/libfgalloc.so" ]; then
	skip 'fgrecord --alloc on C++ and Rust' 'lib/libfgalloc.so is not built: run make'
	done_testing
	exit 0
fi

if c++ -O2 -g -o "$B/allocnew" "$TESTS/record/allocnew.cc" 2>"$B/cxx.err"; then
	check 'C++: operator new seen through malloc, what keep_arrays keeps in use' '
		expect_status 0 fgrecord --alloc -c 65536 -o out "$B/allocnew" >stdout 2>err &&
		grep_q "^44900000 500\$" stdout &&
		wellformed out && fgsym out >sym 2>sym.err &&
		set -- $(share sym inuse-bytes keep_arrays) && within "$1" 50000000 &&
		set -- $(share sym alloc-bytes churn_strings) &&
		awk -v p="$1" -v a="$2" "BEGIN { exit !(p > 0.2 * a) }" &&
		grep_q "operator new" sym
	'
else
	skip 'C++: operator new' "cannot build with c++: $(head -2 "$B/cxx.err")"
fi

if command -v rustc >/dev/null 2>&1 &&
    rustc -O -g -o "$B/allocmap" "$TESTS/record/allocmap.rs" 2>"$B/rs.err"; then
	check 'Rust: the HashMap per call named, the kept blocks in use' '
		expect_status 0 fgrecord --alloc -c 65536 -o out "$B/allocmap" >stdout 2>err &&
		grep_q "^1280000 200\$" stdout &&
		wellformed out && fgsym out >sym 2>sym.err &&
		set -- $(share sym alloc-bytes allocmap::build_map) &&
		awk -v p="$1" -v a="$2" "BEGIN { if (!(p > 0.5 * a)) print p \" of \" a; exit !(p > 0.5 * a) }" &&
		set -- $(share sym inuse-bytes allocmap::keep_vec) && within "$1" 20000000
	'
else
	skip 'Rust: the default global allocator' "no rustc, or it cannot build tests/record/allocmap.rs: $(head -2 "$B/rs.err" 2>/dev/null)"
fi

done_testing
