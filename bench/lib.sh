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

# median_alternating N NAME1 CMD1 NAME2 CMD2: runs the two commands (each a
# string of words without spaces in them, split as the shell splits) N
# times each, alternately, so that a change in the machine's load falls on
# both alike; prints "NAME1 MEDIAN1 NAME2 MEDIAN2".
median_alternating() {
	_n=$1 _a=$2 _ca=$3 _b=$4 _cb=$5 _i=0 _ta= _tb=
	while [ $_i -lt "$_n" ]; do
		_s=$(date +%s.%N); $_ca >/dev/null 2>&1; _e=$(date +%s.%N)
		_ta="$_ta $(echo "$_e - $_s" | bc -l)"
		_s=$(date +%s.%N); $_cb >/dev/null 2>&1; _e=$(date +%s.%N)
		_tb="$_tb $(echo "$_e - $_s" | bc -l)"
		_i=$((_i + 1))
	done
	_med() { echo $1 | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {printf "%.4f", a[int((NR+1)/2)]}'; }
	echo "$_a $(_med "$_ta") $_b $(_med "$_tb")"
}
