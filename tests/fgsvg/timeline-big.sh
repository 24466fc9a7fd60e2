#!/bin/sh
# timeline-big.sh DIR: the timeline's big profile (issue 26), in DIR:
# tests/fgsvg/timeline-big.c, built with $CC, writes a stream of
# 1,000,000 samples in over 100,000 unique stacks over twelve threads,
# twice (the same stream each time, so that no 400 MB file is kept):
# once folded by fgfold and drawn from the folded stacks (bigf.svg,
# today's graph, with no timeline), once drawn by fgsvg with its
# timeline (big.svg). Also writes big.stacks (the number of unique
# stacks) and big.samples (the sum of their counts). Exit 0 when both
# SVGs were drawn.
set -u
dir=$1
src=$(cd "$(dirname "$0")" && pwd)/timeline-big.c
${CC:-cc} -O2 -o "$dir/timeline-big" "$src" || exit 1
"$dir/timeline-big" | fgfold >"$dir/big.folded" || exit 1
wc -l <"$dir/big.folded" | tr -d ' ' >"$dir/big.stacks"
awk '{ n += $NF } END { print n }' "$dir/big.folded" >"$dir/big.samples"
fgsvg "$dir/big.folded" >"$dir/bigf.svg" || exit 1
rm -f "$dir/big.folded"
"$dir/timeline-big" | fgsvg >"$dir/big.svg"
