#!/bin/sh
# t160-fgpprof: real recordings of a C and a Rust program built here, turned
# into pprof profiles by fgpprof and read by Debian's go tool pprof: the
# totals, the hottest function, the stacks, source lines, thread labels and
# mappings agree with the stream and with fgfold.
. "$(dirname "$0")/lib.sh"
plan 16
# FG_BIN=DIR runs the tools of DIR instead of bin/ (an older build).
[ -n "${FG_BIN:-}" ] && PATH=$FG_BIN:$PATH
FIX=$TMP/fix
mkdir -p "$FIX"

names='C Rust'
if ! command -v go >/dev/null 2>&1 || ! go tool pprof -h >/dev/null 2>&1; then
	skip "the start, the duration, file names and system names" "go not found (Debian: apt-get install golang-go)"
	skip "unnamed frames: the names of fgfold are the names of pprof, DSO by DSO" "go not found (Debian: apt-get install golang-go)"
	for n in $names; do
		skip "$n: go tool pprof reads the profile" "go not found (Debian: apt-get install golang-go)"
	done
	skip_rest
fi

# pp ARGS...: go tool pprof, output on stdout, its exit status kept.
pp() { go tool pprof "$@" 2>"$FIX/pprof.err" || { cat "$FIX/pprof.err"; return 1; }; }

# fg-stream(5)'s "# start": the recording's date (time_nanos) and the
# duration from it to the end of the last sample (an off-CPU one ends its
# period after its time stamp). Functions with no source file have their
# DSO for a file, so that the source view of go tool pprof -http keeps the
# kernel's apart from the rest; every function has its system name (-raw
# shows "(NAME)" after one whose system name differs from its name).
check "-raw: the start, the duration, file names and system names" '
	printf "%s\n" "# ========" "# fgrecord 1" "# start : 1000.250000000 50.000000000" \
	    "# ========" "app 7/7 [000] 51.000000: 1000000 cpu-clock:" \
	    "	ffffffff81000130 entry_SYSCALL_64+0x10 ([kernel.kallsyms])" \
	    "	1f3a4 main+0x4 (/bin/app)" "  app.c:7" \
	    "	1f000 _start+0x4 (/bin/app)" "" \
	    "app 7/7 [000] 52.000000: 2000000000 offcpu-time:" \
	    "	1f3a4 main+0x4 (/bin/app)" "  app.c:7" "" >in &&
	expect_status 0 fgpprof in >p.pb.gz &&
	TZ=UTC pp -raw p.pb.gz >raw &&
	cat raw &&
	grep_q "^Time: 1970-01-01 00:16:40.25 +0000 UTC\$" raw &&
	grep_q "^Duration: 4s\$" raw &&
	grep_q "^ *[0-9]*: 0xffffffff81000130 M=[0-9]* entry_SYSCALL_64 \[kernel.kallsyms\]:0 s=0\$" raw &&
	grep_q "^ *[0-9]*: 0x1f000 M=[0-9]* _start \[/bin/app\]:0 s=0\$" raw &&
	grep_q "^ *[0-9]*: 0x1f3a4 M=[0-9]* main app.c:7 s=0\$" raw &&
	! grep -q "s=0(" raw
'

# One name for one thing: a frame no symbol names is called by its DSO,
# the same way by fgfold and by fgpprof (fgfold's [[vdso]] was pprof's
# [vdso]: t160's -traces check failed when a sample of a real recording
# landed in the vDSO). Here each kind of DSO has such a frame in every run.
check "unnamed frames: the names of fgfold are the names of pprof, DSO by DSO" '
	printf "%s\n" "# ========" "# fgrecord 1" "# ========" \
	    "app 7/7 [000] 51.000000: 1000000 cpu-clock:" \
	    "	7ffd1234 [unknown] ([vdso])" \
	    "	7ffd1240 [unknown] (/tmp/nosuch.so)" \
	    "	1234 [unknown] ([unknown])" \
	    "	ffffffff81000000 [unknown] ([kernel.kallsyms])" \
	    "	1f3a4 main+0x4 (/bin/app)" "" >in &&
	expect_status 0 fgfold --no-comm in >expect 2>err &&
	! grep -v "put fgsym between" err &&
	expect_status 0 fgpprof in >p.pb.gz 2>err && test ! -s err &&
	pp -traces -sample_index=samples p.pb.gz >traces &&
	awk -f "$TESTS/pprof/traces.awk" traces >actual &&
	test_cmp expect actual
'

if ! perf_ok; then
	for n in $names; do skip "$n: go tool pprof reads the profile" "$why"; done
	skip_rest
fi

# The first function of a table: fgfold --top's, pprof -top's.
fold_hot() { sed -n '3{s/^ *[^ ]* *[^ ]* *[^ ]* *[^ ]* *//;p}' "$1"; }
pprof_hot() { sed -n '/flat%/{n;s/^ *[^ ]* *[^ ]* *[^ ]* *[^ ]* *[^ ]* *//;s/ (inline)$//;p;q}' "$1"; }

# profile_checks NAME BIN SRC: the checks on one program's recording.
profile_checks() {
	name=$1 bin=$2 src=$3
	check "$name: -top: all the stream's samples, the hottest function as fgfold's" '
		fgrecord -q -o rec "$bin" &&
		fgsym --srcline rec >sym &&
		fgpprof sym >p.pb.gz &&
		n=$(grep -c " cpu-clock:\$" sym) &&
		pp -top -sample_index=samples p.pb.gz >top &&
		cat top &&
		grep_q "Total samples = $n *\$" top &&
		fgfold --top=3 sym >ftop &&
		cat ftop &&
		test "$(pprof_hot top)" = "$(fold_hot ftop)" &&
		grep_q "crunch" top &&
		pp -top p.pb.gz >cpu &&
		grep_q "^Type: cpu\$" cpu &&
		grep_q "^Duration: " cpu
	'
	check "$name: -traces: the same stacks and counts as fgfold" '
		fgrecord -q -o rec "$bin" &&
		fgsym --srcline rec >sym &&
		fgpprof sym >p.pb.gz &&
		pp -traces -sample_index=samples p.pb.gz >traces &&
		awk -f "$TESTS/pprof/traces.awk" traces >t.folded &&
		awk "{ c = \$NF; \$NF = \"\"; sub(/ \$/, \"\"); a[\$0] += c }
		    END { for (k in a) print k, a[k] }" t.folded | sort >actual &&
		expect_status 0 fgfold --no-comm sym >folded 2>err && test ! -s err &&
		sort folded >expect &&
		test_cmp expect actual
	'
	check "$name: -lines: source lines of the program" '
		fgrecord -q -o rec "$bin" &&
		fgsym --srcline rec >sym &&
		fgpprof sym >p.pb.gz &&
		pp -top -lines p.pb.gz >lines &&
		cat lines &&
		grep_q "crunch .*$src:[0-9][0-9]*" lines
	'
	check "$name: -tags: one tid label per thread of the stream" '
		fgrecord -q -o rec "$bin" &&
		fgpprof rec >p.pb.gz &&
		pp -tags -sample_index=samples p.pb.gz >tags &&
		cat tags &&
		sed -n "s/^[^ ].* [0-9]*\/\([0-9]*\) .* cpu-clock:\$/\1/p" rec | sort -u >expect &&
		sed -n "/^ tid:/,/^\$/s/^ *[0-9.]* ([ 0-9.]*%): \([0-9]*\)\$/\1/p" tags | sort -u >actual &&
		test_cmp expect actual &&
		grep_q "^ comm: " tags
	'
	check "$name: -raw: the leaf addresses; the program is mapping 1, with its build ID" '
		fgrecord -q -o rec "$bin" &&
		fgsym rec >sym &&
		fgpprof sym >p.pb.gz &&
		pp -raw p.pb.gz >raw &&
		id=$(sed -n "s|^# buildid : \([0-9a-f]*\) $bin\$|\1|p" sym) &&
		test -n "$id" &&
		grep_q "^1: 0x0/0x0/0x0 $bin $id " raw &&
		t=$(sed -n "s/^# start : \([0-9]*\)\..*/\1/p" rec) &&
		test -n "$t" &&
		TZ=UTC pp -raw p.pb.gz >utc &&
		grep_q "^Time: $(date -u -d "@$t" "+%Y-%m-%d %H:%M:%S")" utc &&
		a=$(awk "/ cpu-clock:\$/ { getline; print \$1; exit }" sym) &&
		grep_q "^ *[0-9]*: 0x$a M=" raw
	'
	check "$name: an unsymbolized stream: pprof symbolizes it from the binary" '
		fgrecord -q -o rec "$bin" &&
		fgpprof rec >p.pb.gz &&
		pp -top p.pb.gz >top &&
		cat top &&
		grep_q "crunch" top
	'
}

cc -O2 -g -fno-omit-frame-pointer -pthread -o "$FIX/hotc" "$TESTS/pprof/hotc.c" &&
	profile_checks C "$FIX/hotc" hotc.c
if command -v perf >/dev/null 2>&1; then
	check "C: perf script's stream, through fgsym: every sample, cpu time, the hot function" '
		perf record -q -g -o perf.data "$FIX/hotc" >/dev/null 2>&1 &&
		perf script -i perf.data >perf.txt 2>/dev/null &&
		n=$(grep -c " cpu-clock" perf.txt) &&
		{ fgsym perf.txt >sym 2>err || test $? = 1; } &&
		fgpprof sym >p.pb.gz &&
		pp -top -sample_index=samples p.pb.gz >top &&
		grep_q " of $n total\$" top &&
		test "$(pprof_hot top)" = crunch &&
		pp -top p.pb.gz >cpu &&
		grep_q "^Type: cpu\$" cpu
	'
else
	skip "C: perf script's stream" "perf not found (Debian: apt-get install linux-perf)"
fi
# Off-CPU and wall time: fgrecord --wall writes cpu-clock and offcpu-time
# samples (fg-stream(5)). Where this fgrecord has no --wall, or needs the
# ptrace sampler for it, the check says so.
cc -O2 -g -fno-omit-frame-pointer -o "$FIX/sleepy" "$TESTS/pprof/sleepy.c"
wall=
for s in "" --sampler=ptrace; do
	if fgrecord -q --wall $s -o "$FIX/wall.rec" "$FIX/sleepy" >/dev/null 2>&1 &&
	    grep -q " offcpu-time:\$" "$FIX/wall.rec"; then
		wall=yes
		break
	fi
done
if [ -n "$wall" ]; then
	check "--wall: cpu, off-cpu and wall types; wall is every sample's period" '
		fgsym "$FIX/wall.rec" >sym 2>err &&
		fgpprof sym >p.pb.gz &&
		pp -raw p.pb.gz >raw &&
		grep_q "^samples/count cpu/nanoseconds off-cpu/nanoseconds wall/nanoseconds\[dflt\]\$" raw &&
		n=$(grep -c " \(cpu-clock\|offcpu-time\):\$" sym) &&
		ns=$(awk "/ (cpu-clock|offcpu-time):\$/ { s += \$(NF - 1) } END { printf \"%.0f\", s }" sym) &&
		pp -top -sample_index=samples p.pb.gz >top &&
		grep_q " of $n total\$" top &&
		pp -top -unit=ns p.pb.gz >wall &&
		grep_q "^Type: wall\$" wall &&
		grep_q " of ${ns}ns total\$" wall &&
		pp -top -sample_index=off-cpu p.pb.gz >off &&
		grep_q " nap\$" off &&
		grep_q " usleep\$" off
	'
else
	skip "--wall: cpu, off-cpu and wall types" "this fgrecord has no --wall (fgrecord --help)"
fi
if command -v rustc >/dev/null 2>&1 &&
    rustc -O -g "$TESTS/pprof/hotrs.rs" -o "$FIX/hotrs" >"$FIX/rustc.log" 2>&1; then
	profile_checks Rust "$FIX/hotrs" hotrs.rs
else
	skip "Rust: go tool pprof reads the profile" "rustc not found or failed (Debian: apt-get install rustc)"
fi
done_testing
