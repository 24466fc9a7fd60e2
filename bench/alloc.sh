#!/bin/sh
# bench/alloc.sh: the cost of fgrecord --alloc at its default sampling
# (one sample per 512 KiB on average) on two allocation-heavy programs:
# bench/alloc/churn.c (ten million small blocks allocated and freed) and
# the alloc-loop example's Rust "before" (a HashMap built per call, the
# seed's program), when cargo can build it. Each is run bare, under
# fgrecord --alloc, and under heaptrack when it is installed (apt-get
# install heaptrack), in turn, BENCH_RUNS times; medians of the wall time
# and the ratios to the bare run. Targets: --alloc at most x1.3 of the
# bare run, and at most a third of heaptrack's time. The "hooks" row is
# --alloc with no sample ever taken (-c 1e15): the hooks' fast path and
# fgrecord's start alone, the rest of the cost being the samples'.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
FG_BIN=${FG_BIN:-$top/bin}
BENCH_RUNS=${BENCH_RUNS:-5}
T=${BENCH_TMP:-$top/build/bench}/alloc
mkdir -p "$T"
N=${ALLOC_BENCH_N:-10000000}

cc=${CC:-cc}
$cc -O2 -g -o "$T/churn" "$top/bench/alloc/churn.c" || {
	echo "   cannot build bench/alloc/churn.c"; exit 1; }
progs="churn"
if command -v cargo >/dev/null 2>&1 &&
    cargo build -q --release --offline --bin before \
    --manifest-path "$top/examples/alloc-loop/rust/Cargo.toml" \
    --target-dir "$T/cargo" 2>"$T/cargo.err"; then
	progs="$progs hashmap"
else
	echo "   the Rust program is left out: cargo cannot build examples/alloc-loop/rust ($(head -1 "$T/cargo.err" 2>/dev/null))"
fi
have_ht=no
command -v heaptrack >/dev/null 2>&1 && have_ht=yes

cmd_of() {
	case $1 in
	churn) echo "$T/churn $N" ;;
	hashmap) echo "$T/cargo/release/before" ;;
	esac
}

med() { sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "%.3f", a[int((NR + 1) / 2)]; else printf "nan" }'; }
# wall CMD...: "WALL CPU" in seconds, CPU being user and system time of
# CMD and its children (fgrecord's own included), which a busy machine
# changes less than the wall time; "-" without GNU time.
wall() {
	_s=$(date +%s.%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%U %S" -o "$T/cpu" "$@" >/dev/null 2>"$T/err"
	else
		"$@" >/dev/null 2>"$T/err"; echo "- -" >"$T/cpu"
	fi
	_e=$(date +%s.%N)
	echo "$(echo "$_e - $_s" | bc -l) $(awk '{ if ($1 == "-") print "-"; else print $1 + $2 }' "$T/cpu")"
}
ratio() { echo "$1 / $2" | bc -l | xargs printf %.2f; }

for p in $progs; do
	c=$(cmd_of $p)
	: >"$T/$p.bare"; : >"$T/$p.fg"; : >"$T/$p.ht"; : >"$T/$p.hooks"
	i=0
	while [ $i -lt "$BENCH_RUNS" ]; do
		wall $c >>"$T/$p.bare"
		wall "$FG_BIN/fgrecord" --alloc -o "$T/$p.stream" $c >>"$T/$p.fg"
		wall "$FG_BIN/fgrecord" --alloc -c 1000000000000000 -o "$T/$p.none" $c >>"$T/$p.hooks"
		if [ $have_ht = yes ]; then
			rm -f "$T"/heaptrack.*
			(cd "$T" && wall heaptrack -o "$T/heaptrack.$p" $c) >>"$T/$p.ht"
		fi
		i=$((i + 1))
	done
	samples=$(grep -c " alloc-bytes:\$" "$T/$p.stream")
	for col in 1 2; do
		[ $col = 1 ] && what=wall || what=cpu
		bare=$(cut -d" " -f$col "$T/$p.bare" | med); fg=$(cut -d" " -f$col "$T/$p.fg" | med)
		[ "$bare" = nan ] && continue
		printf '   %-8s %-4s bare %ss  --alloc %ss (x%s, %s samples)' "$p" "$what" \
		    "$bare" "$fg" "$(ratio "$fg" "$bare")" "$samples"
		if [ $have_ht = yes ]; then
			ht=$(cut -d" " -f$col "$T/$p.ht" | med)
			printf '  heaptrack %ss (x%s; --alloc %s of it)' "$ht" \
			    "$(ratio "$ht" "$bare")" "$(ratio "$fg" "$ht")"
		fi
		echo
		hk=$(cut -d" " -f$col "$T/$p.hooks" | med)
		printf '   %-8s %-4s hooks only (no sample) %ss (x%s)\n' "$p" "$what" \
		    "$hk" "$(ratio "$hk" "$bare")"
	done
done
