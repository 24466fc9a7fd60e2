#!/bin/sh
# t715-fgpprof-hostile: fgpprof on broken and hostile streams: every bad
# line is named with FILE:LINE, the good samples are converted, the exit
# status is 1; output errors and usage errors exit 2. Where Debian's go tool
# pprof is installed it reads each profile back; where not, those checks
# SKIP.
. "$(dirname "$0")/lib.sh"
plan 14

# sample TID PERIOD FUNC...: one sample, leaf first
sample() {
	t=$1 p=$2; shift 2
	printf 'app 1/%s [000] 1.000000: %s cpu-clock:\n' "$t" "$p"
	for f in "$@"; do printf '\t1000 %s (/bin/app)\n' "$f"; done
	echo
}

# Where go tool pprof is missing, a check of what a profile holds SKIPs:
# the checks of exit status and messages run either way. A check keeps
# its profile with keep P.PB.GZ NAME; counted NAME N WHAT then checks,
# through go tool pprof -top, that profile NAME holds N samples.
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
	have_go=1
else
	have_go=
fi
keep() { cp "$1" "$TMP/kept.$2.pb.gz"; }
counted() {
	if [ -z "$have_go" ]; then
		skip "$3: go tool pprof reads $2 samples" 'no go tool pprof (Debian: apt-get install golang-go)'
		return
	fi
	check "$3: go tool pprof reads $2 samples" '
		test -s "$TMP/kept.'"$1"'.pb.gz" &&
		go tool pprof -top -sample_index=samples "$TMP/kept.'"$1"'.pb.gz" >top 2>toperr &&
		n=$(sed -n "s/.* of \([0-9]*\) total\$/\1/p" top) &&
		echo "$n samples, '"$2"' wanted" && test "$n" = '"$2"'
	'
}

check 'a bad line and a NUL byte: FILE:LINE each, the other samples kept, exit 1' '
	{ sample 1 1 leaf main; echo "not a stream line"; sample 1 1 leaf main
	  printf "app 1/1 [000] 1.000000: 1 cpu-clock:\n\t1000 le\0af (/bin/app)\n\n"; } >in &&
	expect_status 1 fgpprof in >p.pb.gz 2>err &&
	grep_q "^fgpprof: in:5: unrecognised line .not a stream line.\$" err &&
	grep_q "^fgpprof: in:11: unrecognised line" err &&
	gzip -t p.pb.gz && keep p.pb.gz badline
'
counted badline 3 'a bad line and a NUL byte'

check 'a stream cut off in a sample: the line named, the sample dropped, exit 1' '
	{ sample 1 1 leaf main; printf "app 1/1 [000] 2.000000: 1 cpu-clock:\n\t1000 leaf (/bin/app)\n"; } >in &&
	expect_status 1 fgpprof in >p.pb.gz 2>err &&
	grep_q "^fgpprof: in:5: the last sample has no closing empty line" err &&
	gzip -t p.pb.gz && keep p.pb.gz cutoff
'
counted cutoff 1 'a stream cut off in a sample'

check 'empty input and only headers: a valid, empty profile, exit 0' '
	: >empty && printf "# fgrecord 1\n# lost : 3\n" >hdr &&
	fgpprof empty >e.pb.gz 2>err && grep_q "no samples: the input is well formed" err &&
	fgpprof hdr >h.pb.gz 2>err && grep_q "no samples: the input is well formed" err &&
	gzip -t e.pb.gz && gzip -t h.pb.gz && keep h.pb.gz headers
'
counted headers 0 'only headers'

check 'the same input gives the same bytes' '
	{ sample 1 5 leaf main; sample 2 7 other main; } >in &&
	fgpprof in >a.pb.gz && fgpprof in >b.pb.gz && cmp a.pb.gz b.pb.gz
'

check 'a missing file: named, the other file converted, exit 1' '
	sample 1 1 leaf main >in &&
	expect_status 1 fgpprof nosuch in >p.pb.gz 2>err &&
	grep_q "^fgpprof: cannot open .nosuch.: No such file or directory" err &&
	gzip -t p.pb.gz && keep p.pb.gz missing
'
counted missing 1 'a missing file'

check 'a 1 MB function name, 10000 frames deep, periods of 2^64-1' '
	n=$(head -c 1000000 /dev/zero | tr "\0" x) &&
	{ sample 1 1 "$n" main; i=0; printf "app 1/1 [000] 1.0: 1 cpu-clock:\n";
	  while [ $i -lt 10000 ]; do printf "\t%x f%d (/bin/app)\n" $i $i; i=$((i + 1)); done; echo;
	  sample 1 18446744073709551615 leaf main; sample 1 18446744073709551615 leaf main; } >in &&
	expect_status 1 fgpprof in >p.pb.gz 2>err &&
	grep_q "passed 2^63-1" err &&
	gzip -t p.pb.gz && keep p.pb.gz huge
'
counted huge 4 'a 1 MB name, 10000 frames, huge periods'

check 'writing to a full disk: cannot write <stdout>, exit 2' '
	sample 1 1 leaf main >in &&
	expect_status 2 fgpprof in >/dev/full 2>err &&
	grep_q "^fgpprof: cannot write .<stdout>.: No space left on device" err
'

if command -v script >/dev/null 2>&1; then
	check 'standard output a terminal: no binary on it, the fix named, exit 2' '
		sample 1 1 leaf main >in &&
		expect_status 2 script -qec "fgpprof in" /dev/null >out 2>&1 &&
		grep_q "the profile is binary: redirect standard output to a file" out
	'
else
	skip 'standard output a terminal' 'no script(1) (Debian: apt-get install util-linux)'
fi

check 'a bad option: usage, exit 2' '
	expect_status 2 fgpprof --nosuch in >out 2>err &&
	grep_q "^usage: fgpprof \[file ...\]\$" err
'
done_testing
