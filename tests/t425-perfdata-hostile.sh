#!/bin/sh
# t425-perfdata-hostile: perf.data files of a few KB or MB made to cost a
# reader time or memory (issue 33): attribute records where perf never
# writes them, throttles of a million ids, a compressed record of zeros
# or of one sample repeated, a process of 120,000 mappings, thousands of
# forks of it. Each ends within a guard's time and a memory limit, says
# what was wrong once with 'FILE':OFFSET, and exits 1 (partial).
# tests/hostile/pdgen.c writes the files (no perf needed).
. "$(dirname "$0")/lib.sh"
plan 7

cc=${CC:-cc}
B=$TMP/build
mkdir -p "$B"
if ! $cc -O2 -o "$B/pdgen" "$TESTS/hostile/pdgen.c" -lzstd 2>"$B/err"; then
	skip 'hostile perf.data files' "cannot build tests/hostile/pdgen.c: $(head -1 "$B/err")"
	skip_rest
fi
export B
# bounded CMD...: CMD within 60 s and, unless the tools are built with
# ASan (which reserves terabytes of address space), 400 MB of memory.
LIMIT=400000
nm "$TOP/bin/fgsym" 2>/dev/null | grep -q __asan_init && LIMIT=unlimited
export LIMIT
bounded() {
	(ulimit -v $LIMIT && exec timeout 60 "$@")
}

# once PATTERN ERR: PATTERN is said on exactly one line of ERR, which is
# printable ASCII.
once() {
	test "$(grep -c -e "$1" "$2")" = 1 || { echo "not once: $1"; cat -v "$2"; return 1; }
	! grep -q "[^ -~]" "$2" || { echo "raw bytes in:"; cat -v "$2"; return 1; }
}

check 'attribute records in a compressed record: refused, said once, bounded' '
	"$B/pdgen" attrs 1000000 0 >a.data &&
	expect_status 1 bounded fgsym a.data >out 2>err &&
	once "^fgsym: .a\.data.:496: an event attribute record inside a compressed record: ignored" err &&
	grep_q "^# event" out && test "$(grep -c "^# event" out)" = 1
'

check 'pipe mode: more than 4096 events are refused, said once' '
	"$B/pdgen" pipeattrs 5000 1 >p.data &&
	expect_status 1 bounded fgsym <p.data >out 2>err &&
	once "^fgsym: .<stdin>.:[0-9]*: more than 4096 events: the rest" err &&
	test "$(grep -c "^# event" out)" = 4096
'

check 'a million throttled ids: found by hash, counted' '
	"$B/pdgen" throttles 300000 >t.data &&
	expect_status 1 bounded fgsym t.data >out 2>err &&
	once "throttled sampling 300000 times" err
'

check 'a compressed record of 1 GiB of zero bytes: said once, not 1,024 times' '
	"$B/pdgen" zeros 1024 >z.data &&
	expect_status 1 bounded fgsym z.data >out 2>err &&
	once "^fgsym: .z\.data.:496: a compressed record holds a record of size 0: the rest of it is skipped" err &&
	test "$(grep -c "^fgsym: .z\.data" err)" = 1 &&
	test "$(grep -c "^[^#]" out)" -gt 0
'

check 'a compressed record of one sample repeated: cut at 1024 times its size' '
	"$B/pdgen" bomb 64 >b.data &&
	expect_status 1 bounded fgsym b.data >out 2>err &&
	once "^fgsym: .b\.data.:496: a compressed record decompresses to more than 1024 times its size" err &&
	size=$(wc -c <b.data) && n=$(grep -c "^$" out) &&
	test "$n" -lt $((size * 1024 / 64 + 16384 + 2)) && test "$n" -gt 2
'

# 20,000 mappings then 5,000 forks (shared, not copied); 120,000
# mappings of one process in a shuffled order (no quadratic insertion)
for args in 'forks 20000 5000' 'mmaps 120000'; do
	check "mappings: pdgen $args, the samples all there" '
		"$B/pdgen" '"$args"' >m.data &&
		expect_status 1 bounded fgsym m.data >out 2>err &&
		test "$(grep -c "^app 42/42 " out)" = 2
	'
done

done_testing
