/*
 * test_rustbuild: which rustflags undo the debug info or the symbols
 * (rustbuild_flags, rustc's last-wins), and which mangled names are Rust's
 * standard library's (elfdwarf_rust_std).
 */
#include <string.h>

#include "elf/elfdwarf.h"
#include "elf/rustbuild.h"
#include "unit.h"

/* rustbuild_flags on the words of s: the index, and what in *what. */
static int
flags(const char *s, int stripped, char *what)
{
	char buf[256], *v[32], *save = NULL, *p;
	int n = 0;

	strcpy(buf, s);
	for (p = strtok_r(buf, " ", &save); p != NULL && n < 32;
	    p = strtok_r(NULL, " ", &save))
		v[n++] = p;
	what[0] = '\0';
	return rustbuild_flags(v, n, stripped, what);
}

int
main(void)
{
	char w[RUSTBUILD_WHAT];

	CHECK_INT(flags("-C debuginfo=0", 0, w), 1, "-C debuginfo=0: its value");
	CHECK_STR(w, "-C debuginfo=0", "named");
	CHECK_INT(flags("-Cdebuginfo=none", 0, w), 0, "-Cdebuginfo=none");
	CHECK_STR(w, "-C debuginfo=none", "written with a space");
	CHECK_INT(flags("-C debuginfo=0 -C debuginfo=2", 0, w), -1,
	    "the last -C debuginfo counts");
	CHECK_INT(flags("-C debuginfo=0", 1, w), -1,
	    "no debug info does not strip the symbols");
	CHECK_INT(flags("-O --codegen strip=symbols", 1, w), 2, "--codegen X");
	CHECK_STR(w, "-C strip=symbols", "strip=symbols");
	CHECK_INT(flags("--codegen=strip=debuginfo", 0, w), 0, "--codegen=X");
	CHECK_INT(flags("--codegen=strip=debuginfo", 1, w), -1,
	    "strip=debuginfo keeps the symbols");
	CHECK_INT(flags("-C strip=symbols -C strip=none", 1, w), -1,
	    "the last -C strip counts");
	CHECK_INT(flags("-C link-arg=-Wl,--as-needed,-s", 1, w), 1,
	    "a linker's -s through -Wl");
	CHECK_STR(w, "-C link-arg=-Wl,--as-needed,-s", "as written");
	CHECK_INT(flags("-C link-args=--strip-debug", 0, w), 1, "link-args");
	CHECK_INT(flags("-C target-cpu=native -g", 0, w), -1, "nothing");
	CHECK_INT(flags("-C", 0, w), -1, "-C at the end");

	CHECK_INT(elfdwarf_rust_std("_ZN3std2io5stdio6_print17h0123456789abcdefE"),
	    1, "legacy std");
	CHECK_INT(elfdwarf_rust_std("_ZN3mix6crunch17h0042a146523d1182E"), 0,
	    "legacy crate");
	CHECK_INT(elfdwarf_rust_std("_ZN60_$LT$alloc..string..String$u20$as$u20$core..fmt..Write$GT$9write_str17h0123456789abcdefE"),
	    1, "legacy impl in alloc");
	CHECK_INT(elfdwarf_rust_std("_ZN42_$LT$mix..Foo$u20$as$u20$core..fmt..Debug$GT$3fmt17h16bda479f1754271E"),
	    0, "legacy impl in the crate");
	CHECK_INT(elfdwarf_rust_std("_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc"),
	    1, "v0 allocator shim");
	CHECK_INT(elfdwarf_rust_std("_RNvMs4_NtNtCsduwmD7cSIQq_5gimli4read6abbrevNtB5_13Abbreviations6insert"),
	    ELFDWARF_STD_DEP, "v0 impl in gimli: a crate std is built from");
	CHECK_INT(elfdwarf_rust_std("_ZN11miniz_oxide7deflate4core8compress17h0123456789abcdefE"),
	    ELFDWARF_STD_DEP, "legacy miniz_oxide");
	CHECK_INT(elfdwarf_rust_std("_RNvCs1234_4mine4work"), 0, "v0 crate");
	CHECK_INT(elfdwarf_rust_std("_RNvMs6_NtNtCsduwmD7cSIQq_5gimli4read4unitINtB5_24DebugInfoUnitHeadersIterINtNtB9_12endian_slice11EndianSliceNtNtB9_9endianity12LittleEndianEE4nextCsjrHSEGnQ3l9_3std"),
	    ELFDWARF_STD, "v0 generic gimli instantiated by std");
	CHECK_INT(elfdwarf_rust_std("_RINvNtCs1234_4mine4workNtCsgEmfK2I1SDS_4core3FooECs99_4mine.llvm.123"),
	    0, "v0 generic of the crate's, instantiated by it");
	CHECK_INT(elfdwarf_rust_std("__rdl_alloc"), 1, "plain shim");
	CHECK_INT(elfdwarf_rust_std("main"), 0, "main");
	CHECK_INT(elfdwarf_rust_std("_ZN9"), 0, "cut short");
	CHECK_INT(elfdwarf_rust_std("_RNvC"), 0, "v0 cut short");
	return unit_done();
}
