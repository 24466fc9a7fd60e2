# bench/lib.sh: helpers for bench/*.sh, and the settings they share:
# FG_BIN (the tools measured; bin/ by default), BENCH_TMP (where inputs
# are made) and BENCH_RUNS (runs per median).
: "${FG_BIN:=$(cd "$(dirname "$0")/../bin" && pwd)}"
: "${BENCH_TMP:=${TMPDIR:-/tmp}}"
: "${BENCH_RUNS:=5}"
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
# median_usage CMD...: runs CMD $BENCH_RUNS times (stdout to /dev/null)
# and prints the medians of its wall time, its CPU time (user and system,
# its children's included) in seconds, and its peak resident set in KiB:
# "WALL CPU RSS". Without GNU time (/usr/bin/time) the last two are "-".
median_usage() {
	if [ ! -x /usr/bin/time ]; then
		echo "$(median_time "$@") - -"
		return
	fi
	_i=0; _f=$(mktemp)
	while [ $_i -lt "$BENCH_RUNS" ]; do
		/usr/bin/time -a -o "$_f" -f '%e %U %S %M' "$@" >/dev/null 2>&1
		_i=$((_i + 1))
	done
	awk 'function med(v, n,  i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return v[int((n + 1) / 2)]
	}
	NF == 4 { n++; w[n] = $1; c[n] = $2 + $3; r[n] = $4 }
	END { printf "%.4f %.4f %d\n", med(w, n), med(c, n), med(r, n) }' "$_f"
	rm -f "$_f"
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

# gen_c N: a C file of N functions, each with a loop, a switch and an
# inlined helper, on stdout: what the gcc recordings compile.
gen_c() {
	awk -v n="$1" 'BEGIN {
	print "#include <stdio.h>\n#include <string.h>"
	for (i = 0; i < n; i++) {
		k = i % 7 + 1
		printf "struct s%d { int a[%d]; double d; char name[16]; };\n", i, k
		printf "static inline int helper%d(struct s%d *p, int q) { int r = 0; ", i, i
		printf "for (int j = 0; j < %d; j++) r += p->a[j] * (q + j); return r + (int)p->d; }\n", k
		printf "int fn%d(int x, int y) {\n\tstruct s%d v; memset(&v, 0, sizeof v); v.d = x * 1.5;\n", i, i
		printf "\tint acc = 0;\n\tfor (int i = 0; i < x; i++) {\n\t\tswitch ((i + y) %% 5) {\n"
		printf "\t\tcase 0: acc += helper%d(&v, i); break;\n", i
		printf "\t\tcase 1: acc ^= i * %d; break;\n", i
		printf "\t\tcase 2: acc -= y > i ? helper%d(&v, y) : i; break;\n", i
		printf "\t\tcase 3: if (acc > 1000) acc /= 3; else acc *= 2; break;\n"
		printf "\t\tdefault: acc += snprintf(v.name, sizeof v.name, \"%%d\", acc); break;\n\t\t}\n\t}\n"
		if (i > 0)
			printf "\treturn acc + fn%d(x - 1, y) * 0;\n}\n", i - 1
		else
			printf "\treturn acc;\n}\n"
	}
}'
}
