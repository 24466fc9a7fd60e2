#!/bin/sh
# t422-perfdata-fold: fgfold and fgsvg read perf.data themselves (issue
# 43), symbolizing in their own process: `fgfold FILE` writes the same
# stacks as `fgsym FILE | fgfold`, byte for byte, with the options that
# change what a frame becomes (--srcline, --inline-mark, --tid, --addrs),
# on real `perf record` recordings of tests/perfdata/work.c made here: -g,
# --call-graph dwarf, -z, pipe mode (-o -, read on standard input), and
# four threads. `fgsvg FILE` draws what `fgsym FILE | fgsvg` draws, and
# `fgpprof FILE` makes the profile `fgsym FILE | fgpprof` makes, as go
# tool pprof decodes it (-raw: samples, labels, locations, functions,
# mappings, comments). A perf.data cut short is said and read as far as
# it goes, as fgsym does.
# No perf script: the reference is fgsym's stream, which t420 holds to
# perf script's.
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 13
. "$TESTS/perfdata/rec.sh"

cases="g dwarf z pipe threads"

skip_all() {
	for c in $cases; do
		skip "$c: fgfold FILE folds as fgsym FILE | fgfold" "$1"
	done
	skip "g: the same with --srcline, --inline-mark, --tid, --addrs" "$1"
	skip "g: fgsvg FILE draws as fgsym FILE | fgsvg" "$1"
	skip "pipe: fgsvg reads perf record -o - on standard input" "$1"
	skip "a perf.data cut short: said, the rest folded as fgsym does" "$1"
	for c in g dwarf pipe threads; do
		skip "$c: fgpprof FILE makes fgsym FILE | fgpprof's profile" "$1"
	done
	done_testing
	exit 0
}
rec_setup

# record NAME PERF-RECORD-OPTIONS... -- PROGRAM ARGS: $FIX/NAME.data.
record() {
	r_name=$1
	shift
	case " $* " in
	*" -o - "*)
		HOME=$FIX/home perf record -q "$@" >"$FIX/$r_name.data" \
		    2>"$FIX/$r_name.log" ;;
	*)
		HOME=$FIX/home perf record -q -o "$FIX/$r_name.data" "$@" \
		    >"$FIX/$r_name.log" 2>&1 ;;
	esac || { why="perf record failed: $(head -1 "$FIX/$r_name.log")"; return 1; }
}

# same NAME [FGFOLD-OPTIONS]: fgfold on the recording (a FILE argument,
# or standard input for pipe mode) against fgsym's stream folded; both
# exit 0 or 1, with samples.
same() {
	s_name=$1
	shift
	if [ "$s_name" = pipe ]; then
		fgfold "$@" <"$FIX/$s_name.data" >one 2>one.err
	else
		fgfold "$@" "$FIX/$s_name.data" >one 2>one.err
	fi
	s_one=$?
	s_sym=
	for o in "$@"; do [ "$o" = --srcline ] && s_sym=--srcline; done
	fgsym $s_sym <"$FIX/$s_name.data" >stream 2>stream.err
	s_st=$?
	fgfold "$@" stream >two 2>two.err
	s_two=$?
	echo "fgfold FILE: exit $s_one, $(wc -l <one) stacks; fgsym | fgfold: exit $s_st/$s_two, $(wc -l <two) stacks" &&
	test $s_one -le 1 && test $s_st -le 1 && test $s_two -le 1 &&
	test -s one && test_cmp two one
}

for c in $cases; do
	case $c in
	g) set -- -g -- "$FIX/work" 0.1 ;;
	dwarf) set -- --call-graph dwarf -- "$FIX/work" 0.1 ;;
	z) set -- -z -g -- "$FIX/work" 0.1 1 ;;
	pipe) set -- -g -o - -- "$FIX/work" 0.1 1 ;;
	threads) set -- -g -- "$FIX/work" 0.05 4 ;;
	esac
	if record "$c" "$@"; then
		check "$c: fgfold FILE folds as fgsym FILE | fgfold" "same $c"
	else
		skip "$c: fgfold FILE folds as fgsym FILE | fgfold" "$why"
		[ "$c" = g ] && skip_all "$why"
	fi
done

check "g: the same with --srcline, --inline-mark, --tid, --addrs" '
	same g --srcline && grep -q "work\.c:[0-9]" one &&
	same g --inline-mark && grep -q "_\[i\]" one &&
	same g --tid && grep -q "^work-[0-9]*/[0-9]*;" one &&
	same g --addrs
'

check "g: fgsvg FILE draws as fgsym FILE | fgsvg" '
	{ fgsvg "$FIX/g.data" >one.svg 2>one.err; test $? -le 1; } &&
	{ fgsym "$FIX/g.data" 2>/dev/null | fgsvg >two.svg 2>two.err; test $? -le 1; } &&
	grep -q "leaf_mix" one.svg && test_cmp two.svg one.svg
'

if [ -s "$FIX/pipe.data" ]; then
	check "pipe: fgsvg reads perf record -o - on standard input" '
		{ cat "$FIX/pipe.data" | fgsvg >one.svg 2>one.err; test $? -le 1; } &&
		{ fgsym <"$FIX/pipe.data" 2>/dev/null | fgsvg >two.svg; test $? -le 1; } &&
		grep -q "leaf_add" one.svg && test_cmp two.svg one.svg
	'
else
	skip "pipe: fgsvg reads perf record -o - on standard input" "no pipe recording"
fi

# pprof NAME: fgpprof on the recording (a FILE argument, or standard
# input for pipe mode) against fgsym's stream made a profile, both
# decoded by go tool pprof -raw; both exit 0 or 1, with samples.
pprof() {
	if [ "$1" = pipe ]; then
		fgpprof <"$FIX/$1.data" >one.pb.gz 2>one.err
	else
		fgpprof "$FIX/$1.data" >one.pb.gz 2>one.err
	fi
	p_one=$?
	fgsym <"$FIX/$1.data" 2>/dev/null | fgpprof >two.pb.gz 2>two.err
	p_two=$?
	echo "fgpprof FILE: exit $p_one; fgsym | fgpprof: exit $p_two" &&
	test $p_one -le 1 && test $p_two -le 1 &&
	go tool pprof -raw one.pb.gz >one.raw 2>raw.err &&
	go tool pprof -raw two.pb.gz >two.raw 2>raw.err &&
	grep -q "^Samples:" one.raw && grep -q " leaf_" one.raw && grep -q "pid:\[[0-9]*\]" one.raw &&
	test_cmp two.raw one.raw
}

for c in g dwarf pipe threads; do
	if ! command -v go >/dev/null 2>&1 || ! go tool pprof -h >/dev/null 2>&1; then
		skip "$c: fgpprof FILE makes fgsym FILE | fgpprof's profile" \
		    "go not found (Debian: apt-get install golang-go)"
	elif [ ! -s "$FIX/$c.data" ]; then
		skip "$c: fgpprof FILE makes fgsym FILE | fgpprof's profile" \
		    "no $c recording"
	else
		check "$c: fgpprof FILE makes fgsym FILE | fgpprof's profile" \
		    "pprof $c"
	fi
done

# Cut in its data section: fgsym says so and exits 1; so does fgfold,
# with the stacks fgsym's stream folds to.
check "a perf.data cut short: said, the rest folded as fgsym does" '
	size=$(wc -c <"$FIX/g.data") &&
	head -c $((size * 2 / 3)) "$FIX/g.data" >cut.data &&
	{ fgfold cut.data >one 2>one.err; s_one=$?; } &&
	{ fgsym cut.data 2>/dev/null | fgfold >two 2>/dev/null; test $? -le 1; } &&
	cat one.err &&
	test $s_one = 1 && grep -q "cut.data" one.err && test -s one &&
	test_cmp two one
'

done_testing
