#!/bin/sh
# t162-fgsvg-alloc: a heap profile drawn in bytes (B, KiB, MiB, GiB) or in
# allocations, told by fgfold's leaf ("[alloc-bytes]"), from folded text
# and from the stream itself; the script writes and reads bytes back.
. "$(dirname "$0")/lib.sh"
plan 7
GEN=$TESTS/alloc/gen.awk

# The frames' tooltips, one a line.
titles() { grep -o "<title>[^<]*</title>" "$1" | sed "s/<[^>]*>//g"; }

spec() {
	printf "%s\n" "main;parse;token 1048576 200" "main;parse;token 524288 100" \
	    "main;load;leak 3221225472 2 live" "main;grow 700 1"
}

check 'bytes: titles and tooltips in B, KiB, MiB and GiB' '
	spec | awk -f "$GEN" >in &&
	fgfold in >folded &&
	expect_status 0 fgsvg --minwidth=0 folded >out.svg 2>err &&
	test_cmp /dev/null err &&
	titles out.svg >t && cat t &&
	grep_q "^all (3.00 GiB, 100%)\$" t &&
	grep_q "^token (1.50 MiB, 0.05%; self 0 B, 0.00%)\$" t &&
	grep_q "^grow (700 B, 0.00%; self 0 B, 0.00%)\$" t &&
	grep_q "^leak (3.00 GiB, 99.95%; self 0 B, 0.00%)\$" t &&
	grep_q "^\[alloc-bytes\] (1.50 MiB, 0.05%; self 1.50 MiB, 0.05%)\$" t &&
	! grep -q "samples" t &&
	grep_q ">Allocation Flame Graph<" out.svg &&
	grep_q "tn:2" out.svg
'

check 'the stream drawn directly: the same picture as through fgfold' '
	spec | awk -f "$GEN" >in &&
	fgfold in | fgsvg >a.svg &&
	fgsvg in >b.svg &&
	titles a.svg >a && titles b.svg >b && test_cmp a b
'

check 'allocations: counts, and the word' '
	spec | awk -f "$GEN" >in &&
	fgfold --objects in | fgsvg >out.svg &&
	titles out.svg >t && cat t &&
	grep_q "^all (303 allocations, 100%)\$" t &&
	grep_q "^token (300 allocations, 99.01%" t &&
	! grep -q "MiB\|samples" t
'

check 'in use at the end: its own title, the leak alone' '
	spec | awk -f "$GEN" >in &&
	fgfold --inuse in | fgsvg >out.svg &&
	grep_q ">In-Use Memory Flame Graph<" out.svg &&
	titles out.svg >t &&
	grep_q "^leak (3.00 GiB, 100.00%" t &&
	! grep -q "^token" t
'

check '--countname and --title still say what they are told' '
	spec | awk -f "$GEN" >in &&
	fgfold --objects in | fgsvg --countname=blocks --title=Heap >out.svg &&
	titles out.svg >t &&
	grep_q "^all (303 blocks, 100%)\$" t &&
	grep_q ">Heap<" out.svg
'

check 'a CPU profile keeps its samples and its title' '
	echo "main;work 5" | fgsvg >out.svg &&
	titles out.svg >t &&
	grep_q "^all (5 samples, 100%)\$" t &&
	grep_q ">Flame Graph<" out.svg
'

if command -v node >/dev/null 2>&1; then
	# The script shows the amounts of zoom and search as the tooltips do.
	check 'the script writes bytes as the tooltips do, and "1 allocation"' '
		awk "/^\tfunction amount\\(n\\) \\{/{p=1} p{print} p&&/^\t}\$/{exit}" \
		    "$TOP/common/svg/svgscript.js" >amount.js &&
		grep_q "C.tn === 2" amount.js &&
		cat >run.js <<-\EOS &&
		var C = { tn: 2, cn: "bytes" };
		eval(require("fs").readFileSync("amount.js", "utf8"));
		console.log([700, 1536, 1572864, 3221225472].map(amount).join("|"));
		C = { tn: 0, cn: "allocations", cn1: "allocation" };
		console.log(amount(1234) + "|" + amount(1));
		EOS
		node run.js >out &&
		printf "%s\n" "700 B|1.50 KiB|1.50 MiB|3.00 GiB" "1,234 allocations|1 allocation" >expect &&
		test_cmp expect out
	'
else
	skip 'the script writes bytes as the tooltips do, and "1 allocation"' 'no node (apt-get install nodejs)'
fi

done_testing
