#!/bin/sh
# t419-perfdata-quick: the perf.data check make check runs (the others,
# t420 and t421, are slow: many recordings, -a, Rust). One real `perf
# record -g` of tests/perfdata/work.c for 0.3 s, read by fgsym: its
# samples per event and per thread are perf script's, and it names each
# frame as perf script does, sample by sample (tests/perfdata/rec.sh).
. "$(dirname "$0")/lib.sh"
plan 2
. "$TESTS/perfdata/rec.sh"

skip_all() {
	skip_rest "$1"
}
rec_setup

recorded g "" "" -g -- "$FIX/work" 0.3

done_testing
