/* Unit tests for common/demangle.c. */
#include <stdlib.h>

#include "demangle.h"
#include "unit.h"

static char *got;

static const char *
dm(const char *name, int flags)
{
	free(got);
	got = fg_demangle(name, flags);
	return got;
}

int
main(void)
{
	CHECK(dm("main", 0) == NULL, "a C name is not mangled");
	CHECK(dm("", 0) == NULL, "the empty string is not mangled");
	CHECK(dm("_Zgarbage!", 0) == NULL, "a rejected name gives NULL");
	CHECK_STR(dm("_Z1fv", 0), "f()", "C++ function without parameters");
	CHECK_STR(dm("_ZN2ns3fooIiEEvT_", 0), "void ns::foo<int>(int)",
	    "C++ template in a namespace");
	CHECK_STR(dm("_ZNSt6vectorIiSaIiEE9push_backERKi", 0),
	    "std::vector<int, std::allocator<int> >::push_back(int const&)",
	    "C++ member of a standard template");
	CHECK_STR(dm("_ZN2ns3fooIiEEvT_.cold", 0),
	    "void ns::foo<int>(int) [clone .cold]", "C++ clone suffix");
	CHECK_STR(dm("_Z1fv@@VERS_1", 0), "f()@@VERS_1",
	    "symbol version is kept after the name");
	CHECK_STR(dm("_ZN3std2rt10lang_start17h0123456789abcdefE", 0),
	    "std::rt::lang_start", "Rust legacy: hash dropped by default");
	CHECK_STR(dm("_ZN3std2rt10lang_start17h0123456789abcdefE",
	    FG_DEMANGLE_KEEP_HASH), "std::rt::lang_start::h0123456789abcdef",
	    "Rust legacy: hash kept on request");
	CHECK_STR(dm("_ZN2rs67_$LT$impl$u20$core..fmt..Display$u20$for$u20$rs..engine..Engine$GT$3fmt17ha8a098530171ecd7E",
	    FG_DEMANGLE_KEEP_HASH),
	    "rs::<impl core::fmt::Display for rs::engine::Engine>::fmt::ha8a098530171ecd7",
	    "Rust legacy with dots in the name: hash kept on request");
	CHECK_STR(dm("_ZN2rs67_$LT$impl$u20$core..fmt..Display$u20$for$u20$rs..engine..Engine$GT$3fmt17ha8a098530171ecd7E", 0),
	    "rs::<impl core::fmt::Display for rs::engine::Engine>::fmt",
	    "Rust legacy trait impl, hash dropped");
	CHECK_STR(dm("_RNvXCsbFYJioi4cCO_2rsNtNtB2_6engine6EngineNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt", 0),
	    "<rs::engine::Engine as core::fmt::Display>::fmt",
	    "Rust v0 trait impl");
	CHECK_STR(dm("_RINvNtCsbFYJioi4cCO_2rs6engine5totalmEB4_", 0),
	    "rs::engine::total::<u32>", "Rust v0 generic");
	CHECK_STR(dm("_ZNSs4sizeEv", FG_DEMANGLE_KEEP_HASH),
	    "std::string::size()",
	    "keep-hash does not make C++ names verbose");
	CHECK_STR(dm("_RNvCs1234_7mycrate3foo", 0), "mycrate::foo",
	    "Rust v0");
	free(got);
	return unit_done();
}
