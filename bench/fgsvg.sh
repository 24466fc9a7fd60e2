#!/bin/sh
# bench/fgsvg.sh: time fgsvg against flamegraph.pl and inferno-flamegraph on
# the same folded file, made here deterministically: 6,000 unique deep
# stacks of C++-like compiler frames (the shape of a folded compiler run),
# counts mostly 1; then, where clang and perf_event_open are at hand, a
# real compiler run recorded by fgrecord. Prints medians and ratios.
#   FLAMEGRAPH_DIR	FlameGraph checkout (default /work/ref/FlameGraph if present)
#   INFERNO_DIR		directory holding inferno-flamegraph
#   BENCH_LINES		lines to generate (default 6000)
set -u
. "$(dirname "$0")/lib.sh"
lines=${BENCH_LINES:-6000}
in=$BENCH_TMP/fgsvg-$lines.folded

awk -v n="$lines" '
function rnd() { s = (s * 16807) % 2147483647; return s / 2147483647 }
BEGIN {
	split("clang::Sema::CheckCall clang::Parser::ParseStatement " \
	    "llvm::SelectionDAG::Legalize llvm::InstCombinerImpl::visit " \
	    "std::vector<llvm::Value*>::push_back llvm::DenseMap<unsigned,int>::grow " \
	    "clang::ASTContext::getTypeInfo llvm::PassManager<llvm::Module>::run " \
	    "clang::CodeGen::CodeGenFunction::EmitStmt llvm::MCStreamer::emitBytes " \
	    "clang::Sema::LookupName llvm::FoldingSetBase::FindNodeOrInsertPos", names, " ")
	s = 20260;
	for (i = 0; i < n; i++) {
		# a deep, branching call tree: few choices near the root, more
		# towards the leaves, so that stacks share long prefixes
		d = 20 + int(rnd() * 30);
		l = "cc1plus;main;cc1_main;clang::ExecuteCompilerInvocation";
		for (j = 4; j < d; j++)
			l = l ";" names[1 + int(rnd() * (j < 12 ? 1.3 : (j < 24 ? 3 : 12)))];
		c = int(exp(rnd() * rnd() * 11));	# heavy-tailed, as samples are
		print l, c
	}
}' >"$in"
echo "   input: $lines unique stacks, $(wc -c <"$in" | tr -d ' ') bytes"

# fgsvg and inferno take tens of milliseconds: many runs, alternated.
fast=$((BENCH_RUNS < 21 ? 21 : BENCH_RUNS))
inferno=
if [ -n "${INFERNO_DIR:-}" ] && [ -x "$INFERNO_DIR/inferno-flamegraph" ]; then
	inferno=$INFERNO_DIR/inferno-flamegraph
elif command -v inferno-flamegraph >/dev/null 2>&1; then
	inferno=$(command -v inferno-flamegraph)
fi
# The version compared against goes with the figures.
[ -n "$inferno" ] && echo "  inferno: $inferno, $("$inferno" --version 2>&1 | head -1)"
FLAMEGRAPH_DIR=${FLAMEGRAPH_DIR:-}
[ -z "$FLAMEGRAPH_DIR" ] && [ -d /work/ref/FlameGraph ] && FLAMEGRAPH_DIR=/work/ref/FlameGraph

# compare FILE: fgsvg against the reference tools found, on FILE.
compare() {
	f=$1
	if [ -n "$inferno" ]; then
		set -- $(median_alternating "$fast" fg "nice $FG_BIN/fgsvg $f" \
		    inf "nice $inferno $f")
		fg=$2 inf=$4
	else
		fg=$(BENCH_RUNS=$fast median_time nice "$FG_BIN/fgsvg" "$f")
	fi
	echo "   fgsvg               $fg s   (median of $fast)"
	if [ -n "$FLAMEGRAPH_DIR" ] && [ -f "$FLAMEGRAPH_DIR/flamegraph.pl" ]; then
		pl=$(median_time nice perl "$FLAMEGRAPH_DIR/flamegraph.pl" "$f")
		echo "   flamegraph.pl       $pl s   fgsvg is $(ratio "$pl" "$fg")x as fast (target 20x)"
	else
		echo "   flamegraph.pl not found (set FLAMEGRAPH_DIR)"
	fi
	if [ -n "$inferno" ]; then
		echo "   inferno-flamegraph  $inf s   fgsvg is $(ratio "$inf" "$fg")x as fast (target 2x; alternated runs)"
	else
		echo "   inferno not found (set INFERNO_DIR)"
	fi
	"$FG_BIN/fgsvg" "$f" >"$f.svg"
	echo "   SVG: $(wc -c <"$f.svg" | tr -d ' ') bytes, $(grep -c '<title>' "$f.svg") frames"
}
compare "$in"

# A real compiler run, as the issue describes: clang compiling four of
# fgtools' own sources, recorded with fgrecord (libLLVM's exported C++
# symbols give deep, named stacks). Recorded once, then kept.
cc_in=$BENCH_TMP/fgsvg-clang.folded
if [ ! -s "$cc_in" ] && command -v clang >/dev/null 2>&1 &&
    "$FG_BIN/fgrecord" -q -o /dev/null true 2>/dev/null; then
	top=$(cd "$(dirname "$0")/.." && pwd)
	"$FG_BIN/fgrecord" -q -F 2999 --call-graph dwarf,65528 -o "$cc_in.rec" -- \
	    sh -c "for f in sym svg record fold; do clang -O2 -g -D_GNU_SOURCE \
	    -I$top/common \$(pkg-config --cflags capstone 2>/dev/null) \
	    -c $top/common/\$f/\$f.c -o /dev/null; done" 2>/dev/null &&
	"$FG_BIN/fgsym" "$cc_in.rec" 2>/dev/null | "$FG_BIN/fgfold" >"$cc_in"
	rm -f "$cc_in.rec"
fi
if [ -s "$cc_in" ]; then
	echo "   input: clang -O2 -g on four sources, recorded: $(wc -l <"$cc_in" | tr -d ' ') unique stacks, $(wc -c <"$cc_in" | tr -d ' ') bytes"
	compare "$cc_in"
else
	echo "   (no clang, or fgrecord cannot sample here: the compiler-run input is skipped)"
fi
