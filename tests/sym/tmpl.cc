// fgsym fixture: C++ with templates and a namespace (see selfstack.h).
#include "selfstack.h"

static char mode = 'v';

__attribute__((noinline)) void
leaf()
{
	SELFSTACK(mode, leaf);
}

namespace geo {

template <typename T> struct Shape {
	T v;
	__attribute__((noinline)) T area() const
	{
		leaf();
		return v * v;
	}
};

template <typename T> __attribute__((noinline)) T
total(const Shape<T> &s, int n)
{
	T t = 0;

	for (int i = 0; i < n; i++)
		t += s.area();
	return t;
}

} // namespace geo

int
main(int argc, char **argv)
{
	if (argc > 1)
		mode = argv[1][0];
	geo::Shape<double> s{1.5};
	return geo::total(s, 1) == 0.0;
}
