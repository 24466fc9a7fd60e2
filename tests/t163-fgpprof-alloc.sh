#!/bin/sh
# t163-fgpprof-alloc: a heap profile (fg-stream(5), "Heap allocations") of
# a program built here, named by fgsym from the binary's own symbols,
# becomes Go's four heap sample types; go tool pprof reads them and names
# the leaking function first in use, the allocating one first in bytes.
. "$(dirname "$0")/lib.sh"
plan 4
GEN=$TESTS/alloc/gen.awk

steps='the four sample types, bytes and counts as the stream says
-sample_index=inuse_space -top names the leaking function first
alloc_space is the default, and -sample_index=alloc_objects counts
a heap profile with a CPU profile: the samples column kept'
if ! command -v go >/dev/null 2>&1 || ! go tool pprof -h >/dev/null 2>&1; then
	echo "$steps" | while read -r s; do
		skip "$s" "go not found (Debian: apt-get install golang-go)"
	done
	done_testing
	exit 0
fi
if ! command -v cc >/dev/null 2>&1; then
	echo "$steps" | while read -r s; do skip "$s" "no C compiler"; done
	done_testing
	exit 0
fi

# A program whose functions the stream's addresses point into.
FIX=$TMP/fix
mkdir -p "$FIX"
cat >"$FIX/leaky.c" <<'EOC'
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) char *token(int i) { char *p = malloc(16 + i % 8); memset(p, 'x', 8); return p; }
__attribute__((noinline)) void parse(void) { for (int i = 0; i < 100; i++) free(token(i)); }
__attribute__((noinline)) void *leak(void) { return malloc(1 << 20); }
__attribute__((noinline)) void load(void) { static void *keep; keep = leak(); (void)keep; }
int main(void) { parse(); load(); return 0; }
EOC
cc -g -O1 -o "$FIX/leaky" "$FIX/leaky.c" && nm "$FIX/leaky" >"$FIX/nm" ||
	echo "# could not build the program"

# token allocates 3 MiB in 600 allocations, all freed; leak 2 MiB in 2,
# never freed.
printf "%s\n" "main;parse;token 2097152 400" "main;parse;token 1048576 200" \
    "main;load;leak 2097152 2 live" |
	awk -v nm="$FIX/nm" -v dso="$FIX/leaky" -v comm=leaky -f "$GEN" >"$FIX/raw"
fgsym "$FIX/raw" >"$FIX/heap.txt" 2>"$FIX/sym.err"
fgpprof "$FIX/heap.txt" >"$FIX/heap.pb.gz" 2>"$FIX/pprof.err"

pp() { go tool pprof "$@" 2>pp.err || { cat pp.err; return 1; }; }

check 'the four sample types, bytes and counts as the stream says' '
	grep_q "	[0-9a-f]* leak+0x4 " "$FIX/heap.txt" &&
	test ! -s "$FIX/pprof.err" &&
	pp -raw "$FIX/heap.pb.gz" >raw && cat raw &&
	grep_q "^PeriodType: space bytes\$" raw &&
	grep_q "^Period: 524288\$" raw &&
	grep_q "^alloc_objects/count alloc_space/bytes\[dflt\] inuse_objects/count inuse_space/bytes\$" raw &&
	grep_q "^ *600 *3145728 *0 *0: " raw &&
	grep_q "^ *2 *2097152 *2 *2097152: " raw
'

# The first function of pprof -top's table, and its flat value.
pprof_first() { sed -n "/flat%/{n;p;q}" "$1"; }

check '-sample_index=inuse_space -top names the leaking function first' '
	pp -sample_index=inuse_space -top "$FIX/heap.pb.gz" >top && cat top &&
	grep_q "^Type: inuse_space\$" top &&
	pprof_first top >first &&
	grep_q "^ *2MB  *100% .* leak\$" first &&
	! grep -q "token" top
'

check 'alloc_space is the default, and -sample_index=alloc_objects counts' '
	pp -top "$FIX/heap.pb.gz" >top && cat top &&
	grep_q "^Type: alloc_space\$" top &&
	pprof_first top | grep_q "^ *3MB .* token\$" - &&
	pp -sample_index=alloc_objects -top "$FIX/heap.pb.gz" >otop &&
	pprof_first otop | grep_q "^ *600 .* token\$" -
'

check 'a heap profile with a CPU profile: the samples column kept' '
	printf "%s\n" "leaky 7/7 [000] 90.000000: 1000000 cpu-clock:" \
	    "	1149 token+0x4 ($FIX/leaky)" "" >cpu.txt &&
	expect_status 0 fgpprof cpu.txt "$FIX/heap.txt" >both.pb.gz &&
	pp -raw both.pb.gz >raw &&
	grep_q "^samples/count cpu/nanoseconds\[dflt\] alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes\$" raw
'

done_testing
