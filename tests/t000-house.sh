#!/bin/sh
# The house: man pages lint-clean and cross-referenced, every tool built
# and documented, usage errors exit 2.
. "$(dirname "$0")/lib.sh"

if command -v mandoc >/dev/null 2>&1; then
	check 'every man page is lint-clean (mandoc -Tlint -W warning)' '
		mandoc -Tlint -W warning $TOP/man/*.[1-9] >lint 2>&1; test ! -s lint || { cat lint; false; }
	'
else
	skip 'man pages lint-clean' 'mandoc is not installed (apt-get install mandoc)'
fi

for t in fgrecord fgsym fgfold fgsvg fgpprof; do
	check "$t: built, has a man page that SEE ALSO links to its siblings" "
		test -x $TOP/bin/$t && test -f $TOP/man/$t.1 &&
		for s in fgrecord fgsym fgfold fgsvg fg-stream; do
			[ \$s = $t ] || grep -q \"^\\.Xr \$s [15]\" $TOP/man/$t.1 || { echo \"$t.1 lacks .Xr \$s\"; exit 1; }
		done
	"
	check "$t: an unknown option is a usage error, exit 2" "
		expect_status 2 $t --no-such-option </dev/null 2>err && grep_q usage err
	"
done

check 'fg-stream(5) exists and names the pseudo-frame fgrecord writes' '
	test -f $TOP/man/fg-stream.5 &&
	grep -q "0 \[truncated\] (\[unknown\])" $TOP/man/fg-stream.5 &&
	grep -q "0 \[truncated\] (\[unknown\])" $TOP/common/record.c
'

done_testing
