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
	CHECK_STR(dm("_ZNSs4sizeEv", FG_DEMANGLE_KEEP_HASH),
	    "std::string::size()",
	    "keep-hash does not make C++ names verbose");
	CHECK_STR(dm("_RNvCs1234_7mycrate3foo", 0), "mycrate::foo",
	    "Rust v0");
	free(got);
	return unit_done();
}
