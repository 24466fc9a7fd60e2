#!/bin/sh
# fgsym on an STL program built here (tests/sym/stl.cc): std::sort on a
# vector<unsigned> with a lambda and on a struct with its own operator<,
# a template function as the leaf. C++ names read as perf prints them:
# no return type, no parameter list, template arguments and operator()
# kept, for symbol-table names and inlined (DWARF) names alike; the long
# form with --demangle=full; the --annotate headings in the same style.
. "$(dirname "$0")/lib.sh"
plan 6

FIX=$TMP/fix
mkdir -p "$FIX"
CXX=${CXX:-c++}
$CXX -O2 -g -I"$TESTS/sym" "$TESTS/sym/stl.cc" -o "$FIX/stl" 2>"$FIX/cc.log"
export FIX

# names FILE DSO: frame_names, "(inlined)" dropped.
names() { frame_names "$1" "$2"; }

# short_form FILE: every name in FILE reads as perf prints it. Before the
# first "<" or "(" there is no space (a return type would put one there),
# and no name ends in a parameter list, "const" or a clone suffix, unless
# it ends in operator().
short_form() {
	awk '{
		p = $0; sub(/[<(].*/, "", p)
		if (p ~ / /) { print "return type: " $0; bad = 1 }
		if ($0 ~ /(\)| const|\])$/ && $0 !~ /operator\(\)$/) {
			print "parameters: " $0; bad = 1
		}
	} END { exit bad }' "$1"
}

check 'fixture builds' '
	{ test -x "$FIX/stl" || { cat "$FIX/cc.log"; false; }; }
'

check 'C++ names as perf prints them, from the symbol table and from DWARF' '
	"$FIX/stl" v >in &&
	fgsym in >out 2>err &&
	grep_q "^fgsym: resolved all [0-9]* frames\$" err &&
	names out "$FIX/stl" >actual &&
	short_form actual &&
	grep -qx "app::probe<unsigned int>" actual &&
	grep -qx "app::probe<app::Key>" actual &&
	grep -qx "app::operator<" actual &&
	grep -qx "main::{lambda(unsigned int, unsigned int)#1}::operator()" actual &&
	grep -q "^std::__unguarded_partition<__gnu_cxx::__normal_iterator<app::Key\*, std::vector<app::Key" actual &&
	grep -q "^std::__unguarded_partition<__gnu_cxx::__normal_iterator<unsigned int\*, std::vector<unsigned int" actual &&
	grep -q "^std::sort<" actual &&
	grep -qx "main" actual &&
	! grep -q "^__unguarded_partition\|^__sort\|^sort<" actual
'

check 'the same names from a perf-style stream (file offsets)' '
	"$FIX/stl" v >in && "$FIX/stl" o >ino &&
	fgsym in >out && fgsym ino >outo &&
	names out "$FIX/stl" >expect && names outo "$FIX/stl" >actual &&
	test_cmp expect actual
'

check '--demangle=full: return types, parameter lists, const' '
	"$FIX/stl" v >in &&
	fgsym --demangle=full in >out &&
	names out "$FIX/stl" >actual &&
	grep -qx "void app::probe<unsigned int>(unsigned int const&)" actual &&
	grep -qx "app::operator<(app::Key const&, app::Key const&)" actual &&
	grep -q "^main::{lambda(unsigned int, unsigned int)#1}::operator()(unsigned int, unsigned int) const" actual &&
	grep -q "^__gnu_cxx::__normal_iterator<app::Key\*, .*> std::__unguarded_partition<" actual
'

check '--annotate: the headings name functions in the same style' '
	"$FIX/stl" v >in &&
	fgsym --annotate in >out 2>err &&
	grep -q "^== [12]\. app::probe<unsigned int> =" out &&
	grep -q "^== [12]\. app::probe<app::Key> =" out &&
	fgsym --annotate --demangle=full in >out 2>err &&
	grep -q "^== [12]\. void app::probe<app::Key>(app::Key const&) =" out
'

# A real recording of the sort (mode p): the listing's source lines name
# the inlined std internals as the frames do, std:: in front (GCC gives
# them no linkage name; their DW_AT_name alone is "__move_median_to_first<...>").
if fgrecord -q -o "$FIX/rec" "$FIX/stl" p >/dev/null 2>"$FIX/rec.err"; then
	check '--annotate: inlined names beside source lines qualified as frames are' '
		fgsym --annotate=3 "$FIX/rec" >out 2>err &&
		grep -o "inlined [^] ]*" out >inl &&
		grep -q "inlined std::__" inl &&
		awk "{ n = \$2; sub(/<.*/, \"\", n)
			if (n !~ /::/ && (n ~ /^__/ || n ~ /^operator/)) { print; bad = 1 } }
			END { exit bad }" inl
	'
else
	skip '--annotate: inlined names beside source lines qualified as frames are' "fgrecord cannot record here: $(head -1 "$FIX/rec.err")"
fi

done_testing
