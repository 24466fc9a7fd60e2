#!/bin/sh
# bench/fgsym.sh: fgsym against perf script on the same recording.
#
# The recording is `perf record --call-graph dwarf` of gcc -O2 compiling a
# generated C file (FGSYM_BENCH_FUNCS functions, default 150: about 11,000
# samples). perf script unwinds and symbolizes it; fgsym gets the unwound
# stream of perf script --no-inline with every symbol blanked to
# [unknown], and symbolizes that. Reported: medians over $BENCH_RUNS runs,
# and the ratios perf script / fgsym, with and without inline expansion.
# perf script with inline expansion (its default) runs once, as it can take
# minutes; FGSYM_BENCH_PERF_INLINE=0 skips it.
. "$(dirname "$0")/lib.sh"

FGSYM=$FG_BIN/fgsym
D=$BENCH_TMP/fgsym
mkdir -p "$D"

if ! command -v perf >/dev/null 2>&1; then
	echo "   skipped: perf is not installed"
	exit 0
fi
if ! command -v gcc >/dev/null 2>&1; then
	echo "   skipped: gcc is not installed"
	exit 0
fi

gen_c "${FGSYM_BENCH_FUNCS:-150}" >"$D/big.c"

if ! perf record -q -o "$D/gcc.data" --call-graph dwarf -- \
    gcc -O2 -c "$D/big.c" -o "$D/big.o" >"$D/record.log" 2>&1; then
	echo "   skipped: perf record failed: $(head -1 "$D/record.log")"
	exit 0
fi
perf script -i "$D/gcc.data" --no-inline >"$D/ref.txt" 2>/dev/null
sed -E 's/^([ 	]+[0-9a-f]+) .* \(([^()]*)\)$/\1 [unknown] (\2)/' \
    "$D/ref.txt" >"$D/in.txt"
samples=$(grep -c 'cpu-clock' "$D/in.txt")
frames=$(grep -c '^	' "$D/in.txt")
uniq=$(grep '^	' "$D/in.txt" | sort -u | wc -l)
echo "   recording: gcc -O2 on a generated file: $samples samples, $frames frames, $uniq unique"

t_ps_noinl=$(median_time perf script -i "$D/gcc.data" --no-inline)
t_fg_noinl=$(median_time "$FGSYM" --no-inline "$D/in.txt")
t_fg_inl=$(median_time "$FGSYM" "$D/in.txt")
t_fg_src=$(median_time "$FGSYM" --srcline "$D/in.txt")
printf '   perf script --no-inline   %8.3f s (unwinding included)\n' "$t_ps_noinl"
printf '   fgsym --no-inline         %8.3f s   ratio perf/fgsym %s\n' \
    "$t_fg_noinl" "$(ratio "$t_ps_noinl" "$t_fg_noinl")"
printf '   fgsym (inline)            %8.3f s\n' "$t_fg_inl"
printf '   fgsym --srcline           %8.3f s\n' "$t_fg_src"

if [ "${FGSYM_BENCH_PERF_INLINE:-1}" != 0 ]; then
	s=$(date +%s.%N)
	timeout 1800 perf script -i "$D/gcc.data" >/dev/null 2>&1
	e=$(date +%s.%N)
	t_ps_inl=$(echo "$e - $s" | bc -l)
	printf '   perf script (inline)      %8.3f s (one run)   ratio perf/fgsym %s\n' \
	    "$t_ps_inl" "$(ratio "$t_ps_inl" "$t_fg_inl")"
fi

# Cache throughput: the same stream ten times over; all but the first
# pass are cache hits.
i=0
: >"$D/in10.txt"
while [ $i -lt 10 ]; do cat "$D/in.txt" >>"$D/in10.txt"; i=$((i + 1)); done
t10=$(median_time "$FGSYM" "$D/in10.txt")
echo "$frames $t10 $t_fg_inl" | awk '{
	d = $2 - $3
	if (d > 0)
		printf "   from the cache            %8.2f M frames/s (10 passes: %.3f s)\n", 9 * $1 / d / 1e6, $2
}'
