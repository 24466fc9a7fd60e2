#!/bin/sh
# bench/perfdata.sh: fgsym perf.data against perf script on the same file.
#
# Two recordings of gcc -O2 -g compiling a generated C file with inline
# helpers (gen_c): perf record -g (frame pointers, -F 25000: gcc has no
# frame pointers, so its chains are short and a big file needs many
# samples) and --call-graph dwarf. They are made once and kept in
# $BENCH_TMP/perfdata (build/bench under bench/run), named by their size,
# so that the next run measures at once (PERFDATA_BENCH_FILE=F measures
# only the picture's rows, on the frame-pointer recording F, and records
# nothing): about 50 MB each by default;
# PERFDATA_BENCH_BIG=1 makes them about 130 MB (fp) and 400 MB (dwarf),
# and a third of about 1.5 GB (dwarf) that shows memory stays flat.
#
# On each, side by side: fgsym FILE (the reader, the unwinding of DWARF
# stacks, symbols with inline frames), fgsym --no-inline, perf script
# --no-inline, and perf script with inline frames (once: it can take
# minutes; PERFDATA_BENCH_PERF_INLINE=0 skips it), and an older fgsym
# when PERFDATA_BENCH_OLD names one (a build of main, say). Medians over
# $BENCH_RUNS runs of the wall time, the CPU time (user and system, with
# any children) and the peak resident set, and the ratios perf script /
# fgsym; on a busy machine the CPU time is the figure to compare;
# the targets of issue 25: 100x against perf script with inline frames,
# 10x against --no-inline on frame pointers, 3x on DWARF.
#
# perf.data to a picture (issue 43), on the frame-pointer recording:
# fgsvg FILE (one process; with its timeline, and without), fgsym FILE |
# fgfold | fgsvg, and the pipeline
# cargo-flamegraph runs, perf script --no-inline | inferno-collapse-perf |
# inferno-flamegraph (or FlameGraph's stackcollapse-perf.pl | flamegraph.pl
# from FLAMEGRAPH_DIR) when present; and perf script --no-inline alone,
# which the pipeline can only be slower than, with a line that says how
# far fgsvg FILE is from the target: 10x faster than it. fgpprof FILE (one
# process) beside fgsym FILE | fgpprof, the same profile.
. "$(dirname "$0")/lib.sh"

FGSYM=$FG_BIN/fgsym
D=$BENCH_TMP/perfdata
mkdir -p "$D"

for t in perf gcc; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "   skipped: $t is not installed"
		exit 0
	fi
done

# record NAME FUNCS PERF-RECORD-OPTIONS...: NAME.data, of gcc compiling
# gen_c FUNCS, unless it is there from an earlier run (NAME.ok).
record() {
	name=$1 funcs=$2
	shift 2
	[ -f "$D/$name.ok" ] && [ -f "$D/$name.data" ] && return 0
	rm -f "$D/$name.ok"
	[ -f "$D/gen$funcs.c" ] || gen_c "$funcs" >"$D/gen$funcs.c"
	echo "   recording $name.data (once; kept in $D)"
	if ! perf record -q -o "$D/$name.data" "$@" -- \
	    gcc -O2 -g -c "$D/gen$funcs.c" -o "$D/$name.o" >"$D/$name.log" 2>&1; then
		echo "   $name: skipped: perf record failed: $(head -1 "$D/$name.log")"
		return 1
	fi
	touch "$D/$name.ok"
}

# row WHAT WALL CPU RSS [RATIO]: one line of the table.
row() {
	printf '     %-28s %8.3f s  cpu %7.3f s  rss %7s KiB%s\n' "$1" "$2" "$3" \
	    "$4" "${5:+   $5}"
}

# picture FILE: perf.data to an SVG, fgsvg's ways and perf's.
picture() {
	pf=$1
	set -- $(median_usage "$FG_BIN/fgsvg" "$pf")
	svg_w=$1 svg_c=$2
	row "fgsvg perf.data" "$1" "$2" "$3"
	# the timeline is what a stream gets and folded stacks do not
	set -- $(median_usage "$FG_BIN/fgsvg" --no-timeline "$pf")
	row "fgsvg --no-timeline perf.data" "$1" "$2" "$3"
	set -- $(median_usage sh -c "'$FGSYM' '$pf' 2>/dev/null | '$FG_BIN/fgfold' 2>/dev/null | '$FG_BIN/fgsvg'")
	row "fgsym | fgfold | fgsvg" "$1" "$2" "$3" \
	    "/fgsvg perf.data $(ratio "$1" "$svg_w")x (cpu $(ratio "$2" "$svg_c")x)"
	if command -v inferno-collapse-perf >/dev/null 2>&1 &&
	    command -v inferno-flamegraph >/dev/null 2>&1; then
		set -- $(median_usage sh -c "perf script -i '$pf' --no-inline 2>/dev/null | inferno-collapse-perf | inferno-flamegraph")
		row "perf script | inferno" "$1" "$2" "$3" \
		    "/fgsvg perf.data $(ratio "$1" "$svg_w")x (cpu $(ratio "$2" "$svg_c")x)"
	fi
	fgd=${FLAMEGRAPH_DIR:-}
	if [ -n "$fgd" ] && [ -x "$fgd/stackcollapse-perf.pl" ]; then
		set -- $(median_usage sh -c "perf script -i '$pf' --no-inline 2>/dev/null | '$fgd/stackcollapse-perf.pl' | '$fgd/flamegraph.pl'")
		row "perf script | FlameGraph" "$1" "$2" "$3" \
		    "/fgsvg perf.data $(ratio "$1" "$svg_w")x (cpu $(ratio "$2" "$svg_c")x)"
	fi
	# the floor of any pipeline that starts with perf script's text,
	# shown even beside inferno: issue 43's target is 10x against it
	set -- $(median_usage perf script -i "$pf" --no-inline)
	row "perf script --no-inline alone" "$1" "$2" "$3" \
	    "/fgsvg perf.data $(ratio "$1" "$svg_w")x (cpu $(ratio "$2" "$svg_c")x)"
	echo "     issue 43's target: fgsvg perf.data 10x faster than perf script --no-inline alone; now $(ratio "$2" "$svg_c")x in CPU, $(ratio "$1" "$svg_w")x in wall time"
	# the pprof profile: one process against the pipeline
	set -- $(median_usage "$FG_BIN/fgpprof" "$pf")
	pp_w=$1 pp_c=$2
	row "fgpprof perf.data" "$1" "$2" "$3"
	set -- $(median_usage sh -c "'$FGSYM' '$pf' 2>/dev/null | '$FG_BIN/fgpprof'")
	row "fgsym | fgpprof" "$1" "$2" "$3" \
	    "/fgpprof perf.data $(ratio "$1" "$pp_w")x (cpu $(ratio "$2" "$pp_c")x)"
}

# one NAME FUNCS PERF-RECORD-OPTIONS...: records (once) and measures.
one() {
	name=$1
	record "$@" || return
	f=$D/$name.data
	size=$(wc -c <"$f")
	samples=$(perf script -i "$f" -F tid 2>/dev/null | wc -l)
	echo "   $name: gcc -O2 -g, $samples samples, $((size / 1048576)) MiB"
	set -- $(median_usage "$FGSYM" "$f")
	fg_w=$1
	row "fgsym perf.data" "$1" "$2" "$3"
	if [ -n "${PERFDATA_BENCH_OLD:-}" ]; then
		set -- $(median_usage "$PERFDATA_BENCH_OLD" "$f")
		row "old fgsym perf.data" "$1" "$2" "$3"
	fi
	set -- $(median_usage "$FGSYM" --no-inline "$f")
	fgn_w=$1
	row "fgsym --no-inline perf.data" "$1" "$2" "$3"
	set -- $(median_usage perf script -i "$f" --no-inline)
	row "perf script --no-inline" "$1" "$2" "$3" \
	    "perf/fgsym --no-inline $(ratio "$1" "$fgn_w")x"
	case $name in fp*) picture "$f" ;; esac
	if [ "${PERFDATA_BENCH_PERF_INLINE:-1}" != 0 ]; then
		set -- $(BENCH_RUNS=1 median_usage timeout 1800 \
		    perf script -i "$f" --inline)
		row "perf script (inline, once)" "$1" "$2" "$3" \
		    "perf/fgsym $(ratio "$1" "$fg_w")x"
	fi
}

if [ -n "${PERFDATA_BENCH_FILE:-}" ]; then
	# a frame-pointer recording of one's own: the picture's rows only
	echo "   $PERFDATA_BENCH_FILE: $(perf script -i "$PERFDATA_BENCH_FILE" -F tid 2>/dev/null | wc -l) samples"
	picture "$PERFDATA_BENCH_FILE"
elif [ "${PERFDATA_BENCH_BIG:-0}" = 1 ]; then
	one fp-130m 3000 -g -F 25000
	one dwarf-400m 1000 --call-graph dwarf
	PERFDATA_BENCH_PERF_INLINE=0 one dwarf-1500m 3000 --call-graph dwarf
else
	one fp-50m 1200 -g -F 25000
	one dwarf-50m 120 --call-graph dwarf
fi
