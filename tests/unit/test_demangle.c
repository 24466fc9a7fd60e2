/* Unit tests for common/sym/demangle.c. */
#include <stdlib.h>

#include "sym/demangle.h"
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
	CHECK_STR(dm("_Z1fv", 0), "f", "C++ function: no parameter list");
	CHECK_STR(dm("_Z1fv", FG_DEMANGLE_FULL), "f()",
	    "C++ function without parameters, full");
	CHECK_STR(dm("_ZN2ns3fooIiEEvT_", 0), "ns::foo<int>",
	    "C++ template in a namespace: no return type, arguments kept");
	CHECK_STR(dm("_ZN2ns3fooIiEEvT_", FG_DEMANGLE_FULL),
	    "void ns::foo<int>(int)", "C++ template in a namespace, full");
	CHECK_STR(dm("_ZSt21__unguarded_partitionIN9__gnu_cxx17__normal_iteratorIPjSt6vectorIjSaIjEEEENS0_5__ops15_Iter_less_iterEET_S9_S9_S9_T0_", 0),
	    "std::__unguarded_partition<__gnu_cxx::__normal_iterator<unsigned int*, std::vector<unsigned int, std::allocator<unsigned int> > >, __gnu_cxx::__ops::_Iter_less_iter>",
	    "C++ STL template returning an iterator: no return type");
	CHECK_STR(dm("_ZStltIcSt11char_traitsIcESaIcEEbRKNSt7__cxx1112basic_stringIT_T0_T1_EESA_", 0),
	    "std::operator< <char, std::char_traits<char>, std::allocator<char> >",
	    "C++ operator< template");
	CHECK_STR(dm("_ZZ4mainENKUljjE_clEjj", 0),
	    "main::{lambda(unsigned int, unsigned int)#1}::operator()",
	    "C++ lambda: operator() stays, its own parameters go");
	CHECK_STR(dm("_ZZ4mainENKUljjE_clEjj", FG_DEMANGLE_FULL),
	    "main::{lambda(unsigned int, unsigned int)#1}::operator()(unsigned int, unsigned int) const",
	    "C++ lambda, full");
	CHECK_STR(dm("_ZN3FooclEv", 0), "Foo::operator()",
	    "C++ call operator keeps its ()");
	CHECK_STR(dm("_ZNK3Foo3barEv", 0), "Foo::bar", "C++ const member");
	CHECK_STR(dm("_ZN1AD1Ev", 0), "A::~A", "C++ destructor");
	CHECK_STR(dm("_ZNSt6vectorIiSaIiEE9push_backERKi", FG_DEMANGLE_FULL),
	    "std::vector<int, std::allocator<int> >::push_back(int const&)",
	    "C++ member of a standard template, full");
	CHECK_STR(dm("_ZN2ns3fooIiEEvT_.cold", 0), "ns::foo<int>",
	    "C++ clone suffix dropped: the cold part joins its function");
	CHECK_STR(dm("_ZN2ns3fooIiEEvT_.cold", FG_DEMANGLE_FULL),
	    "void ns::foo<int>(int) [clone .cold]", "C++ clone suffix, full");
	CHECK_STR(dm("_Z1fv@@VERS_1", 0), "f@@VERS_1",
	    "symbol version is kept after the name");
	CHECK_STR(dm("_Z1fv@@VERS_1", FG_DEMANGLE_FULL), "f()@@VERS_1",
	    "symbol version is kept after the full name");
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
	CHECK_STR(dm("_ZNSs4sizeEv", FG_DEMANGLE_KEEP_HASH | FG_DEMANGLE_FULL),
	    "std::string::size()",
	    "keep-hash does not make C++ names verbose");
	CHECK_STR(dm("_RNvCs1234_7mycrate3foo", 0), "mycrate::foo",
	    "Rust v0");
	CHECK_STR(dm("_ZN3std2rt10lang_start17h0123456789abcdefE", FG_DEMANGLE_FULL),
	    "std::rt::lang_start", "Rust legacy: the same in full");
	CHECK_STR(dm("_ZN4core3ptr13drop_in_place17h0123456789abcdefE.llvm.42", 0),
	    "core::ptr::drop_in_place", "Rust legacy with an .llvm. suffix");
	free(got);
	return unit_done();
}
