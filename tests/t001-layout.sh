#!/bin/sh
# The layout of common/ (HACKING.md, "The folders"): one folder per
# library, each including only the folders below it, and every include
# of the project's own headers naming its folder.
. "$(dirname "$0")/lib.sh"
plan 11

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

# One safe-open (issue 43): a file is opened by name only in base/
# (safeopen, cmdfile, inroot), so that no FIFO blocks a tool and nothing
# is written through a link. What stays elsewhere, each with its reason,
# as "FILE|the call|why" (FILE without its folder: it may move floors):
OPEN_ALLOWED='buildcache_add.c|openat(|directories and a new file under descriptors, O_NOFOLLOW and O_EXCL at each step: a stricter walk of its own
compare.c|open(arg, O_RDONLY|--per'"'"'s file: profile/compare'"'"'s options are reparsed on another branch; to go through safeopen there
hostpath.c|open(p, O_RDONLY | O_CLOEXEC)|/proc/PID/mountinfo, the kernel'"'"'s own file
perf.c|fopen(path, "re")|the perf_event sysctls under /proc/sys, fixed paths
source_perf.c|fopen("/sys/devices/system/cpu/online"|a fixed sysfs path
source_ptrace.c|fopen("/proc/sys/kernel/yama/ptrace_scope"|a fixed sysctl path
source_uprobe.c|open(path, O_RDONLY | O_CLOEXEC)|the uprobe PMU'"'"'s type and format under /sys/bus/event_source, fixed sysfs paths
spool.c|open(dir, O_TMPFILE|an unnamed temporary file: no name is opened
pkgowner.c|fopen(path, "re")|dpkg'"'"'s database and /etc/os-release, fixed system paths'
# unlisted REGEX ALLOWED FIX [SKIP]: in a tree of common/ and cmd/, names
# each call matching REGEX outside the files SKIP matches that ALLOWED
# ("FILE|call|why" lines) does not list, with FIX.
unlisted() {
	grep -nE "$1" common/*/*.c cmd/*.c 2>/dev/null | grep -v "^${4:-^}" |
	while IFS= read -r hit; do
		f=${hit%%:*} f=${f##*/} ok=
		while IFS='|' read -r af call why; do
			[ "$af" = "$f" ] && case $hit in *"$call"*) ok=1 ;; esac
		done <<EOF2
$2
EOF2
		[ -n "$ok" ] || echo "$hit: $3"
	done
}
# open_check: each open, fopen or openat that OPEN_ALLOWED does not list.
open_check() {
	unlisted '(^|[^_a-zA-Z0-9>.])(f?open|openat|open64|creat)\(' "$OPEN_ALLOWED" \
	    "open it through base/safeopen (or allow it in t001 with its reason)" \
	    common/base/
}

check 'files are opened by name only in base/ (safeopen), or as t001 allows with a reason' '
	(cd "$TOP" && open_check) >wrong && { test ! -s wrong || { cat wrong; false; }; }
'

check 'the open check names an fopen outside base/, and one of an allowed file past its call' '
	mkdir -p common/svg common/sym cmd &&
	echo "	f = fopen(path, \"r\");" >common/svg/x.c &&
	echo "	fp = fopen(other, \"re\");" >common/sym/pkgowner.c &&
	echo "	r->src.ops->open(&r->src); fopencookie(s, \"w\", io);" >cmd/y.c &&
	open_check >wrong && cat wrong &&
	grep -q "^common/svg/x.c:1:" wrong && grep -q "^common/sym/pkgowner.c:1:" wrong &&
	test "$(wc -l <wrong)" = 2
'

# One number parser (issue 43): numbers are read by base/num; what
# stays elsewhere, each with its reason:
NUM_ALLOWED='perf.c|fscanf(f, "%ld"|a perf_event sysctl, a signed number the kernel writes
source_ptrace.c|fscanf(f, "%d"|the Yama sysctl, a number the kernel writes
svg.c|strtod(out, NULL)|the number svg.c has just printed, read back as a browser will
num.c|strtod(|base/num itself: the one real number parser'
num_check() {
	unlisted '(^|[^_a-zA-Z0-9>.])(strto[a-z]*|[sf]?scanf|ato[il]l?)\(' "$NUM_ALLOWED" \
	    "read it with base/num (or allow it in t001 with its reason)" \
	    common/base/num.c
}

check 'numbers are read by base/num only, or as t001 allows with a reason' '
	(cd "$TOP" && num_check) >wrong && { test ! -s wrong || { cat wrong; false; }; }
'

check 'the number check names an sscanf outside base/num, in base/ too' '
	mkdir -p common/svg common/base &&
	echo "	sscanf(rgb, \"rgb(%u\", &r);" >common/svg/x.c &&
	echo "	n = sscanf(line, \"Uid: %lu\", &u);" >common/base/procfs.c &&
	num_check >wrong && cat wrong && grep -q "^common/svg/x.c:1:" wrong &&
	grep -q "^common/base/procfs.c:1:" wrong
'

# Thin commands (issue 43): options and calls into the library.
# thin_check: in a tree, names each cmd/*.c of more than 250 lines.
thin_check() {
	for f in cmd/*.c; do
		n=$(wc -l <"$f")
		[ "$n" -le 250 ] || echo "$f: $n lines (at most 250: move its" \
		    "option handling and logic into common/)"
	done
}

check 'every cmd/*.c is at most 250 lines' '
	(cd "$TOP" && ls cmd/*.c && thin_check) >out &&
	test "$(grep -c "^cmd/fg[a-z]*\.c$" out)" -ge 5 &&
	{ ! grep -q lines out || { cat out; false; }; }
'

check 'the size check names a command of 251 lines, not one of 250' '
	mkdir -p cmd && seq 251 >cmd/fgbig.c && seq 250 >cmd/fgok.c &&
	thin_check >wrong && cat wrong &&
	grep -q "^cmd/fgbig.c: 251 lines" wrong && test "$(wc -l <wrong)" = 1
'

done_testing
