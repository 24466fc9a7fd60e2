#!/bin/sh
# t716-bad-input: what is no text stream is said in one line and never
# read as one; CRLF streams read as fast as LF ones; lines that fit no
# format are said with FILE:LINE (issue 23, points 6 to 10). Run with
# FG_BIN=DIR to try the tools of another build (/work/ref22/bin).
. "$(dirname "$0")/lib.sh"
plan 83
[ -n "${FG_BIN:-}" ] && PATH=$FG_BIN:$PATH

# sample TID FUNC...: one sample, leaf first
sample() {
	t=$1; shift
	printf 'app 1/%s [000] 1.000000: 1000 cpu-clock:\n' "$t"
	for f in "$@"; do printf '\t1000 %s (/bin/app)\n' "$f"; done
	echo
}

# one_clean_line ERR: exactly one line, and no byte in it that is not
# printable ASCII (the messages quote names, never raw bytes).
one_clean_line() {
	test "$(wc -l <"$1")" = 1 || { echo "not one line:"; cat -v "$1"; return 1; }
	! grep -q "[^ -~]" "$1" || { echo "raw bytes in:"; cat -v "$1"; return 1; }
}

# The inputs that are no text, made here (no perf or zstd needed): a
# perf.data and a pipe-mode perf header with binary after them, gzip,
# zstd, xz and bzip2 magic, an ELF file, an SVG, an uncompressed pprof
# profile, random bytes.
mkdir -p "$TMP/in" && cd "$TMP/in" || exit 2
{ sample 1 leaf main; sample 2 leaf main; } >stream.txt
bin8() { printf "$1"; head -c 3000 /bin/sh; }
bin8 'PERFILE2\150\0\0\0\0\0\0\0' >perf.data
bin8 'PERFILE2\020\0\0\0\0\0\0\0' >pipe.data
gzip -c stream.txt >stream.gz
bin8 '\050\265\057\375' >stream.zst
bin8 '\3757zXZ\0' >stream.xz
bin8 'BZh9' >stream.bz2
cp /bin/true elf
printf '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">\n</svg>\n' >graph.svg
printf '\012\004\010\001\020\002\022\003abc' >profile.pb
head -c 2000 /bin/sh | tail -c 1000 | tr '\n' '\001' >random.bin
cd / || exit 2

for f in perf.data:perf.data pipe.data:pipe stream.gz:zcat stream.zst:zstdcat \
    stream.xz:xzcat stream.bz2:bzcat elf:ELF graph.svg:'already a flame graph' \
    profile.pb:pprof random.bin:binary; do
	file=${f%%:*} word=${f#*:}
	for t in fgsym fgfold fgpprof fgsvg; do
		# every tool reads perf data: a header cut short is bad
		# input (1)
		st=2
		case $file in perf.data|pipe.data) st=1 ;; esac
		# fgsvg draws what it read of bad input: here no sample;
		# fgpprof writes its profile: here an empty one
		nothing='test ! -s out' what='nothing written'
		case $t:$st in
		fgsvg:1) nothing='grep_q ">no samples</text>" out' what='a graph of no sample' ;;
		fgpprof:1) nothing='gzip -t out' what='an empty profile' ;;
		esac
		check "$t $file: one line naming it ('$word'), exit $st, $what" '
			expect_status '$st' $t "$TMP/in/'"$file"'" >out 2>err &&
			'"$nothing"' && one_clean_line err && grep_q "'"$word"'" err
		'
	done
done

check "fgsym: a perf.data cut in its header on standard input: one line, exit 1, nothing written" '
	expect_status 1 fgsym <"$TMP/in/perf.data" >out 2>err &&
	test ! -s out && one_clean_line err && grep_q "<stdin>.:16: " err
'
check "fgfold: a perf.data cut in its header on standard input: one line, exit 1, nothing written" '
	expect_status 1 fgfold <"$TMP/in/perf.data" >out 2>err &&
	test ! -s out && one_clean_line err && grep_q "<stdin>.:16: " err
'
check "fgsvg: a perf.data cut in its header on standard input: one line, exit 1, a graph of no sample" '
	expect_status 1 fgsvg <"$TMP/in/perf.data" >out 2>err &&
	grep_q ">no samples</text>" out && one_clean_line err && grep_q "<stdin>.:16: " err
'

check "fgpprof: a perf.data cut in its header on standard input: one line, exit 1, an empty profile" '
	expect_status 1 fgpprof <"$TMP/in/perf.data" >out 2>err &&
	gzip -t out && one_clean_line err && grep_q "<stdin>.:16: " err
'


# Issue 24 point 2: a well-formed input that holds no sample is no bad
# input. fgfold, fgpprof and fgsvg exit 0, write what an empty result is
# (nothing, an empty profile, a graph that says so), and say it in the
# same one line; fgfold adds that an off-CPU stream's program never waited.
printf '' >"$TMP/in/empty"
printf '\n\n' >"$TMP/in/blank"
printf '# fgrecord 1\n# cmdline : ./app\n# event : cpu-clock freq 999 callgraph fp\n' >"$TMP/in/headers"
printf '# fgrecord 1\n# cmdline : ./app\n# event : offcpu-time callgraph fp\n' >"$TMP/in/offcpu"
# empty_ok TOOL OUT: OUT is the tool's empty result.
empty_ok() {
	case $1 in
	fgfold) test ! -s "$2" ;;
	fgpprof) gzip -t "$2" ;;
	fgsvg) grep_q ">no samples</text>" "$2" ;;
	esac
}
for t in fgfold fgpprof fgsvg; do
	case $t in fgsvg) inputs="empty blank" ;; *) inputs="empty blank headers" ;; esac
	for f in $inputs; do
		check "$t: a well-formed input with no sample ($f): said in one line, exit 0" '
			expect_status 0 '"$t"' "$TMP/in/'"$f"'" >out 2>err && one_clean_line err &&
			{ grep -qx "'"$t"': no samples: the input is well formed, and holds none" err ||
				{ cat err; false; }; } &&
			empty_ok '"$t"' out
		'
	done
done
check 'fgfold: an off-CPU stream with no sample: the program never waited, exit 0' '
	expect_status 0 fgfold "$TMP/in/offcpu" >out 2>err && one_clean_line err &&
	grep_q "^fgfold: no samples: the input is well formed, and holds none: it records off-CPU time, and the program never waited off the CPU\$" err &&
	test ! -s out &&
	cat "$TMP/in/offcpu" "$TMP/in/headers" >wall &&
	expect_status 0 fgfold wall >out 2>err && ! grep -q "never waited" err
'
check 'fgpprof and fgfold: bad lines and no sample: the bad lines said, exit 1, no empty-input line' '
	printf "not a stream\n" >bad &&
	for t in fgfold fgpprof; do
		expect_status 1 $t bad >out 2>err && grep_q "bad:1: " err &&
		! grep -q "well formed" err || exit 1
	done
'

check 'fgfold: a perf.data cut short after a good stream: the good stacks kept, exit 1' '
	expect_status 1 fgfold "$TMP/in/stream.txt" "$TMP/in/perf.data" >out 2>err &&
	expect_status 0 fgfold "$TMP/in/stream.txt" >good 2>/dev/null &&
	test -s good && cmp good out && one_clean_line err
'

check 'fgsvg: a sample stream is folded and drawn (issue 26), not refused' '
	{ echo "# fgrecord 1"; cat "$TMP/in/stream.txt"; } >in &&
	expect_status 0 fgsvg in >out 2>err && test ! -s err &&
	grep_q "</svg>" out
'

check 'fgsvg draws perf script output; fgfold --folded: said, with what to run' '
	{ echo "# ========"; cat "$TMP/in/stream.txt"; } >in &&
	expect_status 0 fgsvg in >out 2>err && test ! -s err && grep_q "</svg>" out &&
	expect_status 2 fgfold --folded in >out 2>err && test ! -s out &&
	one_clean_line err && grep_q "without --folded" err
'

check 'a NUL byte past the first line is no binary file: the stream is read' '
	{ sample 1 leaf main; printf "app 1/1 [000] 1.0: 1 cpu-clock:\n\t1 a\0b (/x)\n\n"; } >in &&
	expect_status 1 fgfold in >out 2>err && grep_q "^app;main;leaf 1" out
'

# cpu_ms OUT CMD...: runs CMD with its output in OUT and its errors in
# OUT.err, and prints the CPU time (user and system) it took, in ms. A
# guard (timeout) stops a run that would take very long.
cpu_ms() {
	_o=$1; shift
	times >"$_o.t0"
	timeout 300 "$@" >"$_o" 2>"$_o.err"
	times >"$_o.t1"
	awk -F'[ms]' 'FNR == 2 { t[NR > 2] = ($1 * 60 + $2 + $3 * 60 + $4) * 1000 }
	    END { printf "%d\n", t[1] - t[0] }' "$_o.t0" "$_o.t1"
}

# A stream of 30,000 samples (about 5 MB), and the same with CRLF line
# ends: read in time linear in its size, as fast as LF (a generous bound:
# three times LF's CPU time and one second), with the same output. The
# old fgfold took about 1.6 s of CPU per MB of CRLF stream here.
awk 'BEGIN { for (i = 0; i < 30000; i++) {
	printf "app %d/%d [000] %d.%06d: 1000 cpu-clock:\n", 100, 100 + i % 7, i, i
	for (j = 0; j < 3 + i % 5; j++)
		printf "\t%x f%d (/bin/app)\n", 4096 + (i * 7 + j * 13) % 50, (i + j) % 40
	printf "\n" } }' >"$TMP/lf.txt"
sed 's/$/\r/' "$TMP/lf.txt" >"$TMP/crlf.txt"
{ grep -v "^$" "$TMP/lf.txt"; echo; } >"$TMP/noblank.txt"
for t in fgfold fgpprof fgsym; do
	check "$t: a 5 MB CRLF stream in about the CPU time of LF, the same output" '
		lf=$(cpu_ms lf '$t' "$TMP/lf.txt") &&
		crlf=$(cpu_ms crlf '$t' "$TMP/crlf.txt") &&
		echo "CPU time: LF $lf ms, CRLF $crlf ms" &&
		test_cmp lf crlf && test -s lf &&
		test "$crlf" -le $((3 * lf + 1000))
	'
done
check 'fgfold: samples with no empty line between them, in about the CPU time of LF' '
	lf=$(cpu_ms lf fgfold "$TMP/lf.txt") &&
	nb=$(cpu_ms nb fgfold "$TMP/noblank.txt") &&
	echo "CPU time: LF $lf ms, no empty lines $nb ms" &&
	test "$nb" -le $((3 * lf + 1000)) && test_cmp lf nb
'

# Point 23.7: inside a sample, a line that starts with a tab and is no
# frame, no source line and no inlined frame is said with FILE:LINE, and
# the good samples around it are kept; real source lines (fgsym --srcline,
# perf script -F+srcline) are read silently.
junk_stream() {
	sample 1 leaf main
	printf 'app 1/1 [000] 1.0: 1000 cpu-clock:\n\t1000 leaf (/bin/app)\n'
	printf '%s\n' "$1"
	printf '\t1000 main (/bin/app)\n\n'
	sample 1 other main
}
for t in fgfold fgpprof; do
	check "$t: a tab-led line that is no frame: FILE:LINE, exit 1, the rest kept" '
		junk_stream "	xyz garbage here" >in &&
		expect_status 1 '$t' in >out 2>err &&
		grep_q "^'$t': in:7: unrecognised line .*xyz garbage here" err &&
		one_clean_line err && test -s out
	'
	check "$t: a 10 MB tab-led line: FILE:LINE once, exit 1, the rest kept" '
		{ sample 1 leaf main; printf "app 1/1 [000] 1.0: 1000 cpu-clock:\n\t1000 leaf (/bin/app)\n\t";
		  head -c 10000000 /dev/zero | tr "\0" x; printf "\n\n"; sample 1 other main; } >in &&
		expect_status 1 '$t' in >out 2>err &&
		grep_q "^'$t': in:7: unrecognised line" err && one_clean_line err && test -s out
	'
	check "$t: an indented line between two samples: FILE:LINE, exit 1, both samples kept" '
		{ sample 1 leaf main; printf "\t1000 stray (/bin/app)\n\n"; sample 1 other main; } >in &&
		expect_status 1 '$t' in >out 2>err && cat err &&
		grep_q "^'$t': in:[0-9]*: unrecognised line .*stray" err && one_clean_line err &&
		{ [ '$t' = fgpprof ] || { grep_q "leaf" out && grep_q "other" out; }; }
	'
	check "$t: source lines, perf script DSO[ADDR] lines and inlined frames are read silently" '
		printf "app 1/1 [000] 1.0: 1 cpu-clock:\n\t10 inl (inlined)\n  a.c:12\n\t10 leaf+0x1 (/bin/app)\n  a.c:3 (discriminator 2)\n\t20 [unknown] (/lib/x.so)\n  x.so[20]\n\t30 main (/bin/app)\n  ??:0\n\n" >in &&
		expect_status 0 '$t' in >out 2>err && test ! -s err
	'
done
check 'fgfold: a line with terminal escapes is quoted, never written raw' '
	junk_stream "	zz $(printf "\033[2J\033]0;x\007") zz" >in &&
	expect_status 1 fgfold in >out 2>err && one_clean_line err &&
	grep_q "x1b" err
'
check 'fgfold --srcline: the source lines still fold' '
	printf "app 1/1 [000] 1.0: 1 cpu-clock:\n\t10 leaf+0x1 (/bin/app)\n  a.c:12\n\t30 main (/bin/app)\n  b.c:3\n\n" >in &&
	expect_status 0 fgfold --srcline in >out 2>err &&
	echo "app;main:b.c:3;leaf:a.c:12 1" >want && test_cmp want out
'

# Point 23.8: a NUL byte in folded input is said with FILE:LINE, exit 1,
# the line skipped and the others kept, by fgfold --folded, --diff and
# fgsvg.
check 'fgfold --folded: a NUL byte: FILE:LINE, exit 1, never in the output' '
	printf "a;b 1\na;c\0x 2\na;b 3\n" >in &&
	expect_status 1 fgfold --folded in >out 2>err &&
	grep_q "^fgfold: in:2: a NUL byte" err && ! grep -q "[^ -~]" err &&
	echo "a;b 4" >want && test_cmp want out
'
check 'fgfold --diff: a NUL byte: FILE:LINE, exit 1' '
	printf "a;b 1\n" >before && printf "a;b 2\nx\0y 3\n" >after &&
	expect_status 1 fgfold --diff before after >out 2>err &&
	grep_q "^fgfold: after:2: a NUL byte" err && echo "a;b 1 2" >want && test_cmp want out
'
check 'fgsvg: a NUL byte: FILE:LINE, exit 1, the graph drawn from the rest' '
	printf "a;b 1\na;c\0x 2\n" >in &&
	expect_status 1 fgsvg in >out.svg 2>err &&
	grep_q "^fgsvg: in:2: a NUL byte" err && grep_q "<svg" out.svg &&
	! tr -d "\n" <out.svg | grep -q "c.x" &&
	expect_status 1 fgsvg <in >out2.svg 2>err2 && grep_q "<stdin>:2: a NUL byte" err2
'

# Point 22.8: thread names that look like head fields. names.c names one
# thread each (PR_SET_NAME), spins each for CPU time, and writes
# "PID TID" per thread to names.tid, one line each, in the order below.
NAMES='a 1/1|x [001] 1.0:|b: c|1 2/3 [4] 5.6:|worker 1 x'
cat >"$TMP/names.c" <<'CEOF'
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "spin.h"

static const char *names[] = { "a 1/1", "x [001] 1.0:", "b: c",
    "1 2/3 [4] 5.6:", "worker 1 x" };
static pid_t tids[5];

static void *
run(void *arg)
{
	long i = (long)arg;

	prctl(PR_SET_NAME, names[i]);
	tids[i] = gettid();
	spin_for(0.3);
	return NULL;
}

int
main(void)
{
	pthread_t t[5];
	FILE *f;
	long i;

	for (i = 0; i < 5; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	if ((f = fopen("names.tid", "w")) == NULL)
		return 1;
	for (i = 0; i < 5; i++)
		fprintf(f, "%d %d\n", getpid(), tids[i]);
	return fclose(f) != 0;
}
CEOF
cc=${CC:-cc}
if ! $cc -O1 -g -pthread -I"$TESTS/record" -o "$TMP/names" "$TMP/names.c" 2>"$TMP/names.err"; then
	skip 'thread names that look like head fields' "cannot build names.c: $(head -1 "$TMP/names.err")"
elif ! perf_ok && [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)" = 3 ]; then
	skip 'thread names that look like head fields' "no sampler here: $why"
else
	# want_folded FOLDED: for each name, a stack of its thread under
	# NAME-PID/TID (fgfold --tid; spaces as _), and no other thread.
	want_folded() {
		i=1
		echo "$NAMES" | tr '|' '\n' >names.txt
		while read -r pid tid; do
			n=$(sed -n "${i}p" names.txt | tr ' ' _)
			grep -q -F -e "$n-$pid/$tid;" "$1" || { echo "no stack of '$n-$pid/$tid' in:"; cut -c1-60 "$1" | sort -u; return 1; }
			i=$((i + 1))
		done <names.tid
		! grep -q "^[^;]*-1/1;" "$1" || { echo "a thread read as PID 1 TID 1"; return 1; }
	}
	check 'fgrecord: names like "a 1/1", "x [001] 1.0:": fgfold --tid keeps their PID and TID' '
		cp "$TMP/names" . && fgrecord -q -o rec ./names 2>rerr &&
		fgfold --tid rec >folded 2>err && want_folded folded
	'
	check 'fgrecord | fgsym: the names and heads pass through; fgfold --pid keeps the PID' '
		cp "$TMP/names" . && fgrecord -q -o rec ./names 2>rerr &&
		fgsym rec >sym 2>serr && fgfold --tid sym >folded 2>err && want_folded folded &&
		fgfold --pid sym >pfolded 2>err && pid=$(cut -d" " -f1 names.tid | head -1) &&
		test "$(grep -c -e "-$pid;" pfolded)" -ge 5 && ! grep -q -e "-1;" pfolded
	'
	if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
		check 'fgpprof: the tid labels are the threads, not 1' '
			cp "$TMP/names" . && fgrecord -q -o rec ./names 2>rerr &&
			fgpprof rec >p.pb.gz 2>err &&
			HOME=$PWD go tool pprof -tags -sample_index=samples p.pb.gz >tags 2>perr &&
			sed -n "/^ tid:/,/^\$/s/^ *[0-9.]* ([ 0-9.]*%): \([0-9]*\)\$/\1/p" tags | sort -u >actual &&
			cut -d" " -f2 names.tid | sort -u >want &&
			{ comm -23 want actual | grep . && { echo "tids missing:"; cat tags; false; } || true; } &&
			! grep -qx 1 actual
		'
	else
		skip 'fgpprof: the tid labels are the threads, not 1' 'no go tool pprof (Debian: apt-get install golang-go)'
	fi
	if [ "$(id -u)" = 0 ] && perf_ok && perf record -q -o "$TMP/p.data" true >/dev/null 2>&1; then
		check 'perf script: the same names keep their PID and TID in fgfold --tid' '
			cp "$TMP/names" . && perf record -q -g -o p.data ./names >/dev/null 2>perr &&
			perf script -i p.data -F comm,pid,tid,time,period,event,ip,sym,dso >ps 2>/dev/null &&
			fgfold --tid ps >folded 2>err && want_folded folded
		'
	else
		skip 'perf script: the same names keep their PID and TID' 'perf record does not work here (root and perf needed)'
	fi
fi

# Issue 33: a stream straight from fgrecord (fgsym forgotten) draws
# [app] and [libc.so.6] boxes: fgfold and fgsvg say, the same way, to put
# fgsym between, and exit 0. A stream mostly named says nothing.
check 'fgsym forgotten: fgfold, fgfold --top and fgsvg say to put it between' '
	{ echo "# fgrecord 1"; sample 1 leaf main; i=0; while [ $i -lt 3 ]; do
		sample 1 "[unknown]" "[unknown]"; i=$((i + 1)); done; } >raw &&
	expect_status 0 fgfold raw >out 2>err && one_clean_line err &&
	grep_q "^fgfold: most frames have no function names (in 3 of 4 samples): put fgsym between, as in .fgrecord ./app | fgsym | fgfold.\$" err &&
	expect_status 0 fgfold --top 5 raw >out 2>err && one_clean_line err &&
	grep_q "put fgsym between" err &&
	expect_status 0 fgsvg raw >out 2>err && one_clean_line err &&
	grep_q "^fgsvg: most frames have no function names (in 3 of 4 samples): put fgsym between, as in .fgrecord ./app | fgsym | fgsvg.\$" err &&
	{ sample 1 leaf main; sample 1 leaf main; sample 1 "[unknown]" main; sample 1 "[unknown]" "[unknown]"; } >named &&
	expect_status 0 fgfold named >out 2>err && test ! -s err &&
	expect_status 0 fgsvg named >out 2>err && test ! -s err
'

# Issue 33.8: an event's name with ESC and BEL in it is quoted in the
# warnings of every reader, never written raw to the terminal.
check 'an event name with control bytes: quoted in fgfold, fgsvg and fgpprof warnings' '
	printf "a 1/1 [000] 1.0: 1 cyc\033]0;X\007les:\n\t1 f (/x)\n\na 1/1 [000] 1.0: 1 other:\n\t1 g (/x)\n\n" >ev &&
	fgfold ev >out 2>err && one_clean_line err &&
	grep_q "folding only .cyc.x1b]0;X.x07les." err &&
	fgsvg ev >out 2>err && one_clean_line err &&
	fgpprof ev >out 2>err && one_clean_line err &&
	grep_q "converting only .cyc.x1b]0;X.x07les." err
'

# Issue 32: fgfold --compare's bad runs, one line each naming the file,
# exit 2 and no table: runs of different events (cpu-clock beside off-CPU),
# an empty run, runs with no function in common, a stream cut short (the
# stream reader's line with the place, then compare's).
check 'fgfold --compare: another event, an empty run, nothing in common, a cut stream: one line, exit 2' '
	printf "p 1/1 [000] 1.0: 2000000 cpu-clock:\n\t10 f+0x1 (/bin/p)\n\t20 main+0x2 (/bin/p)\n\n" >on &&
	printf "p 1/1 [000] 1.0: 5000 offcpu-time:\n\t10 f+0x1 (/bin/p)\n\n" >off &&
	head -2 on >cut && : >empty &&
	printf "x;y 3\n" >xy && printf "a;b 3\n" >ab &&
	expect_status 2 fgfold --compare on -- off >out 2>err && test ! -s out && one_clean_line err &&
	grep_q "^fgfold: .off. records .offcpu-time., and .on. records .cpu-clock.: compare runs of one event" err &&
	expect_status 2 fgfold --compare empty -- on >out 2>err && test ! -s out && one_clean_line err &&
	grep_q "^fgfold: .empty.: no sample in this run" err &&
	expect_status 2 fgfold --compare ab -- xy >out 2>err && test ! -s out && one_clean_line err &&
	grep_q "^fgfold: no function of the runs before (.ab.) is in the runs after (.xy.)" err &&
	expect_status 2 fgfold --compare on -- cut >out 2>err && test ! -s out &&
	grep_q "^fgfold: .cut.: a run with a bad line, or cut short" err
'

check "fgsym: a frame address of 5 MB: one short line, exit 1; a warning never echoes the input whole" '
	{ printf "x 1/1 1.0: 1 cpu-clock:\n\t"; head -c 5000000 /dev/zero | tr "\\0" a
	  printf " [unknown] (/x)\n\n"; } >huge &&
	expect_status 1 fgsym huge >out 2>err &&
	test "$(wc -c <err)" -lt 2000 &&
	grep_q "huge:2: frame address .a*. is not a 64-bit hex number" err
'

done_testing
