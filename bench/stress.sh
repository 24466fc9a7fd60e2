#!/bin/sh
# bench/stress.sh: the load figures of scripts/stress (fgfold on 10 million
# samples and 1 million unique stacks, fgsvg on 1 million unique stacks,
# fgrecord on 16 threads at 999 Hz and 10 kHz). Set BENCH_STRESS=0 to skip.
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${BENCH_STRESS:-1}" = 0 ]; then
	echo "skipped (BENCH_STRESS=0)"
	exit 0
fi
exec nice "$top/scripts/stress"
