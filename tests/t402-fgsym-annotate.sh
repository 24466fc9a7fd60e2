#!/bin/sh
# fgsym --annotate and --annotate-to: the wiring into the annotate module
# (the listing itself is tested with the module).
. "$(dirname "$0")/lib.sh"
plan 6

FIX=$TMP/fix
mkdir -p "$FIX"
CC=${CC:-cc}
$CC -O2 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl" || exit 1
if command -v ld.lld >/dev/null 2>&1; then
	$CC -O2 -g -fuse-ld=lld -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl-lld" || exit 1
else
	cp "$FIX/inl" "$FIX/inl-lld"
fi
export FIX CC

check '--annotate prints only the listing, ranking the leaf function' '
	"$FIX/inl" v >in && "$FIX/inl" v | sed 1,2d >>in &&
	fgsym --annotate in >out 2>err &&
	! grep -q "cpu-clock" out &&
	grep_q "leaf" out &&
	grep_q "2 samples" out
'

check '--annotate on a perf stream converts file offsets first' '
	"$FIX/inl-lld" o >in &&
	fgsym --annotate=1 in >out 2>err &&
	grep_q "leaf" out &&
	! grep -q "not in" out
'

check '--annotate-to=FILE,N: the stream on stdout is unchanged' '
	"$FIX/inl" v >in &&
	fgsym in >expect &&
	fgsym --annotate-to=listing,3 in >actual &&
	test_cmp expect actual &&
	grep_q "leaf" listing
'

check '--annotate: a rebuilt file is not annotated' '
	$CC -O2 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o app &&
	id=$(readelf -n app | awk "/Build ID/ { print \$3 }") &&
	./app v | sed "1a\\
# buildid : $id $PWD/app" >in &&
	$CC -O1 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o app &&
	expect_status 0 fgsym --annotate in >out 2>err &&
	grep -q "rebuilt" err &&
	! grep -q "leaf" out
'

check '--annotate: bad N and exclusive options exit 2' '
	expect_status 2 fgsym --annotate=0 </dev/null 2>err &&
	grep_q "--annotate: .0. is not a number of functions from 1 to 1000" err &&
	expect_status 2 fgsym --annotate=x </dev/null 2>err &&
	expect_status 2 fgsym --annotate --annotate-to=f </dev/null 2>err &&
	grep_q "exclusive" err
'

check '--annotate names kernel functions from --kallsyms=FILE, as fgsym does' '
	printf "ffffffff81000000 T planted_kfunc\nffffffff81001000 T next_kfunc\n" >ks &&
	printf "# fgrecord 1\nx 1/1 [000] 1.0: 1 cpu-clock:\n\tffffffff81000010 [unknown] ([kernel.kallsyms])\n\n" >in &&
	fgsym --kallsyms=ks in >sym 2>err && grep_q "planted_kfunc+0x10" sym &&
	{ fgsym --kallsyms=ks --annotate in >out 2>err; test $? -le 1; } &&
	grep_q "planted_kfunc (\[kernel.kallsyms\])" out &&
	{ fgsym --kallsyms=ks --annotate-to=ann in >sym2 2>err; test $? -le 1; } &&
	test_cmp sym sym2 && grep_q "planted_kfunc (\[kernel.kallsyms\])" ann
'

done_testing
