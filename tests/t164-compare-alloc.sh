#!/bin/sh
# t164-compare-alloc: fgfold --compare and fgsvg --compare on runs of a
# heap profile: bytes or allocations as the unit, "more", "less" and
# "fewer" as the verdicts, no [alloc-bytes] leaf among the functions;
# --objects and --inuse chosen alike by both tools (issue 44).
. "$(dirname "$0")/lib.sh"
plan 7
GEN=$TESTS/alloc/gen.awk

# Five runs a side of a parser over 100 lines: before, token allocates
# five times a line (500 allocations, about 48 bytes each) and other
# 10; after, token allocates nothing and other the same.
runs() {
	for i in 1 2 3 4 5; do
		printf "%s\n" "main;parse;token $((24000 + i * 13)) $((500 + i % 2))" \
		    "main;other $((4000 + i * 7)) $((10 + i % 2))" |
			awk -f "$GEN" >before$i
		printf "%s\n" "main;other $((4000 + i * 11)) $((10 + (i + 1) % 2))" |
			awk -f "$GEN" >after$i
	done
}

check 'allocations per line: token fewer, 5.0 -> 0, other the same' '
	runs &&
	expect_status 0 fgfold --compare --objects --per=100 before1 before2 \
	    before3 before4 before5 -- after1 after2 after3 after4 after5 >t 2>err &&
	cat t err &&
	grep_q "total allocations per unit of work (100 a run), in allocations" err &&
	grep_q "^token	5.0[0-9]*	0.000	-5.0[0-9]*	.*	fewer\$" t &&
	grep_q "^other	0.1[0-9]*	0.1[0-9]*	.*	same\$" t &&
	grep_q "^\[all\]	.*	fewer\$" t &&
	! grep -q "alloc-objects\]" t
'

check 'bytes by default: less, in bytes' '
	runs &&
	expect_status 0 fgfold --compare before1 before2 before3 before4 \
	    before5 -- after1 after2 after3 after4 after5 >t 2>err &&
	cat t err &&
	grep_q "of alloc-bytes: total bytes per run, in bytes" err &&
	grep_q "^token	240[0-9][0-9]\.[0-9]*	0.000	.*	less\$" t &&
	! grep -q "slower\|faster\|alloc-bytes\]" t
'

check 'more: a function that allocates after and not before' '
	runs &&
	expect_status 0 fgfold --compare after1 after2 after3 after4 after5 -- \
	    before1 before2 before3 before4 before5 >t 2>err &&
	grep_q "^token	0.000	240[0-9][0-9]\.[0-9]*	.*	more\$" t
'

check 'fgsvg --compare: bytes in the tooltips and the words in the titles' '
	runs &&
	expect_status 0 fgsvg --compare before1 before2 before3 before4 \
	    before5 -- after1 after2 after3 after4 after5 >c.svg 2>err &&
	grep_q ">Comparison of 5 runs before, 5 after: the whole run less, " c.svg &&
	grep_q ">total bytes per run; red more, blue less, grey the same" c.svg &&
	grep -o "<title>token [^<]*</title>" c.svg >tok && cat tok &&
	grep_q "bytes a run.*: less" tok
'

# Five runs a side of which token frees what it allocates and keep
# leaks: 6000 bytes a run before, 600 after.
leaks() {
	for i in 1 2 3 4 5; do
		printf "%s\n" "main;parse;token $((24000 + i * 13)) 500" \
		    "main;keep $((6000 + i * 5)) 60 live" | awk -f "$GEN" >before$i
		printf "%s\n" "main;keep $((600 + i * 5)) 6 live" |
			awk -f "$GEN" >after$i
	done
}

check 'fgsvg --compare --objects: allocations, fewer, as fgfold --objects' '
	runs &&
	expect_status 0 fgsvg --compare --objects before1 before2 before3 \
	    before4 before5 -- after1 after2 after3 after4 after5 >c.svg 2>err &&
	cat err &&
	grep_q "of alloc-objects: total allocations per run, in allocations" err &&
	grep_q ">Comparison of 5 runs before, 5 after: the whole run fewer, 511.2 -&gt; 10.4 allocations a run<" c.svg &&
	grep_q ">total allocations per run; red more, blue fewer, grey the same" c.svg &&
	grep -o "<title>token [^<]*</title>" c.svg >tok && cat tok &&
	grep_q "^<title>token (500.6 allocations wide, .*: fewer)</title>\$" tok &&
	! grep -q "bytes" tok
'

check 'fgsvg --compare --inuse: what was left allocated, not what was allocated' '
	leaks &&
	expect_status 0 fgsvg --compare --inuse before1 before2 before3 \
	    before4 before5 -- after1 after2 after3 after4 after5 >c.svg 2>err &&
	cat err &&
	grep_q "of inuse-bytes: total bytes per run, in bytes" err &&
	grep_q ">Comparison of 5 runs before, 5 after: the whole run less, 6015.0 -&gt; 615.0 bytes a run<" c.svg &&
	grep_q "<title>keep (6015.0 bytes wide" c.svg &&
	! grep -q "<title>token " c.svg &&
	expect_status 0 fgsvg --compare --inuse --objects before1 before2 \
	    before3 before4 before5 -- after1 after2 after3 after4 after5 \
	    >o.svg 2>err &&
	grep_q "of inuse-objects: total allocations per run, in allocations" err &&
	grep_q "<title>keep (60.0 allocations wide" o.svg &&
	expect_status 0 fgfold --compare --inuse before1 before2 before3 \
	    before4 before5 -- after1 after2 after3 after4 after5 >t 2>err &&
	grep_q "^keep	6015.000	615.000	-5400.000	.*	less\$" t &&
	! grep -q "^token" t
'

check '--objects and --inuse: fgsvg takes them with --compare only, fgfold alone too' '
	runs &&
	expect_status 2 fgsvg --objects before1 >out.svg 2>err &&
	cat err &&
	test "$(cat err)" = "fgsvg: --self, --per, --normalize, --min-change, --objects and --inuse go with --compare" &&
	test ! -s out.svg &&
	expect_status 2 fgsvg --inuse before1 >out.svg 2>err &&
	grep_q "^fgsvg: .* go with --compare\$" err &&
	expect_status 0 fgfold --objects before1 >t 2>err &&
	grep_q "^app;main;parse;token;\[alloc-objects\] 501\$" t
'

done_testing
