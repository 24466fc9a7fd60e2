# rec.sh: the helpers of t420-perfdata.sh and t421-perfdata-more.sh: a
# recording made with perf record, perf script's text of it
# (--no-inline, like fgsym's side) and fgsym's stream, and the two checks
# made of each: samples per event and per thread (counts.awk), and every
# frame named alike (frames.awk). Sourced after lib.sh: sets PD
# (this folder), FIX (the recordings), CC; FG_TEST_BIN=DIR puts another
# build's fgsym and fgfold first on PATH (a build of main).

[ -n "${FG_TEST_BIN:-}" ] && PATH=$FG_TEST_BIN:$PATH
PD=$TESTS/perfdata
FIX=$TMP/fix
mkdir -p "$FIX"
CC=${CC:-cc}
export PD FIX

# rec_setup: where perf cannot record, skip_all WHY (the caller's: it
# skips every check and exits); else builds $FIX/work, and $FIX/home for
# perf record's build-ID cache ($HOME/.debug: one of the test's).
rec_setup() {
	command -v perf >/dev/null 2>&1 ||
		skip_all "perf is not installed (apt-get install linux-perf)"
	perf_ok || skip_all "$why"
	$CC -O2 -g -fno-omit-frame-pointer -pthread -Wall "$PD/work.c" \
	    -o "$FIX/work" || exit 1
	mkdir -p "$FIX/home"
}

# skip_each NAME WHY: the two checks of each recording, skipped.
skip_each() {
	skip "$1: samples per event and per thread are perf script's" "$2"
	skip "$1: each frame named as perf script names it" "$2"
}

# rec NAME PERF-RECORD-OPTIONS... -- PROGRAM ARGS: $FIX/NAME.data, its
# perf script (refs: --no-inline, like fgsym's side) and fgsym's stream.
# Fails with the reason in $why. Pipe mode when the options hold "-o -".
rec() {
	r_name=$1
	shift
	r_pipe=
	for a in "$@"; do [ "$a" = "-o" ] && r_pipe=1; done
	if [ -n "$r_pipe" ]; then
		HOME=$FIX/home perf record -q "$@" >"$FIX/$r_name.data" \
		    2>"$FIX/$r_name.log"
	else
		HOME=$FIX/home perf record -q -o "$FIX/$r_name.data" "$@" \
		    >"$FIX/$r_name.log" 2>&1
	fi || { why="perf record failed: $(grep -v '^cpu-seconds\|^Error:$\|^$' "$FIX/$r_name.log" | head -1)"; return 1; }
	ref "$r_name"
}

# ref NAME: perf script's text of $FIX/NAME.data, in $FIX/NAME.ref; fails
# with the reason in $why.
ref() {
	HOME=$FIX/home perf script -i "$FIX/$1.data" --no-inline >"$FIX/$1.ref" \
	    2>"$FIX/$1.ref.err" ||
		{ why="perf script failed: $(head -1 "$FIX/$1.ref.err")"; return 1; }
	grep -q . "$FIX/$1.ref" ||
		{ why="perf recorded no sample"; return 1; }
}

# counts NAME: fgsym's samples per event and thread are perf script's.
counts() {
	awk -f "$PD/names.awk" -f "$PD/counts.awk" "$FIX/$1.ref" | sort >want &&
	test -s want &&
	awk -f "$PD/names.awk" -f "$PD/counts.awk" "$FIX/$1.got" | sort >got &&
	test_cmp want got
}

# share NAME [EVENT] [suffix]: fgsym names every frame as perf script
# does, sample by sample and frame by frame (frames.awk): every sample of
# perf script's paired with one of fgsym's, no frame at one address
# named differently where the names are the files', and at least 90% of
# perf script's frames compared (where the unwindings part ways the rest
# is not: a floor so that the check is never empty, not a share that a
# few samples in the vDSO or the loader can sink). With $share_comm set,
# only the samples of that command count: a system-wide recording also
# holds whatever else the machine ran. Against stackcollapse-perf.pl too
# when FLAMEGRAPH_DIR has it: 99% of the folded weight (share.awk, which
# weighs each sample by its period, so fgsym's side is folded with
# fgfold --period for it; suffix: a DWARF recording's stacks that fgsym
# completed further toward main match).
share() {
	sh "$PD/aliases.sh" "$FIX/$1.ref" >aliases &&
	awk -v aliases=aliases -v event="${2:-}" -v comm="${share_comm:-}" \
	    -f "$PD/names.awk" -f "$PD/frames.awk" "$FIX/$1.ref" "$FIX/$1.got" >frames &&
	read -r s p r f m d a <frames &&
	echo "$p of $s samples paired; $f of their $r frames compared: $m named alike, $d not, $a apart" &&
	sed 1d frames &&
	test "$s" -gt 100 && test "$p" = "$s" && test "$d" = 0 &&
	test $((f * 10)) -ge $((r * 9)) &&
	if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -x "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" ]; then
		s_ev=${2:+--event-filter=$2} &&
		s_suf=0 && { [ "${3:-}" != suffix ] || s_suf=1; } &&
		"$FLAMEGRAPH_DIR/stackcollapse-perf.pl" ${2:+--event-filter=$2} \
		    "$FIX/$1.ref" >sc.all 2>sc.err &&
		grep "^${share_comm:+$share_comm;}" sc.all >sc.f &&
		{ fgfold --period $s_ev "$FIX/$1.got" >gotp.all 2>gotp.err; test $? -le 1; } &&
		grep "^${share_comm:+$share_comm;}" gotp.all >gotp.f &&
		awk -v suffix=$s_suf -v aliases=aliases -f "$PD/names.awk" -f "$PD/share.awk" sc.f gotp.f >share2 &&
		read -r m t p <share2 &&
		echo "stackcollapse-perf.pl: $m of $t samples named alike ($p%)" &&
		awk -v p="$p" 'BEGIN { exit !(p >= 99) }'
	fi
}

# got NAME [FGSYM-INPUT]: fgsym's stream of the recording, exit 0 or 1.
# The input: the file, or standard input for pipe mode.
got() {
	if [ "$1" = pipe ]; then
		fgsym --no-inline <"$FIX/$1.data" >"$FIX/$1.got" 2>"$FIX/$1.got.err"
	else
		fgsym --no-inline "$FIX/$1.data" >"$FIX/$1.got" 2>"$FIX/$1.got.err"
	fi
	g_st=$?
	[ $g_st -le 1 ] && wellformed_sym "$FIX/$1.got" ||
		{ echo "fgsym exit $g_st"; head -5 "$FIX/$1.got.err"; head -c 600 "$FIX/$1.got" | cat -v; return 1; }
}

# wellformed_sym STREAM: a text stream with samples, not binary.
wellformed_sym() {
	head -3 "$1" | grep -q "^# fgrecord 1$" &&
	! LC_ALL=C grep -q -P '[\x00-\x08]' "$1" &&
	grep -q '^[^#	 ].* [0-9]*\.[0-9]*: ' "$1"
}

# each NAME [EVENTS] [suffix]: the two common checks of one recording.
each() {
	e_name=$1 e_events=${2:-} e_suf=${3:-}
	check "$e_name: samples per event and per thread are perf script's" '
		got "$e_name" && counts "$e_name"
	'
	if [ -z "$e_events" ]; then
		check "$e_name: each frame named as perf script names it" '
			share "$e_name" "" $e_suf
		'
	else
		check "$e_name: each frame named as perf script names it" '
			for ev in $e_events; do
				echo "event $ev:" && share "$e_name" "$ev" $e_suf || exit 1
			done
		'
	fi
}

# recorded NAME PERF-RECORD-ARGS...: each NAME when it records, else skips.
recorded() {
	rd_name=$1 rd_events=$2 rd_suf=$3
	shift 3
	if rec "$rd_name" "$@"; then
		each "$rd_name" "$rd_events" "$rd_suf"
		return 0
	fi
	skip_each "$rd_name" "$why"
	return 1
}
