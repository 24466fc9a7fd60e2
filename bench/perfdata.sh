#!/bin/sh
# bench/perfdata.sh: fgsym perf.data against perf script on the same file.
#
# Two recordings of gcc -O2 -g compiling a generated C file with inline
# helpers (PERFDATA_BENCH_FUNCS functions, default 150): perf record -g
# (frame pointers) and --call-graph dwarf. On each, side by side: fgsym
# FILE (the reader, the unwinding of DWARF stacks, symbols with inline
# frames), perf script --no-inline, and perf script (with inline frames,
# once: it can take minutes; PERFDATA_BENCH_PERF_INLINE=0 skips it).
# Medians over $BENCH_RUNS runs, and the ratios perf script / fgsym; the
# targets of issue 25: 100x against perf script with inline frames, 10x
# against --no-inline on frame pointers, 3x on DWARF.
. "$(dirname "$0")/lib.sh"

: "${FG_BIN:=$(cd "$(dirname "$0")/../bin" && pwd)}"
: "${BENCH_TMP:=${TMPDIR:-/tmp}}"
: "${BENCH_RUNS:=5}"
FGSYM=$FG_BIN/fgsym
D=$BENCH_TMP/perfdata
mkdir -p "$D"

for t in perf gcc; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "   skipped: $t is not installed"
		exit 0
	fi
done

gen_c "${PERFDATA_BENCH_FUNCS:-150}" >"$D/big.c"

# one NAME PERF-RECORD-OPTIONS...: records and measures one file.
one() {
	name=$1
	shift
	if ! perf record -q -o "$D/$name.data" "$@" -- \
	    gcc -O2 -g -c "$D/big.c" -o "$D/big.o" >"$D/$name.log" 2>&1; then
		echo "   $name: skipped: perf record failed: $(head -1 "$D/$name.log")"
		return
	fi
	size=$(wc -c <"$D/$name.data")
	samples=$(perf script -i "$D/$name.data" -F tid 2>/dev/null | wc -l)
	echo "   $name: gcc -O2 -g, $samples samples, $((size / 1024)) KiB"
	t_fg=$(median_time "$FGSYM" "$D/$name.data")
	t_fgn=$(median_time "$FGSYM" --no-inline "$D/$name.data")
	t_noinl=$(median_time perf script -i "$D/$name.data" --no-inline)
	printf '     fgsym perf.data             %8.3f s\n' "$t_fg"
	printf '     fgsym --no-inline perf.data %8.3f s\n' "$t_fgn"
	printf '     perf script --no-inline     %8.3f s   ratio perf/fgsym --no-inline %s\n' \
	    "$t_noinl" "$(ratio "$t_noinl" "$t_fgn")"
	if [ "${PERFDATA_BENCH_PERF_INLINE:-1}" != 0 ]; then
		s=$(date +%s.%N)
		timeout 1800 perf script -i "$D/$name.data" --inline >/dev/null 2>&1
		e=$(date +%s.%N)
		t_inl=$(echo "$e - $s" | bc -l)
		printf '     perf script --inline        %8.3f s (one run)   ratio perf/fgsym %s\n' \
		    "$t_inl" "$(ratio "$t_inl" "$t_fg")"
	fi
}
one fp -g
one dwarf --call-graph dwarf
