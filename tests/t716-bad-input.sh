#!/bin/sh
# t716-bad-input: what is no text stream is said in one line and never
# read as one; CRLF streams read as fast as LF ones; lines that fit no
# format are said with FILE:LINE (issue 23, points 6 to 10). Run with
# FG_BIN=DIR to try the tools of another build (/work/ref22/bin).
. "$(dirname "$0")/lib.sh"
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
		check "$t $file: one line naming it ('$word'), exit 2, nothing written" '
			expect_status 2 $t "$TMP/in/'"$file"'" >out 2>err &&
			test ! -s out && one_clean_line err && grep_q "'"$word"'" err
		'
	done
done

for t in fgsym fgfold fgpprof fgsvg; do
	check "$t: a perf.data on standard input: one line, exit 2, nothing written" '
		expect_status 2 $t <"$TMP/in/perf.data" >out 2>err &&
		test ! -s out && one_clean_line err && grep_q "perf script -i" err
	'
done

check 'fgfold: a perf.data after a good stream: exit 2, nothing written' '
	expect_status 2 fgfold "$TMP/in/stream.txt" "$TMP/in/perf.data" >out 2>err &&
	test ! -s out && one_clean_line err
'

check 'fgsvg: a sample stream: said, with fgfold to run first' '
	{ echo "# fgrecord 1"; cat "$TMP/in/stream.txt"; } >in &&
	expect_status 2 fgsvg in >out 2>err && test ! -s out &&
	one_clean_line err && grep_q "fgfold in | fgsvg" err
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

done_testing
