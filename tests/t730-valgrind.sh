#!/bin/sh
# t730-valgrind: one full pipeline, each tool under valgrind memcheck:
# fgrecord on a program built here, fgsym (--srcline, --annotate), fgfold
# (stream, --folded, --diff, a cut stream), fgsvg (plain, differential,
# --nameattr). No invalid access, no uninitialised use, no leak on the
# normal and the exit-1 paths. About 30 s.
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 10

if ! command -v valgrind >/dev/null 2>&1; then
	skip 'valgrind memcheck of the pipeline' 'valgrind is not installed (apt-get install valgrind)'
	skip_rest
fi
# AddressSanitizer's binaries (make SANITIZE=1) cannot run under valgrind.
if nm "$TOP/bin/fgfold" 2>/dev/null | grep -q __asan_init; then
	skip 'valgrind memcheck of the pipeline' 'the tools are built with SANITIZE=1 (ASan and valgrind do not mix)'
	skip_rest
fi
cc=${CC:-cc}
B=$TMP/build
mkdir -p "$B"
if ! $cc -O2 -g -o "$B/hot" "$TESTS/record/hot.c" 2>"$B/err" ||
    ! $cc -O2 -g -o "$B/vdso" "$TESTS/sym/vdso.c" 2>"$B/err"; then
	skip 'valgrind memcheck of the pipeline' "cannot build tests/record/hot.c: $(head -1 "$B/err")"
	skip_rest
fi
export B

# vg STATUS TOOL ARGS...: TOOL under memcheck must exit STATUS (0 or 1),
# and valgrind must have nothing to say. What went wrong goes to vg.why,
# not to TOOL's redirected output; why shows it with TOOL's stderr (err).
vg() {
	_want=$1; shift
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible \
		--error-exitcode=3 --log-file=vg.log "$TOP/bin/$@"
	_st=$?
	if [ -s vg.log ] || [ $_st != "$_want" ]; then
		{ echo "valgrind $*: status $_st, expected $_want"
		  head -60 vg.log; } >>vg.why
		return 1
	fi
}
why() {
	cat vg.why 2>/dev/null
	[ -s err ] && sed 's/^/stderr: /' err | head -20
	return 1
}

# The stream is recorded once, here; perf_event_open may be missing.
if perf_ok && fgrecord -q -o "$TMP/probe" true 2>/dev/null; then
	check 'fgrecord under memcheck: a clean run, a well-formed stream' '
		{ { vg 0 fgrecord -o "$TMP/rec.stream" "$B/hot" 0.3 2>err &&
		grep_q "^# fgrecord 1" "$TMP/rec.stream" &&
		grep_q " cpu-clock:\$" "$TMP/rec.stream"
		} || why; }
	'
	# valgrind gives its guest no vDSO: fgrecord copies the profiled
	# process's own, so that frames in it are named and unwound through.
	check 'fgrecord and fgsym under memcheck read a vDSO (valgrind hides theirs)' '
		{ { vg 0 fgrecord -o vdso.stream "$B/vdso" 2>err &&
		! grep -q "cannot read" err &&
		grep_q " \[unknown\] (\[vdso\])\$" vdso.stream &&
		vg 0 fgsym vdso.stream >vdso.sym 2>err &&
		grep_q "__vdso_clock_gettime+0x.* (\[vdso\])" vdso.sym &&
		grep_q "main+0x" vdso.sym
		} || why; }
	'
else
	skip 'fgrecord under memcheck: a clean run, a well-formed stream' 'fgrecord cannot sample here'
	skip 'fgrecord and fgsym under memcheck read a vDSO (valgrind hides theirs)' 'fgrecord cannot sample here'
	a=$(nm "$B/hot" | awk '$3 == "main" { print $1 }')
	awk -v a="$a" -v p="$B/hot" 'BEGIN { print "# fgrecord 1"
		for (i = 0; i < 50; i++) printf "hot 1/1 [000] 1.%06d: 1 cpu-clock:\n\t%s [unknown] (%s)\n\n", i, a, p }' >"$TMP/rec.stream"
fi
export S=$TMP/rec.stream

check 'fgsym --srcline under memcheck' '
	{ { vg 0 fgsym --srcline "$S" >"$TMP/sym" 2>err && grep_q "main+0x" "$TMP/sym"
	} || why; }
'

check 'fgsym --annotate under memcheck' '
	{ { vg 0 fgsym --annotate "$S" >ann 2>err && test -s ann
	} || why; }
'

check 'fgsym with a missing file and a bad address (exit 1) under memcheck' '
	{ { { cat "$S"; printf "x 1/1 [000] 1.0: 1 cpu-clock:\n\t10 [unknown] (/nonexistent/lib.so)\n\tzz [unknown] (/bin/sh)\n\n"; } >in &&
	vg 1 fgsym in >out 2>err
	} || why; }
'

check 'fgfold under memcheck: stream, --folded, --diff -n' '
	{ { vg 0 fgfold "$TMP/sym" >"$TMP/folded" &&
	grep_q "^hot;" "$TMP/folded" &&
	vg 0 fgfold --folded "$TMP/folded" "$TMP/folded" >two &&
	vg 0 fgfold --diff -n "$TMP/folded" two >diff
	} || why; }
'

check 'fgfold on a cut, garbled stream (exit 1) under memcheck' '
	{ { { seq 1 800 | sed "s/^/# /"; head -c 2000 /dev/urandom; cat "$TMP/sym"; } | head -n -3 >cut &&
	vg 1 fgfold cut >out 2>err
	} || why; }
'

check 'fgpprof under memcheck: a symbolized stream, and a cut, garbled one (exit 1)' '
	{ { vg 0 fgpprof "$TMP/sym" >p.pb.gz && gzip -t p.pb.gz &&
	{ seq 1 800 | sed "s/^/# /"; head -c 2000 /dev/urandom; cat "$TMP/sym"; } | head -n -3 >cut &&
	vg 1 fgpprof cut >c.pb.gz 2>err && gzip -t c.pb.gz
	} || why; }
'

check 'fgsvg under memcheck: plain, differential, --nameattr' '
	{ { vg 0 fgsvg "$TMP/folded" >a.svg && grep_q "</svg>" a.svg &&
	awk "{ print \$1, \$2, \$2 * 2 }" "$TMP/folded" >d.folded &&
	vg 0 fgsvg d.folded >d.svg &&
	printf "main\tclass=m\thref=https://example.com/\n" >attrs &&
	vg 0 fgsvg --nameattr attrs --minwidth 0 "$TMP/folded" >n.svg
	} || why; }
'

check 'fgsvg on malformed lines (exit 1) under memcheck' '
	{ { printf "a;b 1\nnocount\na;c -1\n" >bad && vg 1 fgsvg bad >out.svg 2>err
	} || why; }
'

done_testing
