#!/bin/sh
# t165-stream-viewers: every kind of stream fgrecord and fgsym write (raw,
# symbolized, with source lines, --wall, --off-cpu) is perf script text to
# the Firefox Profiler's and speedscope's importers (their rules, restated
# in tests/stream/viewers.js), to stackcollapse-perf.pl (FLAMEGRAPH_DIR),
# and to our own tools, and so is a stream of the layout fgrecord wrote
# before the fence line (its first line "# fgrecord 1").
#
# FG_BIN=DIR runs the tools of DIR instead of bin/ (an older build).
. "$(dirname "$0")/lib.sh"
plan 11
[ -n "${FG_BIN:-}" ] && PATH=$FG_BIN:$PATH
FIX=$TMP/fix
mkdir -p "$FIX"
VIEW=$TESTS/stream/viewers.js

kinds='raw symbolized srcline wall offcpu'
if ! command -v node >/dev/null 2>&1; then
	for k in $kinds; do
		skip "$k: the Firefox Profiler takes it for perf text" "node not found (Debian: apt-get install nodejs)"
	done
	have_node=
else
	have_node=yes
fi

# heads FILE [EVENT]: the number of sample heads, of EVENT or of any.
heads() { grep -c "^[^#	 ].* [0-9]*/[0-9]* \[[0-9]*\] [0-9.]*: [0-9]* ${2:-[a-z-]*}:\$" "$1"; }

# The program: CPU time, then a sleep, then CPU time (off-CPU streams).
cc -O2 -g -fno-omit-frame-pointer -o "$FIX/sleepy" "$TESTS/pprof/sleepy.c"
rec=
if perf_ok || fgrecord --sampler=ptrace -q -o /dev/null true >/dev/null 2>&1; then
	fgrecord -q -o "$FIX/raw" "$FIX/sleepy" >/dev/null 2>&1 &&
	    fgsym "$FIX/raw" >"$FIX/symbolized" 2>"$FIX/symbolized.err" &&
	    fgsym --srcline "$FIX/raw" >"$FIX/srcline" 2>"$FIX/srcline.err" && rec=yes
	for s in "" --sampler=ptrace; do
		if fgrecord -q --wall $s -o "$FIX/w" "$FIX/sleepy" >/dev/null 2>&1 &&
		    grep -q " offcpu-time:\$" "$FIX/w" &&
		    fgrecord -q --off-cpu $s -o "$FIX/o" "$FIX/sleepy" >/dev/null 2>&1; then
			fgsym "$FIX/w" >"$FIX/wall" 2>"$FIX/wall.err"
			fgsym "$FIX/o" >"$FIX/offcpu" 2>"$FIX/offcpu.err"
			break
		fi
	done
fi
export FIX VIEW

for k in $kinds; do
	export k
	if [ -z "$have_node" ]; then
		:
	elif [ ! -s "$FIX/$k" ]; then
		skip "$k: the Firefox Profiler takes it for perf text" "fgrecord could not record here (perf_event_open and ptrace refused?)"
	else
		check "$k: the Firefox Profiler takes it for perf text, every sample" '
			head -2 "$FIX/$k" &&
			node "$VIEW" firefox "$FIX/$k" >got &&
			echo "perf $(heads "$FIX/$k")" >want &&
			test_cmp want got
		'
	fi
done

if [ -n "$have_node" ] && [ -n "$rec" ]; then
	check 'speedscope reads every sample of the first event' '
		node "$VIEW" speedscope "$FIX/symbolized" >got &&
		echo "perf $(heads "$FIX/symbolized") cpu-clock" >want &&
		test_cmp want got
	'
	check 'the rules: the layout before the fence is folded stacks to the Firefox Profiler' '
		grep -v "^# ========\$" "$FIX/symbolized" >old &&
		head -1 old | grep -q "^# fgrecord 1\$" &&
		node "$VIEW" firefox old >got &&
		echo folded >want && test_cmp want got
	'
else
	skip 'speedscope reads every sample' 'no node, or no recording'
	skip 'the rules: the old layout' 'no node, or no recording'
fi

if flamegraph_ok && [ -n "$rec" ]; then
	FG=$FLAMEGRAPH_DIR
	export FG
	check 'stackcollapse-perf.pl reads the symbolized stream: every period' '
		perl "$FG/stackcollapse-perf.pl" "$FIX/symbolized" >folded &&
		awk "{ n += \$NF } END { print n }" folded >got &&
		awk "/ cpu-clock:\$/ { n += \$(NF - 1) } END { print n }" "$FIX/symbolized" >want &&
		test_cmp want got && grep -q "^sleepy;.*;burn " folded
	'
else
	skip 'stackcollapse-perf.pl reads the stream' "${why:-no recording}"
fi

if [ -n "$rec" ]; then
	check 'the old layout (first line "# fgrecord 1"): fgsym, fgfold, fgpprof read it as the new' '
		grep -v "^# ========\$" "$FIX/raw" >old &&
		expect_status 0 fgsym old >oldsym 2>err &&
		grep -v "^# ========\$" "$FIX/symbolized" >want &&
		test_cmp want oldsym &&
		expect_status 0 fgfold old >a && expect_status 0 fgfold "$FIX/raw" >b &&
		expect_status 0 fgfold oldsym >c && expect_status 0 fgfold "$FIX/symbolized" >d &&
		test_cmp a b && test_cmp c d &&
		expect_status 0 fgpprof oldsym >p.pb.gz && test -s p.pb.gz
	'
	check 'fgsvg and fgfold --folded: a stream with the fence is read as a stream' '
		expect_status 0 fgsvg "$FIX/symbolized" >out 2>err &&
		grep_q "var fgtl = " out &&
		expect_status 2 fgfold --folded "$FIX/raw" >out 2>err &&
		grep_q "is a sample stream" err
	'
else
	skip 'the old layout: our tools read it' 'no recording'
	skip 'fgsvg and fgfold --folded: a stream with the fence is read as a stream' 'no recording'
fi

# fgsym takes the stream's addresses as ELF addresses when "# fgrecord"
# comes after the fence: in a file linked by lld, perf's file offsets
# differ from them (fg-stream(5)).
if cc -O2 -g -fuse-ld=lld -o "$FIX/lld" "$TESTS/pprof/sleepy.c" 2>/dev/null; then
	check 'fgsym: a stream that opens with the fence carries ELF addresses' '
		a=$(nm "$FIX/lld" | awk "\$3 == \"burn\" { print \$1 }") &&
		test -n "$a" &&
		printf "# ========\n# fgrecord 1\n# ========\nx 1/1 [000] 1.000000: 1 cpu-clock:\n\t%s [unknown] (%s)\n\n" \
		    "$(printf %x 0x$a)" "$FIX/lld" >in &&
		expect_status 0 fgsym in >out 2>err &&
		grep_q "^	[0-9a-f]* burn+0x0 ($FIX/lld)\$" out
	'
else
	skip 'fgsym: a stream that opens with the fence' 'cc -fuse-ld=lld failed (Debian: apt-get install lld)'
fi
done_testing
