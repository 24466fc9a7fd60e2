// tmpl.cc: a C++ function template for t500-annotate.sh, so that the
// listing must show demangled names in headings and call targets.
#include <cstdio>
#include <cstdlib>

namespace fx {
template <typename T>
__attribute__((noinline)) T
sum_squares(T n)
{
	T acc = 0;
	for (T i = 0; i < n; i++)
		acc += i * i;
	return acc;
}
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? std::strtol(argv[1], nullptr, 0) : 1000;

	std::printf("%ld\n", fx::sum_squares<long>(n));
	return 0;
}
