# bench/lib.sh: helpers for bench/*.sh.
#
# median_time CMD...: runs CMD $BENCH_RUNS times (stdout to /dev/null) and
# prints the median wall time in seconds.
median_time() {
	_i=0; _ts=
	while [ $_i -lt "$BENCH_RUNS" ]; do
		_s=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		_e=$(date +%s.%N)
		_ts="$_ts $(echo "$_e - $_s" | bc -l)"
		_i=$((_i + 1))
	done
	echo $_ts | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; printf "%.4f\n", m}'
}
# ratio A B: prints A/B with two decimals.
ratio() { echo "$1 $2" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else print "inf" }'; }
