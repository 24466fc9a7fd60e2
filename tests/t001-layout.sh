#!/bin/sh
# The layout of common/ (HACKING.md, "The folders"): one folder per
# library, each including only the folders below it, and every include
# of the project's own headers naming its folder.
. "$(dirname "$0")/lib.sh"
plan 5

# The floors, bottom first; the folders of one floor never use each other.
floor() {
	case $1 in
	base) echo 0 ;; stream) echo 1 ;; elf) echo 2 ;; perf) echo 3 ;;
	record|sym) echo 4 ;; profile) echo 5 ;; fold|svg|pprof) echo 6 ;;
	*) echo x ;;
	esac
}

# layer_check: in a folder of library folders, names each include of a
# folder that is not below the including one.
layer_check() {
	for f in */*.[ch]; do
		from=${f%%/*}
		for to in $(sed -n "s|^#include \"\([a-z]*\)/.*|\1|p" "$f" | sort -u); do
			[ "$to" = "$from" ] && continue
			a=$(floor "$from") b=$(floor "$to")
			[ "$a" != x ] && [ "$b" != x ] && [ "$b" -lt "$a" ] ||
				echo "$f includes $to/ ($from may use only the floors below it)"
		done
	done
}

check 'common/ holds only the library folders, no loose files' '
	ls "$TOP/common" >got &&
	printf "%s\n" base elf fold perf pprof profile record stream svg sym >want &&
	test_cmp want got
'

check 'every include in common/ and cmd/ names a folder and an existing header' '
	(cd "$TOP" && grep -n "^#include \"" common/*/*.[ch] cmd/*.c) >incs &&
	{ grep -v "^[^:]*:[0-9]*:#include \"[a-z]*/[a-z_0-9]*\.h\"" incs >bad || :; } &&
	{ test ! -s bad || { echo "includes without their folder:"; cat bad; false; }; } &&
	sed "s/.*#include \"\(.*\)\"/\1/" incs | sort -u | while read h; do
		test -f "$TOP/common/$h" || echo "no such header: common/$h"
	done >missing && test_cmp /dev/null missing
'

check 'a folder includes only the folders below it; record, sym, and fold, svg, pprof never each other' '
	(cd "$TOP/common" && layer_check) >wrong && test_cmp /dev/null wrong
'

# The checker itself can fail: a file of a top floor that includes another
# top floor's header is named.
check 'the layering check names a sideways include (sym/ including fold/)' '
	mkdir -p c/sym c/fold && echo "#include \"fold/fold.h\"" >c/sym/x.c &&
	(cd c && layer_check) >wrong && grep -q "sym/x.c includes fold/" wrong
'

# perf/ is below record/ and sym/: perf's records know no session.
check 'the layering check names an include upward (perf/ including record/)' '
	mkdir -p d/perf d/record && echo "#include \"record/source.h\"" >d/perf/x.c &&
	(cd d && layer_check) >wrong && grep -q "perf/x.c includes record/" wrong
'

done_testing
