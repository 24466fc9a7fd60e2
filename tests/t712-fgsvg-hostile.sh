#!/bin/sh
# t712-fgsvg-hostile: function names from a hostile binary, and broken
# folded input, drawn by fgsvg: the SVG is well-formed XML (python3's
# xml.etree), and no name adds an element, an attribute or script to it.
# Each SVG is compared with one drawn from the same stacks under harmless
# names (tests/hostile/xmlsafe.py). t200 covers the basic escaping.
# slow: make check-all and CI run it, make check does not (tests/run --quick)
. "$(dirname "$0")/lib.sh"
plan 29
H=$TESTS/hostile
. "$H/names.folded.sh"
if ! command -v python3 >/dev/null 2>&1; then
	skip 'fgsvg hostile-input tests' 'python3 is not installed (apt-get install python3)'
	check '--cp with a FIFO as palette.map: a clear error, no hang' '
	mkfifo palette.map &&
	printf "a;b 1\n" >in &&
	expect_status 2 timeout 10 fgsvg --cp in >out 2>err &&
	grep_q "palette.map. is not a regular file" err
'

done_testing
	exit 0
fi
frames() { python3 "$TESTS/fgsvg/frames.py" "$@"; }
# harmless <FOLDED: the same stacks, each distinct name replaced by nN.
harmless() {
	awk '{
		c = $NF; s = substr($0, 1, length($0) - length(c) - 1)
		n = split(s, a, ";"); out = ""
		for (i = 1; i <= n; i++) {
			if (!(a[i] in m)) m[a[i]] = "n" (++k)
			out = out (i > 1 ? ";" : "") m[a[i]]
		}
		print out " " c
	}'
}
export H

check 'hostile names: well-formed XML, no markup or script added' '
	. "$H/names.folded.sh" && hostile_names >in && harmless <in >base &&
	fgsvg in >out.svg 2>err && fgsvg base >base.svg &&
	python3 "$H/xmlsafe.py" base.svg out.svg &&
	! grep -q "<script>alert" out.svg && ! grep -q " onload=\"alert" out.svg
'

check 'hostile names: each one is shown, escaped, in its tooltip' '
	. "$H/names.folded.sh" && hostile_names >in &&
	fgsvg --minwidth 0 in >out.svg && frames out.svg >fr &&
	grep_q "^<script>alert(1)</script>|" fr &&
	grep_q "^</svg><script>alert(2)</script>|" fr &&
	grep_q "^\" onload=\"alert(3)|" fr &&
	grep_q "^c\\\\x01t\\\\x1bl\\\\x7f|" fr &&
	grep_q "^\\\\xed\\\\xa0\\\\x80surrogate|" fr &&
	grep_q "^\\\\xef\\\\xbf\\\\xbenonchar|" fr &&
	grep_q "^<!-- c -->|" fr &&
	grep_q "^</title></g><a xlink:href=\"javascript:alert(5)\">x</a>|" fr
'

check 'hostile names merged into a grey frame: its search data stays inert' '
	. "$H/names.folded.sh" && { printf "app 100000\n"; hostile_names; } >in &&
	harmless <in >base && fgsvg in >out.svg && fgsvg base >base.svg &&
	grep_q "class=\"m\" data-l=\"0 " out.svg &&
	python3 "$H/xmlsafe.py" base.svg out.svg &&
	python3 -c "
import re, sys, json, xml.etree.ElementTree as E
s = \"\".join(e.text or \"\" for e in E.parse(sys.argv[1]).getroot().iter() if e.tag.endswith(\"script\"))
n = json.loads(\"[\" + re.search(r\", N:\\[([^\\]]*)\\]\\};\", s).group(1) + \"]\")
want = [\"<script>alert(1)</script>\", \"x]]>y\", \"</svg><script>alert(2)</script>\",
    \"\\\" onload=\\\"alert(3)\", \"c\\\\x01t\\\\x1bl\\\\x7f\", \"bad\\\\xff\\\\xfeutf8\",
    \"<![CDATA[x]]>\", \"\\\\u003cscript\", \"</script>\"]
miss = [w for w in want if w not in n]
sys.exit(\"missing from fgcfg.N: %r (have %r)\" % (miss, n) if miss else 0)
" out.svg
'

check 'hostile names in a differential profile: same guarantees' '
	. "$H/names.folded.sh" && hostile_names | awk "{ print \$0, NR }" >in &&
	harmless <in >base &&
	fgsvg in >out.svg && fgsvg base >base.svg &&
	python3 "$H/xmlsafe.py" base.svg out.svg
'

check 'hostile names with --inverted, --reverse, --flamechart, --colors java' '
	. "$H/names.folded.sh" && hostile_names >in && harmless <in >base &&
	for o in --inverted --reverse --flamechart "--colors java" "--hash"; do
		fgsvg $o in >out.svg && fgsvg $o base >base.svg &&
		python3 "$H/xmlsafe.py" base.svg out.svg || { echo "with $o"; exit 1; }
	done
'

check 'hostile names given to --nameattr: values escaped, nothing added' '
	. "$H/names.folded.sh" && hostile_names >in && harmless <in >base &&
	printf "<script>alert(1)</script>\tclass=\" onclick=\"alert(7)\ttitle=</title><script>alert(8)</script>\n" >attrs &&
	printf "x]]>y\thref=https://e.example/?a=1&b=<2>\ttarget=\"_blank\n" >>attrs &&
	printf "n1\tclass=\" onclick=\"alert(7)\ttitle=</title><script>alert(8)</script>\n" >battrs &&
	printf "n2\thref=https://e.example/?a=1&b=<2>\ttarget=\"_blank\n" >>battrs &&
	fgsvg --nameattr attrs in >out.svg && fgsvg --nameattr battrs base >base.svg &&
	python3 "$H/xmlsafe.py" base.svg out.svg &&
	grep_q "class=\"&quot; onclick=&quot;alert(7)\"" out.svg &&
	grep_q "<title>&lt;/title&gt;&lt;script&gt;alert(8)&lt;/script&gt;</title>" out.svg &&
	grep_q "xlink:href=\"https://e.example/?a=1&amp;b=&lt;2&gt;\" target=\"&quot;_blank\"" out.svg
'

check '--nameattr: a key that is no XML name is refused with FILE:LINE, exit 1' '
	printf "a;b 1\n" >in &&
	printf "b\tx\"><script>alert(1)</script>=1\n" >attrs &&
	expect_status 1 fgsvg --nameattr attrs in >out.svg 2>err &&
	grep_q "^fgsvg: attrs:1: .* is not allowed; use href, xlink:href, target, class or title; skipped" err &&
	! grep -q "<script>alert" out.svg &&
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" out.svg
'

check 'folded counts: 2^64 overflow, negative, words: FILE:LINE, exit 1, rest drawn' '
	printf "a;b 18446744073709551616\na;c 1.5\na;d -1\na;e 0x10\na;f 2\n" >in &&
	expect_status 1 fgsvg in >out.svg 2>err &&
	grep_q "^fgsvg: in:1: count does not fit in 64 bits" err &&
	grep_q "^fgsvg: in:3: count is negative or not a number" err &&
	grep_q "^fgsvg: skipped 3 malformed lines" err &&
	grep_q "<title>c (2 samples" out.svg && grep_q "<title>f (2 samples" out.svg
'

check 'folded counts: a fraction of 70 digits is refused with FILE:LINE, the rest drawn' '
	big=$(printf "%070d" 0 | tr 0 9) &&
	printf "a;b $big.5\na;c 2.5\n" >in &&
	expect_status 1 fgsvg in >out.svg 2>err &&
	grep_q "^fgsvg: in:1: count does not fit in 64 bits" err &&
	grep_q "<title>c (" out.svg && ! grep -q "<title>b " out.svg
'

check 'folded counts: 2^64-1 is drawn (as a double); fractional counts add up' '
	printf "a;b 18446744073709551615\n" >big && fgsvg big >out.svg 2>err &&
	grep_q "<title>b (18,446,744,073,709,551,61[56] samples" out.svg &&
	printf "a;b 0.25\na;b 0.5\na;c 1.25\n" >in && fgsvg in >out.svg 2>err && test ! -s err &&
	grep_q "<title>all (2 samples, 100%)</title>" out.svg
'

check 'folded counts adding up past 2^64-1: said with FILE:LINE, the line skipped, exit 1 (as fgfold)' '
	printf "a;b 18446744073709551615\na;c 1\na;d 2.5\n" >in &&
	expect_status 1 fgsvg in >out.svg 2>err &&
	grep_q "^fgsvg: in:2: the counts add up past 2^64-1 here: skipped the line" err &&
	! grep -q "<title>c " out.svg &&
	expect_status 1 fgfold --folded in >/dev/null 2>err2 && grep_q "in:2: the counts add up past 2^64-1" err2 &&
	printf "a;b 9223372036854775808 1\n" >d1 && printf "a;c 9223372036854775808 2\n" >d2 &&
	expect_status 1 fgsvg d1 d2 >out.svg 2>err && grep_q "^fgsvg: d2:1: the counts add up past 2^64-1" err
'

check '--fonttype cannot end the CSS rule: ; { } < are escaped, the style is unchanged' '
	printf "a;b 1\n" >in &&
	fgsvg in >base.svg &&
	fgsvg --fonttype "Verdana; } text { display:none } #x { fill:red" in >out.svg &&
	sed -n "/<style/,/<\/style>/p" base.svg | sed "s/font-family:[^;]*;/font-family:F;/" >want &&
	sed -n "/<style/,/<\/style>/p" out.svg | sed "s/font-family:[^;]*;/font-family:F;/" >got &&
	test_cmp want got &&
	grep_q "font-family:Verdana\\\\3b  \\\\7d  text" out.svg &&
	fgsvg --fonttype "DejaVu Sans, sans-serif" in >ok.svg &&
	grep_q "font-family:DejaVu Sans, sans-serif;" ok.svg
'

check 'a NUL byte in a name: the line said and skipped (exit 1), never drawn cut' '
	printf "a;c 1\na;x\0y 2\n" >in && expect_status 1 fgsvg in >out.svg 2>err &&
	grep_q "in:2: a NUL byte" err &&
	frames out.svg >fr && grep_q "^c|" fr && ! grep -q "^x|" fr
'

check 'binary garbage after folded lines: no crash, valid XML, exit 1' '
	{ seq 1 2000 | sed "s/.*/a;b&;c 1/"; head -c 200000 /dev/urandom; } >in &&
	{ fgsvg in >out.svg 2>err; st=$?; } && test "$st" = 1 &&
	grep_q "malformed line" err &&
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" out.svg
'

check 'a 10 MB name: drawn, valid XML, no crash' '
	{ printf "a;"; head -c 10000000 /dev/zero | tr "\0" x; printf " 3\na;b 1\n"; } >in &&
	fgsvg in >out.svg 2>err &&
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" out.svg
'

check 'a line with no count among good ones: named, the others drawn' '
	printf "a;b 1\na;c\na;d 2\n" >in &&
	expect_status 1 fgsvg in >out.svg 2>err &&
	grep_q "^fgsvg: in:2: no count" err &&
	grep_q "<title>all (3 samples, 100%)</title>" out.svg
'

check '--cp with a FIFO as palette.map: a clear error, no hang' '
	mkfifo palette.map &&
	printf "a;b 1\n" >in &&
	expect_status 2 timeout 10 fgsvg --cp in >out 2>err &&
	grep_q "palette.map. is not a regular file" err
'

check '--nameattr naming a FIFO: refused before it is opened, no hang, exit 2' '
	mkfifo attrs && printf "a;b 1\n" >in &&
	expect_status 2 timeout 10 fgsvg --nameattr attrs in >out 2>err &&
	grep_q "nameattr file .attrs.: not a regular file" err
'

check '--cp: palette.map a symbolic link to a file: refused, the file untouched, exit 2' '
	printf "a;b 1\n" >in && echo "victim data" >victim && ln -s victim palette.map &&
	expect_status 2 fgsvg --cp in >out 2>err &&
	grep_q "palette.map. is not a regular file but a symbolic link, not followed" err &&
	echo "victim data" >want && test_cmp want victim && test -L palette.map
'

check '--cp: palette.map a dangling symbolic link: nothing created through it, exit 2' '
	printf "a;b 1\n" >in && ln -s created palette.map &&
	expect_status 2 fgsvg --cp in >out 2>err &&
	test ! -e created && grep_q "symbolic link" err
'

check '--cp: palette.map is replaced, not written through: a hard link keeps its data' '
	printf "a;b 1\n" >in && printf "b->rgb(1,2,3)\n" >palette.map && ln palette.map other &&
	fgsvg --cp in >out 2>err && test ! -s err &&
	printf "b->rgb(1,2,3)\n" >want && test_cmp want other &&
	grep_q "^a->rgb(" palette.map && ! ls palette.map.* 2>/dev/null
'

check '--nameattr: on* handlers, style and javascript: links refused with FILE:LINE; allowed pairs kept' '
	printf "a;b 1\na;c 1\na;d 1\na;e 1\n" >in &&
	printf "b\tonfocus=alert(1)\tautofocus=1\tclass=ok\n" >attrs &&
	printf "c\tstyle=position:fixed\n" >>attrs &&
	printf "d\thref= JavaScript:alert(2)\n" >>attrs &&
	printf "e\thref=../x.html\tclass=e1\ttarget=_blank\n" >>attrs &&
	expect_status 1 fgsvg --nameattr attrs in >out.svg 2>err &&
	grep_q "^fgsvg: attrs:1: .onfocus. is not allowed (an event handler runs script)" err &&
	! grep -q "onfocus\|autofocus\|style=\"position\|avaScript" out.svg &&
	grep_q "<g class=\"ok\"><title>b " out.svg &&
	grep_q "<a xlink:href=\"../x.html\" class=\"e1\" target=\"_blank\"><title>e " out.svg &&
	printf "c\tstyle=x\n" >a2 && expect_status 1 fgsvg --nameattr a2 in >/dev/null 2>err &&
	grep_q "a2:1: .style. is not allowed (style" err &&
	printf "d\thref=javascript:alert(2)\n" >a3 && expect_status 1 fgsvg --nameattr a3 in >out.svg 2>err &&
	grep_q "a3:1: href .javascript:alert(2). is not allowed: only http, https and relative URLs" err &&
	! grep -q "javascript" out.svg
'

# An id from --nameattr would take the place of the SVG's own (id=zlabels
# broke zoom and labels), and the frames of one name would share it: every
# id is refused, with the ids the SVG itself uses (read from one it drew,
# the function view's made by its script) among those tried.
check '--nameattr: an id (zlabels, labels, any the SVG uses) is refused: one line, exit 2' '
	printf "a;b 1\na;c 1\n" >in &&
	fgsvg --subtitle s --notes n in >plain.svg &&
	grep -o " id=\"[^\"]*\"" plain.svg | sed "s/.*id=\"//; s/\"//" >ids &&
	grep -qx zlabels ids && grep -qx labels ids && grep -qx frames ids &&
	printf "%s\n" fnv fnframes fnlabels e1 >>ids &&
	while read -r id; do
		printf "c\tclass=k\n" >attrs && printf "b\tid=%s\ttitle=t\n" "$id" >>attrs &&
		expect_status 2 fgsvg --nameattr attrs in >out.svg 2>err &&
		test ! -s out.svg && test $(wc -l <err) = 1 &&
		grep_q "^fgsvg: attrs:2: .id. is not allowed: the SVG.s script finds its own elements by id" err ||
			{ echo "id $id"; exit 1; }
	done <ids
'

# url_ok() stopped at a NUL byte: "x<NUL>javascript:..." was taken for a
# relative URL. The whole value is judged, and the message shows the NUL.
check '--nameattr: an href is judged whole, past a NUL byte' '
	printf "a;b 1\na;c 1\n" >in &&
	printf "b\thref=x\000javascript:alert(1)\n" >attrs &&
	printf "c\thref=docs/a\000b.html\n" >>attrs &&
	expect_status 1 fgsvg --nameattr attrs in >out.svg 2>err &&
	grep -qxF "fgsvg: attrs:1: href '"'"'x\\x00javascript:alert(1)'"'"' is not allowed: only http, https and relative URLs (no javascript:); skipped (expected \"NAME<TAB>key=value...\")" err &&
	! grep -q "javascript" out.svg &&
	grep_q "<a xlink:href=\"docs/a.x00b.html\" target=\"_top\"><title>c " out.svg
'

check '--nameattr: an attribute given twice (href and xlink:href too) is refused: valid XML' '
	printf "a;b 1\n" >in &&
	printf "b\tclass=x\tclass=y\thref=https://e.example/\txlink:href=https://f.example/\n" >attrs &&
	expect_status 1 fgsvg --nameattr attrs in >out.svg 2>err &&
	grep_q "attrs:1: .class. given twice" err &&
	grep_q "<a class=\"x\" xlink:href=\"https://e.example/\" target=\"_top\">" out.svg &&
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" out.svg
'

# The #s= pattern of a link runs in whoever opens it: in Chromium, a
# pattern that backtracks for ever must not freeze the tab.
if [ ! -x /usr/bin/chromium ]; then
	skip 'a #s= link with a catastrophic pattern does not freeze the tab' 'no /usr/bin/chromium (apt-get install chromium)'
elif ! command -v node >/dev/null 2>&1 || [ ! -d "$TESTS/browser/node_modules/playwright-core" ]; then
	skip 'a #s= link with a catastrophic pattern does not freeze the tab' 'no node or playwright-core (cd tests/browser && npm install)'
else
	check 'a #s= link with a catastrophic pattern does not freeze the tab' '
		{ echo "main;$(printf "a%.0s" $(seq 34))! 5"; echo "main;(a+)+\$ 5"; echo "main;ok 10"; } >in &&
		fgsvg in >re.svg &&
		long=$(printf "x%.0s" $(seq 300)) &&
		{ NODE_PATH="$TESTS/browser/node_modules" timeout 120 node "$H/regexlink.js" re.svg \
			"(a+)+\$" "(a|aa)*b" "ok" "$long" >res 2>err || { cat err; false; }; } &&
		cat res | cut -c1-100 &&
		grep_q "^(a+)+\$	Matched: 25.0% (pattern refused, searched as text: a repeated group with a choice inside)	" res &&
		grep_q "^(a|aa)\*b	Matched: 0.0% (pattern refused, searched as text: a repeated group with a choice inside)	" res &&
		grep_q "^ok	Matched: 50.0%	" res &&
		grep_q "^x*	Search in the link not run: over 256 characters	" res
	'
fi

# make stress failed on main unseen ("the default SVG of 1000000 stacks is
# 25096269 bytes: --minwidth does not bound it"): its quick mode runs here,
# fgsvg on the same million stacks, so that the script and the bound it
# checks (frames by --minwidth, plus --search-budget) cannot rot again.
if [ ! -x /usr/bin/time ]; then
	skip 'make stress, quick mode: every property holds' 'no GNU time for the peak RSS (apt-get install time)'
elif nm "$TOP/bin/fgfold" 2>/dev/null | grep -q __asan_init; then
	skip 'make stress, quick mode: every property holds' 'peak RSS means nothing under ASan; the plain make check-all runs it'
else
	check 'make stress, quick mode: every property holds' '
		{ STRESS_QUICK=1 STRESS_OUT=$PWD timeout 300 "$TOP/scripts/stress" >out 2>&1; st=$?; } &&
		cat out &&
		[ $st = 0 ] && ! grep -q FAIL out &&
		grep_q "^fgsvg: 1000000 unique stacks" out &&
		grep_q "search-budget 0: SVG [0-9]* bytes" out
	'
fi

check 'a directory as input: a read error, not a malformed line; the rest drawn, exit 1' '
	printf "a;b 1\n" >ok &&
	expect_status 1 fgsvg . ok >out.svg 2>err &&
	grep -qx "fgsvg: cannot read .\..: Is a directory" err &&
	test $(wc -l <err) = 1 && grep_q "<title>b (1 sample, " out.svg
'

# A regular file is mapped; one truncated under fgsvg while it reads must
# give a one-line error and exit 2, not a crash (SIGBUS). gdb stops fgsvg
# once the file is mapped, to truncate it at that moment.
if command -v gdb >/dev/null 2>&1; then
	check 'an input file truncated while mapped: one line, exit 2, no crash' '
		awk "BEGIN { for (i = 0; i < 20000; i++) print \"main;f\" i \";g 1\" }" >in &&
		{ gdb -q -batch -ex "handle SIGBUS nostop noprint pass" \
			-ex "break lineread_next_kept" -ex run \
			-ex "shell truncate -s 0 in" -ex delete -ex continue \
			--args "$TOP/bin/fgsvg" in >out 2>err &&
		grep_q "exited with code 02" out &&
		grep -qx "fgsvg: an input file shrank while it was being read; run again on a file that is not being written" err ||
			{ cat err; false; }; }
	'
else
	skip 'an input file truncated while mapped' 'gdb is not installed'
fi

done_testing
