#!/bin/sh
# t421-perfdata-more: fgsym reads perf.data (issue 25), the perf record
# options t420 does not make: -p (attach), -c, -F, -T, --switch-events,
# two events with --call-graph dwarf, -s (PERF_SAMPLE_READ), -d (data
# addresses), --call-graph lbr and a hardware event (where the machine
# has them), a program that forks and one that execs, a live pipe
# (perf record -o - | fgsym), and a recording that loses samples (-m 1 at
# the highest rate). Each is compared with perf script as t420 compares
# (tests/perfdata/rec.sh): samples per event and per thread, and each
# frame named alike, sample by sample (frames.awk: exact where the names
# are the files', frames in the vDSO, the loader or nothing counted
# apart); and what each option is about is checked on its own.
# serial
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 33
. "$TESTS/perfdata/rec.sh"

cases="attach period freq stamps switch dwarf2 read addr lbr hw fork exec live"
skip_all() {
	for c in $cases; do skip_each "$c" "$1"; done
	for c in "-c 100000: each sample's period is perf script's, the fixed one" \
	    "-F 999: the event's rate is the file's" \
	    "lost: samples per event and per thread are perf script's" \
	    "--switch-events: the switches are read, none becomes a sample" \
	    "fork: the child's samples are its own thread's, in its own function" \
	    "exec: the child's samples are named from the binary it execs" \
	    "lost: the samples lost are said as '# lost', in all as perf counts them"; do
		skip "$c" "$1"
	done
	skip_rest
}
rec_setup
$CC -O2 -g -fno-omit-frame-pointer -Wall "$PD/kids.c" -o "$FIX/kids" ||
	exit 1

# -p: kids waits asleep for its gate file, perf record attaches, the gate
# opens once perf has written its header, and perf ends with the program.
attach() {
	"$FIX/kids" gate "$FIX/gate" 0.3 &
	a_kid=$!
	HOME=$FIX/home perf record -q -g -o "$FIX/attach.data" -p $a_kid \
	    >"$FIX/attach.log" 2>&1 &
	a_perf=$!
	wait_for 120 test -s "$FIX/attach.data" >/dev/null
	touch "$FIX/gate"
	wait $a_kid
	wait $a_perf
	a_st=$?
	# perf record -p ends with its target: 0, or the signal's status
	[ -s "$FIX/attach.data" ] && [ $a_st -le 1 ] ||
		{ why="perf record -p failed ($a_st): $(head -1 "$FIX/attach.log")"; return 1; }
	ref attach
}
if attach; then
	each attach "" ""
else
	skip_each attach "$why"
fi

# -c: a fixed period, which perf's samples then do not carry (no
# PERIOD in sample_type): each one's is the attribute's, as perf script
# prints it
if recorded period "" "" -c 100000 -g -- "$FIX/work" 0.3; then
	check "-c 100000: each sample's period is perf script's, the fixed one" '
		HOME=$FIX/home perf script -i "$FIX/period.data" -F time,period \
		    >pp 2>pp.err &&
		awk "NF { print \$1, \$2 }" pp | sort >want &&
		grep_q "^[0-9.]*: 100000\$" want &&
		awk "/^[^#\t]/ { print \$(NF - 2), \$(NF - 1) }" "$FIX/period.got" |
		    sort >got &&
		test_cmp want got &&
		grep_q "^# event : cpu-clock[:a-z]* period 100000 callgraph fp\$" \
		    "$FIX/period.got"
	'
else
	skip "-c 100000: each sample's period is perf script's, the fixed one" "$why"
fi
if recorded freq "" "" -F 999 -g -- "$FIX/work" 0.3; then
	check "-F 999: the event's rate is the file's" '
		grep_q "^# event : cpu-clock[:a-z]* freq 999 callgraph fp\$" "$FIX/freq.got"
	'
else
	skip "-F 999: the event's rate is the file's" "$why"
fi
recorded stamps "" "" -T -g -- "$FIX/work" 0.3
if recorded switch "" "" --switch-events -g -- "$FIX/work" 0.2 1; then
	# perf script's samples are the ones counted by each; its switches
	# are there, and none of them became a sample of fgsym's
	check "--switch-events: the switches are read, none becomes a sample" '
		HOME=$FIX/home perf script -i "$FIX/switch.data" --show-switch-events \
		    -F comm,tid,time,event >sw 2>/dev/null &&
		n=$(grep -c "PERF_RECORD_SWITCH" sw) && echo "$n switches" &&
		test "$n" -gt 0 &&
		test "$(grep -c "^[^#	].*: [0-9]* [a-z:-]*:\$" "$FIX/switch.got")" \
		    -eq "$(grep -vc "PERF_RECORD_SWITCH" sw)" &&
		! grep -q "[Ss]witch" "$FIX/switch.got.err"
	'
else
	skip "--switch-events: the switches are read, none becomes a sample" "$why"
fi
recorded dwarf2 "task-clock cpu-clock" suffix -e task-clock -e cpu-clock \
    --call-graph dwarf -- "$FIX/work" 0.3
recorded read "" "" -s -g -- "$FIX/work" 0.2 2
recorded addr "" "" -d -g -- "$FIX/work" 0.3
# Where the machine has neither LBR nor a hardware counter (a VM), perf
# record refuses them: skipped with its reason.
recorded lbr "" "" --call-graph lbr -- "$FIX/work" 0.3
recorded hw "" "" -e instructions -g -- "$FIX/work" 0.3

if recorded fork "" "" -g -- "$FIX/kids" fork 0.3; then
	check "fork: the child's samples are its own thread's, in its own function" '
		awk "/^[^#	]/ { tid = \$2 } /	.* child_spin\\+/ { c[tid]++ }
		    /	.* parent_spin\\+/ { p[tid]++ }
		    END { for (t in c) if (c[t] > 10 && !(t in p)) okc = 1
		        for (t in p) if (p[t] > 10 && !(t in c)) okp = 1
		        exit !(okc && okp) }" "$FIX/fork.got"
	'
else
	skip "fork: the child's samples are its own thread's, in its own function" "$why"
fi
if recorded exec "" suffix --call-graph dwarf -- "$FIX/kids" exec 0.2 \
    "$FIX/work" 0.3; then
	# the child execs work: its samples after the exec (comm work) are
	# named in work, none of them in kids
	check "exec: the child's samples are named from the binary it execs" '
		awk -v w="($FIX/work)" -v k="($FIX/kids)" "
		    /^[^#	]/ { inw = \$1 == \"work\"; next }
		    inw && index(\$0, w) && / leaf_mix\\+/ { n++ }
		    inw && index(\$0, k) { bad++ }
		    END { printf \"%d in work, %d in kids\\n\", n, bad; exit !(n > 10 && !bad) }" \
		    "$FIX/exec.got" &&
		grep -q "	.* before_exec+0x[0-9a-f]* ($FIX/kids)\$" "$FIX/exec.got"
	'
else
	skip "exec: the child's samples are named from the binary it execs" "$why"
fi

# A live pipe: fgsym reads perf record's output as it comes; tee keeps
# the bytes for perf script. Each stage's status and stderr are kept
# (pipeline, lib.sh): $FIX/live.got.N.rc and .N.err.
live() {
	pipeline "$FIX/live.got" \
	    'HOME=$FIX/home perf record -q -g -o - -- "$FIX/work" 0.3 1' \
	    'tee "$FIX/live.data"' 'fgsym --no-inline' >"$FIX/live.pipe"
	[ "$(cat "$FIX/live.got.1.rc")" = 0 ] ||
		{ why="perf record failed: $(head -1 "$FIX/live.got.1.err")"; return 1; }
	ref live
}
if live; then
	check "live: samples per event and per thread are perf script's" '
		cat "$FIX/live.pipe" &&
		test "$(cat "$FIX/live.got.2.rc")" = 0 &&
		l_st=$(cat "$FIX/live.got.3.rc") &&
		{ [ $l_st -le 1 ] || { echo "fgsym exit $l_st"; cat "$FIX/live.got.3.err"; false; }; } &&
		wellformed_sym "$FIX/live.got" && counts live
	'
	check "live: each frame named as perf script names it" '
		share live "" ""
	'
else
	skip_each live "$why"
fi

# Losses: one page of buffer, the highest rate, five threads. perf
# counts them twice over: LOST records as the kernel reports them while
# it records, and LOST_SAMPLES that perf record writes at its end from
# each event's count of its own losses (read_format LOST); both count
# the same samples, so the loss is the larger of the two sums, not both.
# The frames are not compared: the program's MMAP2 records are lost too.
if rec lost -m 1 -F max -g -- "$FIX/work" 0.3 4; then
	check "lost: samples per event and per thread are perf script's" '
		got lost && counts lost
	'
	HOME=$FIX/home perf script -i "$FIX/lost.data" -D >"$FIX/lost.dump" 2>/dev/null
	awk '/PERF_RECORD_LOST:/ { sub(/.*lost:/, ""); l += $1 }
		/PERF_RECORD_LOST_SAMPLES:/ { sub(/.*lost samples :/, ""); s += $1 }
		END { print l + 0, s + 0 }' "$FIX/lost.dump" >"$FIX/lost.perf"
	read -r lr ls <"$FIX/lost.perf"
	if [ "$lr" -gt 0 ] || [ "$ls" -gt 0 ]; then
		check "lost: the samples lost are said as '# lost', in all as perf counts them" '
			want=$lr && { [ "$ls" -le "$lr" ] || want=$ls; } &&
			echo "perf: $lr in LOST records, $ls in LOST_SAMPLES: $want lost" &&
			n=$(awk "/^# lost : [0-9]+\$/ { s += \$4 } END { print s + 0 }" "$FIX/lost.got") &&
			echo "fgsym: $n in its # lost lines" && test "$n" -eq "$want" &&
			grep_q "^fgsym: [0-9]* samples over [0-9.]* s, $want lost," "$FIX/lost.got.err"
		'
	else
		skip "lost: the samples lost are said as '# lost', in all as perf counts them" \
		    "perf lost nothing on this run (an idle machine keeps up even with -m 1)"
	fi
else
	skip "lost: samples per event and per thread are perf script's" "$why"
	skip "lost: the samples lost are said as '# lost', in all as perf counts them" "$why"
fi
done_testing
