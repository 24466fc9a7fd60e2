#!/bin/sh
# fgsvg-memory.sh [SAMPLES [STACKS [THREADS]]]: fgsvg's peak memory on a
# sample stream of SAMPLES samples (default 2,000,000) in STACKS unique
# stacks (default 10) over THREADS threads (default 1), one every 100 us.
# Issue 31's target: under 120 MB, because the timeline bins what it reads
# (memory by stacks and bins, not by samples). FGSVG_OLD names an older
# fgsvg to measure beside it.
. "$(dirname "$0")/lib.sh"
s=$BENCH_TMP/timeline-stream.txt
awk -v n="${1:-2000000}" -v k="${2:-10}" -v th="${3:-1}" 'BEGIN {
	for (i = 0; i < n; i++) {
		t = i * 100
		printf "app 1/%d %d.%06d: 1 cpu-clock:\n", 1 + i % th, \
		    int(t / 1000000), (t % 1000000)
		printf "\t1 leaf_%d (/bin/app)\n\t2 work_%d (/bin/app)\n", \
		    i % k, i % k % 3
		printf "\t3 main (/bin/app)\n\n"
	}
}' >"$s" || exit 1
echo "   fgsvg on $(wc -c <"$s") bytes, ${1:-2000000} samples in ${2:-10} stacks (median of $BENCH_RUNS: wall s, cpu s, peak RSS KiB):"
echo "     fgsvg        $(median_usage "$FG_BIN/fgsvg" "$s")"
[ -n "${FGSVG_OLD:-}" ] &&
	echo "     old fgsvg    $(median_usage "$FGSVG_OLD" "$s")"
rm -f "$s"
exit 0
