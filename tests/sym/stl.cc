// fgsym fixture: an STL program as people write it (see selfstack.h):
// std::sort on a vector<unsigned> with a lambda, std::sort on a vector of
// a struct with its own operator<, a template function. On the Nth
// comparison of each sort, app::probe<T> writes its own stack, so the
// leaf is a template function called from a lambda's operator() (or from
// operator<), called from inside std::sort's internals. Mode 'p' writes
// nothing and sorts half a million of each instead, for perf to sample.
#include <algorithm>
#include <vector>

#include "selfstack.h"

static char mode = 'v';
static unsigned long calls, probe_at = 700;

namespace app {

struct Key {
	unsigned v;
};

template <typename T> __attribute__((noinline)) void
probe(const T &)
{
	SELFSTACK(mode, probe<T>);
}

__attribute__((noinline)) bool
operator<(const Key &a, const Key &b)
{
	if (++calls == probe_at)
		probe(a);
	return a.v < b.v;
}

} // namespace app

int
main(int argc, char **argv)
{
	unsigned seed = 1;

	if (argc > 1)
		mode = argv[1][0];
	if (mode == 'p')
		probe_at = 0;	/* never: calls starts at 1 */

	size_t n = mode == 'p' ? 500000 : 1000;
	std::vector<unsigned> v(n);
	std::vector<app::Key> k(n);

	for (unsigned &x : v)
		x = (seed = seed * 1103515245u + 12345u) >> 8;
	for (app::Key &x : k)
		x.v = (seed = seed * 1103515245u + 12345u) >> 8;
	std::sort(v.begin(), v.end(),
	    [](unsigned a, unsigned b) __attribute__((noinline)) {
		if (++calls == probe_at)
			app::probe(a);
		return a < b;
	    });
	calls = 0;
	std::sort(k.begin(), k.end());
	return !(v[0] <= v[n - 1] && !(k[n - 1] < k[0]));
}
