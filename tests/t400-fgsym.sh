#!/bin/sh
# fgsym on fixtures built here from tests/sym: names, inlined frames, source
# lines, perf file offsets, diagnostics, idempotence and pass-through.
# The fixtures write their own call stacks (tests/sym/selfstack.h), so the
# right answer for every frame is known without perf.
. "$(dirname "$0")/lib.sh"
plan 37
# FG_TEST_BIN: a directory of other tools to try (e.g. an older build's bin/).
[ -n "${FG_TEST_BIN:-}" ] && PATH=$FG_TEST_BIN:$PATH && export PATH

FIX=$TMP/fix
mkdir -p "$FIX"
CC=${CC:-cc}
$CC -O2 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl" 2>"$FIX/cc.log"
$CC -O2 -g -no-pie -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl-nopie" 2>>"$FIX/cc.log"
$CC -O0 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl-O0" 2>>"$FIX/cc.log"
CXX=${CXX:-c++}
$CXX -O2 -g -I"$TESTS/sym" "$TESTS/sym/tmpl.cc" -o "$FIX/tmpl" 2>>"$FIX/cc.log"
export FIX

# names FILE DSO: frame_names, "(inlined)" after the inlined ones.
names() { frame_names "$1" "$2" " (inlined)"; }

# line_of TAG: the line number of the fixture line marked LINE:TAG.
line_of() {
	grep -n "LINE:$1" "$TESTS/sym/inl.c" | cut -d: -f1
}

check 'fixtures build' '
	{ test -x "$FIX/inl" && test -x "$FIX/tmpl" && test -x "$FIX/inl-O0" ||
	  { cat "$FIX/cc.log"; false; }; }
'

check 'C: names and the inline chain, innermost first' '
	"$FIX/inl" v >in &&
	fgsym in >out 2>err &&
	names out "$FIX/inl" >actual &&
	cat >expect <<-\EOF &&
	leaf
	twist (inlined)
	mix (inlined)
	work
	outer
	main
	_start
	EOF
	test_cmp expect actual &&
	grep_q "^fgsym: resolved all [0-9]* frames$" err
'

check 'C: the real frame keeps its address text and gets +0xOFF' '
	"$FIX/inl" v >in &&
	fgsym in >out &&
	leaf=$(awk "/leaf/ { print \$1; exit }" out) &&
	grep_q "^	 *$leaf leaf+0x0 ($FIX/inl)\$" out &&
	grep -q "^	 *[0-9a-f]* work+0x[0-9a-f]* ($FIX/inl)\$" out &&
	grep -q "^	 *[0-9a-f]* twist (inlined)\$" out
'

check '--no-inline drops the inlined frames' '
	"$FIX/inl" v >in &&
	fgsym --no-inline in >out &&
	names out "$FIX/inl" >actual &&
	printf "%s\n" leaf work outer main _start >expect &&
	test_cmp expect actual
'

check '--srcline: FILE:LINE after each frame, call sites for callers' '
	"$FIX/inl" v >in &&
	fgsym --srcline in >out &&
	grep -A1 " twist (inlined)" out | sed -n 2p >actual &&
	echo "  inl.c:$(line_of twist-calls-leaf)" >expect &&
	grep -A1 " mix (inlined)" out | sed -n 2p >>actual &&
	echo "  inl.c:$(line_of mix-calls-twist)" >>expect &&
	grep -A1 " work+0x" out | sed -n 2p >>actual &&
	echo "  inl.c:$(line_of work-calls-mix)" >>expect &&
	grep -A1 " outer+0x" out | sed -n 2p >>actual &&
	echo "  inl.c:$(line_of outer-calls-work)" >>expect &&
	test_cmp expect actual
'

check '--srcline --full-path names the source by its full path' '
	"$FIX/inl" v >in &&
	fgsym --srcline --full-path in >out &&
	grep_q "^  /.*/sym/inl.c:$(line_of work-calls-mix)\$" out
'

check 'perf stream: PIE file offsets give the same names as vaddrs' '
	"$FIX/inl" v >v.in && "$FIX/inl" o >o.in &&
	fgsym v.in >v.out && fgsym o.in >o.out &&
	names v.out "$FIX/inl" >expect && names o.out "$FIX/inl" >actual &&
	test_cmp expect actual
'

check 'perf stream: non-PIE executable with file offsets (perf 6)' '
	"$FIX/inl-nopie" o >in &&
	fgsym in >out &&
	names out "$FIX/inl-nopie" >actual &&
	printf "%s\n" leaf "twist (inlined)" "mix (inlined)" work outer main _start >expect &&
	test_cmp expect actual
'

check 'perf stream: non-PIE executable with absolute addresses (older perf)' '
	"$FIX/inl-nopie" a >in &&
	grep -q "^	 *40[0-9a-f]\{4\} \[unknown\] ($FIX/inl-nopie)" in &&
	fgsym in >out &&
	names out "$FIX/inl-nopie" >actual &&
	printf "%s\n" leaf "twist (inlined)" "mix (inlined)" work outer main _start >expect &&
	test_cmp expect actual
'

if command -v ld.lld >/dev/null 2>&1 &&
    $CC -O2 -g -fuse-ld=lld -I"$TESTS/sym" "$TESTS/sym/inl.c" -o "$FIX/inl-lld" 2>/dev/null &&
    readelf -lW "$FIX/inl-lld" | awk '$1 == "LOAD" && $2 != $3 { f = 1 } END { exit !f }'; then
	check 'perf stream: lld layout (p_vaddr != p_offset) converts offsets' '
		"$FIX/inl-lld" o >in &&
		fgsym in >out &&
		names out "$FIX/inl-lld" >actual &&
		printf "%s\n" leaf "twist (inlined)" "mix (inlined)" work outer main _start >expect &&
		test_cmp expect actual &&
		"$FIX/inl-lld" v >vin &&
		! cmp -s in vin
	'
else
	skip 'perf stream: lld layout (p_vaddr != p_offset) converts offsets' \
	    'ld.lld is not installed (apt-get install lld)'
fi

check 'C++: names as perf prints them: no return type, no parameters' '
	"$FIX/tmpl" v >in &&
	fgsym in >out &&
	names out "$FIX/tmpl" >actual &&
	cat >expect <<-\EOF &&
	leaf
	geo::Shape<double>::area
	geo::total<double>
	main
	_start
	EOF
	test_cmp expect actual
'

check 'C++: --demangle=full keeps return types and parameter lists' '
	"$FIX/tmpl" v >in &&
	fgsym --demangle=full in >out &&
	names out "$FIX/tmpl" >actual &&
	cat >expect <<-\EOF &&
	leaf()
	geo::Shape<double>::area() const
	double geo::total<double>(geo::Shape<double> const&, int)
	main
	_start
	EOF
	test_cmp expect actual &&
	fgsym --demangle=none in >out &&
	names out "$FIX/tmpl" >actual &&
	grep_q "^_Z4leafv\$" actual &&
	expect_status 2 fgsym --demangle=long in >out 2>err &&
	grep_q "^fgsym: --demangle: .long. is not a style: use short, full or none\$" err
'

check 'C++: --no-demangle keeps the linker names' '
	"$FIX/tmpl" v >in &&
	fgsym --no-demangle in >out &&
	names out "$FIX/tmpl" >actual &&
	grep_q "^_ZNK3geo5ShapeIdE4areaEv\$" actual &&
	grep_q "^_Z4leafv\$" actual
'

if command -v rustc >/dev/null 2>&1 &&
    rustc -O -g "$TESTS/sym/rs.rs" -o "$FIX/rs" >"$FIX/rustc.log" 2>&1; then
	check 'Rust legacy: names demangled, hash dropped' '
		"$FIX/rs" >in &&
		fgsym --no-inline in >out &&
		names out "$FIX/rs" >actual &&
		cat >expect <<-\EOF &&
		rs::engine::Engine::run
		rs::engine::total
		rs::<impl core::fmt::Display for rs::engine::Engine>::fmt
		EOF
		test_cmp expect actual
	'
	check 'Rust legacy: --keep-hash keeps the hash' '
		"$FIX/rs" >in &&
		fgsym --no-inline --keep-hash in >out &&
		names out "$FIX/rs" >actual &&
		grep_q "^rs::engine::Engine::run::h[0-9a-f]\{16\}\$" actual
	'
	if rustc -O -g -C symbol-mangling-version=v0 "$TESTS/sym/rs.rs" \
	    -o "$FIX/rs-v0" >>"$FIX/rustc.log" 2>&1; then
		check 'Rust v0: names demangled' '
			"$FIX/rs-v0" >in &&
			fgsym --no-inline in >out &&
			names out "$FIX/rs-v0" >actual &&
			cat >expect <<-\EOF &&
			<rs::engine::Engine>::run
			rs::engine::total::<u32>
			<rs::engine::Engine as core::fmt::Display>::fmt
			EOF
			test_cmp expect actual
		'
	else
		skip 'Rust v0: names demangled' "rustc refuses -C symbol-mangling-version=v0"
	fi
else
	skip 'Rust legacy: names demangled, hash dropped' 'rustc is not installed or failed'
	skip 'Rust legacy: --keep-hash keeps the hash' 'rustc is not installed or failed'
	skip 'Rust v0: names demangled' 'rustc is not installed or failed'
fi

check 'stripped copy: frames stay [unknown], the diagnostic names the fix' '
	cp "$FIX/inl" app && strip app &&
	"$FIX/inl" v | sed "s|($FIX/inl)|($PWD/app)|" >in &&
	expect_status 0 fgsym in >out 2>err &&
	names out "$PWD/app" >actual &&
	printf "[unknown]\n%.0s" 1 2 3 4 5 >expect &&
	test_cmp expect actual &&
	test $(wc -l <err) = 2 &&
	grep_q "^fgsym: .$PWD/app. is stripped, on 100.0% of the samples: rebuild it with -g and without -s or strip\$" err &&
	expect_status 0 fgsym --srcline in >out 2>err &&
	test $(wc -l <err) = 2 &&
	grep_q "^fgsym: resolved [0-9]* of [0-9]* frames (.*%); unresolved frames are in $PWD/app (5)\$" err
'

# A file of a Debian package without symbols: the first of these that
# dpkg owns and that has neither .symtab nor a debug file installed.
debpkg= debfile=
for f in /usr/lib/gcc/x86_64-linux-gnu/*/cc1 /usr/bin/make /usr/bin/gzip \
    /usr/bin/sed /usr/bin/tar /usr/bin/grep; do
	[ -f "$f" ] && command -v dpkg >/dev/null 2>&1 || continue
	readelf -SW "$f" 2>/dev/null | grep -q " .symtab " && continue
	id=$(readelf -n "$f" 2>/dev/null | awk '/Build ID/ { print $3 }')
	[ -n "$id" ] && [ -e "/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug" ] && continue
	debpkg=$(dpkg -S "$f" 2>/dev/null | sed -n "1s/:.*//p")
	[ -n "$debpkg" ] && debfile=$f && break
done
# The suite of Debian's debug archive for this release (os-release(5)).
suite=$(sed -n "s/^VERSION_CODENAME=[\"']*\([a-z0-9.-]*\).*/\1/p" /etc/os-release 2>/dev/null)
export debpkg debfile suite
if [ -n "$debfile" ]; then
	check "a stripped file of a Debian package ($debpkg): one line naming its debug package, exit 0" '
		entry=$(readelf -h "$debfile" | awk "/Entry point/ { print \$4 }") &&
		printf "# fgrecord 1\nx 1/1 [000] 1.0: 1 cpu-clock:\n\t%x [unknown] (%s)\n\n" \
		    $((entry)) "$debfile" >in &&
		DEBUGINFOD_URLS= expect_status 0 fgsym in >out 2>err &&
		test $(wc -l <err) = 2 &&
		grep_q "^fgsym: .$debfile. is stripped.*: install $debpkg-dbgsym from Debian.s debug archive (apt suite $suite-debug), or run debuginfod-find debuginfo on it with DEBUGINFOD_URLS set to Debian.s debuginfod server\$" err &&
		test "$(awk -v n=${#debfile} "length - n > 230" err)" = "" &&
		! grep -q "Cargo\|debug = true\|-g " err &&
		! grep -Eiq "https?:|[a-z0-9-]+\.(net|org|com|io)\b" err
	'
else
	skip 'a stripped file of a Debian package: one line naming its debug package' \
	    'no dpkg, or every candidate binary has symbols or a debug file'
fi

if [ -x "$FIX/rs" ]; then
	check 'a stripped Rust binary: Cargo advice, exit 0' '
		cp "$FIX/rs" app && strip app &&
		"$FIX/rs" | sed "s|($FIX/rs)|($PWD/app)|" >in &&
		expect_status 0 fgsym in >out 2>err &&
		test $(grep -c "$PWD/app" err) = 2 &&
		grep_q "^fgsym: .$PWD/app. is stripped, on 100.0% of the samples: build it with \[profile.release\] debug = true (or CARGO_PROFILE_RELEASE_DEBUG=true) and no strip\$" err
	'
else
	skip 'a stripped Rust binary: Cargo advice' 'rustc is not installed or failed'
fi

check 'stripped copy with .gnu_debuglink: names come from the debug file' '
	cp "$FIX/inl" app &&
	objcopy --only-keep-debug app app.debug &&
	strip app && objcopy --add-gnu-debuglink=app.debug app &&
	"$FIX/inl" v | sed "s|($FIX/inl)|($PWD/app)|" >in &&
	fgsym in >out 2>err &&
	names out "$PWD/app" >actual &&
	printf "%s\n" leaf "twist (inlined)" "mix (inlined)" work outer main _start >expect &&
	test_cmp expect actual
'

check 'functions missing from .symtab are named from DWARF' '
	cp "$FIX/inl" app && objcopy -N leaf -N work app &&
	! nm app | grep -q " leaf\$" &&
	"$FIX/inl" v | sed "s|($FIX/inl)|($PWD/app)|" >in &&
	fgsym in >out &&
	names out "$PWD/app" >actual &&
	printf "%s\n" leaf "twist (inlined)" "mix (inlined)" work outer main _start >expect &&
	test_cmp expect actual &&
	grep -q " leaf+0x0 ($PWD/app)" out
'

libc=$(ldd "$FIX/inl" | awk '/libc\.so/ { print $3 }')
libcid=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
libcdbg=/usr/lib/debug/.build-id/$(echo "$libcid" | cut -c1-2)/$(echo "$libcid" | cut -c3-).debug
if [ -n "$libcid" ] && [ -f "$libcdbg" ] && ! readelf -SW "$libc" | grep -q " .symtab "; then
	export libc
	check 'separate debug file by build ID: libc static functions are named' '
		"$FIX/inl" v >in &&
		fgsym --srcline in >out &&
		names out "$libc" >actual &&
		grep_q "^__libc_start_call_main\$" actual &&
		grep -A1 "__libc_start_call_main+" out | grep -q "^  [a-z_]*\.[ch]:[0-9]*\$"
	'
	rt=$(readelf -sW "$libcdbg" | awk '$8 == "__restore_rt" { sub(/^0+/, "", $2); print $2; exit }')
	export rt
	check 'a return address at the start of __restore_rt (above a signal frame) is named' '
		[ -n "$rt" ] &&
		printf "# fgrecord 1\nx 1/1 [000] 1.000000: 1 cpu-clock:\n\t%s [unknown] (%s)\n\t%s [unknown] (%s)\n\n" \
		    "$rt" "$libc" "$rt" "$libc" >in &&
		fgsym in >out &&
		test "$(grep -c "^	$rt __restore_rt+0x0 " out)" = 2
	'
else
	skip 'separate debug file by build ID: libc static functions are named' \
	    'no /usr/lib/debug/.build-id file for libc (apt-get install libc6-dbg)'
fi

check 'rebuilt binary: build-ID mismatch warns once, frames stay [unknown]' '
	$CC -O2 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o app &&
	id=$(readelf -n app | awk "/Build ID/ { print \$3 }") &&
	test -n "$id" &&
	./app v | sed "1a\\
# buildid : $id $PWD/app" >in &&
	grep -q "^# buildid : $id $PWD/app\$" in &&
	fgsym in >good 2>err &&
	grep -q "leaf+0x0" good &&
	$CC -O1 -g -I"$TESTS/sym" "$TESTS/sym/inl.c" -o app &&
	expect_status 0 fgsym in >out 2>err &&
	test $(grep -c "rebuilt" err) = 1 &&
	grep_q "$PWD/app. was rebuilt after the recording (build ID [0-9a-f]*, recorded $id)" err &&
	! grep -q "leaf" out
'

check 'missing file: named once, frames stay [unknown], exit 0' '
	"$FIX/inl" v | sed "s|($FIX/inl)|(/nonexistent/dir/app)|" >in &&
	expect_status 0 fgsym in >out 2>err &&
	test $(grep -c "/nonexistent/dir/app.: no such file" err) = 1 &&
	grep -q "another machine" err &&
	test $(grep -c "\[unknown\] (/nonexistent/dir/app)" out) = 5 &&
	expect_status 0 fgsym --annotate in >out 2>err &&
	grep_q "/nonexistent/dir/app" err
'

check 'unoptimized build: the -O0 diagnostic' '
	"$FIX/inl-O0" v >in &&
	fgsym in >out 2>err &&
	test $(grep -c "unoptimized build" err) = 1 &&
	grep_q "inl-O0. looks like an unoptimized build.*profile the optimized build" err
'

check 'idempotence: fgsym | fgsym == fgsym, with and without --srcline' '
	"$FIX/inl" v >in1 && "$FIX/tmpl" o >>in1 &&
	fgsym in1 >once && fgsym once >twice && test_cmp once twice &&
	fgsym --srcline in1 >once && fgsym --srcline once >twice &&
	test_cmp once twice &&
	fgsym --no-inline once >thrice && test_cmp once thrice
'

check 'pass-through: symbolized perf script text is left byte for byte' '
	printf "# ========\n# captured on: x\n# ========\n#\nodd line that fits no format\n" >in &&
	printf "app 123 4.5: 1 cpu-clock:ppp: \n" >>in &&
	printf "\t    7c1 work+0x41 (/nonexistent/app)\n" >>in &&
	printf "\t    7c1 mix+0x41 (inlined)\n" >>in &&
	printf "  inl.c:12\n" >>in &&
	printf "\tffffffff81000e06 asm_sysvec_apic_timer_interrupt+0x16 ([kernel.kallsyms])\n" >>in &&
	printf "\t      0 [unknown] ([unknown])\n\n" >>in &&
	printf "app 123 4.6: 1 cpu-clock:ppp: \n\t 1234 f(int, char) (/x y/lib (1).so)\n" >>in &&
	expect_status 1 fgsym in >out 2>err &&
	cmp in out && grep_q "in:5: unrecognised line .odd line" err &&
	grep_q "in:13: the last sample has no closing empty line" err
'

check 'kernel frames through --kallsyms' '
	cat >ks <<-\EOF &&
	0000000000000000 A fixed_percpu_data
	ffffffff81000000 T _stext
	ffffffff81000e00 T asm_sysvec_apic_timer_interrupt
	ffffffff81001000 t do_thing
	ffffffffc0100000 t ext4_read	[ext4]
	EOF
	printf "app 1 1.0: 1 cpu-clock:\n" >in &&
	printf "\tffffffff81000e06 [unknown] ([kernel.kallsyms])\n" >>in &&
	printf "\tffffffff81001010 [unknown] ([kernel.kallsyms])\n" >>in &&
	printf "\tffffffffc0100020 [unknown] ([ext4])\n" >>in &&
	printf "\tffffffffc0100021 [unknown] (/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko.xz)\n" >>in &&
	printf "\tffffffff81001001 [unknown] ([unknown])\n\n" >>in &&
	fgsym --kallsyms=ks in >out &&
	sed "s/^> /	/" >expect <<-\EOF &&
	app 1 1.0: 1 cpu-clock:
	> ffffffff81000e06 asm_sysvec_apic_timer_interrupt+0x6 ([kernel.kallsyms])
	> ffffffff81001010 do_thing+0x10 ([kernel.kallsyms])
	> ffffffffc0100020 ext4_read+0x20 ([ext4])
	> ffffffffc0100021 ext4_read+0x21 (/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko.xz)
	> ffffffff81001001 do_thing+0x1 ([unknown])

	EOF
	test_cmp expect out
'

# The running kernel's build ID, as fgrecord writes it in the stream.
kid=$(od -An -tx1 -v /sys/kernel/notes 2>/dev/null | tr -d " \n" |
	sed -n "s/^04000000\(........\)03000000474e5500//p" | head -c 40)
ksched=$(awk '$3 == "schedule" { print $1; exit }' /proc/kallsyms 2>/dev/null)
if [ -n "$kid" ] && [ -n "$ksched" ] && [ "$ksched" != 0000000000000000 ]; then
	check 'a stream from another kernel: its frames stay [unknown], said once, exit 0' '
		for id in "$kid" 00112233; do
			{ echo "# fgrecord 1"; echo "# buildid : $id [kernel.kallsyms]"
			  printf "app 1/1 [000] 1.0: 1 cpu-clock:\n\t$ksched [unknown] ([kernel.kallsyms])\n\t$ksched [unknown] ([ext4])\n\n"
			} >in.$id || return 1
		done &&
		fgsym in.$kid >out 2>err && grep_q "	$ksched schedule+0x0 (\[kernel.kallsyms\])" out &&
		expect_status 0 fgsym in.00112233 >out 2>err &&
		grep_q "	$ksched \[unknown\] (\[kernel.kallsyms\])" out &&
		grep_q "	$ksched \[unknown\] (\[ext4\])" out &&
		test "$(grep -c "recorded under another kernel" err)" = 1 &&
		grep_q "^fgsym: \[kernel.kallsyms\]: recorded under another kernel (build ID 00112233; this one.s is $kid): kernel frames stay \[unknown\]; symbolize on the machine and kernel that recorded\$" err &&
		printf "%s T schedule\n" "$ksched" >ks &&
		fgsym --kallsyms=ks in.00112233 >out 2>err &&
		grep_q "schedule+0x0 (\[kernel.kallsyms\])" out
	'
else
	skip 'a stream from another kernel' 'no /sys/kernel/notes build ID, or /proc/kallsyms hides addresses'
fi

check 'a [vdso] of another kernel: its frames stay [unknown], said once, exit 0' '
	printf "# fgrecord 1\n# buildid : 0011 [vdso]\napp 1/1 [000] 1.0: 1 cpu-clock:\n\tb46 [unknown] ([vdso])\n\n" >in &&
	expect_status 0 fgsym in >out 2>err &&
	grep_q "	b46 \[unknown\] (\[vdso\])" out &&
	grep_q "^fgsym: \[vdso\]: recorded under another kernel (build ID 0011; this machine.s is [0-9a-f]*): its frames stay \[unknown\]; symbolize where it was recorded\$" err
'

check 'kernel symbols hidden (all zero): one warning with the sysctl' '
	printf "0000000000000000 T _stext\n0000000000000000 t foo\n" >ks &&
	printf "app 1 1.0: 1 cpu-clock:\n\tffffffff81000e06 [unknown] ([kernel.kallsyms])\n\tffffffff81000f06 [unknown] ([kernel.kallsyms])\n\n" >in &&
	expect_status 0 fgsym --kallsyms=ks in >out 2>err &&
	cmp in out &&
	test $(grep -c "kptr_restrict" err) = 1
'

check 'JIT frames through /tmp/perf-PID.map' '
	map=/tmp/perf-$$.map &&
	printf "7f0000001000 100 LazyCompile:~fib app.js:1\n0x7f0000002000 0x40 Interpreter\nnot a line\n" >$map &&
	printf "node $$/$$ 1.0: 1 cpu-clock:\n" >in &&
	printf "\t7f0000001010 [unknown] ($map)\n" >>in &&
	printf "\t7f0000002011 [unknown] ([unknown])\n" >>in &&
	printf "\t7f0000003000 [unknown] ([unknown])\n\n" >>in &&
	{ fgsym in >out 2>err; rc=$?; rm -f $map; test $rc = 1; } &&
	sed "s/^> /	/" >expect <<-EOF &&
	node $$/$$ 1.0: 1 cpu-clock:
	> 7f0000001010 LazyCompile:~fib app.js:1+0x10 ($map)
	> 7f0000002011 Interpreter+0x11 ([unknown])
	> 7f0000003000 [unknown] ([unknown])

	EOF
	test_cmp expect out &&
	grep_q "perf-$$.map:3: not a perf map line" err
'

check 'bad frame address: FILE:LINE warning, passed through, exit 1' '
	printf "app 1 1.0: 1 cpu-clock:\n\t123456789abcdef012 [unknown] (/bin/sh)\n\n" >in &&
	expect_status 1 fgsym in >out 2>err &&
	cmp in out &&
	grep_q "^fgsym: in:2: frame address" err
'

check 'usage errors exit 2' '
	expect_status 2 fgsym --bogus </dev/null 2>err &&
	grep_q "usage: fgsym" err &&
	expect_status 1 fgsym /nonexistent/input 2>err &&
	grep_q "/nonexistent/input" err
'

check 'progress: never when stderr is not a terminal' '
	{ "$FIX/inl" v && sleep 1.2 && "$FIX/inl" v | sed 1,2d; } | fgsym >out 2>err &&
	! grep -q "samples," err
'

if command -v script >/dev/null 2>&1; then
	check 'progress: a line on a terminal after a second, erased at the end' '
		"$FIX/inl" v >a && "$FIX/inl" v | sed 1,2d >b &&
		for i in 1 2 3 4 5 6 7 8 9 10; do cat b; done >c10 &&
		for i in 1 2 3 4 5 6 7 8 9 10; do cat c10; done >c100 &&
		for i in 1 2 3 4 5 6 7 8 9 10; do cat c100; done >c &&
		script -qc "{ cat a; sleep 1.3; cat c; sleep 0.4; cat c; } | fgsym >/dev/null" /dev/null >tty 2>&1 &&
		grep -a -q "fgsym: [0-9]* samples, [0-9]* files loaded" tty &&
		tr "\r" "\n" <tty | grep -a -q "^.\[K"
	'
else
	skip 'progress: a line on a terminal after a second, erased at the end' 'script(1) is not installed'
fi

done_testing
